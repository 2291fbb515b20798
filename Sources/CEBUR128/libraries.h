// The libebur128 functions this shim calls, resolved on first use (see CLoader.h: the executable
// does not link libebur128, so a call to a function missing from this list does not link).
// Include it after the libraries' headers and before any call: each name below becomes a call
// through the table, which opens the libraries the first time.
#ifndef CEBUR128_LIBRARIES_H
#define CEBUR128_LIBRARIES_H

#include <CLoader.h>
#include <ebur128.h>

#define CEBUR128_FUNCTIONS(X) \
    X(ebur128_add_frames_float) \
    X(ebur128_destroy) \
    X(ebur128_init) \
    X(ebur128_loudness_global) \
    X(ebur128_true_peak)

CLOADER_DECLARE(CEBUR128, CEBUR128_FUNCTIONS)

#define ebur128_add_frames_float CLOADER_CALL(CEBUR128, ebur128_add_frames_float)
#define ebur128_destroy CLOADER_CALL(CEBUR128, ebur128_destroy)
#define ebur128_init CLOADER_CALL(CEBUR128, ebur128_init)
#define ebur128_loudness_global CLOADER_CALL(CEBUR128, ebur128_loudness_global)
#define ebur128_true_peak CLOADER_CALL(CEBUR128, ebur128_true_peak)

#endif
