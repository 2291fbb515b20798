// The table of PocketSphinx functions and the libraries they come from (see libraries.h).
#include "libraries.h"

CLOADER_DEFINE(CSphinx, CSPHINX_FUNCTIONS, "PocketSphinx", "libpocketsphinx3 libsphinxbase3", "libpocketsphinx.so.3", "libsphinxbase.so.3")
