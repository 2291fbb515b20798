// Remux (see include/CFFmpeg.h): a fragmented temporary file, maybe cut short by a crash, into a
// regular file exact to the sample.
#include "CFFmpeg.h"
#include "open_stream.h"

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/channel_layout.h>
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

// One stream of a remux: where it goes, how far it is shifted, and the packet held back so that
// its duration can be trimmed to the stream's end once we know it is the last.
typedef struct {
    int out_index;
    int64_t shift;      // subtracted from input timestamps (input time base)
    int64_t end;        // end of the stream's media (input time base), or AV_NOPTS_VALUE
    AVPacket *held;
} RemuxStream;

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
    int err = av_interleaved_write_frame(out, pkt);  // takes the packet's reference
    if (err >= 0) (*packets)++;
    return err;
}

int CFFmpeg_remux(const char *input, const char *output, int audio_priming, int64_t *packets) {
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
    err = avio_closep(&out->pb);
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
