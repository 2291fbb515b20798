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
    uint8_t *flipped;  // a mirrored frame's planes, reversed row by row before upload
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
    // Mesa's GL keeps a shader cache in the person's ~/.cache: off, as cravey writes nothing outside
    // its library (a variable the person set is kept).
    setenv("MESA_SHADER_CACHE_DISABLE", "true", 0);
    setenv("MESA_GLSL_CACHE_DISABLE", "true", 0);
    // Only the video subsystem: sound goes to ALSA directly, never through SDL.
    if (SDL_InitSubSystem(SDL_INIT_VIDEO) != 0) return -1;
    CSDL_window *w = calloc(1, sizeof *w);
    if (!w) {
        SDL_QuitSubSystem(SDL_INIT_VIDEO);
        return -1;
    }
    w->mirrored = mirrored;
    w->window = SDL_CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, window_width > 0 ? window_width : width,
                                 window_height > 0 ? window_height : height, SDL_WINDOW_RESIZABLE);
    if (!w->window || !(w->renderer = make_renderer(w->window)) || CSDL_window_set_frame_size(w, width, height, 0, 0) != 0) goto fail;
    SDL_SetRenderDrawColor(w->renderer, 0, 0, 0, 255);
    SDL_RenderClear(w->renderer);
    SDL_RenderPresent(w->renderer);
    *out = w;
    return 0;
fail:
    CSDL_window_close(w);
    return -1;
}

int CSDL_window_set_frame_size(CSDL_window *w, int width, int height, int window_width, int window_height) {
    if (width == w->width && height == w->height) return 0;
    SDL_Texture *texture = SDL_CreateTexture(w->renderer, SDL_PIXELFORMAT_IYUV, SDL_TEXTUREACCESS_STREAMING, width, height);
    if (!texture) return -1;
    // Mirroring the planes here and drawing the texture as it is costs far less than asking the
    // renderer to flip it: a software renderer flips through a rotated copy of the whole picture.
    uint8_t *flipped = NULL;
    if (w->mirrored && !(flipped = malloc((size_t)width * height + 2 * (size_t)((width + 1) / 2) * ((height + 1) / 2)))) {
        SDL_DestroyTexture(texture);
        return -1;
    }
    if (w->texture) SDL_DestroyTexture(w->texture);
    free(w->flipped);
    w->texture = texture;
    w->flipped = flipped;
    w->width = width;
    w->height = height;
    SDL_RenderSetLogicalSize(w->renderer, width, height);  // scaled to the window, aspect kept
    if (window_width > 0 && window_height > 0) SDL_SetWindowSize(w->window, window_width, window_height);
    return 0;
}

const int32_t CSDL_KEY_LEFT = SDLK_LEFT;
const int32_t CSDL_KEY_RIGHT = SDLK_RIGHT;

// Stage: one plane's rows reversed into `to` (a mirror image).
static void mirror_plane(uint8_t *to, const uint8_t *from, int64_t width, int64_t height) {
    for (int64_t y = 0; y < height; y++) {
        const uint8_t *row = from + y * width;
        uint8_t *out = to + y * width + width - 1;
        for (int64_t x = 0; x < width; x++) *out-- = row[x];
    }
}

int CSDL_window_show(CSDL_window *w, const uint8_t *yuv, int64_t bytes) {
    // yuv420p planes, tightly packed: chroma is ⌈w/2⌉×⌈h/2⌉, so odd sizes round up.
    const int64_t cw = (w->width + 1) / 2, ch = (w->height + 1) / 2;
    const int64_t y_size = (int64_t)w->width * w->height, c_size = cw * ch;
    if (bytes < y_size + 2 * c_size) return -1;
    if (w->mirrored) {
        mirror_plane(w->flipped, yuv, w->width, w->height);
        mirror_plane(w->flipped + y_size, yuv + y_size, cw, ch);
        mirror_plane(w->flipped + y_size + c_size, yuv + y_size + c_size, cw, ch);
        yuv = w->flipped;
    }
    if (SDL_UpdateYUVTexture(w->texture, NULL, yuv, w->width, yuv + y_size, (int)cw, yuv + y_size + c_size, (int)cw) != 0)
        return -1;
    SDL_RenderClear(w->renderer);
    if (SDL_RenderCopy(w->renderer, w->texture, NULL, NULL) != 0) return -1;
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
    free(w->flipped);
    free(w);
}
