// CALSA: the thin C layer between cravey and libasound.
//
// Why a shim: ALSA's hardware-parameter API is a long sequence of calls on opaque structs
// allocated with macros (snd_pcm_hw_params_alloca) that Swift cannot import, and the read loop
// must recover from xruns (EPIPE) and suspends (ESTRPIPE) in a precise order. Doing that here
// keeps Swift free of ALSA types. Every function is prefixed CALSA_, returns a negative errno
// on failure, and does one stage (open/negotiate, read, close, hints).
#ifndef CALSA_H
#define CALSA_H

#include <stddef.h>

/// An open capture stream, negotiated and started; reads deliver mono float samples.
typedef struct CALSA_capture CALSA_capture;

/// Opens the capture PCM `name` (any ALSA name: "default", "hw:1,0", "plughw:…"), negotiates
/// interleaved S16, float or S32 at `rate` Hz (or the nearest the device offers), as few channels
/// as it allows (they are downmixed to mono), and ~20 ms periods. Returns 0 or a negative errno:
/// -EBUSY when another program holds the device, -ENOENT/-EINVAL for unknown names.
int CALSA_capture_open(const char *name, unsigned int rate, CALSA_capture **out);

unsigned int CALSA_capture_rate(const CALSA_capture *capture);
unsigned int CALSA_capture_channels(const CALSA_capture *capture);
unsigned long CALSA_capture_period_frames(const CALSA_capture *capture);
/// Times the device's buffer filled before it was read (each one lost sound).
unsigned long CALSA_capture_overruns(const CALSA_capture *capture);
/// The negotiated sample format's ALSA name ("S16_LE", "FLOAT_LE", …).
const char *CALSA_capture_format_name(const CALSA_capture *capture);

/// Blocks until up to `max_frames` frames are captured and writes them to `mono` as floats in
/// [-1, 1], downmixed. Returns the number of frames (> 0), -EINTR if a signal interrupted the
/// wait (call again), or another negative errno when the stream cannot go on (-ENODEV, -EBADFD,
/// -EIO: the device went away; what was read before is good).
long CALSA_capture_read(CALSA_capture *capture, float *mono, unsigned long max_frames);

/// The capture clock, for A/V sync: `ns` is a CLOCK_MONOTONIC time (ns) at which the device was
/// capturing the frame `delay` frames after the last frame read (frames waiting in the buffer plus
/// the hardware's own delay). Plugins without timestamps give "now" and 0.
int CALSA_capture_clock(CALSA_capture *capture, long long *ns, long *delay);

void CALSA_capture_close(CALSA_capture *capture);

/// An open playback stream of interleaved S16 samples.
typedef struct CALSA_playback CALSA_playback;

/// Opens the playback PCM `name` for `channels` channels of S16 at `rate` Hz (ALSA's plug layer
/// converts when the device wants something else on `plug`/`default` names). The device is opened
/// without waiting for it (a device another program holds is -EBUSY at once); writes then block.
/// Configuring may still wait (a plugin writing to a pipe nobody reads): callers that must stay
/// responsive open on a thread of their own. Returns 0 or a negative errno.
int CALSA_playback_open(const char *name, unsigned int rate, unsigned int channels, CALSA_playback **out);
unsigned int CALSA_playback_rate(const CALSA_playback *playback);
/// Writes all `frames` (blocking), recovering from underruns. Returns frames written or a negative errno.
long CALSA_playback_write(CALSA_playback *playback, const short *samples, unsigned long frames);
/// Frames written but not yet heard (snd_pcm_delay), so a display can show what is heard.
long CALSA_playback_delay(CALSA_playback *playback);
/// Pauses (1) or resumes (0); devices that cannot pause are stopped and re-prepared.
int CALSA_playback_pause(CALSA_playback *playback, int pause);
/// Drops what is queued (for seeking) and prepares for new samples.
int CALSA_playback_drop(CALSA_playback *playback);
/// Waits until everything written has been played.
int CALSA_playback_drain(CALSA_playback *playback);
void CALSA_playback_close(CALSA_playback *playback);

/// ALSA's message for a (negative) error code.
const char *CALSA_strerror(int error);

/// One PCM from the device hints.
typedef struct {
    char *name;         ///< the name to open
    char *description;  ///< human-readable, may span lines
    int input;          ///< can capture
    int output;         ///< can play
} CALSA_hint;

/// The PCM hints of all cards (snd_device_name_hint). Returns 0 or a negative errno; free the
/// list with CALSA_hints_free.
int CALSA_hints(CALSA_hint **out, size_t *count);
void CALSA_hints_free(CALSA_hint *hints, size_t count);

/// Opens this shim's libraries (the Swift floor calls it before its first call into the shim):
/// 0, or -ENOENT with the line for the user in CALSA_load_message().
int CALSA_load(void);
const char *CALSA_load_message(void);

#endif
