// The writer's parts shared by its two files (not part of the public shim): writer.c opens,
// encodes and finishes; writer_parallel.c encodes a long sound in stretches on several threads.
#ifndef CFFMPEG_WRITER_H
#define CFFMPEG_WRITER_H

#include "CFFmpeg.h"

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/audio_fifo.h>
#include <libswscale/swscale.h>
#include <pthread.h>

// One encoded stream: its encoder, a reusable frame and packet (mux.c's OutputStream).
typedef struct {
    AVStream *stream;
    AVCodecContext *encoder;
    AVFrame *frame;
    AVPacket *packet;
} OutputStream;

struct CFFmpeg_writer {
    AVFormatContext *format;
    OutputStream audio;
    OutputStream video;
    struct SwsContext *scaler;
    int in_width, in_height;
    enum AVPixelFormat in_format;
    int64_t video_frames;
    int64_t last_video_pts;
    AVAudioFifo *fifo;      // samples waiting for a whole encoder frame
    int64_t samples_in;     // samples given to the writer
    int64_t next_pts;       // pts of the next frame sent to the encoder, in samples
    int64_t audio_start;    // pts of the first sample: the encoder's priming, so packets start at 0
    // The recorder encodes sound and pictures on two threads: each encoder is used by one thread
    // only, and this lock serializes what they share, the muxer and the file.
    pthread_mutex_t mux;
};

#endif
