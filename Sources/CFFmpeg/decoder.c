// Audio decoding with resampling (see include/CFFmpeg.h): demux → decode → swresample, in the
// send-packet / receive-frame style, with sample-exact seeking.
#include "CFFmpeg.h"
#include "open_stream.h"
#include "picture.h"

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/channel_layout.h>
#include <libavutil/opt.h>
#include <libswresample/swresample.h>
#include "libraries.h"  // last: calls below go through the table of functions

struct CFFmpeg_decoder {
    AVFormatContext *format;
    AVCodecContext *codec;
    SwrContext *resampler;
    AVPacket *packet;
    AVFrame *frame;
    int stream;
    int rate;
    int channels;
    int64_t position;     // output samples delivered so far (from the file's start)
    int64_t discard;      // output samples still to drop after a seek
    int sample_size;      // bytes per output sample: 2 (S16) or 4 (float)
    uint8_t *pending;     // converted samples not yet delivered
    int pending_frames;
    int pending_offset;
    int pending_capacity;
    int eof;
    // The picture caught on the way (CFFmpeg_decoder_catch_picture): the video's packets met while
    // the sound is read are decoded until the frame shown at `picture_at`.
    AVCodecContext *video;
    int video_stream;
    int64_t picture_at;
    AVFrame *picture, *video_frame;
    int have_picture, picture_found;
};

// Stage: decode one of the video's packets (NULL: drain) for the caught picture.
static void offer_video(CFFmpeg_decoder *d, const AVPacket *pkt) {
    if (!d->video || d->picture_found) return;
    if (avcodec_send_packet(d->video, pkt) < 0 && pkt) return;  // a damaged picture: the next may do
    while (!d->picture_found && avcodec_receive_frame(d->video, d->video_frame) == 0)
        d->picture_found = CFFmpeg_picture_pick(d->picture, d->video_frame, d->picture_at, &d->have_picture);
}

int CFFmpeg_decoder_open(const char *path, int sample_rate, int channels, int as_float, CFFmpeg_decoder **out) {
    CFFmpeg_quiet_logs();
    *out = NULL;
    CFFmpeg_decoder *d = av_mallocz(sizeof *d);
    if (!d) return AVERROR(ENOMEM);
    d->rate = sample_rate;
    d->channels = channels;
    d->sample_size = as_float ? 4 : 2;
    int err = CFFmpeg_open_stream(path, AVMEDIA_TYPE_AUDIO, 1, &d->format, &d->codec);
    if (err < 0) goto fail;
    d->stream = err;
    AVChannelLayout out_layout;
    av_channel_layout_default(&out_layout, channels);
    if ((err = swr_alloc_set_opts2(&d->resampler, &out_layout, as_float ? AV_SAMPLE_FMT_FLT : AV_SAMPLE_FMT_S16, sample_rate, &d->codec->ch_layout,
                                   d->codec->sample_fmt, d->codec->sample_rate, 0, NULL)) < 0) goto fail;
    int in_channels = d->codec->ch_layout.nb_channels;
    if (channels == 1 && in_channels > 1) {
        // Mono is the plain average of the channels, so a stereo memo keeps its loudness
        // (libswresample's default matrix would lower identical channels by 3 dB).
        double *matrix = av_malloc_array(in_channels, sizeof *matrix);
        if (!matrix) { err = AVERROR(ENOMEM); goto fail; }
        for (int i = 0; i < in_channels; i++) matrix[i] = 1.0 / in_channels;
        err = swr_set_matrix(d->resampler, matrix, in_channels);
        av_free(matrix);
        if (err < 0) goto fail;
    }
    if ((err = swr_init(d->resampler)) < 0) goto fail;
    if (!(d->packet = av_packet_alloc()) || !(d->frame = av_frame_alloc())) { err = AVERROR(ENOMEM); goto fail; }
    d->video_stream = -1;
    *out = d;
    return 0;
fail:
    CFFmpeg_decoder_free(d);
    return err;
}

// Decodes the next frame and converts it into the pending buffer. 1 = got samples, 0 = end.
static int refill(CFFmpeg_decoder *d) {
    for (;;) {
        int err = avcodec_receive_frame(d->codec, d->frame);
        if (err == 0) {
            int max = swr_get_out_samples(d->resampler, d->frame->nb_samples);
            if (max > d->pending_capacity) {
                av_free(d->pending);
                d->pending = av_malloc((size_t)max * d->channels * d->sample_size);
                if (!d->pending) return AVERROR(ENOMEM);
                d->pending_capacity = max;
            }
            uint8_t *outp = d->pending;
            int n = swr_convert(d->resampler, &outp, max, (const uint8_t **)d->frame->extended_data, d->frame->nb_samples);
            av_frame_unref(d->frame);
            if (n < 0) return n;
            d->pending_frames = n;
            d->pending_offset = 0;
            if (n > 0) return 1;
            continue;
        }
        if (err == AVERROR_EOF) {
            // Flush the resampler's tail once.
            if (d->eof == 1) {
                d->eof = 2;
                int max = swr_get_out_samples(d->resampler, 0);
                if (max > 0 && max <= d->pending_capacity) {
                    uint8_t *outp = d->pending;
                    int n = swr_convert(d->resampler, &outp, max, NULL, 0);
                    if (n > 0) { d->pending_frames = n; d->pending_offset = 0; return 1; }
                }
            }
            return 0;
        }
        if (err != AVERROR(EAGAIN)) return err;
        // The decoder wants input.
        err = av_read_frame(d->format, d->packet);
        if (err < 0) {
            d->eof = d->eof ? d->eof : 1;
            avcodec_send_packet(d->codec, NULL);
            continue;
        }
        if (d->packet->stream_index == d->stream) {
            err = avcodec_send_packet(d->codec, d->packet);
            if (err < 0 && err != AVERROR_INVALIDDATA) { av_packet_unref(d->packet); return err; }
        } else if (d->packet->stream_index == d->video_stream) {
            offer_video(d, d->packet);
        }
        av_packet_unref(d->packet);
    }
}

