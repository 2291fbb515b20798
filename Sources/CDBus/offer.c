// A notification that offers something (actions) and waits for the person's answer on the same
// connection that showed it: org.freedesktop.Notifications' GetCapabilities, Notify with actions
// and hints, the ActionInvoked, ActivationToken and NotificationClosed signals, CloseNotification.
// The match rules are added before Notify, so an answer given at once is not missed, and match the
// server that answered GetCapabilities (its unique name): no other client's signal is taken for it.
#include "CDBus.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <systemd/sd-bus.h>
#include "libraries.h"  // last: calls below go through the table of functions

#define NOTIFICATIONS "org.freedesktop.Notifications"
#define NOTIFICATIONS_PATH "/org/freedesktop/Notifications"

struct CDBus_offer {
    sd_bus *bus;
    uint32_t id;        // the notification waited for (0 before Notify)
    int answered;       // 1 an action was chosen, 2 the notification was closed
    char action[128];   // the chosen action's key
    char token[256];    // the activation token sent with it, if any
};

static void copy_text(const char *text, char *out, size_t size) {
    if (!out || size == 0) return;
    snprintf(out, size, "%s", text ? text : "");
}

static int on_action(sd_bus_message *m, void *data, sd_bus_error *error) {
    (void)error;
    struct CDBus_offer *offer = data;
    uint32_t id = 0;
    const char *key = NULL;
    if (sd_bus_message_read(m, "us", &id, &key) >= 0 && offer->id != 0 && id == offer->id && !offer->answered) {
        copy_text(key, offer->action, sizeof offer->action);
        offer->answered = 1;
    }
    return 0;
}

static int on_token(sd_bus_message *m, void *data, sd_bus_error *error) {
    (void)error;
    struct CDBus_offer *offer = data;
    uint32_t id = 0;
    const char *token = NULL;
    if (sd_bus_message_read(m, "us", &id, &token) >= 0 && offer->id != 0 && id == offer->id)
        copy_text(token, offer->token, sizeof offer->token);
    return 0;
}

static int on_closed(sd_bus_message *m, void *data, sd_bus_error *error) {
    (void)error;
    struct CDBus_offer *offer = data;
    uint32_t id = 0, reason = 0;
    if (sd_bus_message_read(m, "uu", &id, &reason) >= 0 && offer->id != 0 && id == offer->id && !offer->answered)
        offer->answered = 2;
    return 0;
}

