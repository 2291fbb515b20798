// A camera's MJPEG frames decoded with FFmpeg's MJPEG decoder (see include/CFFmpeg.h): one JPEG
// picture in, tightly packed yuv420p out, whatever the picture's chroma sampling (4:2:0, 4:2:2,
// 4:4:4) and size — the way ffmpeg and OBS read webcams, where libv4lconvert refuses 4:2:2
// pictures and heights that are not a multiple of 16.
#include "CFFmpeg.h"
#include "open_stream.h"

#include <libavcodec/avcodec.h>
#include <libavutil/imgutils.h>
#include <libswscale/swscale.h>
#include <string.h>
#include "libraries.h"  // last: calls below go through the table of functions

struct CFFmpeg_camera_jpeg {
    AVCodecContext *codec;
    AVPacket *packet;
    AVFrame *frame;
    struct SwsContext *scaler;
    int width, height;
    uint8_t *picture;       // the packed yuv420p result, reused for every frame
    int64_t picture_bytes;
    uint8_t *padded;        // a copy of a frame whose buffer leaves no room for the decoder's overread
    size_t padded_size;
};

int CFFmpeg_camera_jpeg_open(int width, int height, CFFmpeg_camera_jpeg **out) {
    CFFmpeg_quiet_logs();
    *out = NULL;
    if (width <= 0 || height <= 0) return AVERROR(EINVAL);
    CFFmpeg_camera_jpeg *j = av_mallocz(sizeof *j);
    if (!j) return AVERROR(ENOMEM);
    int err = AVERROR_DECODER_NOT_FOUND;
    const AVCodec *codec = avcodec_find_decoder(AV_CODEC_ID_MJPEG);
    if (!codec) goto fail;
    err = AVERROR(ENOMEM);
    if (!(j->codec = avcodec_alloc_context3(codec)) || !(j->packet = av_packet_alloc()) || !(j->frame = av_frame_alloc()))
        goto fail;
    j->codec->thread_count = 1;  // one picture at a time, on the capture thread: no frame delay
    if ((err = avcodec_open2(j->codec, codec, NULL)) < 0) goto fail;
    j->width = width;
    j->height = height;
    j->picture_bytes = av_image_get_buffer_size(AV_PIX_FMT_YUV420P, width, height, 1);
    if (j->picture_bytes < 0) { err = (int)j->picture_bytes; goto fail; }
    if (!(j->picture = av_malloc(j->picture_bytes))) { err = AVERROR(ENOMEM); goto fail; }
    *out = j;
    return 0;
fail:
    CFFmpeg_camera_jpeg_free(j);
    return err;
}

// Stage: the packet over the camera's buffer itself when the decoder may read a little past the
// picture (FFmpeg's padding) inside it, else over a padded copy.
static int wrap(CFFmpeg_camera_jpeg *j, const uint8_t *data, size_t bytes, size_t capacity) {
    if (capacity < bytes + AV_INPUT_BUFFER_PADDING_SIZE) {
        if (j->padded_size < bytes + AV_INPUT_BUFFER_PADDING_SIZE) {
            av_free(j->padded);
            j->padded_size = bytes + AV_INPUT_BUFFER_PADDING_SIZE;
            if (!(j->padded = av_malloc(j->padded_size))) { j->padded_size = 0; return AVERROR(ENOMEM); }
        }
        memcpy(j->padded, data, bytes);
        memset(j->padded + bytes, 0, AV_INPUT_BUFFER_PADDING_SIZE);
        data = j->padded;
    }
    av_packet_unref(j->packet);
    j->packet->data = (uint8_t *)data;  // not owned: the decoder copies nothing it keeps
    j->packet->size = (int)bytes;
    return 0;
}

int CFFmpeg_camera_jpeg_decode(CFFmpeg_camera_jpeg *j, const void *data, size_t bytes, size_t capacity,
                               const uint8_t **yuv420p, int64_t *picture_bytes) {
    *yuv420p = NULL;
    *picture_bytes = 0;
    if (bytes < 4 || bytes > INT32_MAX) return AVERROR_INVALIDDATA;
    int err = wrap(j, data, bytes, capacity);
    if (err < 0) return err;
    err = avcodec_send_packet(j->codec, j->packet);
    j->packet->data = NULL;
    j->packet->size = 0;
    if (err < 0) return err;
    err = avcodec_receive_frame(j->codec, j->frame);
    if (err == AVERROR(EAGAIN)) return AVERROR_INVALIDDATA;  // nothing came of it
    if (err < 0) return err;
    AVFrame *f = j->frame;
    // The picture may differ from what the camera announced (a camera changing its mind, or a
    // corrupt header): scaled to the size the recording was opened with.
    j->scaler = sws_getCachedContext(j->scaler, f->width, f->height, f->format, j->width, j->height,
                                     AV_PIX_FMT_YUV420P, SWS_BILINEAR, NULL, NULL, NULL);
    if (!j->scaler) { av_frame_unref(f); return AVERROR(EINVAL); }
    uint8_t *planes[4];
    int strides[4];
    err = av_image_fill_arrays(planes, strides, j->picture, AV_PIX_FMT_YUV420P, j->width, j->height, 1);
    if (err >= 0) err = sws_scale(j->scaler, (const uint8_t *const *)f->data, f->linesize, 0, f->height, planes, strides);
    av_frame_unref(f);
    if (err < 0) return err;
    *yuv420p = j->picture;
    *picture_bytes = j->picture_bytes;
    return 0;
}

void CFFmpeg_camera_jpeg_free(CFFmpeg_camera_jpeg *j) {
    if (!j) return;
    avcodec_free_context(&j->codec);
    av_packet_free(&j->packet);
    av_frame_free(&j->frame);
    sws_freeContext(j->scaler);
    av_free(j->picture);
    av_free(j->padded);
    av_free(j);
}
