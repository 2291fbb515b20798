// CSDL: the window cravey plays videos in, and shows the camera in while recording, over SDL2.
//
// Why a shim: SDL's API is a C struct-and-union event model and opaque renderer objects; this
// layer offers the few whole operations a player needs — open a window, show a yuv420p frame
// (scaled to the window, aspect kept), read the keys and the close button — with functions
// prefixed CSDL_ and errors as negative numbers with SDL's message available.
#ifndef CSDL_H
#define CSDL_H

#include <stdint.h>

typedef struct CSDL_window CSDL_window;

/// What CSDL_window_poll returns besides a key code: nothing happened, or the window was closed.
enum {
    CSDL_EVENT_NONE = 0,
    CSDL_EVENT_CLOSE = -1,
};
/// SDL's key codes for ← and → (SDLK_LEFT, SDLK_RIGHT: macros Swift cannot import). Other keys
/// are their characters (space, 'q', Esc = 27).
extern const int32_t CSDL_KEY_LEFT;
extern const int32_t CSDL_KEY_RIGHT;

/// Opens a window titled `title` for `width`×`height` yuv420p frames, `window_width`×`window_height`
/// on the screen (0 for the frames' size); `mirrored` shows every frame flipped left to right (a
/// camera seen as in a mirror). Returns 0, or -1 when there is no display to open a window on
/// (CSDL_error says why).
int CSDL_window_open(const char *title, int width, int height, int window_width, int window_height, int mirrored,
                     CSDL_window **out);
/// Makes the window take frames of `width`×`height` from now on (nothing changes for the same
/// size) and, when `window_width` and `window_height` are above 0, resizes it on the screen.
/// Returns 0, or -1 (the window still takes frames of the size it had).
int CSDL_window_set_frame_size(CSDL_window *window, int width, int height, int window_width, int window_height);
/// Shows one frame (Y, U, V planes tightly packed; `bytes` is the buffer size, checked against the
/// planes of odd sizes too).
int CSDL_window_show(CSDL_window *window, const uint8_t *yuv420p, int64_t bytes);
/// The next event without waiting: the code of a key pressed (what each key does is the player's
/// business), CSDL_EVENT_CLOSE, or CSDL_EVENT_NONE when nothing happened.
int CSDL_window_poll(CSDL_window *window);
void CSDL_window_close(CSDL_window *window);
/// SDL's message for the last failure.
const char *CSDL_error(void);

/// Opens this shim's libraries (the Swift floor calls it before its first call into the shim):
/// 0, or -ENOENT with the line for the user in CSDL_load_message().
int CSDL_load(void);
const char *CSDL_load_message(void);

#endif
