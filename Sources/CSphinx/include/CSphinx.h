// CSphinx: the thin C layer between cravey and PocketSphinx (offline speech recognition).
//
// Why a shim: PocketSphinx is configured through a variadic list of command-line style strings,
// logs to stderr unless told otherwise, returns its words as a linked segment iterator with
// fillers and alternate pronunciations ("word(2)") mixed in, and counts time in feature frames.
// Here a recognizer opens a model directory in one call with its log silenced, an utterance is
// begun, fed 16 kHz mono samples and ended, and its words come back as plain text with times in
// seconds from the utterance's start. Errors are negative errno values. Every function is
// prefixed CSphinx_.
#ifndef CSPHINX_H
#define CSPHINX_H

#include <stddef.h>
#include <stdint.h>

typedef struct CSphinx_recognizer CSphinx_recognizer;

/// The sample rate every utterance is fed at.
extern const int CSphinx_sample_rate;

/// Opens the model in `model_dir`: the acoustic model in `en-us/`, the language model
/// `en-us.lm.bin` and the dictionary `cmudict-en-us.dict`. Returns 0, -ENOENT (a model file is
/// missing), -EACCES (one cannot be read), -EINVAL (the model does not load) or -ENOMEM.
int CSphinx_open(const char *model_dir, CSphinx_recognizer **out);

/// Starts an utterance. Returns 0 or -EIO.
int CSphinx_begin(CSphinx_recognizer *recognizer);

/// Adds `count` samples (16 kHz mono) to the utterance. Returns 0 or -EIO.
int CSphinx_feed(CSphinx_recognizer *recognizer, const int16_t *samples, size_t count);

/// Ends the utterance and keeps its words (fillers and silences left out). Returns the number of
/// words, or -EIO / -ENOMEM.
int CSphinx_end(CSphinx_recognizer *recognizer);

/// Word `index` of the last utterance ended: its text (NUL-terminated, cut to `size`), start and
/// end in seconds from the utterance's first sample. Returns 0 or -ERANGE.
int CSphinx_word(const CSphinx_recognizer *recognizer, int index, char *text, size_t size, double *start, double *end);

void CSphinx_free(CSphinx_recognizer *recognizer);

/// Opens this shim's libraries (the Swift floor calls it before its first call into the shim):
/// 0, or -ENOENT with the line for the user in CSphinx_load_message().
int CSphinx_load(void);
const char *CSphinx_load_message(void);

#endif
