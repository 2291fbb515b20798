// Shared by the thumbnailer and the audio decoder (not part of the public shim): choosing the
// picture shown at a time while frames are decoded, and writing it as a thumbnail. The audio
// decoder uses them to take a video's thumbnail in the same pass that reads its sound.
#ifndef CFFMPEG_PICTURE_H
#define CFFMPEG_PICTURE_H

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>

/// `seconds` from the start of `st`, in its time base.
int64_t CFFmpeg_picture_target(const AVStream *st, double seconds);

/// Offers a decoded `frame` (taken from it) for the picture shown at `target`: `best` keeps the
/// latest frame not after it (`*have` says there is one). Returns 1 once `best` is that picture.
int CFFmpeg_picture_pick(AVFrame *best, AVFrame *frame, int64_t target, int *have);

/// Scales `picture` to `width` pixels wide (keeping its aspect) and writes it as a JPEG, synced.
int CFFmpeg_picture_write_jpeg(const AVFrame *picture, int width, const char *jpeg_path);

#endif
