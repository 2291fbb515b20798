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

/// A notification that offers actions and waits for the answer, on a connection of its own
/// (offer.c). Open it, ask for the server's capabilities, notify, wait, close: each returns 0 (or
/// what is said below) or a negative errno as CDBus_notify does, with the bus's message copied out.
typedef struct CDBus_offer CDBus_offer;
int CDBus_offer_open(CDBus_offer **offer, char *message, size_t message_size);
/// The server's capabilities, one a line, in `capabilities` (cut to `size`); from then on the
/// signals of the server that answered (its unique name) are listened for, and no other's.
int CDBus_offer_capabilities(CDBus_offer *offer, int timeout_ms, char *capabilities, size_t size, char *message,
                             size_t message_size);
/// Notify with `actions` (key, label, key, label, …) and the desktop-entry hint.
int CDBus_offer_notify(CDBus_offer *offer, const char *app_name, const char *desktop_entry, const char *summary,
                       const char *body, const char *const *actions, size_t action_count, int expire_ms,
                       int timeout_ms, unsigned *id, char *message, size_t message_size);
/// Waits at most `timeout_ms` for the notification's answer: 1 with the chosen action's key and
/// the activation token sent with it (empty when none), 0 when it was closed without one,
/// -ETIMEDOUT, or -EIO when the bus went away.
int CDBus_offer_wait(CDBus_offer *offer, int timeout_ms, char *action, size_t action_size, char *token,
                     size_t token_size);
/// Closes the connection; with `withdraw`, first closes the notification if it was not answered.
void CDBus_offer_close(CDBus_offer *offer, int withdraw);

/// Opens this shim's libraries (the Swift floor calls it before its first call into the shim):
/// 0, or -ENOENT with the line for the user in CDBus_load_message().
int CDBus_load(void);
const char *CDBus_load_message(void);

#endif
