// SHA-256 through libavutil's av_sha (see include/CFFmpeg.h): the hash a backup keeps of every
// file, from the FFmpeg cravey already relies on instead of a second cryptography library.
#include "CFFmpeg.h"

#include <errno.h>
#include <stdlib.h>
#include <libavutil/version.h>
#include "hash_libraries.h"  // last: calls below go through the table of functions

CLOADER_DEFINE(CFFmpegHash, CFFMPEG_HASH_FUNCTIONS, "FFmpeg's libavutil", "libavutil57",
               "libavutil.so." AV_STRINGIFY(LIBAVUTIL_VERSION_MAJOR))

struct CFFmpeg_sha256 {
    struct AVSHA *sha;
};

int CFFmpeg_sha256_begin(CFFmpeg_sha256 **out) {
    *out = NULL;
    if (CFFmpegHash_load() != 0) return -ENOENT;
    struct AVSHA *sha = av_sha_alloc();
    if (!sha) return -ENOMEM;
    if (av_sha_init(sha, 256) < 0) {
        av_free(sha);
        return -EINVAL;
    }
    CFFmpeg_sha256 *hash = calloc(1, sizeof *hash);
    if (!hash) {
        av_free(sha);
        return -ENOMEM;
    }
    hash->sha = sha;
    *out = hash;
    return 0;
}

void CFFmpeg_sha256_update(CFFmpeg_sha256 *hash, const void *bytes, size_t count) {
    // av_sha_update takes an unsigned int count in FFmpeg 5.1: large blocks go in pieces.
    const uint8_t *next = bytes;
    while (count > 0) {
        unsigned int piece = count > (1u << 30) ? (1u << 30) : (unsigned int)count;
        av_sha_update(hash->sha, next, piece);
        next += piece;
        count -= piece;
    }
}

void CFFmpeg_sha256_finish(CFFmpeg_sha256 *hash, uint8_t digest[32]) {
    av_sha_final(hash->sha, digest);
    av_free(hash->sha);
    free(hash);
}
