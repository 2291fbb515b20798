// PocketSphinx's and SphinxBase's headers, found through pkg-config (SphinxBase keeps its headers
// in a per-architecture directory).
#include <pocketsphinx.h>
#include <sphinxbase/err.h>
