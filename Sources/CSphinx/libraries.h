// The PocketSphinx functions this shim calls, resolved on first use (see CLoader.h: the executable
// does not link PocketSphinx, so a call to a function missing from this list does not link).
// Include it after the libraries' headers and before any call: each name below becomes a call
// through the table, which opens the libraries the first time.
#ifndef CSPHINX_LIBRARIES_H
#define CSPHINX_LIBRARIES_H

#include <CLoader.h>
#include <pocketsphinx/pocketsphinx.h>
#include <sphinxbase/err.h>

// cmd_ln_int_r is what SphinxBase's cmd_ln_int32_r macro calls.
#define CSPHINX_FUNCTIONS(X) \
    X(cmd_ln_free_r) \
    X(cmd_ln_init) \
    X(cmd_ln_int_r) \
    X(err_set_logfp) \
    X(ps_args) \
    X(ps_end_utt) \
    X(ps_free) \
    X(ps_get_hyp) \
    X(ps_init) \
    X(ps_process_raw) \
    X(ps_seg_frames) \
    X(ps_seg_free) \
    X(ps_seg_iter) \
    X(ps_seg_next) \
    X(ps_seg_word) \
    X(ps_start_utt)

CLOADER_DECLARE(CSphinx, CSPHINX_FUNCTIONS)

#define cmd_ln_free_r CLOADER_CALL(CSphinx, cmd_ln_free_r)
#define cmd_ln_init CLOADER_CALL(CSphinx, cmd_ln_init)
#define cmd_ln_int_r CLOADER_CALL(CSphinx, cmd_ln_int_r)
#define err_set_logfp CLOADER_CALL(CSphinx, err_set_logfp)
#define ps_args CLOADER_CALL(CSphinx, ps_args)
#define ps_end_utt CLOADER_CALL(CSphinx, ps_end_utt)
#define ps_free CLOADER_CALL(CSphinx, ps_free)
#define ps_get_hyp CLOADER_CALL(CSphinx, ps_get_hyp)
#define ps_init CLOADER_CALL(CSphinx, ps_init)
#define ps_process_raw CLOADER_CALL(CSphinx, ps_process_raw)
#define ps_seg_frames CLOADER_CALL(CSphinx, ps_seg_frames)
#define ps_seg_free CLOADER_CALL(CSphinx, ps_seg_free)
#define ps_seg_iter CLOADER_CALL(CSphinx, ps_seg_iter)
#define ps_seg_next CLOADER_CALL(CSphinx, ps_seg_next)
#define ps_seg_word CLOADER_CALL(CSphinx, ps_seg_word)
#define ps_start_utt CLOADER_CALL(CSphinx, ps_start_utt)

#endif
