// Tags (see include/CFFmpeg.h): a finished file copied packet for packet with new file-level tags,
// and one tag read back. The copy is how a recording's own description is kept inside its file:
// the packets, their timestamps and the edit list that skips the AAC priming come out unchanged.
#include "CFFmpeg.h"
#include "open_stream.h"

#include <libavformat/avformat.h>
#include <libavutil/dict.h>
#include <string.h>
#include "libraries.h"  // last: calls below go through the table of functions

// Stage: one output stream per audio or video input stream, parameters and time base copied.
static int copy_streams(AVFormatContext *in, AVFormatContext *out, int *map) {
    int kept = 0;
    for (unsigned i = 0; i < in->nb_streams; i++) {
        AVStream *is = in->streams[i];
        map[i] = -1;
        enum AVMediaType type = is->codecpar->codec_type;
        if (type != AVMEDIA_TYPE_AUDIO && type != AVMEDIA_TYPE_VIDEO) continue;
        AVStream *os = avformat_new_stream(out, NULL);
        if (!os) return AVERROR(ENOMEM);
        int err = avcodec_parameters_copy(os->codecpar, is->codecpar);
        if (err < 0) return err;
        os->codecpar->codec_tag = 0;
        os->time_base = is->time_base;
        map[i] = kept++;
    }
    return kept > 0 ? 0 : AVERROR_INVALIDDATA;
}

// Stage: the tags, as QuickTime metadata keys (any name, UTF-8, read by any MP4 reader).
static int set_tags(AVFormatContext *out, const char *const *keys, const char *const *values, int count) {
    for (int i = 0; i < count; i++) {
        int err = av_dict_set(&out->metadata, keys[i], values[i], 0);
        if (err < 0) return err;
    }
    return 0;
}

int CFFmpeg_retag(const char *input, const char *output, const char *const *keys, const char *const *values,
                  int count, int64_t *packets) {
    CFFmpeg_quiet_logs();
    *packets = 0;
    AVFormatContext *in = NULL, *out = NULL;
    AVDictionary *options = NULL;
    AVPacket *pkt = av_packet_alloc();
    int *map = NULL;
    int err = pkt ? 0 : AVERROR(ENOMEM);
    if (err < 0 || (err = CFFmpeg_open_local_input(input, &in)) < 0) goto done;
    if ((err = avformat_alloc_output_context2(&out, NULL, NULL, output)) < 0) goto done;
    if (!(map = av_calloc(in->nb_streams, sizeof *map))) { err = AVERROR(ENOMEM); goto done; }
    if ((err = copy_streams(in, out, map)) < 0) goto done;
    if ((err = set_tags(out, keys, values, count)) < 0) goto done;
    if ((err = CFFmpeg_open_local_output(output, &out->pb)) < 0) goto done;
    av_dict_set(&options, "movflags", "use_metadata_tags", 0);
    if ((err = avformat_write_header(out, &options)) < 0) goto done;
    while ((err = av_read_frame(in, pkt)) >= 0) {
        int index = map[pkt->stream_index];
        if (index < 0) { av_packet_unref(pkt); continue; }
        av_packet_rescale_ts(pkt, in->streams[pkt->stream_index]->time_base, out->streams[index]->time_base);
        pkt->stream_index = index;
        pkt->pos = -1;
        if ((err = av_interleaved_write_frame(out, pkt)) < 0) goto done;  // takes the packet's reference
        (*packets)++;
    }
    if (err != AVERROR_EOF) goto done;  // a finished file reads to its end; anything else is damage
    if ((err = av_write_trailer(out)) < 0) goto done;
    err = avio_closep(&out->pb);
done:
    av_dict_free(&options);
    av_packet_free(&pkt);
    av_free(map);
    avformat_close_input(&in);
    if (out) {
        if (out->pb) avio_closep(&out->pb);
        avformat_free_context(out);
    }
    return err;
}

int CFFmpeg_read_tag(const char *path, const char *key, char **value) {
    *value = NULL;
    AVFormatContext *in = NULL;
    int err = CFFmpeg_open_local_input(path, &in);
    if (err < 0) return err;
    const AVDictionaryEntry *entry = av_dict_get(in->metadata, key, NULL, AV_DICT_MATCH_CASE);
    if (entry) {
        size_t n = strlen(entry->value) + 1;
        if ((*value = av_malloc(n))) memcpy(*value, entry->value, n);
        else err = AVERROR(ENOMEM);
    }
    avformat_close_input(&in);
    return err;
}

void CFFmpeg_free(void *pointer) { av_free(pointer); }
