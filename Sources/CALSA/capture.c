// Capture and device hints over libasound. See include/CALSA.h for why this shim exists.
#include "CALSA.h"

#include <alsa/asoundlib.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "libraries.h"  // last: calls below go through the table of functions

// alsa-lib prints its own diagnostics to stderr; cravey reports every failure itself, in one
// line, from the error code, so the library's printing is switched off.
static void silent(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

static void quiet_alsa(void) { snd_lib_error_set_handler(silent); }

struct CALSA_capture {
    snd_pcm_t *pcm;
    snd_pcm_format_t format;
    unsigned int rate;
    unsigned int channels;
    snd_pcm_uframes_t period;
    void *buffer;          // one period of interleaved device samples
    size_t buffer_frames;
    unsigned long overruns; // times the device's buffer filled before it was read (samples lost)
};

// Stage 1: hardware parameters. Tries the formats cravey can convert, best first.
static int negotiate(CALSA_capture *c, unsigned int rate) {
    snd_pcm_hw_params_t *hw;
    int err = snd_pcm_hw_params_malloc(&hw);
    if (err < 0) return err;
    static const snd_pcm_format_t formats[] = {SND_PCM_FORMAT_S16_LE, SND_PCM_FORMAT_FLOAT_LE, SND_PCM_FORMAT_S32_LE};
    err = -EINVAL;
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        if ((err = snd_pcm_hw_params_any(c->pcm, hw)) < 0) break;
        if ((err = snd_pcm_hw_params_set_access(c->pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED)) < 0) break;
        if ((err = snd_pcm_hw_params_set_format(c->pcm, hw, formats[i])) < 0) continue;
        c->format = formats[i];
        unsigned int channels = 1;
        if ((err = snd_pcm_hw_params_set_channels_near(c->pcm, hw, &channels)) < 0) break;
        c->channels = channels;
        unsigned int actual_rate = rate;
        if ((err = snd_pcm_hw_params_set_rate_near(c->pcm, hw, &actual_rate, NULL)) < 0) break;
        c->rate = actual_rate;
        // Periods of 20 ms keep the meter and the A/V clock fresh; a buffer of 2 s lets a reader
        // that is held up (a busy machine, a slow disk's sync) catch up without losing sound.
        unsigned int period_us = 20000, buffer_us = 2000000;
        snd_pcm_hw_params_set_period_time_near(c->pcm, hw, &period_us, NULL);
        snd_pcm_hw_params_set_buffer_time_near(c->pcm, hw, &buffer_us, NULL);
        if ((err = snd_pcm_hw_params(c->pcm, hw)) < 0) continue;
        snd_pcm_hw_params_get_period_size(hw, &c->period, NULL);
        break;
    }
    snd_pcm_hw_params_free(hw);
    return err;
}

// Stage 2: software parameters: timestamps from CLOCK_MONOTONIC for the A/V clock.
static int configure_timestamps(CALSA_capture *c) {
    snd_pcm_sw_params_t *sw;
    int err = snd_pcm_sw_params_malloc(&sw);
    if (err < 0) return err;
    if ((err = snd_pcm_sw_params_current(c->pcm, sw)) >= 0) {
        snd_pcm_sw_params_set_tstamp_mode(c->pcm, sw, SND_PCM_TSTAMP_ENABLE);
        snd_pcm_sw_params_set_tstamp_type(c->pcm, sw, SND_PCM_TSTAMP_TYPE_MONOTONIC);
        snd_pcm_sw_params(c->pcm, sw);
    }
    snd_pcm_sw_params_free(sw);
    return 0;  // timestamps are a nicety: a device without them still records
}

int CALSA_capture_open(const char *name, unsigned int rate, CALSA_capture **out) {
    *out = NULL;
    quiet_alsa();
    CALSA_capture *c = calloc(1, sizeof *c);
    if (!c) return -ENOMEM;
    int err = snd_pcm_open(&c->pcm, name, SND_PCM_STREAM_CAPTURE, 0);
    if (err < 0) { free(c); return err; }
    if ((err = negotiate(c, rate)) < 0 || (err = configure_timestamps(c)) < 0) goto fail;
    if (c->period == 0) c->period = rate / 50;
    c->buffer_frames = c->period;
    c->buffer = malloc(c->buffer_frames * c->channels * (size_t)snd_pcm_format_physical_width(c->format) / 8);
    if (!c->buffer) { err = -ENOMEM; goto fail; }
    if ((err = snd_pcm_prepare(c->pcm)) < 0) goto fail;
    if ((err = snd_pcm_start(c->pcm)) < 0) goto fail;
    *out = c;
    return 0;
fail:
    snd_pcm_close(c->pcm);
    free(c->buffer);
    free(c);
    return err;
}

unsigned int CALSA_capture_rate(const CALSA_capture *c) { return c->rate; }
unsigned int CALSA_capture_channels(const CALSA_capture *c) { return c->channels; }
unsigned long CALSA_capture_period_frames(const CALSA_capture *c) { return c->period; }
unsigned long CALSA_capture_overruns(const CALSA_capture *c) { return c->overruns; }
const char *CALSA_capture_format_name(const CALSA_capture *c) { return snd_pcm_format_name(c->format); }