int CFFmpeg_decoder_read(CFFmpeg_decoder *d, void *samples, int max_frames) {
    int written = 0;
    while (written < max_frames) {
        if (d->pending_offset >= d->pending_frames) {
            int r = refill(d);
            if (r < 0) return written > 0 ? written : r;
            if (r == 0) break;
        }
        int available = d->pending_frames - d->pending_offset;
        if (d->discard > 0) {  // after a seek: drop up to the exact target
            int drop = (int)FFMIN((int64_t)available, d->discard);
            d->pending_offset += drop;
            d->discard -= drop;
            continue;
        }
        int n = FFMIN(available, max_frames - written);
        const size_t frame_bytes = (size_t)d->channels * d->sample_size;
        memcpy((uint8_t *)samples + (size_t)written * frame_bytes, d->pending + (size_t)d->pending_offset * frame_bytes,
               (size_t)n * frame_bytes);
        d->pending_offset += n;
        written += n;
    }
    d->position += written;
    return written;
}

int CFFmpeg_decoder_seek(CFFmpeg_decoder *d, double seconds) {
    if (seconds < 0) seconds = 0;
    AVStream *st = d->format->streams[d->stream];
    int64_t target = (int64_t)(seconds * d->rate + 0.5);
    int64_t ts = av_rescale_q((int64_t)(seconds * AV_TIME_BASE), AV_TIME_BASE_Q, st->time_base);
    int err = avformat_seek_file(d->format, d->stream, INT64_MIN, ts, ts, AVSEEK_FLAG_BACKWARD);
    if (err < 0) err = av_seek_frame(d->format, d->stream, ts, AVSEEK_FLAG_BACKWARD);
    if (err < 0) return err;
    avcodec_flush_buffers(d->codec);
    swr_init(d->resampler);
    d->pending_frames = d->pending_offset = 0;
    d->eof = 0;
    // Decode from the seek point and discard up to the target. The first packet after the seek
    // tells where decoding starts; until then, assume the start of the file (seek backward).
    d->discard = 0;
    int64_t start = 0;
    AVPacket *probe = av_packet_alloc();
    if (!probe) return AVERROR(ENOMEM);
    while ((err = av_read_frame(d->format, probe)) >= 0) {
        if (probe->stream_index == d->stream) {
            int64_t pts = probe->pts != AV_NOPTS_VALUE ? probe->pts : probe->dts;
            if (pts != AV_NOPTS_VALUE) start = av_rescale_q(pts, st->time_base, (AVRational){1, d->rate});
            if (start < 0) start = 0;
            avcodec_send_packet(d->codec, probe);
            av_packet_unref(probe);
            break;
        }
        av_packet_unref(probe);
    }
    av_packet_free(&probe);
    d->discard = target > start ? target - start : 0;
    d->position = target;
    return 0;
}

int64_t CFFmpeg_decoder_position(const CFFmpeg_decoder *d) { return d->position; }

int CFFmpeg_decoder_catch_picture(CFFmpeg_decoder *d, double seconds) {
    const AVCodec *codec = NULL;
    int index = av_find_best_stream(d->format, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
    if (index < 0) return index;
    AVStream *st = d->format->streams[index];
    if (st->disposition & AV_DISPOSITION_ATTACHED_PIC) return AVERROR_STREAM_NOT_FOUND;
    int err = 0;
    if (!(d->video = avcodec_alloc_context3(codec)) || !(d->picture = av_frame_alloc()) || !(d->video_frame = av_frame_alloc()))
        err = AVERROR(ENOMEM);
    if (err == 0) err = avcodec_parameters_to_context(d->video, st->codecpar);
    if (err == 0) {
        d->video->thread_count = 1;
        err = avcodec_open2(d->video, codec, NULL);
    }
    if (err < 0) {
        avcodec_free_context(&d->video);
        return err;
    }
    d->video_stream = index;
    d->picture_at = CFFmpeg_picture_target(st, seconds);
    return 0;
}

int CFFmpeg_decoder_write_picture(CFFmpeg_decoder *d, int width, const char *jpeg_path) {
    if (!d->video) return AVERROR_STREAM_NOT_FOUND;
    offer_video(d, NULL);  // a video shorter than the time: its last frame
    if (!d->have_picture) return AVERROR_INVALIDDATA;
    return CFFmpeg_picture_write_jpeg(d->picture, width, jpeg_path);
}

void CFFmpeg_decoder_free(CFFmpeg_decoder *d) {
    if (!d) return;
    av_packet_free(&d->packet);
    av_frame_free(&d->frame);
    av_frame_free(&d->picture);
    av_frame_free(&d->video_frame);
    avcodec_free_context(&d->video);
    swr_free(&d->resampler);
    avcodec_free_context(&d->codec);
    avformat_close_input(&d->format);
    av_free(d->pending);
    av_free(d);
}
