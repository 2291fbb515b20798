// The thumbnail of a video: the frame shown at a time (or the last one), scaled, as JPEG.
// See include/CFFmpeg.h.
#include "CFFmpeg.h"
#include "open_stream.h"
#include "picture.h"

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libswscale/swscale.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "libraries.h"  // last: calls below go through the table of functions

// Stage: encode one yuvj420p frame as JPEG and write it to a file.
static int write_jpeg(const AVFrame *frame, const char *path) {
    const AVCodec *codec = avcodec_find_encoder(AV_CODEC_ID_MJPEG);
    if (!codec) return AVERROR_ENCODER_NOT_FOUND;
    AVCodecContext *c = avcodec_alloc_context3(codec);
    AVPacket *pkt = av_packet_alloc();
    int err = (c && pkt) ? 0 : AVERROR(ENOMEM);
    if (err == 0) {
        c->width = frame->width;
        c->height = frame->height;
        c->pix_fmt = AV_PIX_FMT_YUVJ420P;
        c->time_base = (AVRational){1, 25};
        c->flags |= AV_CODEC_FLAG_QSCALE;
        c->global_quality = FF_QP2LAMBDA * 3;
        err = avcodec_open2(c, codec, NULL);
    }
    if (err == 0) err = avcodec_send_frame(c, frame);
    if (err == 0) err = avcodec_receive_packet(c, pkt);
    if (err == 0) {
        FILE *f = fopen(path, "wb");
        if (!f) err = AVERROR(errno);
        else {
            // The real errno (ENOSPC, EIO…) goes back, so a full disk is told apart from damage.
            if (fwrite(pkt->data, 1, (size_t)pkt->size, f) != (size_t)pkt->size) err = AVERROR(errno ? errno : EIO);
            if (err == 0 && (fflush(f) != 0 || fsync(fileno(f)) != 0)) err = AVERROR(errno);
            fclose(f);
        }
    }
    av_packet_free(&pkt);
    avcodec_free_context(&c);
    return err;
}

// Stage: decode the video frame shown at `seconds` of `path` (the last one of a shorter video; the
// picture itself for an image) into `best`.
static int decode_frame_at(const char *path, double seconds, AVFrame *best) {
    AVFormatContext *fmt = NULL;
    AVCodecContext *dec = NULL;
    AVPacket *pkt = av_packet_alloc();
    AVFrame *frame = av_frame_alloc();
    int err = (pkt && frame) ? 0 : AVERROR(ENOMEM);
    if (err < 0) goto done;
    int index = CFFmpeg_open_stream(path, AVMEDIA_TYPE_VIDEO, 1, &fmt, &dec);
    if (index < 0) { err = index; goto done; }
    AVStream *st = fmt->streams[index];
    int64_t target = CFFmpeg_picture_target(st, seconds);
    if (seconds > 0) avformat_seek_file(fmt, index, INT64_MIN, target, target, AVSEEK_FLAG_BACKWARD);  // else from the start
    // Decode until the frame shown at the target; keep the latest frame in case the video ends first.
    int found = 0, have = 0, draining = 0;
    while (!found) {
        err = avcodec_receive_frame(dec, frame);
        if (err == 0) {
            found = CFFmpeg_picture_pick(best, frame, target, &have);
            continue;
        }
        if (err == AVERROR_EOF) break;
        if (err != AVERROR(EAGAIN)) goto done;
        if (draining) break;
        err = av_read_frame(fmt, pkt);
        if (err < 0) { draining = 1; avcodec_send_packet(dec, NULL); continue; }
        if (pkt->stream_index == index) avcodec_send_packet(dec, pkt);
        av_packet_unref(pkt);
    }
    err = have ? 0 : AVERROR_INVALIDDATA;
done:
    av_frame_free(&frame);
    av_packet_free(&pkt);
    avcodec_free_context(&dec);
    avformat_close_input(&fmt);
    return err;
}

// Stage: `in` scaled into the already sized and allocated `out`.
static int scale_into(const AVFrame *in, AVFrame *out) {
    struct SwsContext *scaler = sws_getContext(in->width, in->height, in->format, out->width, out->height, out->format,
                                               SWS_BICUBIC, NULL, NULL, NULL);
    if (!scaler) return AVERROR(EINVAL);
    sws_scale(scaler, (const uint8_t *const *)in->data, in->linesize, 0, in->height, out->data, out->linesize);
    sws_freeContext(scaler);
    return 0;
}

int64_t CFFmpeg_picture_target(const AVStream *st, double seconds) {
    int64_t target = av_rescale_q((int64_t)(seconds * AV_TIME_BASE), AV_TIME_BASE_Q, st->time_base);
    return st->start_time != AV_NOPTS_VALUE ? target + st->start_time : target;
}

int CFFmpeg_picture_pick(AVFrame *best, AVFrame *frame, int64_t target, int *have) {
    int64_t pts = frame->best_effort_timestamp;
    if (*have && pts != AV_NOPTS_VALUE && pts > target) {  // `best` is shown at the target
        av_frame_unref(frame);
        return 1;
    }
    av_frame_unref(best);
    av_frame_move_ref(best, frame);
    *have = 1;
    return pts != AV_NOPTS_VALUE && pts == target;
}

int CFFmpeg_picture_write_jpeg(const AVFrame *picture, int width, const char *jpeg_path) {
    AVFrame *out = av_frame_alloc();
    if (!out) return AVERROR(ENOMEM);
    int height = (int)((int64_t)picture->height * width / picture->width) & ~1;
    out->format = AV_PIX_FMT_YUVJ420P;
    out->width = width;
    out->height = height > 0 ? height : 2;
    int err = av_frame_get_buffer(out, 0);
    if (err == 0) err = scale_into(picture, out);
    out->pts = 0;
    if (err == 0) err = write_jpeg(out, jpeg_path);
    av_frame_free(&out);
    return err;
}

int CFFmpeg_thumbnail(const char *video_path, double seconds, int width, const char *jpeg_path) {
    CFFmpeg_quiet_logs();
    AVFrame *best = av_frame_alloc();
    int err = best ? 0 : AVERROR(ENOMEM);
    if (err == 0 && (err = decode_frame_at(video_path, seconds, best)) == 0) err = CFFmpeg_picture_write_jpeg(best, width, jpeg_path);
    av_frame_free(&best);
    return err;
}

int CFFmpeg_picture_rgb(const char *path, double seconds, int width, int height, uint8_t *rgb) {
    CFFmpeg_quiet_logs();
    AVFrame *best = av_frame_alloc(), *out = av_frame_alloc();
    int err = (best && out) ? 0 : AVERROR(ENOMEM);
    if (err < 0 || (err = decode_frame_at(path, seconds, best)) < 0) goto done;
    out->format = AV_PIX_FMT_RGB24;
    out->width = width;
    out->height = height;
    if ((err = av_frame_get_buffer(out, 0)) < 0) goto done;
    if ((err = scale_into(best, out)) < 0) goto done;
    for (int y = 0; y < height; y++) memcpy(rgb + (size_t)y * width * 3, out->data[0] + (size_t)y * out->linesize[0], (size_t)width * 3);
done:
    av_frame_free(&best);
    av_frame_free(&out);
    return err;
}
