// Shared by the decoders and the thumbnailer (not part of the public shim): open a file and a
// decoder for its best stream of one type.
#ifndef CFFMPEG_OPEN_STREAM_H
#define CFFMPEG_OPEN_STREAM_H

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>

/// Opens `path`, finds its best stream of `type` and opens a decoder for it (`threads` decoder
/// threads, 0 = FFmpeg decides). Returns the stream index, or a negative AVERROR (then nothing is
/// left open).
int CFFmpeg_open_stream(const char *path, enum AVMediaType type, int threads, AVFormatContext **format, AVCodecContext **codec);

#endif
