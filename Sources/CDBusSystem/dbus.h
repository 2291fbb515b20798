// libdbus-1's header, found through pkg-config (its include directories are per architecture).
#include <dbus/dbus.h>
