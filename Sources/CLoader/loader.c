// Opening a shim's libraries on first use. See include/CLoader.h for why this shim exists.
#include "CLoader.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern char *program_invocation_short_name;

// Opens every library of the set (RTLD_LOCAL: their symbols stay out of the global scope).
static int open_libraries(CLoader_set *set, void **handles, size_t max) {
    size_t n = 0;
    for (; set->libraries[n] != NULL && n < max; n++) {
        handles[n] = dlopen(set->libraries[n], RTLD_NOW | RTLD_LOCAL);
        if (handles[n] == NULL) {
            const char *why = dlerror();
            snprintf(set->error, sizeof set->error, "%s", why != NULL ? why : set->libraries[n]);
            return -ENOENT;
        }
    }
    return (int)n;
}

// Looks each function up in the libraries in order (dlsym on a handle searches its dependencies
// too, so a function of libavutil is found through libavformat's handle).
static int resolve(CLoader_set *set, void **handles, int count) {
    for (size_t i = 0; i < set->count; i++) {
        void *address = NULL;
        for (int h = 0; h < count && address == NULL; h++) address = dlsym(handles[h], set->names[i]);
        if (address == NULL) {
            snprintf(set->error, sizeof set->error, "%s: undefined symbol: %s", set->libraries[0], set->names[i]);
            return -ENOENT;
        }
        set->slots[i] = address;
    }
    return 0;
}

int CLoader_load(CLoader_set *set) {
    if (__atomic_load_n(&set->loaded, __ATOMIC_ACQUIRE)) return 0;
    pthread_mutex_lock(&set->lock);
    if (!set->loaded && set->status == 0) {
        void *handles[8];
        int opened = open_libraries(set, handles, sizeof handles / sizeof handles[0]);
        int status = opened < 0 ? opened : resolve(set, handles, opened);
        if (status == 0) __atomic_store_n(&set->loaded, 1, __ATOMIC_RELEASE);
        else set->status = status;
        // The handles stay open for the life of the process: the table points into them.
    }
    int status = set->loaded ? 0 : set->status;
    pthread_mutex_unlock(&set->lock);
    return status;
}

const char *CLoader_message(CLoader_set *set) {
    if (CLoader_load(set) == 0) return "";
    pthread_mutex_lock(&set->lock);
    snprintf(set->message, sizeof set->message, "cannot load %s (%s); install %s", set->what, set->error, set->package);
    pthread_mutex_unlock(&set->lock);
    return set->message;
}

void CLoader_require_slow(CLoader_set *set) {
    if (CLoader_load(set) == 0) return;
    fprintf(stderr, "%s: %s\n", program_invocation_short_name, CLoader_message(set));
    abort();
}
