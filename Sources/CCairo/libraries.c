// The table of cairo, pango and fontconfig functions and the libraries they come from (see
// libraries.h). pangocairo's handle finds pango's, pangoft2's, GObject's and fontconfig's
// functions through its dependencies.
#include "libraries.h"

CLOADER_DEFINE(CCairo, CCAIRO_FUNCTIONS, "cairo and pango", "libcairo2 libpangocairo-1.0-0", "libcairo.so.2",
               "libpangocairo-1.0.so.0")
