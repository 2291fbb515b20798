// Remux (see include/CFFmpeg.h): a fragmented temporary file, maybe cut short by a crash, into a
// regular file exact to the sample.
#include "CFFmpeg.h"
#include "open_stream.h"

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/channel_layout.h>
#include <stdio.h>
#include <string.h>
#include "libraries.h"  // last: calls below go through the table of functions

int CFFmpeg_aac_priming(int sample_rate) {
    CFFmpeg_quiet_logs();  // an encoder closed without frames prints "Qavg: nan" otherwise
    const AVCodec *codec = avcodec_find_encoder(AV_CODEC_ID_AAC);
    AVCodecContext *c = codec ? avcodec_alloc_context3(codec) : NULL;
    if (!c) return 0;
    c->sample_fmt = AV_SAMPLE_FMT_FLTP;
    c->sample_rate = sample_rate;
    c->bit_rate = 96000;
    av_channel_layout_default(&c->ch_layout, 1);
    int priming = avcodec_open2(c, codec, NULL) == 0 ? c->initial_padding : 0;
    avcodec_free_context(&c);
    return priming;
}

// One stream of a remux: where it goes, how far it is shifted, the packet held back so that its
// duration can be trimmed to the stream's end once we know it is the last, and what was written
// (output time base), from which the facts of the finished file are told without reading it again.
typedef struct {
    int out_index;
    int64_t shift;      // subtracted from input timestamps (input time base)
    int64_t end;        // end of the stream's media (input time base), or AV_NOPTS_VALUE
    AVPacket *held;
    int64_t written, first_pts, last_end, first_dts, last_dts_end;
} RemuxStream;

// Stage: note a packet about to be written (timestamps already in the output time base).
static void note_written(RemuxStream *rs, const AVPacket *pkt) {
    int64_t pts = pkt->pts != AV_NOPTS_VALUE ? pkt->pts : pkt->dts;
    int64_t dts = pkt->dts != AV_NOPTS_VALUE ? pkt->dts : pts;
    if (pts == AV_NOPTS_VALUE) return;
    if (rs->written == 0 || pts < rs->first_pts) rs->first_pts = pts;
    if (rs->written == 0 || dts < rs->first_dts) rs->first_dts = dts;
    if (rs->written == 0 || pts + pkt->duration > rs->last_end) rs->last_end = pts + pkt->duration;
    if (rs->written == 0 || dts + pkt->duration > rs->last_dts_end) rs->last_dts_end = dts + pkt->duration;
    rs->written++;
}

// Stage: the finished file's facts, as a probe of it reads them: each stream lasts from its first
// presented sample (or 0, where the priming before it is marked as skipped) to the end of its last
// packet; a video's rate is its frames over the span of their timestamps; the file lasts as long
// as its longest stream.
static void describe_output(const AVFormatContext *in, const AVFormatContext *out, const RemuxStream *streams,
                            unsigned nb, CFFmpeg_probe_info *info) {
    memset(info, 0, sizeof *info);
    snprintf(info->format, sizeof info->format, "%s", in->iformat->name);  // the same demuxer reads both
    for (unsigned i = 0; i < nb; i++) {
        const RemuxStream *rs = &streams[i];
        if (rs->out_index < 0 || rs->written == 0) continue;
        const AVStream *os = out->streams[rs->out_index];
        const AVCodecParameters *par = os->codecpar;
        // A track that does not start at 0 (the AAC priming marked as skipped) gets an edit list,
        // which holds its length in milliseconds, rounded down: what any reader of the file (and
        // the probe) finds. Other tracks last as long as their samples.
        double tb = av_q2d(os->time_base);
        int64_t span = rs->last_end - FFMAX(0, rs->first_pts);
        double duration = rs->first_pts != 0 ? (double)(span * 1000 * os->time_base.num / os->time_base.den) / 1000.0 : span * tb;
        if (par->codec_type == AVMEDIA_TYPE_AUDIO && !info->has_audio) {
            info->has_audio = 1;
            snprintf(info->audio_codec, sizeof info->audio_codec, "%s", avcodec_get_name(par->codec_id));
            info->sample_rate = par->sample_rate;
            info->channels = par->ch_layout.nb_channels;
        } else if (par->codec_type == AVMEDIA_TYPE_VIDEO && !info->has_video) {
            info->has_video = 1;
            snprintf(info->video_codec, sizeof info->video_codec, "%s", avcodec_get_name(par->codec_id));
            info->width = par->width;
            info->height = par->height;
            int64_t span = rs->last_dts_end - rs->first_dts;
            if (span > 0) info->fps = rs->written / (span * tb);
        } else {
            continue;
        }
        if (duration > info->duration) info->duration = duration;
    }
}

