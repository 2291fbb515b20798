// V4L2 capture through libv4l2. See include/CV4L2.h for why this shim exists.
#include "CV4L2.h"

#include <errno.h>
#include <fcntl.h>
#include <libv4l2.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include "libraries.h"  // last: calls below go through the table of functions

const uint32_t CV4L2_PIX_FMT_YUV420 = V4L2_PIX_FMT_YUV420;
const uint32_t CV4L2_PIX_FMT_MJPEG = V4L2_PIX_FMT_MJPEG;
const uint32_t CV4L2_PIX_FMT_JPEG = V4L2_PIX_FMT_JPEG;

typedef struct {
    void *start;
    size_t length;
} Buffer;

struct CV4L2_device {
    int fd;
    struct v4l2_capability caps;
    Buffer *buffers;
    unsigned count;
    int streaming;
};

// ioctl through libv4l2, retried when a signal interrupts it; negative errno on failure.
static int xioctl(int fd, unsigned long request, void *arg) {
    int r;
    do r = v4l2_ioctl(fd, request, arg);
    while (r == -1 && errno == EINTR);
    return r == -1 ? -errno : r;
}

int CV4L2_open(const char *path, CV4L2_device **out) {
    *out = NULL;
    int fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return -errno;
    struct v4l2_capability caps;
    memset(&caps, 0, sizeof caps);
    int err;
    do err = ioctl(fd, VIDIOC_QUERYCAP, &caps); while (err == -1 && errno == EINTR);
    if (err == -1) {
        err = (errno == EINVAL || errno == ENOTTY) ? -ENOTTY : -errno;  // EINVAL: not a V4L2 device
        close(fd);
        return err;
    }
    uint32_t c = (caps.capabilities & V4L2_CAP_DEVICE_CAPS) ? caps.device_caps : caps.capabilities;
    if (!(c & V4L2_CAP_VIDEO_CAPTURE) || !(c & V4L2_CAP_STREAMING)) { close(fd); return -ENODEV; }
    // Hand the descriptor to libv4l2 for format conversion.
    if (v4l2_fd_open(fd, 0) < 0) { err = -errno; close(fd); return err; }
    CV4L2_device *d = calloc(1, sizeof *d);
    if (!d) { v4l2_close(fd); return -ENOMEM; }
    d->fd = fd;
    d->caps = caps;
    *out = d;
    return 0;
}

const char *CV4L2_driver(const CV4L2_device *d) { return (const char *)d->caps.driver; }
const char *CV4L2_card(const CV4L2_device *d) { return (const char *)d->caps.card; }
const char *CV4L2_bus(const CV4L2_device *d) { return (const char *)d->caps.bus_info; }

// Appends a mode to a growing list.
static int push_mode(CV4L2_mode **list, size_t *n, size_t *cap, CV4L2_mode mode) {
    if (*n == *cap) {
        size_t grown_cap = *cap ? *cap * 2 : 64;
        CV4L2_mode *grown = realloc(*list, grown_cap * sizeof **list);
        if (!grown) return -ENOMEM;
        *list = grown;
        *cap = grown_cap;
    }
    (*list)[(*n)++] = mode;
    return 0;
}

// Appends one mode per frame interval of a format and size.
static int add_intervals(int fd, uint32_t format, uint32_t w, uint32_t h, CV4L2_mode **list, size_t *n, size_t *cap) {
    struct v4l2_frmivalenum iv;
    memset(&iv, 0, sizeof iv);
    iv.pixel_format = format;
    iv.width = w;
    iv.height = h;
    int added = 0;
    for (iv.index = 0; xioctl(fd, VIDIOC_ENUM_FRAMEINTERVALS, &iv) == 0; iv.index++) {
        uint32_t num, den;
        if (iv.type == V4L2_FRMIVAL_TYPE_DISCRETE) { num = iv.discrete.numerator; den = iv.discrete.denominator; }
        else { num = iv.stepwise.min.numerator; den = iv.stepwise.min.denominator; }
        if (push_mode(list, n, cap, (CV4L2_mode){format, w, h, num, den}) < 0) return -ENOMEM;
        added++;
        if (iv.type != V4L2_FRMIVAL_TYPE_DISCRETE) break;
    }
    if (added == 0) return push_mode(list, n, cap, (CV4L2_mode){format, w, h, 1, 30});  // no intervals: 30 fps
    return 0;
}

