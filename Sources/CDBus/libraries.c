// The table of sd-bus functions and the libraries they come from (see libraries.h).
#include "libraries.h"

CLOADER_DEFINE(CDBus, CDBUS_FUNCTIONS, "sd-bus", "libsystemd0", "libsystemd.so.0")
