// PocketSphinx's headers include one another as <pocketsphinx_export.h>, from their own directory; this
// forwards to it, so no per-machine include path is needed.
#include <pocketsphinx/pocketsphinx_export.h>
