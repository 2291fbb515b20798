// Playback over libasound (see include/CALSA.h).
#include "CALSA.h"

#include <alsa/asoundlib.h>
#include <errno.h>
#include <stdlib.h>
#include "libraries.h"  // last: calls below go through the table of functions

struct CALSA_playback {
    snd_pcm_t *pcm;
    unsigned int rate;
    unsigned int channels;
    int can_pause;
};

// As for capture: alsa-lib's own printing is switched off; cravey words every failure itself.
static void silent(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

int CALSA_playback_open(const char *name, unsigned int rate, unsigned int channels, CALSA_playback **out) {
    *out = NULL;
    snd_lib_error_set_handler(silent);
    CALSA_playback *p = calloc(1, sizeof *p);
    if (!p) return -ENOMEM;
    // Non-blocking open: a device another program holds answers -EBUSY at once instead of
    // waiting for it to be let go. Writes block again once the stream is configured.
    int err = snd_pcm_open(&p->pcm, name, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK);
    if (err == -EAGAIN) err = -EBUSY;  // some drivers say "try again" for a device that is held
    if (err < 0) { free(p); return err; }
    snd_pcm_hw_params_t *hw;
    if ((err = snd_pcm_hw_params_malloc(&hw)) < 0) goto fail;
    unsigned int actual = rate, period_us = 20000, buffer_us = 100000;
    if ((err = snd_pcm_hw_params_any(p->pcm, hw)) >= 0 &&
        (err = snd_pcm_hw_params_set_access(p->pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED)) >= 0 &&
        (err = snd_pcm_hw_params_set_format(p->pcm, hw, SND_PCM_FORMAT_S16_LE)) >= 0 &&
        (err = snd_pcm_hw_params_set_channels(p->pcm, hw, channels)) >= 0 &&
        (err = snd_pcm_hw_params_set_rate_near(p->pcm, hw, &actual, NULL)) >= 0) {
        snd_pcm_hw_params_set_period_time_near(p->pcm, hw, &period_us, NULL);
        snd_pcm_hw_params_set_buffer_time_near(p->pcm, hw, &buffer_us, NULL);
        err = snd_pcm_hw_params(p->pcm, hw);
        p->can_pause = snd_pcm_hw_params_can_pause(hw);
    }
    snd_pcm_hw_params_free(hw);
    if (err < 0) goto fail;
    if ((err = snd_pcm_nonblock(p->pcm, 0)) < 0) goto fail;
    p->rate = actual;
    p->channels = channels;
    *out = p;
    return 0;
fail:
    snd_pcm_close(p->pcm);
    free(p);
    return err;
}

unsigned int CALSA_playback_rate(const CALSA_playback *p) { return p->rate; }

long CALSA_playback_write(CALSA_playback *p, const short *samples, unsigned long frames) {
    unsigned long done = 0;
    while (done < frames) {
        snd_pcm_sframes_t n = snd_pcm_writei(p->pcm, samples + done * p->channels, frames - done);
        if (n == -EAGAIN || n == -EINTR) continue;
        if (n == -EPIPE || n == -ESTRPIPE) {  // underrun or suspend: recover and go on
            int err = snd_pcm_recover(p->pcm, (int)n, 1);
            if (err < 0) return err;
            continue;
        }
        if (n < 0) return (long)n;
        done += (unsigned long)n;
    }
    return (long)done;
}

long CALSA_playback_delay(CALSA_playback *p) {
    snd_pcm_sframes_t delay = 0;
    if (snd_pcm_delay(p->pcm, &delay) < 0 || delay < 0) return 0;
    return (long)delay;
}

int CALSA_playback_pause(CALSA_playback *p, int pause) {
    if (p->can_pause) return snd_pcm_pause(p->pcm, pause);
    if (pause) return snd_pcm_drop(p->pcm);
    return snd_pcm_prepare(p->pcm);
}

int CALSA_playback_drop(CALSA_playback *p) {
    int err = snd_pcm_drop(p->pcm);
    if (err < 0) return err;
    return snd_pcm_prepare(p->pcm);
}

int CALSA_playback_drain(CALSA_playback *p) { return snd_pcm_drain(p->pcm); }

void CALSA_playback_close(CALSA_playback *p) {
    if (!p) return;
    snd_pcm_close(p->pcm);
    free(p);
}