int CV4L2_modes(CV4L2_device *d, CV4L2_mode **out, size_t *count) {
    *out = NULL;
    *count = 0;
    size_t cap = 0;
    struct v4l2_fmtdesc fmt;
    memset(&fmt, 0, sizeof fmt);
    fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    static const uint32_t common[][2] = {{320, 180}, {320, 240}, {640, 360}, {640, 480}, {800, 600},
                                         {960, 540}, {1024, 576}, {1280, 720}, {1920, 1080}};
    // Webcams offer 2–4 formats; test drivers offer dozens with the same sizes and rates, so the
    // first four native formats tell everything (libv4l2 converts whichever is chosen).
    int native = 0;
    for (fmt.index = 0; native < 4 && xioctl(d->fd, VIDIOC_ENUM_FMT, &fmt) == 0; fmt.index++) {
        if (fmt.flags & V4L2_FMT_FLAG_EMULATED) continue;  // libv4l2's conversions: not the camera's own
        native++;
        struct v4l2_frmsizeenum size;
        memset(&size, 0, sizeof size);
        size.pixel_format = fmt.pixelformat;
        for (size.index = 0; xioctl(d->fd, VIDIOC_ENUM_FRAMESIZES, &size) == 0; size.index++) {
            int err = 0;
            if (size.type == V4L2_FRMSIZE_TYPE_DISCRETE) {
                err = add_intervals(d->fd, fmt.pixelformat, size.discrete.width, size.discrete.height, out, count, &cap);
            } else {
                struct v4l2_frmsize_stepwise s = size.stepwise;
                for (size_t i = 0; i < sizeof common / sizeof common[0] && err == 0; i++) {
                    uint32_t w = common[i][0], h = common[i][1];
                    if (w < s.min_width || w > s.max_width || h < s.min_height || h > s.max_height) continue;
                    if (s.step_width && (w - s.min_width) % s.step_width) continue;
                    if (s.step_height && (h - s.min_height) % s.step_height) continue;
                    err = add_intervals(d->fd, fmt.pixelformat, w, h, out, count, &cap);
                }
            }
            if (err < 0) { free(*out); *out = NULL; *count = 0; return err; }
            if (size.type != V4L2_FRMSIZE_TYPE_DISCRETE) break;
        }
    }
    return 0;
}

int CV4L2_set_format(CV4L2_device *d, uint32_t width, uint32_t height, uint32_t pixel_format, uint32_t fps,
                     CV4L2_format *actual) {
    struct v4l2_format f;
    memset(&f, 0, sizeof f);
    f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    f.fmt.pix.width = width;
    f.fmt.pix.height = height;
    f.fmt.pix.pixelformat = pixel_format;
    f.fmt.pix.field = V4L2_FIELD_NONE;
    int err = xioctl(d->fd, VIDIOC_S_FMT, &f);
    if (err < 0) return err;
    if (f.fmt.pix.pixelformat != pixel_format) return -EINVAL;
    struct v4l2_streamparm parm;
    memset(&parm, 0, sizeof parm);
    parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    parm.parm.capture.timeperframe.numerator = 1;
    parm.parm.capture.timeperframe.denominator = fps ? fps : 30;
    xioctl(d->fd, VIDIOC_S_PARM, &parm);  // not every driver lets us choose; we read back below
    memset(actual, 0, sizeof *actual);
    actual->width = f.fmt.pix.width;
    actual->height = f.fmt.pix.height;
    actual->bytes_per_line = f.fmt.pix.bytesperline;
    actual->size_image = f.fmt.pix.sizeimage;
    if (xioctl(d->fd, VIDIOC_G_PARM, &parm) == 0 && parm.parm.capture.timeperframe.denominator) {
        actual->interval_numerator = parm.parm.capture.timeperframe.numerator;
        actual->interval_denominator = parm.parm.capture.timeperframe.denominator;
    } else {
        actual->interval_numerator = 1;
        actual->interval_denominator = fps ? fps : 30;
    }
    return 0;
}

