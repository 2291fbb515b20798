// CDBus: the thin C layer between cravey and sd-bus (libsystemd), for one call: a desktop notification.
//
// Why a shim: a D-Bus method call is a signature and typed arguments
// (strings, a uint32, an empty string array, an empty a{sv} dictionary, an int32) and errors come
// back in an sd_bus_error that must be freed. Here one function makes the call on the user's
// session bus and returns 0 or a negative errno, with the bus's own message copied out. Every
// function is prefixed CDBus_. The session bus is a local socket: nothing leaves the machine.
#ifndef CDBUS_H
#define CDBUS_H

#include <stddef.h>

/// Shows a notification through org.freedesktop.Notifications on the session bus (waiting at
/// most `timeout_ms` for the answer) and stores the id the server gave it in `*id`. Returns 0,
/// -ENOTCONN when there is no session bus to connect to, -ESRCH when no notification service
/// is on it, -ETIMEDOUT, -ENOMEM, or -EIO for any other error; `message` then holds the bus's
/// explanation (NUL-terminated, cut to `message_size`).
int CDBus_notify(const char *app_name, const char *summary, const char *body, int expire_ms, int timeout_ms,
                 unsigned *id, char *message, size_t message_size);

/// Opens this shim's libraries (the Swift floor calls it before its first call into the shim):
/// 0, or -ENOENT with the line for the user in CDBus_load_message().
int CDBus_load(void);
const char *CDBus_load_message(void);

#endif
