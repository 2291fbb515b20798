// The table of libebur128 functions and the libraries they come from (see libraries.h).
#include "libraries.h"

CLOADER_DEFINE(CEBUR128, CEBUR128_FUNCTIONS, "libebur128", "libebur128-1", "libebur128.so.1")
