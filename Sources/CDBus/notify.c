// One D-Bus call, org.freedesktop.Notifications.Notify, in the order of the specification's
// arguments: app_name s, replaces_id u, app_icon s, summary s, body s, actions as, hints a{sv},
// expire_timeout i — made with sd-bus (libsystemd), whose headers sit in the standard include
// directory on every architecture.
#include "CDBus.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include "libraries.h"  // last: calls below go through the table of functions

static void copy_message(const char *text, char *message, size_t size) {
    if (!message || size == 0) return;
    snprintf(message, size, "%s", text ? text : "");
}

/// The bus's error name as a negative errno (sd-bus's own errno for the rest).
static int errno_of(const sd_bus_error *error, int err) {
    if (sd_bus_error_has_name(error, SD_BUS_ERROR_SERVICE_UNKNOWN) || sd_bus_error_has_name(error, SD_BUS_ERROR_NAME_HAS_NO_OWNER))
        return -ESRCH;
    if (sd_bus_error_has_name(error, SD_BUS_ERROR_NO_REPLY) || sd_bus_error_has_name(error, SD_BUS_ERROR_TIMEOUT) || err == -ETIMEDOUT)
        return -ETIMEDOUT;
    if (sd_bus_error_has_name(error, SD_BUS_ERROR_NO_MEMORY) || err == -ENOMEM) return -ENOMEM;
    return -EIO;
}

int CDBus_notify(const char *app_name, const char *summary, const char *body, int expire_ms, int timeout_ms,
                 unsigned *id, char *message, size_t message_size) {
    copy_message("", message, message_size);
    // A connection of its own, closed below: this process makes one call and leaves no shared state.
    sd_bus *bus = NULL;
    int err = sd_bus_open_user(&bus);
    if (err < 0) {
        copy_message(strerror(-err), message, message_size);
        return -ENOTCONN;
    }
    sd_bus_message *call = NULL, *reply = NULL;
    sd_bus_error error = SD_BUS_ERROR_NULL;
    err = sd_bus_message_new_method_call(bus, &call, "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                         "org.freedesktop.Notifications", "Notify");
    // No actions (an empty as) and no hints (an empty a{sv}).
    if (err >= 0) err = sd_bus_message_append(call, "susssasa{sv}i", app_name, 0u, "", summary, body, 0, 0, (int32_t)expire_ms);
    if (err < 0) {
        copy_message(strerror(-err), message, message_size);
        err = err == -ENOMEM ? -ENOMEM : -EIO;
    } else {
        err = sd_bus_call(bus, call, (uint64_t)timeout_ms * 1000, &error, &reply);
        if (err < 0) {
            copy_message(error.message ? error.message : strerror(-err), message, message_size);
            err = errno_of(&error, err);
        } else {
            uint32_t given = 0;
            err = sd_bus_message_read(reply, "u", &given);
            if (err < 0) {
                copy_message(strerror(-err), message, message_size);
                err = -EIO;
            } else {
                err = 0;
                if (id) *id = given;
            }
        }
    }
    sd_bus_error_free(&error);
    sd_bus_message_unref(reply);
    sd_bus_message_unref(call);
    sd_bus_flush_close_unref(bus);
    return err;
}
