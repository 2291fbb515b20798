// The table of ALSA functions and the libraries they come from (see libraries.h).
#include "libraries.h"

CLOADER_DEFINE(CALSA, CALSA_FUNCTIONS, "ALSA", "libasound2", "libasound.so.2")
