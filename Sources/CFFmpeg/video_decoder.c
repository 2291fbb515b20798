// Video decoding (see include/CFFmpeg.h): demux → decode → swscale to the size and pixel layout
// the caller draws or encodes, in the send-packet / receive-frame style, with frame-exact seeking.
#include "CFFmpeg.h"
#include "open_stream.h"

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libswscale/swscale.h>
#include "libraries.h"  // last: calls below go through the table of functions

struct CFFmpeg_video_decoder {
    AVFormatContext *format;
    AVCodecContext *codec;
    struct SwsContext *scaler;
    AVPacket *packet;
    AVFrame *frame;
    int stream;
    int width, height;
    enum AVPixelFormat out_format;
    double skip_before;   // after a seek: frames shown before this time are decoded, not delivered
    double last_pts;
    int draining;
};

int CFFmpeg_video_decoder_open(const char *path, int width, int height, int rgb, CFFmpeg_video_decoder **out) {
    CFFmpeg_quiet_logs();
    *out = NULL;
    CFFmpeg_video_decoder *d = av_mallocz(sizeof *d);
    if (!d) return AVERROR(ENOMEM);
    // Decoder threads as FFmpeg chooses: decoding a 1080p import is the slow part.
    int err = CFFmpeg_open_stream(path, AVMEDIA_TYPE_VIDEO, 0, &d->format, &d->codec);
    if (err < 0) goto fail;
    d->stream = err;
    d->width = width > 0 ? width : d->codec->width;
    d->height = height > 0 ? height : d->codec->height;
    d->out_format = rgb ? AV_PIX_FMT_RGB24 : AV_PIX_FMT_YUV420P;
    if (!(d->packet = av_packet_alloc()) || !(d->frame = av_frame_alloc())) { err = AVERROR(ENOMEM); goto fail; }
    d->skip_before = -1;
    *out = d;
    return 0;
fail:
    CFFmpeg_video_decoder_free(d);
    return err;
}

int CFFmpeg_video_decoder_size(const CFFmpeg_video_decoder *d, int *width, int *height) {
    *width = d->width;
    *height = d->height;
    return 0;
}

double CFFmpeg_video_decoder_fps(const CFFmpeg_video_decoder *d) {
    AVRational r = d->format->streams[d->stream]->avg_frame_rate;
    return r.den ? av_q2d(r) : 0;
}

// Stage: the next decoded frame, or 0 at the end.
static int next_frame(CFFmpeg_video_decoder *d) {
    int broken = 0;
    for (;;) {
        int err = avcodec_receive_frame(d->codec, d->frame);
        if (err == 0) return 1;
        if (err == AVERROR_EOF) return 0;
        // A damaged packet (a file cut short mid-frame) costs that frame, not the whole video.
        if (err == AVERROR_INVALIDDATA && ++broken < 100) continue;
        if (err != AVERROR(EAGAIN)) return err;
        if (d->draining) return 0;
        err = av_read_frame(d->format, d->packet);
        if (err < 0) {  // the end (or a truncated tail): drain what the decoder holds
            d->draining = 1;
            avcodec_send_packet(d->codec, NULL);
            continue;
        }
        if (d->packet->stream_index == d->stream) avcodec_send_packet(d->codec, d->packet);
        av_packet_unref(d->packet);
    }
}

// Stage: convert the decoded frame into the caller's tightly packed buffer.
static int convert(CFFmpeg_video_decoder *d, uint8_t *buffer, int64_t bytes) {
    if (bytes < av_image_get_buffer_size(d->out_format, d->width, d->height, 1)) return AVERROR(EINVAL);
    AVFrame *f = d->frame;
    d->scaler = sws_getCachedContext(d->scaler, f->width, f->height, f->format, d->width, d->height, d->out_format,
                                     SWS_BILINEAR, NULL, NULL, NULL);
    if (!d->scaler) return AVERROR(EINVAL);
    uint8_t *planes[4];
    int strides[4];
    int err = av_image_fill_arrays(planes, strides, buffer, d->out_format, d->width, d->height, 1);
    if (err < 0) return err;
    sws_scale(d->scaler, (const uint8_t *const *)f->data, f->linesize, 0, f->height, planes, strides);
    return 0;
}

int CFFmpeg_video_decoder_read(CFFmpeg_video_decoder *d, uint8_t *buffer, int64_t bytes, double *pts) {
    AVStream *st = d->format->streams[d->stream];
    for (;;) {
        int got = next_frame(d);
        if (got <= 0) return got;
        int64_t ts = d->frame->best_effort_timestamp;
        double t = ts == AV_NOPTS_VALUE ? d->last_pts : (ts - (st->start_time != AV_NOPTS_VALUE ? st->start_time : 0)) * av_q2d(st->time_base);
        if (d->skip_before >= 0 && t + 1e-6 < d->skip_before) { av_frame_unref(d->frame); continue; }
        d->skip_before = -1;
        d->last_pts = t;
        *pts = t;
        int err = buffer ? convert(d, buffer, bytes) : 0;
        av_frame_unref(d->frame);
        return err < 0 ? err : 1;
    }
}

int CFFmpeg_video_decoder_seek(CFFmpeg_video_decoder *d, double seconds) {
    AVStream *st = d->format->streams[d->stream];
    int64_t target = av_rescale_q((int64_t)(seconds * AV_TIME_BASE), AV_TIME_BASE_Q, st->time_base);
    if (st->start_time != AV_NOPTS_VALUE) target += st->start_time;
    int err = avformat_seek_file(d->format, d->stream, INT64_MIN, target, target, AVSEEK_FLAG_BACKWARD);
    if (err < 0) return err;
    avcodec_flush_buffers(d->codec);
    d->draining = 0;
    // Frame-exact: the frame on screen at `seconds` is the last one starting at or before it; frames
    // before it are decoded and dropped. (A frame-duration of slack keeps that frame.)
    AVRational rate = st->avg_frame_rate;
    double frame = rate.num ? av_q2d(av_inv_q(rate)) : 0.04;
    d->skip_before = seconds - frame > 0 ? seconds - frame + 1e-6 : -1;
    return 0;
}

void CFFmpeg_video_decoder_free(CFFmpeg_video_decoder *d) {
    if (!d) return;
    sws_freeContext(d->scaler);
    av_packet_free(&d->packet);
    av_frame_free(&d->frame);
    avcodec_free_context(&d->codec);
    avformat_close_input(&d->format);
    av_free(d);
}