// Stage 3: interleaved device samples → mono float.
static void downmix(const CALSA_capture *c, float *mono, snd_pcm_uframes_t frames) {
    const unsigned ch = c->channels;
    for (snd_pcm_uframes_t f = 0; f < frames; f++) {
        float sum = 0;
        for (unsigned k = 0; k < ch; k++) {
            size_t i = f * ch + k;
            switch (c->format) {
            case SND_PCM_FORMAT_S16_LE: sum += ((const int16_t *)c->buffer)[i] / 32768.0f; break;
            case SND_PCM_FORMAT_S32_LE: sum += ((const int32_t *)c->buffer)[i] / 2147483648.0f; break;
            default: sum += ((const float *)c->buffer)[i]; break;
            }
        }
        mono[f] = sum / (float)ch;
    }
}

long CALSA_capture_read(CALSA_capture *c, float *mono, unsigned long max_frames) {
    snd_pcm_uframes_t want = max_frames < c->buffer_frames ? max_frames : c->buffer_frames;
    for (;;) {
        snd_pcm_sframes_t n = snd_pcm_readi(c->pcm, c->buffer, want);
        if (n == -EAGAIN) continue;
        if (n == -EINTR) return -EINTR;
        if (n == -EPIPE || n == -ESTRPIPE) {
            // Overrun or suspend: recover and keep recording (the samples in the buffer are lost;
            // the A/V clock fills the gap with silence and the recorder reports it).
            c->overruns++;
            int err = snd_pcm_recover(c->pcm, (int)n, 1);
            if (err < 0) return err;
            if (snd_pcm_state(c->pcm) == SND_PCM_STATE_PREPARED) snd_pcm_start(c->pcm);
            continue;
        }
        if (n < 0) return (long)n;
        if (n == 0) continue;
        downmix(c, mono, (snd_pcm_uframes_t)n);
        return (long)n;
    }
}

int CALSA_capture_clock(CALSA_capture *c, long long *ns, long *delay) {
    snd_pcm_status_t *status;
    *ns = 0;
    *delay = 0;
    int err = snd_pcm_status_malloc(&status);
    if (err < 0) return err;
    // One status read gives both numbers from the same moment: at `ns`, the device was capturing the
    // sample `delay` frames after the last one read.
    if ((err = snd_pcm_status(c->pcm, status)) == 0) {
        snd_htimestamp_t ts;
        snd_pcm_status_get_htstamp(status, &ts);
        *ns = (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
        *delay = snd_pcm_status_get_delay(status);
    }
    snd_pcm_status_free(status);
    if (*ns == 0) {  // a plugin without timestamps: now, with nothing pending
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        *ns = (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
        *delay = 0;
    }
    return err;
}

void CALSA_capture_close(CALSA_capture *c) {
    if (!c) return;
    snd_pcm_drop(c->pcm);
    snd_pcm_close(c->pcm);
    free(c->buffer);
    free(c);
}

const char *CALSA_strerror(int error) { return snd_strerror(error); }

// Stage: whether a PCM the hints leave undirected can record — opened for capture without
// blocking and closed at once; busy counts as yes (someone else is recording from it).
static int can_capture(const char *name) {
    snd_pcm_t *pcm;
    int err = snd_pcm_open(&pcm, name, SND_PCM_STREAM_CAPTURE, SND_PCM_NONBLOCK);
    if (err == 0) snd_pcm_close(pcm);
    return err == 0 || err == -EBUSY || err == -EAGAIN;
}

int CALSA_hints(CALSA_hint **out, size_t *count) {
    *out = NULL;
    *count = 0;
    quiet_alsa();
    void **hints;
    int err = snd_device_name_hint(-1, "pcm", &hints);
    if (err < 0) return err;
    size_t n = 0;
    for (void **h = hints; *h; h++) n++;
    CALSA_hint *list = calloc(n ? n : 1, sizeof *list);
    if (!list) { snd_device_name_free_hint(hints); return -ENOMEM; }
    size_t used = 0;
    for (void **h = hints; *h; h++) {
        char *name = snd_device_name_get_hint(*h, "NAME");
        if (!name) continue;
        char *desc = snd_device_name_get_hint(*h, "DESC");
        char *io = snd_device_name_get_hint(*h, "IOID");  // NULL means both directions
        list[used].name = name;
        list[used].description = desc ? desc : strdup("");
        list[used].input = !io || strcmp(io, "Input") == 0;
        list[used].output = !io || strcmp(io, "Output") == 0;
        if (!io) list[used].input = can_capture(name);  // "both" is only a guess for plugins: ask
        free(io);
        used++;
    }
    snd_device_name_free_hint(hints);
    *out = list;
    *count = used;
    return 0;
}

void CALSA_hints_free(CALSA_hint *hints, size_t count) {
    for (size_t i = 0; i < count; i++) {
        free(hints[i].name);
        free(hints[i].description);
    }
    free(hints);
}
