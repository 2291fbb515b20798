// The writer (see include/CFFmpeg.h): AAC, and H.264 beside it, in a fragmented or regular
// MP4-family file, in the style of FFmpeg's doc/examples/mux.c (one OutputStream per encoder,
// send-frame / receive-packet, av_interleaved_write_frame).
#include "CFFmpeg.h"
#include "open_stream.h"
#include "writer.h"

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/channel_layout.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
#include <pthread.h>
#include <string.h>
#include "libraries.h"  // last: calls below go through the table of functions

// Stage: a zeroed writer with its lock.
static CFFmpeg_writer *new_writer(void) {
    CFFmpeg_writer *w = av_mallocz(sizeof *w);
    if (w) pthread_mutex_init(&w->mux, NULL);
    return w;
}

// Stage: the AAC encoder and its stream.
static int add_audio_stream(CFFmpeg_writer *w, int sample_rate, int channels, int bit_rate) {
    const AVCodec *codec = avcodec_find_encoder(AV_CODEC_ID_AAC);
    if (!codec) return AVERROR_ENCODER_NOT_FOUND;
    OutputStream *os = &w->audio;
    if (!(os->stream = avformat_new_stream(w->format, NULL))) return AVERROR(ENOMEM);
    if (!(os->encoder = avcodec_alloc_context3(codec))) return AVERROR(ENOMEM);
    AVCodecContext *c = os->encoder;
    c->sample_fmt = AV_SAMPLE_FMT_FLTP;
    c->sample_rate = sample_rate;
    c->bit_rate = bit_rate;
    c->profile = FF_PROFILE_AAC_LOW;
    av_channel_layout_default(&c->ch_layout, channels);
    c->time_base = (AVRational){1, sample_rate};
    if (w->format->oformat->flags & AVFMT_GLOBALHEADER) c->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    int err = avcodec_open2(c, codec, NULL);
    if (err < 0) return err;
    if ((err = avcodec_parameters_from_context(os->stream->codecpar, c)) < 0) return err;
    os->stream->time_base = c->time_base;
    if (!(os->frame = av_frame_alloc()) || !(os->packet = av_packet_alloc())) return AVERROR(ENOMEM);
    os->frame->format = c->sample_fmt;
    os->frame->sample_rate = sample_rate;
    if ((err = av_channel_layout_copy(&os->frame->ch_layout, &c->ch_layout)) < 0) return err;
    os->frame->nb_samples = c->frame_size;
    if ((err = av_frame_get_buffer(os->frame, 0)) < 0) return err;
    if (!(w->fifo = av_audio_fifo_alloc(AV_SAMPLE_FMT_FLTP, channels, c->frame_size * 4))) return AVERROR(ENOMEM);
    return 0;
}

static int encode(CFFmpeg_writer *w, OutputStream *os, AVFrame *frame);

// Stage: open the file and write the header; fragmented files start with an empty moov and cut a
// fragment about every second (at keyframes when there is video).
static int open_file(CFFmpeg_writer *w, const char *path, int fragmented) {
    // The AAC encoder's first packet carries its priming samples before the first real one. In a
    // fragmented file (no edit list) the samples start at +priming, so every packet is at ≥ 0 and
    // the muxer never shifts the streams to hide a negative start — a shift that would move the
    // video against the sound; the remux marks the priming as skipped again. A regular file
    // starts at 0 and its edit list skips the priming itself.
    if (w->audio.encoder && fragmented) w->audio_start = w->next_pts = w->audio.encoder->initial_padding;
    int err = CFFmpeg_open_local_output(path, &w->format->pb);
    if (err < 0) return err;
    AVDictionary *options = NULL;
    if (fragmented) {
        av_dict_set(&options, "movflags", "empty_moov+default_base_moof+frag_keyframe", 0);
        av_dict_set(&options, "frag_duration", "1000000", 0);
    }
    err = avformat_write_header(w->format, &options);
    av_dict_free(&options);
    if (err < 0) return err;
    return 0;
}

