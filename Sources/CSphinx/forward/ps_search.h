// PocketSphinx's headers include one another as <ps_search.h>, from their own directory; this
// forwards to it, so no per-machine include path is needed.
#include <pocketsphinx/ps_search.h>
