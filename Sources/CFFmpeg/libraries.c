// The table of FFmpeg functions and the libraries they come from (see libraries.h).
#include "libraries.h"

CLOADER_DEFINE(CFFmpeg, CFFMPEG_FUNCTIONS, "FFmpeg",
               "libavformat59 libavcodec59 libswscale6 libswresample4 libavutil57",
               "libavformat.so." AV_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR),
               "libavcodec.so." AV_STRINGIFY(LIBAVCODEC_VERSION_MAJOR),
               "libswscale.so." AV_STRINGIFY(LIBSWSCALE_VERSION_MAJOR),
               "libswresample.so." AV_STRINGIFY(LIBSWRESAMPLE_VERSION_MAJOR),
               "libavutil.so." AV_STRINGIFY(LIBAVUTIL_VERSION_MAJOR))
