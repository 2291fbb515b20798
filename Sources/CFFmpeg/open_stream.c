// See open_stream.h.
#include "open_stream.h"

int CFFmpeg_open_stream(const char *path, enum AVMediaType type, int threads, AVFormatContext **format, AVCodecContext **codec) {
    *format = NULL;
    *codec = NULL;
    const AVCodec *decoder = NULL;
    int index;
    int err = avformat_open_input(format, path, NULL, NULL);
    if (err < 0) return err;
    if ((err = avformat_find_stream_info(*format, NULL)) < 0) goto fail;
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
