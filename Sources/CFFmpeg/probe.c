// Probe (see include/CFFmpeg.h): a media file's streams and their facts.
#include "CFFmpeg.h"
#include "open_stream.h"

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <stdio.h>
#include <string.h>
#include "libraries.h"  // last: calls below go through the table of functions

int CFFmpeg_probe(const char *path, CFFmpeg_probe_info *info) {
    CFFmpeg_quiet_logs();
    memset(info, 0, sizeof *info);
    AVFormatContext *fmt = NULL;
    int err = CFFmpeg_open_local_input(path, &fmt);
    if (err < 0) return err;
    snprintf(info->format, sizeof info->format, "%s", fmt->iformat->name);
    for (unsigned i = 0; i < fmt->nb_streams; i++) {
        AVStream *st = fmt->streams[i];
        AVCodecParameters *par = st->codecpar;
        double duration = st->duration != AV_NOPTS_VALUE ? st->duration * av_q2d(st->time_base) : 0;
        if (par->codec_type == AVMEDIA_TYPE_AUDIO && !info->has_audio) {
            info->has_audio = 1;
            snprintf(info->audio_codec, sizeof info->audio_codec, "%s", avcodec_get_name(par->codec_id));
            info->sample_rate = par->sample_rate;
            info->channels = par->ch_layout.nb_channels;
        } else if (par->codec_type == AVMEDIA_TYPE_VIDEO && !info->has_video && !(st->disposition & AV_DISPOSITION_ATTACHED_PIC)) {
            info->has_video = 1;
            snprintf(info->video_codec, sizeof info->video_codec, "%s", avcodec_get_name(par->codec_id));
            info->width = par->width;
            info->height = par->height;
            if (st->avg_frame_rate.den) info->fps = av_q2d(st->avg_frame_rate);
        } else {
            continue;
        }
        if (duration > info->duration) info->duration = duration;
    }
    if (info->duration <= 0 && fmt->duration != AV_NOPTS_VALUE) info->duration = fmt->duration / (double)AV_TIME_BASE;
    if (!info->has_audio && !info->has_video) err = AVERROR_INVALIDDATA;
done:
    avformat_close_input(&fmt);
    return err;
}

