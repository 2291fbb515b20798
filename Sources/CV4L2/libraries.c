// The table of libv4l2 functions and the libraries they come from (see libraries.h).
#include "libraries.h"

CLOADER_DEFINE(CV4L2, CV4L2_FUNCTIONS, "libv4l2", "libv4l-0", "libv4l2.so.0")
