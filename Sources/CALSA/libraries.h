// The ALSA functions this shim calls, resolved on first use (see CLoader.h: the executable
// does not link ALSA, so a call to a function missing from this list does not link).
// Include it after the libraries' headers and before any call: each name below becomes a call
// through the table, which opens the libraries the first time.
#ifndef CALSA_LIBRARIES_H
#define CALSA_LIBRARIES_H

#include <CLoader.h>
#include <alsa/asoundlib.h>

#define CALSA_FUNCTIONS(X) \
    X(snd_device_name_free_hint) \
    X(snd_device_name_get_hint) \
    X(snd_device_name_hint) \
    X(snd_lib_error_set_handler) \
    X(snd_pcm_close) \
    X(snd_pcm_delay) \
    X(snd_pcm_drain) \
    X(snd_pcm_drop) \
    X(snd_pcm_format_name) \
    X(snd_pcm_format_physical_width) \
    X(snd_pcm_hw_params) \
    X(snd_pcm_hw_params_any) \
    X(snd_pcm_hw_params_can_pause) \
    X(snd_pcm_hw_params_free) \
    X(snd_pcm_hw_params_get_period_size) \
    X(snd_pcm_hw_params_malloc) \
    X(snd_pcm_hw_params_set_access) \
    X(snd_pcm_hw_params_set_buffer_time_near) \
    X(snd_pcm_hw_params_set_channels) \
    X(snd_pcm_hw_params_set_channels_near) \
    X(snd_pcm_hw_params_set_format) \
    X(snd_pcm_hw_params_set_period_time_near) \
    X(snd_pcm_hw_params_set_rate_near) \
    X(snd_pcm_nonblock) \
    X(snd_pcm_open) \
    X(snd_pcm_pause) \
    X(snd_pcm_prepare) \
    X(snd_pcm_readi) \
    X(snd_pcm_recover) \
    X(snd_pcm_start) \
    X(snd_pcm_state) \
    X(snd_pcm_status) \
    X(snd_pcm_status_free) \
    X(snd_pcm_status_get_delay) \
    X(snd_pcm_status_get_htstamp) \
    X(snd_pcm_status_malloc) \
    X(snd_pcm_sw_params) \
    X(snd_pcm_sw_params_current) \
    X(snd_pcm_sw_params_free) \
    X(snd_pcm_sw_params_malloc) \
    X(snd_pcm_sw_params_set_tstamp_mode) \
    X(snd_pcm_sw_params_set_tstamp_type) \
    X(snd_pcm_writei) \
    X(snd_strerror)

CLOADER_DECLARE(CALSA, CALSA_FUNCTIONS)

#define snd_device_name_free_hint CLOADER_CALL(CALSA, snd_device_name_free_hint)
#define snd_device_name_get_hint CLOADER_CALL(CALSA, snd_device_name_get_hint)
#define snd_device_name_hint CLOADER_CALL(CALSA, snd_device_name_hint)
#define snd_lib_error_set_handler CLOADER_CALL(CALSA, snd_lib_error_set_handler)
#define snd_pcm_close CLOADER_CALL(CALSA, snd_pcm_close)
#define snd_pcm_delay CLOADER_CALL(CALSA, snd_pcm_delay)
#define snd_pcm_drain CLOADER_CALL(CALSA, snd_pcm_drain)
#define snd_pcm_drop CLOADER_CALL(CALSA, snd_pcm_drop)
#define snd_pcm_format_name CLOADER_CALL(CALSA, snd_pcm_format_name)
#define snd_pcm_format_physical_width CLOADER_CALL(CALSA, snd_pcm_format_physical_width)
#define snd_pcm_hw_params CLOADER_CALL(CALSA, snd_pcm_hw_params)
#define snd_pcm_hw_params_any CLOADER_CALL(CALSA, snd_pcm_hw_params_any)
#define snd_pcm_hw_params_can_pause CLOADER_CALL(CALSA, snd_pcm_hw_params_can_pause)
#define snd_pcm_hw_params_free CLOADER_CALL(CALSA, snd_pcm_hw_params_free)
#define snd_pcm_hw_params_get_period_size CLOADER_CALL(CALSA, snd_pcm_hw_params_get_period_size)
#define snd_pcm_hw_params_malloc CLOADER_CALL(CALSA, snd_pcm_hw_params_malloc)
#define snd_pcm_hw_params_set_access CLOADER_CALL(CALSA, snd_pcm_hw_params_set_access)
#define snd_pcm_hw_params_set_buffer_time_near CLOADER_CALL(CALSA, snd_pcm_hw_params_set_buffer_time_near)
#define snd_pcm_hw_params_set_channels CLOADER_CALL(CALSA, snd_pcm_hw_params_set_channels)
#define snd_pcm_hw_params_set_channels_near CLOADER_CALL(CALSA, snd_pcm_hw_params_set_channels_near)
#define snd_pcm_hw_params_set_format CLOADER_CALL(CALSA, snd_pcm_hw_params_set_format)
#define snd_pcm_hw_params_set_period_time_near CLOADER_CALL(CALSA, snd_pcm_hw_params_set_period_time_near)
#define snd_pcm_hw_params_set_rate_near CLOADER_CALL(CALSA, snd_pcm_hw_params_set_rate_near)
#define snd_pcm_nonblock CLOADER_CALL(CALSA, snd_pcm_nonblock)
#define snd_pcm_open CLOADER_CALL(CALSA, snd_pcm_open)
#define snd_pcm_pause CLOADER_CALL(CALSA, snd_pcm_pause)
#define snd_pcm_prepare CLOADER_CALL(CALSA, snd_pcm_prepare)
#define snd_pcm_readi CLOADER_CALL(CALSA, snd_pcm_readi)
#define snd_pcm_recover CLOADER_CALL(CALSA, snd_pcm_recover)
#define snd_pcm_start CLOADER_CALL(CALSA, snd_pcm_start)
#define snd_pcm_state CLOADER_CALL(CALSA, snd_pcm_state)
#define snd_pcm_status CLOADER_CALL(CALSA, snd_pcm_status)
#define snd_pcm_status_free CLOADER_CALL(CALSA, snd_pcm_status_free)
#define snd_pcm_status_get_delay CLOADER_CALL(CALSA, snd_pcm_status_get_delay)
#define snd_pcm_status_get_htstamp CLOADER_CALL(CALSA, snd_pcm_status_get_htstamp)
#define snd_pcm_status_malloc CLOADER_CALL(CALSA, snd_pcm_status_malloc)
#define snd_pcm_sw_params CLOADER_CALL(CALSA, snd_pcm_sw_params)
#define snd_pcm_sw_params_current CLOADER_CALL(CALSA, snd_pcm_sw_params_current)
#define snd_pcm_sw_params_free CLOADER_CALL(CALSA, snd_pcm_sw_params_free)
#define snd_pcm_sw_params_malloc CLOADER_CALL(CALSA, snd_pcm_sw_params_malloc)
#define snd_pcm_sw_params_set_tstamp_mode CLOADER_CALL(CALSA, snd_pcm_sw_params_set_tstamp_mode)
#define snd_pcm_sw_params_set_tstamp_type CLOADER_CALL(CALSA, snd_pcm_sw_params_set_tstamp_type)
#define snd_pcm_writei CLOADER_CALL(CALSA, snd_pcm_writei)
#define snd_strerror CLOADER_CALL(CALSA, snd_strerror)

#endif
