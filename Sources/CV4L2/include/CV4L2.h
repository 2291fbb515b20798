// CV4L2: the thin C layer between cravey and V4L2 cameras, through libv4l2.
//
// Why a shim: V4L2 is ioctl requests (VIDIOC_* macros Swift cannot import), unions and mmap'd
// buffers; libv4l2 adds conversion of camera formats (YUYV, NV12, …) to the one we ask for
// (JPEG is taken natively: see CV4L2_PIX_FMT_MJPEG). This layer keeps those structs in C and
// offers one function per stage, like the kernel's capture.c: open (+QUERYCAP), enumerate, set
// format, start (mmap ring + STREAMON), dequeue (poll + DQBUF), requeue, stop, close. Every
// function is prefixed CV4L2_, loops on EINTR, and returns a negative errno on failure.
#ifndef CV4L2_H
#define CV4L2_H

#include <stddef.h>
#include <stdint.h>

/// The pixel format cravey asks libv4l2 for: planar YUV 4:2:0 ("YU12").
extern const uint32_t CV4L2_PIX_FMT_YUV420;
/// Motion JPEG ("MJPG") and plain JPEG ("JPEG") frames: asked for natively (libv4l2 passes a format
/// the camera has through untouched) and decoded with FFmpeg, which reads every sampling webcams send.
extern const uint32_t CV4L2_PIX_FMT_MJPEG;
extern const uint32_t CV4L2_PIX_FMT_JPEG;

typedef struct CV4L2_device CV4L2_device;

/// Opens a V4L2 node and checks it can capture video by streaming. Returns 0, or -ENOENT (no such
/// node), -EACCES (permission), -EBUSY, -ENOTTY (not a V4L2 device), -ENODEV (a V4L2 node that
/// cannot capture), or another negative errno.
int CV4L2_open(const char *path, CV4L2_device **out);
void CV4L2_close(CV4L2_device *device);

const char *CV4L2_driver(const CV4L2_device *device);
const char *CV4L2_card(const CV4L2_device *device);
const char *CV4L2_bus(const CV4L2_device *device);

/// One capture mode: a native pixel format at a frame size and frame interval.
typedef struct {
    uint32_t pixel_format;  ///< the camera's own fourcc
    uint32_t width;
    uint32_t height;
    uint32_t interval_numerator;    ///< seconds per frame = numerator / denominator
    uint32_t interval_denominator;
} CV4L2_mode;

/// Every mode of the camera (format → frame size → frame interval). Stepwise and continuous
/// ranges are sampled at common sizes and at their fastest interval. Free with free().
int CV4L2_modes(CV4L2_device *device, CV4L2_mode **out, size_t *count);

/// The negotiated format.
typedef struct {
    uint32_t width;
    uint32_t height;
    uint32_t bytes_per_line;
    uint32_t size_image;
    uint32_t interval_numerator;
    uint32_t interval_denominator;
} CV4L2_format;

/// Asks for `width`×`height` in `pixel_format` (libv4l2 converts when the camera lacks it) at
/// `fps` frames a second; `actual` receives what the driver chose.
int CV4L2_set_format(CV4L2_device *device, uint32_t width, uint32_t height, uint32_t pixel_format,
                     uint32_t fps, CV4L2_format *actual);

/// Allocates and maps `buffers` buffers, queues them and starts streaming.
int CV4L2_start(CV4L2_device *device, unsigned buffers);

/// One dequeued frame; valid until it is requeued.
typedef struct {
    const void *data;
    uint32_t bytes_used;
    size_t length;           ///< the buffer's size (room after bytes_used)
    uint32_t index;
    uint32_t sequence;       ///< the driver's frame counter: gaps are dropped frames
    int64_t timestamp_ns;    ///< CLOCK_MONOTONIC time of the frame
    int error;               ///< the driver flagged the frame as corrupt (V4L2_BUF_FLAG_ERROR)
} CV4L2_frame;

/// Waits up to `timeout_ms` for a frame. Returns 1 with a frame, 0 on timeout, -EINTR if a signal
/// interrupted the wait, or a negative errno: -ENODEV/-EIO mean the camera went away.
int CV4L2_dequeue(CV4L2_device *device, int timeout_ms, CV4L2_frame *frame);

/// Gives a frame's buffer back to the driver.
int CV4L2_requeue(CV4L2_device *device, uint32_t index);

/// Stops streaming and unmaps the buffers (also done by close).
int CV4L2_stop(CV4L2_device *device);

/// Opens this shim's libraries (the Swift floor calls it before its first call into the shim):
/// 0, or -ENOENT with the line for the user in CV4L2_load_message().
int CV4L2_load(void);
const char *CV4L2_load_message(void);

#endif
