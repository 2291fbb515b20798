// The video window over SDL2. See include/CSDL.h for why this exists.
#include "CSDL.h"

#include <SDL2/SDL.h>
#include <stdlib.h>
#include "libraries.h"  // last: calls below go through the table of functions

struct CSDL_window {
    SDL_Window *window;
    SDL_Renderer *renderer;
    SDL_Texture *texture;
    int width, height;
    int mirrored;
};

const char *CSDL_error(void) { return SDL_GetError(); }

// Stage: the renderer, accelerated when the display offers it, else in software (Xvfb, remote X).
static SDL_Renderer *make_renderer(SDL_Window *window) {
    SDL_Renderer *r = SDL_CreateRenderer(window, -1, SDL_RENDERER_ACCELERATED | SDL_RENDERER_PRESENTVSYNC);
    return r ? r : SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE);
}

int CSDL_window_open(const char *title, int width, int height, int window_width, int window_height, int mirrored,
                     CSDL_window **out) {
    *out = NULL;
    // Only the video subsystem: sound goes to ALSA directly, never through SDL.
    if (SDL_InitSubSystem(SDL_INIT_VIDEO) != 0) return -1;
    CSDL_window *w = calloc(1, sizeof *w);
    if (!w) return -1;
    w->width = width;
    w->height = height;
    w->mirrored = mirrored;
    w->window = SDL_CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, window_width > 0 ? window_width : width,
                                 window_height > 0 ? window_height : height, SDL_WINDOW_RESIZABLE);
    if (!w->window || !(w->renderer = make_renderer(w->window))) goto fail;
    SDL_RenderSetLogicalSize(w->renderer, width, height);  // scaled to the window, aspect kept
    w->texture = SDL_CreateTexture(w->renderer, SDL_PIXELFORMAT_IYUV, SDL_TEXTUREACCESS_STREAMING, width, height);
    if (!w->texture) goto fail;
    SDL_SetRenderDrawColor(w->renderer, 0, 0, 0, 255);
    SDL_RenderClear(w->renderer);
    SDL_RenderPresent(w->renderer);
    *out = w;
    return 0;
fail:
    CSDL_window_close(w);
    return -1;
}

const int32_t CSDL_KEY_LEFT = SDLK_LEFT;
const int32_t CSDL_KEY_RIGHT = SDLK_RIGHT;

int CSDL_window_show(CSDL_window *w, const uint8_t *yuv, int64_t bytes) {
    // yuv420p planes, tightly packed: chroma is ⌈w/2⌉×⌈h/2⌉, so odd sizes round up.
    const int64_t cw = (w->width + 1) / 2, ch = (w->height + 1) / 2;
    const int64_t y_size = (int64_t)w->width * w->height, c_size = cw * ch;
    if (bytes < y_size + 2 * c_size) return -1;
    if (SDL_UpdateYUVTexture(w->texture, NULL, yuv, w->width, yuv + y_size, (int)cw, yuv + y_size + c_size, (int)cw) != 0)
        return -1;
    SDL_RenderClear(w->renderer);
    if (w->mirrored ? SDL_RenderCopyEx(w->renderer, w->texture, NULL, NULL, 0, NULL, SDL_FLIP_HORIZONTAL)
                    : SDL_RenderCopy(w->renderer, w->texture, NULL, NULL))
        return -1;
    SDL_RenderPresent(w->renderer);
    return 0;
}

int CSDL_window_poll(CSDL_window *w) {
    (void)w;
    SDL_Event e;
    while (SDL_PollEvent(&e)) {
        if (e.type == SDL_QUIT || (e.type == SDL_WINDOWEVENT && e.window.event == SDL_WINDOWEVENT_CLOSE)) return CSDL_EVENT_CLOSE;
        if (e.type == SDL_KEYDOWN && e.key.keysym.sym > 0) return (int)e.key.keysym.sym;
    }
    return CSDL_EVENT_NONE;
}

void CSDL_window_close(CSDL_window *w) {
    if (!w) return;
    if (w->texture) SDL_DestroyTexture(w->texture);
    if (w->renderer) SDL_DestroyRenderer(w->renderer);
    if (w->window) SDL_DestroyWindow(w->window);
    SDL_QuitSubSystem(SDL_INIT_VIDEO);
    free(w);
}
