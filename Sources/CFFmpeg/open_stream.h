// Shared by the writer, remux, probe, decoders and thumbnailer (not part of the public shim):
// opening files, local ones only, and a decoder for a file's best stream of one type.
#ifndef CFFMPEG_OPEN_STREAM_H
#define CFFMPEG_OPEN_STREAM_H

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>

/// Every failure comes back as an error code with FFmpeg's message; FFmpeg's own log stays quiet
/// so it cannot scribble over cravey's terminal display.
void CFFmpeg_quiet_logs(void);

/// Opens `path` for demuxing. cravey has no network code: the path must name a local regular
/// file (a FIFO, socket or device is refused with AVERROR(EINVAL) instead of blocking), and it is
/// opened through FFmpeg's `file` protocol only, so a "URL" is just a file name that is not there.
/// Also reads the stream facts (avformat_find_stream_info). Opening has a time budget: a file
/// whose headers take longer to read is refused with AVERROR(ETIMEDOUT).
int CFFmpeg_open_local_input(const char *path, AVFormatContext **format);

/// Opens `path` for writing through the `file` protocol only (never a URL).
int CFFmpeg_open_local_output(const char *path, AVIOContext **pb);

/// Opens `path`, finds its best stream of `type` and opens a decoder for it (`threads` decoder
/// threads, 0 = FFmpeg decides). Returns the stream index, or a negative AVERROR (then nothing is
/// left open).
int CFFmpeg_open_stream(const char *path, enum AVMediaType type, int threads, AVFormatContext **format, AVCodecContext **codec);

#endif