static int write_held(AVFormatContext *out, AVFormatContext *in, RemuxStream *rs, int in_index, int last, int64_t *packets) {
    AVPacket *pkt = rs->held;
    if (!pkt->data) return 0;
    if (last && rs->end != AV_NOPTS_VALUE && pkt->pts != AV_NOPTS_VALUE && pkt->pts + pkt->duration > rs->end && pkt->pts < rs->end)
        pkt->duration = rs->end - pkt->pts;
    if (pkt->pts != AV_NOPTS_VALUE) pkt->pts -= rs->shift;
    if (pkt->dts != AV_NOPTS_VALUE) pkt->dts -= rs->shift;
    AVStream *is = in->streams[in_index], *os = out->streams[rs->out_index];
    pkt->stream_index = rs->out_index;
    av_packet_rescale_ts(pkt, is->time_base, os->time_base);
    pkt->pos = -1;
    note_written(rs, pkt);
    int err = av_interleaved_write_frame(out, pkt);  // takes the packet's reference
    if (err >= 0) (*packets)++;
    return err;
}

int CFFmpeg_remux(const char *input, const char *output, int audio_priming, int64_t *packets, CFFmpeg_probe_info *info) {
    CFFmpeg_quiet_logs();
    *packets = 0;
    AVFormatContext *in = NULL, *out = NULL;
    AVPacket *pkt = av_packet_alloc();
    RemuxStream *streams = NULL;
    unsigned nb = 0;
    int err = pkt ? 0 : AVERROR(ENOMEM);
    if (err < 0 || (err = CFFmpeg_open_local_input(input, &in)) < 0) goto done;
    // The container follows the output's extension (".m4a" → ipod, ".mov" → mov).
    if ((err = avformat_alloc_output_context2(&out, NULL, NULL, output)) < 0) goto done;
    nb = in->nb_streams;
    streams = av_calloc(nb, sizeof *streams);
    if (!streams) { err = AVERROR(ENOMEM); goto done; }
    int kept = 0;
    for (unsigned i = 0; i < nb; i++) {
        AVStream *is = in->streams[i];
        AVCodecParameters *par = is->codecpar;
        streams[i].out_index = -1;
        if (par->codec_type != AVMEDIA_TYPE_AUDIO && par->codec_type != AVMEDIA_TYPE_VIDEO) continue;
        AVStream *os = avformat_new_stream(out, NULL);
        if (!os || !(streams[i].held = av_packet_alloc())) { err = AVERROR(ENOMEM); goto done; }
        if ((err = avcodec_parameters_copy(os->codecpar, par)) < 0) goto done;
        os->codecpar->codec_tag = 0;
        os->time_base = is->time_base;
        if (par->codec_type == AVMEDIA_TYPE_AUDIO && par->codec_id == AV_CODEC_ID_AAC && audio_priming > 0)
            streams[i].shift = av_rescale_q(audio_priming, (AVRational){1, par->sample_rate}, is->time_base);
        int64_t start = is->start_time != AV_NOPTS_VALUE ? is->start_time : 0;
        streams[i].end = is->duration > 0 ? start + is->duration : AV_NOPTS_VALUE;
        streams[i].out_index = kept++;
    }
    if (kept == 0) { err = AVERROR_INVALIDDATA; goto done; }
    if ((err = CFFmpeg_open_local_output(output, &out->pb)) < 0) goto done;
    if ((err = avformat_write_header(out, NULL)) < 0) goto done;
    for (;;) {
        err = av_read_frame(in, pkt);
        if (err < 0) { err = 0; break; }  // the end, or a truncated tail: keep what came before it
        RemuxStream *rs = &streams[pkt->stream_index];
        if (rs->out_index < 0 || (pkt->flags & AV_PKT_FLAG_CORRUPT) || pkt->size == 0) {
            av_packet_unref(pkt);
            continue;
        }
        if ((err = write_held(out, in, rs, pkt->stream_index, 0, packets)) < 0) goto done;
        av_packet_move_ref(rs->held, pkt);
    }
    for (unsigned i = 0; i < nb; i++)
        if (streams[i].held && (err = write_held(out, in, &streams[i], (int)i, 1, packets)) < 0) goto done;
    if (*packets == 0) { err = AVERROR_INVALIDDATA; goto done; }
    if ((err = av_write_trailer(out)) < 0) goto done;
    if ((err = avio_closep(&out->pb)) == 0) describe_output(in, out, streams, nb, info);
done:
    av_packet_free(&pkt);
    for (unsigned i = 0; streams && i < nb; i++) av_packet_free(&streams[i].held);
    av_free(streams);
    avformat_close_input(&in);
    if (out) {
        if (out->pb) avio_closep(&out->pb);
        avformat_free_context(out);
    }
    return err;
}
