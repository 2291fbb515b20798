// The table of SDL2 functions and the libraries they come from (see libraries.h).
#include "libraries.h"

CLOADER_DEFINE(CSDL, CSDL_FUNCTIONS, "SDL2", "libsdl2-2.0-0", "libSDL2-2.0.so.0")