static uint64_t now_usec(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/// The longest any call of this connection waits for its answer (the bus's own default is 25 s).
#define CALL_TIMEOUT_USEC 3000000u

int CDBus_offer_open(CDBus_offer **out, char *message, size_t message_size) {
    copy_text("", message, message_size);
    *out = NULL;
    struct CDBus_offer *offer = calloc(1, sizeof *offer);
    if (!offer) return -ENOMEM;
    int err = sd_bus_open_user(&offer->bus);
    if (err < 0) {
        copy_text(strerror(-err), message, message_size);
        free(offer);
        return -ENOTCONN;
    }
    // The calls made without a timeout of their own (adding the match rules) wait as long at most.
    err = sd_bus_set_method_call_timeout(offer->bus, CALL_TIMEOUT_USEC);
    // Connected, the bus is still to say hello (authentication): sd-bus would wait 90 s for it
    // at the first call; here it is waited for as long as a call.
    uint64_t deadline = now_usec() + CALL_TIMEOUT_USEC;
    while (err >= 0 && (err = sd_bus_is_ready(offer->bus)) == 0) {
        err = sd_bus_process(offer->bus, NULL);
        if (err != 0) continue;
        uint64_t now = now_usec();
        if (now >= deadline) {
            err = -ETIMEDOUT;
            break;
        }
        err = sd_bus_wait(offer->bus, deadline - now);
        if (err == -EINTR) err = 0;
    }
    if (err < 0) {
        copy_text(err == -ETIMEDOUT ? "the session bus did not answer" : strerror(-err), message, message_size);
        sd_bus_close_unref(offer->bus);
        free(offer);
        return err == -ETIMEDOUT ? -ETIMEDOUT : -EIO;
    }
    *out = offer;
    return 0;
}

/// Listens for the answers of the server whose unique name is `sender` only: another program on
/// the session bus cannot choose an action in its place. The slots are floating: they go with the
/// connection.
static int listen_to(CDBus_offer *offer, const char *sender) {
    const char *members[] = {"ActionInvoked", "ActivationToken", "NotificationClosed"};
    sd_bus_message_handler_t handlers[] = {on_action, on_token, on_closed};
    int err = 0;
    for (int i = 0; i < 3 && err >= 0; i++)
        err = sd_bus_match_signal(offer->bus, NULL, sender, NOTIFICATIONS_PATH, NOTIFICATIONS, members[i], handlers[i],
                                  offer);
    return err;
}

/// The bus's error name as a negative errno (the errors CDBus.h names).
static int offer_errno(const sd_bus_error *error, int err) {
    if (sd_bus_error_has_name(error, SD_BUS_ERROR_SERVICE_UNKNOWN) || sd_bus_error_has_name(error, SD_BUS_ERROR_NAME_HAS_NO_OWNER))
        return -ESRCH;
    if (sd_bus_error_has_name(error, SD_BUS_ERROR_NO_REPLY) || sd_bus_error_has_name(error, SD_BUS_ERROR_TIMEOUT) || err == -ETIMEDOUT)
        return -ETIMEDOUT;
    return err == -ENOMEM ? -ENOMEM : -EIO;
}

int CDBus_offer_capabilities(CDBus_offer *offer, int timeout_ms, char *capabilities, size_t size, char *message,
                             size_t message_size) {
    copy_text("", capabilities, size);
    copy_text("", message, message_size);
    sd_bus_message *reply = NULL;
    sd_bus_error error = SD_BUS_ERROR_NULL;
    sd_bus_message *call = NULL;
    int err = sd_bus_message_new_method_call(offer->bus, &call, NOTIFICATIONS, NOTIFICATIONS_PATH, NOTIFICATIONS,
                                             "GetCapabilities");
    if (err >= 0) err = sd_bus_call(offer->bus, call, (uint64_t)timeout_ms * 1000, &error, &reply);
    if (err < 0) {
        copy_text(error.message ? error.message : strerror(-err), message, message_size);
        err = offer_errno(&error, err);
    } else {
        // One line each, joined into `capabilities`.
        size_t used = 0;
        err = sd_bus_message_enter_container(reply, 'a', "s");
        const char *name = NULL;
        while (err >= 0 && (err = sd_bus_message_read(reply, "s", &name)) > 0) {
            if (used >= size) continue;
            int n = snprintf(capabilities + used, size - used, "%s\n", name);
            if (n > 0) used += (size_t)n;
        }
        if (used >= size && size > 0) capabilities[size - 1] = 0;
        err = err < 0 ? -EIO : 0;
        // The server that answered is the one whose signals are heard, from before Notify on.
        const char *sender = sd_bus_message_get_sender(reply);
        if (err == 0 && (!sender || listen_to(offer, sender) < 0)) {
            copy_text("cannot listen for the notification server's answers", message, message_size);
            err = -EIO;
        }
    }
    sd_bus_error_free(&error);
    sd_bus_message_unref(reply);
    sd_bus_message_unref(call);
    return err;
}

int CDBus_offer_notify(CDBus_offer *offer, const char *app_name, const char *desktop_entry, const char *summary,
                       const char *body, const char *const *actions, size_t action_count, int expire_ms,
                       int timeout_ms, unsigned *id, char *message, size_t message_size) {
    copy_text("", message, message_size);
    sd_bus_message *call = NULL, *reply = NULL;
    sd_bus_error error = SD_BUS_ERROR_NULL;
    int err = sd_bus_message_new_method_call(offer->bus, &call, NOTIFICATIONS, NOTIFICATIONS_PATH, NOTIFICATIONS,
                                             "Notify");
    if (err >= 0) err = sd_bus_message_append(call, "susss", app_name, 0u, "", summary, body);
    // The actions: key and label, in turn.
    if (err >= 0) err = sd_bus_message_open_container(call, 'a', "s");
    for (size_t i = 0; i < action_count && err >= 0; i++) err = sd_bus_message_append(call, "s", actions[i]);
    if (err >= 0) err = sd_bus_message_close_container(call);
    // One hint: the desktop entry the notification comes from (its name and icon).
    if (err >= 0) err = sd_bus_message_append(call, "a{sv}i", 1, "desktop-entry", "s", desktop_entry, (int32_t)expire_ms);
    if (err < 0) {
        copy_text(strerror(-err), message, message_size);
        err = err == -ENOMEM ? -ENOMEM : -EIO;
    } else {
        err = sd_bus_call(offer->bus, call, (uint64_t)timeout_ms * 1000, &error, &reply);
        if (err < 0) {
            copy_text(error.message ? error.message : strerror(-err), message, message_size);
            err = offer_errno(&error, err);
        } else {
            uint32_t given = 0;
            err = sd_bus_message_read(reply, "u", &given) < 0 ? -EIO : 0;
            if (err == 0) {
                offer->id = given;
                if (id) *id = given;
            } else {
                copy_text("the notification server's answer could not be read", message, message_size);
            }
        }
    }
    sd_bus_error_free(&error);
    sd_bus_message_unref(reply);
    sd_bus_message_unref(call);
    return err;
}

int CDBus_offer_wait(CDBus_offer *offer, int timeout_ms, char *action, size_t action_size, char *token,
                     size_t token_size) {
    copy_text("", action, action_size);
    copy_text("", token, token_size);
    uint64_t deadline = now_usec() + (uint64_t)timeout_ms * 1000u;
    while (!offer->answered) {
        int err = sd_bus_process(offer->bus, NULL);
        if (err < 0) return -EIO;  // the bus went away
        if (err > 0) continue;
        uint64_t now = now_usec();
        if (now >= deadline) return -ETIMEDOUT;
        err = sd_bus_wait(offer->bus, deadline - now);
        if (err < 0 && err != -EINTR) return -EIO;
    }
    // The token is sent just before the action: whatever else is waiting is read first.
    while (sd_bus_process(offer->bus, NULL) > 0) {}
    if (offer->answered == 2) return 0;
    copy_text(offer->action, action, action_size);
    copy_text(offer->token, token, token_size);
    return 1;
}

void CDBus_offer_close(CDBus_offer *offer, int withdraw) {
    if (!offer) return;
    if (withdraw && offer->id != 0 && !offer->answered) {
        // Withdrawn: an offer nobody waits for any more is not left on the screen.
        sd_bus_error error = SD_BUS_ERROR_NULL;
        sd_bus_message *call = NULL, *reply = NULL;
        if (sd_bus_message_new_method_call(offer->bus, &call, NOTIFICATIONS, NOTIFICATIONS_PATH, NOTIFICATIONS,
                                           "CloseNotification") >= 0 &&
            sd_bus_message_append(call, "u", offer->id) >= 0)
            (void)sd_bus_call(offer->bus, call, 2000000u, &error, &reply);
        sd_bus_error_free(&error);
        sd_bus_message_unref(reply);
        sd_bus_message_unref(call);
    }
    // Nothing is left to send (CloseNotification was waited for): closed without waiting on a wedged bus.
    sd_bus_close_unref(offer->bus);
    free(offer);
}
