// One D-Bus call, org.freedesktop.Notifications.Notify, on a connection of its own: the offer's
// (offer.c) with no actions and nothing waited for.
#include "CDBus.h"

int CDBus_notify(const char *app_name, const char *summary, const char *body, int expire_ms, int timeout_ms,
                 unsigned *id, char *message, size_t message_size) {
    // A connection of its own (an offer with no actions, not waited for), closed below: this process
    // makes one call and leaves no shared state. Opening it waits for the bus's hello a few seconds
    // at most: a bus that accepts and never answers does not hold the caller for sd-bus's 90 s.
    CDBus_offer *offer = NULL;
    int err = CDBus_offer_open(&offer, message, message_size);
    if (err < 0) return err;
    err = CDBus_offer_notify(offer, app_name, app_name, summary, body, NULL, 0, expire_ms, timeout_ms, id, message,
                             message_size);
    CDBus_offer_close(offer, 0);
    return err;
}
