// The libv4l2 functions this shim calls, resolved on first use (see CLoader.h: the executable
// does not link libv4l2, so a call to a function missing from this list does not link).
// Include it after the libraries' headers and before any call: each name below becomes a call
// through the table, which opens the libraries the first time.
#ifndef CV4L2_LIBRARIES_H
#define CV4L2_LIBRARIES_H

#include <CLoader.h>
#include <libv4l2.h>

#define CV4L2_FUNCTIONS(X) \
    X(v4l2_close) \
    X(v4l2_fd_open) \
    X(v4l2_ioctl) \
    X(v4l2_mmap) \
    X(v4l2_munmap)

CLOADER_DECLARE(CV4L2, CV4L2_FUNCTIONS)

#define v4l2_close CLOADER_CALL(CV4L2, v4l2_close)
#define v4l2_fd_open CLOADER_CALL(CV4L2, v4l2_fd_open)
#define v4l2_ioctl CLOADER_CALL(CV4L2, v4l2_ioctl)
#define v4l2_mmap CLOADER_CALL(CV4L2, v4l2_mmap)
#define v4l2_munmap CLOADER_CALL(CV4L2, v4l2_munmap)

#endif
