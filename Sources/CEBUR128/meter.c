// One EBU R128 meter per recording: integrated loudness (gated, EBU Tech 3341) and true peak
// (4x oversampled), the two figures playback needs to bring a recording to a common level
// without clipping.
#include "CEBUR128.h"

#include <ebur128.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include "libraries.h"  // last: calls below go through the table of functions

struct CEBUR128_meter {
    ebur128_state *state;
    int true_peak;
};

static int CEBUR128_errno(int error) {
    switch (error) {
    case EBUR128_SUCCESS: return 0;
    case EBUR128_ERROR_NOMEM: return -ENOMEM;
    default: return -EINVAL;
    }
}

int CEBUR128_meter_open(unsigned long rate, int true_peak, CEBUR128_meter **out) {
    *out = NULL;
    if (rate < 8000 || rate > 384000) return -EINVAL;
    CEBUR128_meter *meter = calloc(1, sizeof(*meter));
    if (!meter) return -ENOMEM;
    meter->true_peak = true_peak;
    meter->state = ebur128_init(1, rate, EBUR128_MODE_I | (true_peak ? EBUR128_MODE_TRUE_PEAK : 0));
    if (!meter->state) {
        free(meter);
        return -ENOMEM;
    }
    *out = meter;
    return 0;
}

int CEBUR128_meter_add(CEBUR128_meter *meter, const float *samples, size_t frames) {
    if (frames == 0) return 0;
    return CEBUR128_errno(ebur128_add_frames_float(meter->state, samples, frames));
}

int CEBUR128_meter_result(CEBUR128_meter *meter, double *lufs, double *true_peak_db) {
    double peak = 0;
    int error = meter->true_peak ? ebur128_true_peak(meter->state, 0, &peak) : EBUR128_SUCCESS;
    if (error != EBUR128_SUCCESS) return CEBUR128_errno(error);
    *true_peak_db = peak > 0 ? 20 * log10(peak) : -HUGE_VAL;
    double loudness = -HUGE_VAL;
    error = ebur128_loudness_global(meter->state, &loudness);
    if (error != EBUR128_SUCCESS) return CEBUR128_errno(error);
    *lufs = loudness;
    return isfinite(loudness) ? 0 : -ENODATA;
}

void CEBUR128_meter_free(CEBUR128_meter *meter) {
    if (!meter) return;
    ebur128_destroy(&meter->state);
    free(meter);
}
