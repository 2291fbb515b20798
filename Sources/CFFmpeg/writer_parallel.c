// Encoding a long sound in stretches, each on its own thread with its own AAC encoder, written in
// order as one encoder would write it. See CFFmpeg_writer_write_audio_parallel in CFFmpeg.h.
#include "CFFmpeg.h"
#include "open_stream.h"
#include "writer.h"

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/channel_layout.h>
#include <libavutil/opt.h>
#include <pthread.h>
#include <string.h>
#include "libraries.h"  // last: calls below go through the table of functions

// One stretch of a parallel encode: its own AAC encoder over [feed_start, feed_end) of the samples,
// keeping the packets whose pts fall in [keep_start, keep_end).
typedef struct {
    const CFFmpeg_writer *writer;
    const float *samples;
    int channels;
    int64_t feed_start, feed_end, keep_start, keep_end;
    AVPacket **packets;
    int count, capacity;
    int error;
} Stretch;

// Stage: an encoder like the writer's own (same codec, rate, layout, bit rate, profile, flags), so
// every stretch's packets belong to the one stream the writer's header describes.
static int open_like(const AVCodecContext *model, AVCodecContext **out) {
    const AVCodec *codec = avcodec_find_encoder(model->codec_id);
    AVCodecContext *c = codec ? avcodec_alloc_context3(codec) : NULL;
    if (!c) return AVERROR(ENOMEM);
    c->sample_fmt = model->sample_fmt;
    c->sample_rate = model->sample_rate;
    c->bit_rate = model->bit_rate;
    c->profile = model->profile;
    c->flags = model->flags;
    c->time_base = model->time_base;
    int err = av_channel_layout_copy(&c->ch_layout, &model->ch_layout);
    if (err >= 0) err = avcodec_open2(c, codec, NULL);
    if (err < 0) avcodec_free_context(&c);
    *out = c;
    return err;
}

// Stage: keep a packet the stretch owns (moved out of `packet`).
static int keep_packet(Stretch *s, AVPacket *packet) {
    if (packet->pts < s->keep_start || packet->pts >= s->keep_end) { av_packet_unref(packet); return 0; }
    if (s->count == s->capacity) {
        int capacity = s->capacity ? s->capacity * 2 : 256;
        AVPacket **grown = av_malloc_array(capacity, sizeof *grown);
        if (!grown) return AVERROR(ENOMEM);
        if (s->count) memcpy(grown, s->packets, s->count * sizeof *grown);
        av_free(s->packets);
        s->packets = grown;
        s->capacity = capacity;
    }
    if (!(s->packets[s->count] = av_packet_alloc())) return AVERROR(ENOMEM);
    av_packet_move_ref(s->packets[s->count++], packet);
    return 0;
}

// Stage: one thread's whole stretch — frames of frame_size samples at their pts in the file, then
// the encoder drained.
static void *encode_stretch(void *arg) {
    Stretch *s = arg;
    AVCodecContext *c = NULL;
    AVFrame *frame = av_frame_alloc();
    AVPacket *packet = av_packet_alloc();
    int err = frame && packet ? open_like(s->writer->audio.encoder, &c) : AVERROR(ENOMEM);
    if (err >= 0) {
        frame->format = c->sample_fmt;
        frame->sample_rate = c->sample_rate;
        frame->nb_samples = c->frame_size;
        err = av_channel_layout_copy(&frame->ch_layout, &c->ch_layout);
        if (err >= 0) err = av_frame_get_buffer(frame, 0);
    }
    for (int64_t at = s->feed_start; err >= 0; at += c->frame_size) {
        int n = (int)FFMAX(0, FFMIN(c->frame_size, s->feed_end - at));  // 0: drain the encoder
        if (n > 0) {
            if ((err = av_frame_make_writable(frame)) < 0) break;
            frame->nb_samples = n;
            frame->pts = at;
            for (int ch = 0; ch < s->channels; ch++) {
                float *plane = (float *)frame->data[ch];
                for (int i = 0; i < n; i++) plane[i] = s->samples[(at + i) * s->channels + ch];
            }
        }
        err = avcodec_send_frame(c, n > 0 ? frame : NULL);
        while (err >= 0) {
            err = avcodec_receive_packet(c, packet);
            if (err == AVERROR(EAGAIN) || err == AVERROR_EOF) { err = 0; break; }
            if (err >= 0) err = keep_packet(s, packet);
        }
        if (n <= 0) break;
    }
    s->error = err < 0 ? err : 0;
    av_packet_free(&packet);
    av_frame_free(&frame);
    avcodec_free_context(&c);
    return NULL;
}

int CFFmpeg_writer_write_audio_parallel(CFFmpeg_writer *w, const float *samples, int64_t frames, int parts) {
    enum { MAX_PARTS = 8 };
    if (!w->audio.encoder || w->video.encoder || w->samples_in > 0 || frames <= 0) return AVERROR(EINVAL);
    const int frame_size = w->audio.encoder->frame_size;
    // A second encoder fed from this far before its stretch has settled by the seam (its window
    // decisions and rate control follow the sound, not its own start), so the stretches join
    // without a click and each keeps one encoder's quality: measured against the source, the
    // decoded sound is as close as one encoder's, within the spread one encoder shows when the
    // sound merely starts a few samples later.
    const int64_t margin = 64 * (int64_t)frame_size;  // ~1.4 s at 48 kHz
    // Stretches of whole encoder frames, none shorter than 8 margins (~11 s; a short sound is one).
    parts = (int)FFMAX(1, FFMIN(FFMIN(parts, MAX_PARTS), frames / (8 * margin)));
    const int64_t step = (frames / parts / frame_size) * frame_size;
    Stretch stretch[MAX_PARTS] = {0};
    pthread_t threads[MAX_PARTS];
    int started[MAX_PARTS] = {0};
    for (int i = 0; i < parts; i++) {
        Stretch *s = &stretch[i];
        s->writer = w;
        s->samples = samples;
        s->channels = w->audio.encoder->ch_layout.nb_channels;
        s->keep_start = i == 0 ? INT64_MIN : i * step;
        s->keep_end = i == parts - 1 ? INT64_MAX : (i + 1) * step;
        s->feed_start = i == 0 ? 0 : i * step - margin;
        s->feed_end = i == parts - 1 ? frames : FFMIN(frames, (i + 1) * step + margin);
        if (i > 0) started[i] = pthread_create(&threads[i], NULL, encode_stretch, s) == 0;
        if (i > 0 && !started[i]) encode_stretch(s);
    }
    encode_stretch(&stretch[0]);  // the first stretch on this thread
    int err = 0;
    for (int i = 0; i < parts; i++) {
        if (started[i]) pthread_join(threads[i], NULL);
        if (stretch[i].error < 0 && err == 0) err = stretch[i].error;
    }
    // The packets in order, as one encoder would have written them; the last ends where the
    // samples end.
    w->samples_in = frames;
    w->next_pts = frames;
    OutputStream *os = &w->audio;
    for (int i = 0; i < parts; i++) {
        for (int k = 0; k < stretch[i].count; k++) {
            AVPacket *packet = stretch[i].packets[k];
            if (err == 0) {
                if (packet->pts + packet->duration > frames && packet->pts < frames) packet->duration = frames - packet->pts;
                av_packet_rescale_ts(packet, os->encoder->time_base, os->stream->time_base);
                packet->stream_index = os->stream->index;
                pthread_mutex_lock(&w->mux);
                err = av_interleaved_write_frame(w->format, packet);
                pthread_mutex_unlock(&w->mux);
            }
            av_packet_free(&packet);
        }
        av_free(stretch[i].packets);
    }
    return err;
}