// Stage: the H.264 encoder, its stream, and the scaler from the camera's size.
static int add_video_stream(CFFmpeg_writer *w, const CFFmpeg_video_config *cfg) {
    const AVCodec *codec = avcodec_find_encoder_by_name("libx264");
    if (!codec) codec = avcodec_find_encoder(AV_CODEC_ID_H264);
    if (!codec) return AVERROR_ENCODER_NOT_FOUND;
    OutputStream *os = &w->video;
    if (!(os->stream = avformat_new_stream(w->format, NULL))) return AVERROR(ENOMEM);
    if (!(os->encoder = avcodec_alloc_context3(codec))) return AVERROR(ENOMEM);
    AVCodecContext *c = os->encoder;
    c->width = cfg->width;
    c->height = cfg->height;
    c->pix_fmt = AV_PIX_FMT_YUV420P;
    c->time_base = (AVRational){1, 1000000};  // microseconds: timestamps come from the camera
    c->framerate = (AVRational){cfg->fps > 0 ? cfg->fps : 30, 1};
    c->gop_size = cfg->fps > 0 ? cfg->fps : 30;  // a keyframe at least every second
    c->max_b_frames = 0;
    c->thread_count = cfg->threads;
    if (w->format->oformat->flags & AVFMT_GLOBALHEADER) c->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    AVDictionary *options = NULL;
    char crf[16];
    snprintf(crf, sizeof crf, "%d", cfg->crf > 0 ? cfg->crf : 23);
    av_dict_set(&options, "crf", crf, 0);
    av_dict_set(&options, "preset", cfg->preset ? cfg->preset : "veryfast", 0);
    if (cfg->x264_params && *cfg->x264_params) av_dict_set(&options, "x264-params", cfg->x264_params, 0);
    int err = avcodec_open2(c, codec, &options);
    av_dict_free(&options);
    if (err < 0) return err;
    if ((err = avcodec_parameters_from_context(os->stream->codecpar, c)) < 0) return err;
    os->stream->time_base = (AVRational){1, 90000};
    if (!(os->frame = av_frame_alloc()) || !(os->packet = av_packet_alloc())) return AVERROR(ENOMEM);
    os->frame->format = c->pix_fmt;
    os->frame->width = c->width;
    os->frame->height = c->height;
    if ((err = av_frame_get_buffer(os->frame, 0)) < 0) return err;
    w->in_width = cfg->in_width;
    w->in_height = cfg->in_height;
    w->in_format = cfg->in_yuyv ? AV_PIX_FMT_YUYV422 : AV_PIX_FMT_YUV420P;
    w->scaler = sws_getContext(cfg->in_width, cfg->in_height, w->in_format, c->width, c->height, AV_PIX_FMT_YUV420P,
                               SWS_BILINEAR, NULL, NULL, NULL);
    if (!w->scaler) return AVERROR(EINVAL);
    w->last_video_pts = AV_NOPTS_VALUE;
    return 0;
}

int CFFmpeg_writer_open_video(const char *path, const CFFmpeg_video_config *cfg, int fragmented, CFFmpeg_writer **out) {
    CFFmpeg_quiet_logs();
    *out = NULL;
    CFFmpeg_writer *w = new_writer();
    if (!w) return AVERROR(ENOMEM);
    int err = avformat_alloc_output_context2(&w->format, NULL, "mov", NULL);
    if (err < 0) goto fail;
    if ((err = add_video_stream(w, cfg)) < 0) goto fail;
    if (cfg->sample_rate > 0 && (err = add_audio_stream(w, cfg->sample_rate, cfg->channels, cfg->audio_bit_rate)) < 0) goto fail;
    if ((err = open_file(w, path, fragmented)) < 0) goto fail;
    *out = w;
    return 0;
fail:
    CFFmpeg_writer_free(w);
    return err;
}

int CFFmpeg_writer_write_video(CFFmpeg_writer *w, const void *yuv420p, int64_t bytes, int64_t pts_us) {
    OutputStream *os = &w->video;
    if (!os->encoder) return AVERROR(EINVAL);
    // The frame is read with FFmpeg's own plane layout, so it must be at least that large.
    if (bytes < av_image_get_buffer_size(w->in_format, w->in_width, w->in_height, 1)) return AVERROR(EINVAL);
    if (w->last_video_pts != AV_NOPTS_VALUE && pts_us <= w->last_video_pts) return 0;  // never backwards
    int err = av_frame_make_writable(os->frame);
    if (err < 0) return err;
    const uint8_t *src[4];
    int src_stride[4];
    av_image_fill_arrays((uint8_t **)src, src_stride, yuv420p, w->in_format, w->in_width, w->in_height, 1);
    sws_scale(w->scaler, src, src_stride, 0, w->in_height, os->frame->data, os->frame->linesize);
    os->frame->pts = pts_us;
    w->last_video_pts = pts_us;
    w->video_frames++;
    return encode(w, os, os->frame);
}

int64_t CFFmpeg_writer_video_frames(const CFFmpeg_writer *w) { return w->video_frames; }

int CFFmpeg_writer_open_audio(const char *path, int sample_rate, int channels, int bit_rate, int fragmented,
                              CFFmpeg_writer **out) {
    *out = NULL;
    CFFmpeg_quiet_logs();
    CFFmpeg_writer *w = new_writer();
    if (!w) return AVERROR(ENOMEM);
    // The container follows the final name's extension, also for a temporary "x.m4a.part" name.
    const char *as = strstr(path, ".mov") ? "x.mov" : strstr(path, ".mp4") ? "x.mp4" : "x.m4a";
    int err = avformat_alloc_output_context2(&w->format, NULL, NULL, as);
    if (err < 0) goto fail;
    if ((err = add_audio_stream(w, sample_rate, channels, bit_rate)) < 0) goto fail;
    if ((err = open_file(w, path, fragmented)) < 0) goto fail;
    *out = w;
    return 0;
fail:
    CFFmpeg_writer_free(w);
    return err;
}

