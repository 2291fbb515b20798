// A PocketSphinx decoder over one model directory, fed one utterance at a time.
#include "CSphinx.h"

#include <pocketsphinx/pocketsphinx.h>
#include <sphinxbase/err.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "libraries.h"  // last: calls below go through the table of functions

const int CSphinx_sample_rate = 16000;

typedef struct {
    char *text;
    int start_frame, end_frame;
} word_t;

struct CSphinx_recognizer {
    ps_decoder_t *decoder;
    int frame_rate;
    word_t *words;
    int count, capacity;
};

static void clear_words(CSphinx_recognizer *recognizer) {
    for (int i = 0; i < recognizer->count; i++) free(recognizer->words[i].text);
    recognizer->count = 0;
}

/// 0 when `path` can be read, else -ENOENT or -EACCES.
static int check_readable(const char *path) {
    if (access(path, R_OK) == 0) return 0;
    return errno == ENOENT || errno == ENOTDIR ? -ENOENT : -EACCES;
}

int CSphinx_open(const char *model_dir, CSphinx_recognizer **out) {
    char hmm[PATH_MAX], lm[PATH_MAX], dict[PATH_MAX], mdef[PATH_MAX];
    *out = NULL;
    if (snprintf(hmm, sizeof hmm, "%s/en-us", model_dir) >= (int)sizeof hmm) return -ENAMETOOLONG;
    snprintf(lm, sizeof lm, "%s/en-us.lm.bin", model_dir);
    snprintf(dict, sizeof dict, "%s/cmudict-en-us.dict", model_dir);
    snprintf(mdef, sizeof mdef, "%s/en-us/mdef", model_dir);
    // PocketSphinx reports a missing file only in its log; checking first gives the caller a cause.
    int status;
    if ((status = check_readable(mdef)) < 0 || (status = check_readable(lm)) < 0 || (status = check_readable(dict)) < 0)
        return status;

    err_set_logfp(NULL);  // its log goes to stderr by default; cravey reports errors itself
    cmd_ln_t *config = cmd_ln_init(NULL, ps_args(), TRUE, "-hmm", hmm, "-lm", lm, "-dict", dict, "-logfn", "/dev/null",
                                  // cravey cuts the sound at pauses itself; the decoder's own silence
                                  // removal would make its frame numbers skip the silence it drops
                                  "-remove_silence", "no", NULL);
    if (!config) return -EINVAL;
    ps_decoder_t *decoder = ps_init(config);
    int frame_rate = (int)cmd_ln_int32_r(config, "-frate");
    cmd_ln_free_r(config);  // the decoder keeps its own reference
    if (!decoder) return -EINVAL;

    CSphinx_recognizer *recognizer = calloc(1, sizeof *recognizer);
    if (!recognizer) {
        ps_free(decoder);
        return -ENOMEM;
    }
    recognizer->decoder = decoder;
    recognizer->frame_rate = frame_rate > 0 ? frame_rate : 100;
    *out = recognizer;
    return 0;
}

int CSphinx_begin(CSphinx_recognizer *recognizer) {
    clear_words(recognizer);
    return ps_start_utt(recognizer->decoder) < 0 ? -EIO : 0;
}

int CSphinx_feed(CSphinx_recognizer *recognizer, const int16_t *samples, size_t count) {
    return ps_process_raw(recognizer->decoder, samples, count, FALSE, FALSE) < 0 ? -EIO : 0;
}

/// True for the decoder's own tokens: sentence marks, silence and noise fillers.
static int is_filler(const char *word) {
    return word[0] == '<' || word[0] == '[' || (word[0] == '+' && word[1] == '+');
}

static int keep_word(CSphinx_recognizer *recognizer, const char *word, int start, int end) {
    if (recognizer->count == recognizer->capacity) {
        int capacity = recognizer->capacity ? recognizer->capacity * 2 : 32;
        word_t *grown = realloc(recognizer->words, (size_t)capacity * sizeof *grown);
        if (!grown) return -ENOMEM;
        recognizer->words = grown;
        recognizer->capacity = capacity;
    }
    // An alternate pronunciation is spelled "word(2)"; the word is what comes before.
    size_t length = strcspn(word, "(");
    char *text = strndup(word, length);
    if (!text) return -ENOMEM;
    recognizer->words[recognizer->count++] = (word_t){text, start, end};
    return 0;
}

int CSphinx_end(CSphinx_recognizer *recognizer) {
    if (ps_end_utt(recognizer->decoder) < 0) return -EIO;
    int32 score;
    if (!ps_get_hyp(recognizer->decoder, &score)) return 0;  // nothing recognized
    // The decoder numbers frames from its first utterance on, and opens each utterance with a
    // sentence-start segment at the utterance's first frame: times are counted from there.
    int first = -1;
    for (ps_seg_t *seg = ps_seg_iter(recognizer->decoder); seg; seg = ps_seg_next(seg)) {
        const char *word = ps_seg_word(seg);
        int start, end;
        ps_seg_frames(seg, &start, &end);
        if (first < 0) first = start;
        if (!word || is_filler(word)) continue;
        int status = keep_word(recognizer, word, start - first, end - first);
        if (status < 0) {
            ps_seg_free(seg);
            return status;
        }
    }
    return recognizer->count;
}

int CSphinx_word(const CSphinx_recognizer *recognizer, int index, char *text, size_t size, double *start, double *end) {
    if (index < 0 || index >= recognizer->count) return -ERANGE;
    const word_t *word = &recognizer->words[index];
    if (size > 0) snprintf(text, size, "%s", word->text);
    *start = (double)word->start_frame / recognizer->frame_rate;
    *end = (double)(word->end_frame + 1) / recognizer->frame_rate;
    return 0;
}

void CSphinx_free(CSphinx_recognizer *recognizer) {
    if (!recognizer) return;
    clear_words(recognizer);
    free(recognizer->words);
    ps_free(recognizer->decoder);
    free(recognizer);
}
