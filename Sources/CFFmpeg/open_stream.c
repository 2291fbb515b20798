// See open_stream.h: what the writer, remux, probe, decoders and thumbnailer share.
#include "open_stream.h"

#include <errno.h>
#include <libavutil/dict.h>
#include <libavutil/imgutils.h>
#include <libavutil/time.h>
#include <stdio.h>
#include <sys/stat.h>

#include "CFFmpeg.h"
#include "libraries.h"  // last: calls below go through the table of functions

// "file:" + path, so that no part of a file name is read as another protocol.
static char *file_url(const char *path) {
    size_t n = strlen(path) + sizeof "file:";
    char *url = av_malloc(n);
    if (url) snprintf(url, n, "file:%s", path);
    return url;
}

static AVDictionary *file_protocol_only(void) {
    AVDictionary *options = NULL;
    av_dict_set(&options, "protocol_whitelist", "file", 0);
    return options;
}

const int CFFmpeg_AVERROR_INVALIDDATA = AVERROR_INVALIDDATA;

void CFFmpeg_strerror(int error, char *buffer, size_t size) {
    if (av_strerror(error, buffer, size) < 0) snprintf(buffer, size, "FFmpeg error %d", error);
}

void CFFmpeg_quiet_logs(void) { av_log_set_level(AV_LOG_QUIET); }

// Opening reads headers only; a crafted file can make a demuxer crawl through gigabytes of empty
// chunks looking for its data (a 10 GB sparse WAV: minutes at full CPU). Opening is given this
// long, then FFmpeg's interrupt callback stops it.
static const int64_t open_budget_us = 10 * 1000000;
static _Thread_local int64_t open_deadline;

static int past_deadline(void *unused) {
    (void)unused;
    return open_deadline != 0 && av_gettime_relative() > open_deadline;
}

int CFFmpeg_open_local_input(const char *path, AVFormatContext **format) {
    CFFmpeg_quiet_logs();
    *format = NULL;
    struct stat info;
    if (stat(path, &info) != 0) return AVERROR(errno);
    if (!S_ISREG(info.st_mode)) return AVERROR(EINVAL);
    char *url = file_url(path);
    AVFormatContext *fmt = avformat_alloc_context();
    if (!url || !fmt) { av_free(url); avformat_free_context(fmt); return AVERROR(ENOMEM); }
    fmt->interrupt_callback = (AVIOInterruptCB){ past_deadline, NULL };
    AVDictionary *options = file_protocol_only();
    open_deadline = av_gettime_relative() + open_budget_us;
    int err = avformat_open_input(&fmt, url, NULL, &options);  // frees fmt on failure
    if (err >= 0) err = avformat_find_stream_info(fmt, NULL);
    if (err < 0 && past_deadline(NULL)) err = AVERROR(ETIMEDOUT);
    open_deadline = 0;
    av_dict_free(&options);
    av_free(url);
    if (err < 0) { avformat_close_input(&fmt); return err; }
    *format = fmt;
    return 0;
}

int CFFmpeg_open_local_output(const char *path, AVIOContext **pb) {
    CFFmpeg_quiet_logs();
    char *url = file_url(path);
    if (!url) return AVERROR(ENOMEM);
    AVDictionary *options = file_protocol_only();
    int err = avio_open2(pb, url, AVIO_FLAG_WRITE, NULL, &options);
    av_dict_free(&options);
    av_free(url);
    return err;
}

int64_t CFFmpeg_frame_bytes(CFFmpeg_pixels layout, int width, int height) {
    enum AVPixelFormat format = layout == CFFmpeg_PIXELS_RGB24 ? AV_PIX_FMT_RGB24
                              : layout == CFFmpeg_PIXELS_YUYV  ? AV_PIX_FMT_YUYV422
                                                               : AV_PIX_FMT_YUV420P;
    return av_image_get_buffer_size(format, width, height, 1);
}

int CFFmpeg_open_stream(const char *path, enum AVMediaType type, int threads, AVFormatContext **format, AVCodecContext **codec) {
    *format = NULL;
    *codec = NULL;
    const AVCodec *decoder = NULL;
    int index;
    int err = CFFmpeg_open_local_input(path, format);
    if (err < 0) return err;
    if ((err = av_find_best_stream(*format, type, -1, -1, &decoder, 0)) < 0) goto fail;
    index = err;
    if (!(*codec = avcodec_alloc_context3(decoder))) { err = AVERROR(ENOMEM); goto fail; }
    if ((err = avcodec_parameters_to_context(*codec, (*format)->streams[index]->codecpar)) < 0) goto fail;
    (*codec)->thread_count = threads;
    if ((err = avcodec_open2(*codec, decoder, NULL)) < 0) goto fail;
    return index;
fail:
    avcodec_free_context(codec);
    avformat_close_input(format);
    return err;
}