// Stage: send one frame (or NULL to drain) and write every packet the encoder returns.
static int encode(CFFmpeg_writer *w, OutputStream *os, AVFrame *frame) {
    int err = avcodec_send_frame(os->encoder, frame);
    if (err < 0) return err;
    for (;;) {
        err = avcodec_receive_packet(os->encoder, os->packet);
        if (err == AVERROR(EAGAIN) || err == AVERROR_EOF) return 0;
        if (err < 0) return err;
        // The last audio packet ends exactly where the samples end: the cap is exact to the sample.
        int64_t end = w->audio_start + w->samples_in;  // packet pts count samples from the first packet
        if (os == &w->audio && os->packet->pts != AV_NOPTS_VALUE && os->packet->pts + os->packet->duration > end && os->packet->pts < end)
            os->packet->duration = end - os->packet->pts;
        // x264 leaves packet durations unset; each picture lasts one nominal frame, so the last one is
        // shown for a frame too instead of vanishing (a 1 s clip at 2 fps lasts 1 s, not 0.5).
        if (os == &w->video && os->packet->duration <= 0 && os->encoder->framerate.num > 0)
            os->packet->duration = av_rescale_q(1, av_inv_q(os->encoder->framerate), os->encoder->time_base);
        av_packet_rescale_ts(os->packet, os->encoder->time_base, os->stream->time_base);
        os->packet->stream_index = os->stream->index;
        pthread_mutex_lock(&w->mux);
        err = av_interleaved_write_frame(w->format, os->packet);
        pthread_mutex_unlock(&w->mux);
        if (err < 0) return err;
    }
}

// Stage: move whole encoder frames (or, when draining, the rest) from the FIFO to the encoder.
static int drain_fifo(CFFmpeg_writer *w, int final) {
    OutputStream *os = &w->audio;
    const int frame_size = os->encoder->frame_size;
    while (av_audio_fifo_size(w->fifo) >= frame_size || (final && av_audio_fifo_size(w->fifo) > 0)) {
        int n = FFMIN(av_audio_fifo_size(w->fifo), frame_size);
        int err = av_frame_make_writable(os->frame);
        if (err < 0) return err;
        os->frame->nb_samples = n;
        if (av_audio_fifo_read(w->fifo, (void **)os->frame->data, n) < n) return AVERROR(EIO);
        os->frame->pts = w->next_pts;
        w->next_pts += n;
        if ((err = encode(w, os, os->frame)) < 0) return err;
    }
    return 0;
}

int CFFmpeg_writer_write_audio(CFFmpeg_writer *w, const float *samples, int frames) {
    const int channels = w->audio.encoder->ch_layout.nb_channels;
    // Deinterleave into the planar layout AAC wants.
    float *planes[8];
    float stack[8][1024];
    for (int offset = 0; offset < frames; offset += 1024) {
        int n = FFMIN(1024, frames - offset);
        for (int ch = 0; ch < channels && ch < 8; ch++) {
            planes[ch] = stack[ch];
            for (int i = 0; i < n; i++) stack[ch][i] = samples[(offset + i) * channels + ch];
        }
        if (av_audio_fifo_write(w->fifo, (void **)planes, n) < n) return AVERROR(ENOMEM);
        w->samples_in += n;
    }
    return drain_fifo(w, 0);
}

int CFFmpeg_writer_flush(CFFmpeg_writer *w) {
    if (!w->format || !w->format->pb) return 0;
    pthread_mutex_lock(&w->mux);
    avio_flush(w->format->pb);
    int err = w->format->pb->error;
    pthread_mutex_unlock(&w->mux);
    return err;
}

int64_t CFFmpeg_writer_samples(const CFFmpeg_writer *w) { return w->samples_in; }

int CFFmpeg_writer_finish(CFFmpeg_writer *w) {
    int err;
    if (w->video.encoder && (err = encode(w, &w->video, NULL)) < 0) return err;
    if (w->audio.encoder) {
        if ((err = drain_fifo(w, 1)) < 0) return err;
        if ((err = encode(w, &w->audio, NULL)) < 0) return err;
    }
    err = av_write_trailer(w->format);
    if (err < 0) return err;
    return avio_closep(&w->format->pb);
}

static void close_stream(OutputStream *os) {
    avcodec_free_context(&os->encoder);
    av_frame_free(&os->frame);
    av_packet_free(&os->packet);
}

void CFFmpeg_writer_free(CFFmpeg_writer *w) {
    if (!w) return;
    close_stream(&w->audio);
    close_stream(&w->video);
    sws_freeContext(w->scaler);
    if (w->fifo) av_audio_fifo_free(w->fifo);
    if (w->format) {
        if (w->format->pb) avio_closep(&w->format->pb);
        avformat_free_context(w->format);
    }
    pthread_mutex_destroy(&w->mux);
    av_free(w);
}
