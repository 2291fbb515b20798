// The sd-bus functions this shim calls, resolved on first use (see CLoader.h: the executable
// does not link sd-bus, so a call to a function missing from this list does not link).
// Include it after the libraries' headers and before any call: each name below becomes a call
// through the table, which opens the libraries the first time.
#ifndef CDBUS_LIBRARIES_H
#define CDBUS_LIBRARIES_H

#include <CLoader.h>
#include <systemd/sd-bus.h>

#define CDBUS_FUNCTIONS(X) \
    X(sd_bus_call) \
    X(sd_bus_close_unref) \
    X(sd_bus_error_free) \
    X(sd_bus_error_has_name) \
    X(sd_bus_flush_close_unref) \
    X(sd_bus_is_ready) \
    X(sd_bus_match_signal) \
    X(sd_bus_message_append) \
    X(sd_bus_message_close_container) \
    X(sd_bus_message_enter_container) \
    X(sd_bus_message_get_sender) \
    X(sd_bus_message_new_method_call) \
    X(sd_bus_message_open_container) \
    X(sd_bus_message_read) \
    X(sd_bus_message_unref) \
    X(sd_bus_open_user) \
    X(sd_bus_process) \
    X(sd_bus_set_method_call_timeout) \
    X(sd_bus_wait)

CLOADER_DECLARE(CDBus, CDBUS_FUNCTIONS)

#define sd_bus_call CLOADER_CALL(CDBus, sd_bus_call)
#define sd_bus_close_unref CLOADER_CALL(CDBus, sd_bus_close_unref)
#define sd_bus_error_free CLOADER_CALL(CDBus, sd_bus_error_free)
#define sd_bus_error_has_name CLOADER_CALL(CDBus, sd_bus_error_has_name)
#define sd_bus_flush_close_unref CLOADER_CALL(CDBus, sd_bus_flush_close_unref)
#define sd_bus_is_ready CLOADER_CALL(CDBus, sd_bus_is_ready)
#define sd_bus_match_signal CLOADER_CALL(CDBus, sd_bus_match_signal)
#define sd_bus_message_append CLOADER_CALL(CDBus, sd_bus_message_append)
#define sd_bus_message_close_container CLOADER_CALL(CDBus, sd_bus_message_close_container)
#define sd_bus_message_enter_container CLOADER_CALL(CDBus, sd_bus_message_enter_container)
#define sd_bus_message_get_sender CLOADER_CALL(CDBus, sd_bus_message_get_sender)
#define sd_bus_message_new_method_call CLOADER_CALL(CDBus, sd_bus_message_new_method_call)
#define sd_bus_message_open_container CLOADER_CALL(CDBus, sd_bus_message_open_container)
#define sd_bus_message_read CLOADER_CALL(CDBus, sd_bus_message_read)
#define sd_bus_message_unref CLOADER_CALL(CDBus, sd_bus_message_unref)
#define sd_bus_open_user CLOADER_CALL(CDBus, sd_bus_open_user)
#define sd_bus_process CLOADER_CALL(CDBus, sd_bus_process)
#define sd_bus_set_method_call_timeout CLOADER_CALL(CDBus, sd_bus_set_method_call_timeout)
#define sd_bus_wait CLOADER_CALL(CDBus, sd_bus_wait)

#endif