// A zeroed mmap capture buffer descriptor for `index`.
static struct v4l2_buffer capture_buffer(uint32_t index) {
    struct v4l2_buffer b;
    memset(&b, 0, sizeof b);
    b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    b.memory = V4L2_MEMORY_MMAP;
    b.index = index;
    return b;
}

int CV4L2_start(CV4L2_device *d, unsigned buffers) {
    struct v4l2_requestbuffers req;
    memset(&req, 0, sizeof req);
    req.count = buffers;
    req.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    req.memory = V4L2_MEMORY_MMAP;
    int err = xioctl(d->fd, VIDIOC_REQBUFS, &req);
    if (err < 0) return err;
    if (req.count < 2) return -ENOMEM;
    d->buffers = calloc(req.count, sizeof *d->buffers);
    if (!d->buffers) return -ENOMEM;
    d->count = req.count;
    for (unsigned i = 0; i < req.count; i++) {
        struct v4l2_buffer b = capture_buffer(i);
        if ((err = xioctl(d->fd, VIDIOC_QUERYBUF, &b)) < 0) return err;
        d->buffers[i].length = b.length;
        d->buffers[i].start = v4l2_mmap(NULL, b.length, PROT_READ | PROT_WRITE, MAP_SHARED, d->fd, b.m.offset);
        if (d->buffers[i].start == MAP_FAILED) { d->buffers[i].start = NULL; return -errno; }
        if ((err = xioctl(d->fd, VIDIOC_QBUF, &b)) < 0) return err;
    }
    enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    if ((err = xioctl(d->fd, VIDIOC_STREAMON, &type)) < 0) return err;
    d->streaming = 1;
    return 0;
}

int CV4L2_dequeue(CV4L2_device *d, int timeout_ms, CV4L2_frame *frame) {
    struct pollfd p = {.fd = d->fd, .events = POLLIN};
    int r = poll(&p, 1, timeout_ms);
    if (r < 0) return -errno;
    if (r == 0) return 0;
    if (p.revents & (POLLERR | POLLHUP | POLLNVAL) && !(p.revents & POLLIN)) return -ENODEV;
    struct v4l2_buffer b = capture_buffer(0);
    int err = xioctl(d->fd, VIDIOC_DQBUF, &b);
    if (err == -EAGAIN) return 0;
    if (err < 0) return err;
    frame->data = d->buffers[b.index].start;
    frame->bytes_used = b.bytesused;
    frame->length = d->buffers[b.index].length;
    frame->index = b.index;
    frame->sequence = b.sequence;
    frame->timestamp_ns = (int64_t)b.timestamp.tv_sec * 1000000000LL + (int64_t)b.timestamp.tv_usec * 1000LL;
    frame->error = (b.flags & V4L2_BUF_FLAG_ERROR) != 0;
    return 1;
}

int CV4L2_requeue(CV4L2_device *d, uint32_t index) {
    struct v4l2_buffer b = capture_buffer(index);
    return xioctl(d->fd, VIDIOC_QBUF, &b);
}

int CV4L2_stop(CV4L2_device *d) {
    int err = 0;
    if (d->streaming) {
        enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        err = xioctl(d->fd, VIDIOC_STREAMOFF, &type);
        d->streaming = 0;
    }
    for (unsigned i = 0; i < d->count; i++)
        if (d->buffers[i].start) v4l2_munmap(d->buffers[i].start, d->buffers[i].length);
    free(d->buffers);
    d->buffers = NULL;
    d->count = 0;
    return err;
}

void CV4L2_close(CV4L2_device *d) {
    if (!d) return;
    CV4L2_stop(d);
    v4l2_close(d->fd);
    free(d);
}
