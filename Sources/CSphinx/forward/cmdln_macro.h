// PocketSphinx's headers include one another as <cmdln_macro.h>, from their own directory; this
// forwards to it, so no per-machine include path is needed.
#include <pocketsphinx/cmdln_macro.h>
