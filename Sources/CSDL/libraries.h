// The SDL2 functions this shim calls, resolved on first use (see CLoader.h: the executable
// does not link SDL2, so a call to a function missing from this list does not link).
// Include it after the libraries' headers and before any call: each name below becomes a call
// through the table, which opens the libraries the first time.
#ifndef CSDL_LIBRARIES_H
#define CSDL_LIBRARIES_H

#include <CLoader.h>
#include <SDL2/SDL.h>

#define CSDL_FUNCTIONS(X) \
    X(SDL_CreateRenderer) \
    X(SDL_CreateTexture) \
    X(SDL_CreateWindow) \
    X(SDL_DestroyRenderer) \
    X(SDL_DestroyTexture) \
    X(SDL_DestroyWindow) \
    X(SDL_GetError) \
    X(SDL_InitSubSystem) \
    X(SDL_PollEvent) \
    X(SDL_QuitSubSystem) \
    X(SDL_RenderClear) \
    X(SDL_RenderCopy) \
    X(SDL_RenderPresent) \
    X(SDL_RenderSetLogicalSize) \
    X(SDL_SetRenderDrawColor) \
    X(SDL_SetWindowSize) \
    X(SDL_UpdateYUVTexture)

CLOADER_DECLARE(CSDL, CSDL_FUNCTIONS)

#define SDL_CreateRenderer CLOADER_CALL(CSDL, SDL_CreateRenderer)
#define SDL_CreateTexture CLOADER_CALL(CSDL, SDL_CreateTexture)
#define SDL_CreateWindow CLOADER_CALL(CSDL, SDL_CreateWindow)
#define SDL_DestroyRenderer CLOADER_CALL(CSDL, SDL_DestroyRenderer)
#define SDL_DestroyTexture CLOADER_CALL(CSDL, SDL_DestroyTexture)
#define SDL_DestroyWindow CLOADER_CALL(CSDL, SDL_DestroyWindow)
#define SDL_GetError CLOADER_CALL(CSDL, SDL_GetError)
#define SDL_InitSubSystem CLOADER_CALL(CSDL, SDL_InitSubSystem)
#define SDL_PollEvent CLOADER_CALL(CSDL, SDL_PollEvent)
#define SDL_QuitSubSystem CLOADER_CALL(CSDL, SDL_QuitSubSystem)
#define SDL_RenderClear CLOADER_CALL(CSDL, SDL_RenderClear)
#define SDL_RenderCopy CLOADER_CALL(CSDL, SDL_RenderCopy)
#define SDL_RenderPresent CLOADER_CALL(CSDL, SDL_RenderPresent)
#define SDL_RenderSetLogicalSize CLOADER_CALL(CSDL, SDL_RenderSetLogicalSize)
#define SDL_SetRenderDrawColor CLOADER_CALL(CSDL, SDL_SetRenderDrawColor)
#define SDL_SetWindowSize CLOADER_CALL(CSDL, SDL_SetWindowSize)
#define SDL_UpdateYUVTexture CLOADER_CALL(CSDL, SDL_UpdateYUVTexture)

#endif
