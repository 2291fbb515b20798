// CEBUR128: the thin C layer between cravey and libebur128 (EBU R128 loudness).
//
// Why a shim: libebur128's modes are bit masks built from other masks, its errors are an enum of
// its own, and integrated loudness of silence is -HUGE_VAL. Here one meter measures exactly what
// cravey stores (integrated loudness and true peak of one channel), errors come back as negative
// errno values, and "too quiet to measure" is a plain answer. Every function is prefixed CEBUR128_.
#ifndef CEBUR128_H
#define CEBUR128_H

#include <stddef.h>

/// A running measurement of one mono signal.
typedef struct CEBUR128_meter CEBUR128_meter;

/// Starts a measurement at `rate` Hz (mono); with `true_peak`, the true peak is measured too (4x
/// oversampling: most of the meter's cost). Returns 0 or -ENOMEM / -EINVAL.
int CEBUR128_meter_open(unsigned long rate, int true_peak, CEBUR128_meter **out);

/// Adds `frames` samples in [-1, 1]. Returns 0 or a negative errno.
int CEBUR128_meter_add(CEBUR128_meter *meter, const float *samples, size_t frames);

/// Integrated loudness (LUFS) and true peak (dBTP) of everything added. Returns 0, or -ENODATA
/// when the signal is too short or too quiet to have a loudness (below the -70 LUFS gate); the
/// true peak is set in both cases (-HUGE_VAL for digital silence, or when not measured).
int CEBUR128_meter_result(CEBUR128_meter *meter, double *lufs, double *true_peak_db);

void CEBUR128_meter_free(CEBUR128_meter *meter);

/// Opens this shim's libraries (the Swift floor calls it before its first call into the shim):
/// 0, or -ENOENT with the line for the user in CEBUR128_load_message().
int CEBUR128_load(void);
const char *CEBUR128_load_message(void);

#endif
