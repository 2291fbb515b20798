// One D-Bus call, org.freedesktop.Notifications.Notify, in the order of the specification's
// arguments: app_name s, replaces_id u, app_icon s, summary s, body s, actions as, hints a{sv},
// expire_timeout i.
#include "CDBus.h"

#include <dbus/dbus.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

static void copy_message(const char *text, char *message, size_t size) {
    if (!message || size == 0) return;
    snprintf(message, size, "%s", text ? text : "");
}

/// The bus's error name as a negative errno.
static int errno_of(const DBusError *error) {
    if (dbus_error_has_name(error, DBUS_ERROR_SERVICE_UNKNOWN) || dbus_error_has_name(error, DBUS_ERROR_NAME_HAS_NO_OWNER))
        return -ESRCH;
    if (dbus_error_has_name(error, DBUS_ERROR_NO_REPLY) || dbus_error_has_name(error, DBUS_ERROR_TIMEOUT)) return -ETIMEDOUT;
    if (dbus_error_has_name(error, DBUS_ERROR_NO_MEMORY)) return -ENOMEM;
    return -EIO;
}

/// The call's arguments, appended in order. Returns 0 or -ENOMEM.
static int append_arguments(DBusMessage *call, const char *app_name, const char *summary, const char *body, int expire_ms) {
    DBusMessageIter args, array, dict;
    dbus_uint32_t replaces = 0;
    const char *icon = "";
    dbus_int32_t expire = expire_ms;
    dbus_message_iter_init_append(call, &args);
    if (!dbus_message_iter_append_basic(&args, DBUS_TYPE_STRING, &app_name) ||
        !dbus_message_iter_append_basic(&args, DBUS_TYPE_UINT32, &replaces) ||
        !dbus_message_iter_append_basic(&args, DBUS_TYPE_STRING, &icon) ||
        !dbus_message_iter_append_basic(&args, DBUS_TYPE_STRING, &summary) ||
        !dbus_message_iter_append_basic(&args, DBUS_TYPE_STRING, &body))
        return -ENOMEM;
    if (!dbus_message_iter_open_container(&args, DBUS_TYPE_ARRAY, DBUS_TYPE_STRING_AS_STRING, &array) ||
        !dbus_message_iter_close_container(&args, &array))
        return -ENOMEM;
    if (!dbus_message_iter_open_container(&args, DBUS_TYPE_ARRAY, "{sv}", &dict) ||
        !dbus_message_iter_close_container(&args, &dict))
        return -ENOMEM;
    if (!dbus_message_iter_append_basic(&args, DBUS_TYPE_INT32, &expire)) return -ENOMEM;
    return 0;
}

int CDBus_notify(const char *app_name, const char *summary, const char *body, int expire_ms, int timeout_ms,
                 unsigned *id, char *message, size_t message_size) {
    DBusError error;
    dbus_error_init(&error);
    copy_message("", message, message_size);
    // A private connection, closed below: this process makes one call and leaves no shared state.
    DBusConnection *bus = dbus_bus_get_private(DBUS_BUS_SESSION, &error);
    if (!bus) {
        copy_message(error.message ? error.message : "cannot connect to the session bus", message, message_size);
        dbus_error_free(&error);
        return -ENOTCONN;
    }
    dbus_connection_set_exit_on_disconnect(bus, FALSE);
    int err = 0;
    DBusMessage *reply = NULL;
    DBusMessage *call = dbus_message_new_method_call("org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                                     "org.freedesktop.Notifications", "Notify");
    if (!call) err = -ENOMEM;
    if (err == 0) err = append_arguments(call, app_name, summary, body, expire_ms);
    if (err == 0) {
        reply = dbus_connection_send_with_reply_and_block(bus, call, timeout_ms, &error);
        if (!reply) {
            err = errno_of(&error);
            copy_message(error.message, message, message_size);
        } else {
            dbus_uint32_t given = 0;
            if (!dbus_message_get_args(reply, &error, DBUS_TYPE_UINT32, &given, DBUS_TYPE_INVALID)) {
                err = -EIO;
                copy_message(error.message, message, message_size);
            } else if (id) {
                *id = given;
            }
        }
    }
    if (reply) dbus_message_unref(reply);
    if (call) dbus_message_unref(call);
    dbus_error_free(&error);
    dbus_connection_close(bus);
    dbus_connection_unref(bus);
    return err;
}
