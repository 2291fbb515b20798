// The libavutil functions the SHA-256 shim calls (see hash.c), a loader set of their own: hashing
// a backup's files opens libavutil alone, not the codecs and containers of the rest of this shim.
#ifndef CFFMPEG_HASH_LIBRARIES_H
#define CFFMPEG_HASH_LIBRARIES_H

#include <CLoader.h>
#include <libavutil/mem.h>
#include <libavutil/sha.h>

#define CFFMPEG_HASH_FUNCTIONS(X) \
    X(av_sha_alloc) \
    X(av_sha_init) \
    X(av_sha_update) \
    X(av_sha_final) \
    X(av_free)

CLOADER_DECLARE(CFFmpegHash, CFFMPEG_HASH_FUNCTIONS)

#define av_sha_alloc CLOADER_CALL(CFFmpegHash, av_sha_alloc)
#define av_sha_init CLOADER_CALL(CFFmpegHash, av_sha_init)
#define av_sha_update CLOADER_CALL(CFFmpegHash, av_sha_update)
#define av_sha_final CLOADER_CALL(CFFmpegHash, av_sha_final)
#define av_free CLOADER_CALL(CFFmpegHash, av_free)

#endif
