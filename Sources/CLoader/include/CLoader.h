// CLoader: a shim's shared libraries, opened the first time one of its functions is called.
//
// Why a shim: most cravey commands (list, top, show, edit, delete, purge, export, check, search)
// touch only the SQLite library, yet linking FFmpeg, SDL, ALSA, V4L2, PocketSphinx, libebur128
// and sd-bus made every start map about 180 shared objects (tens of milliseconds, tens of MB).
// So the executable links none of them: each shim lists the functions it calls (its private
// `libraries.h`), and the first call through that list opens the libraries with dlopen and fills
// the table with dlsym. A function missing from a shim's list does not link, which keeps the
// lists complete.
#ifndef CLOADER_H
#define CLOADER_H

#include <pthread.h>
#include <stddef.h>

/// The libraries of one shim and the functions resolved from them.
typedef struct CLoader_set {
    const char *what;               // what the libraries are, for the error line ("FFmpeg")
    const char *package;            // the Debian package that installs them, for the error line
    const char *const *libraries;   // sonames, NULL-terminated, opened in order
    const char *const *names;       // the functions, in the order of `slots`
    void **slots;                   // filled with the functions' addresses
    size_t count;
    pthread_mutex_t lock;
    int loaded;                     // 1 once every slot is filled (read with acquire order)
    int status;                     // 0, or a negative errno once loading failed
    char error[512];                // why it failed: dlerror's text
    char message[1024];             // the line for the user: what, why, and what to install
} CLoader_set;

/// Initializer for a set's fixed part (the rest starts zeroed).
#define CLOADER_SET(what_, package_, libraries_, names_, slots_, count_) \
    { .what = (what_), .package = (package_), .libraries = (libraries_), .names = (names_), \
      .slots = (void **)(slots_), .count = (count_), .lock = PTHREAD_MUTEX_INITIALIZER }

/// In a shim's libraries.h, after `FUNCTIONS(X)` lists its functions: the table's type (one pointer
/// per function, typed from the library's own declaration) and the names of the table and the set.
#define CLOADER_SLOT(name) __typeof__(name) *name;
#define CLOADER_DECLARE(prefix, functions) \
    struct prefix##_functions { functions(CLOADER_SLOT) }; \
    extern struct prefix##_functions prefix##_functions; \
    extern CLoader_set prefix##_libraries;

/// A call through the table (loading the libraries first if needed).
#define CLOADER_CALL(prefix, name) (CLoader_require(&prefix##_libraries), prefix##_functions.name)

/// In a shim's libraries.c: the table and its set, given what the libraries are, the Debian
/// package(s) that install them and their sonames; and the shim's public `<prefix>_load()` and
/// `<prefix>_load_message()`: the Swift floor calls `_load()` before its first call into the shim
/// and turns a failure into an error carrying the message.
#define CLOADER_NAME(name) #name,
#define CLOADER_DEFINE(prefix, functions, what_, package_, ...) \
    struct prefix##_functions prefix##_functions; \
    static const char *const prefix##_names[] = { functions(CLOADER_NAME) }; \
    static const char *const prefix##_sonames[] = { __VA_ARGS__, NULL }; \
    CLoader_set prefix##_libraries = CLOADER_SET(what_, package_, prefix##_sonames, prefix##_names, \
        &prefix##_functions, sizeof prefix##_names / sizeof prefix##_names[0]); \
    int prefix##_load(void) { return CLoader_load(&prefix##_libraries); } \
    const char *prefix##_load_message(void) { return CLoader_message(&prefix##_libraries); }

/// Opens the set's libraries and resolves its functions once. 0, or -ENOENT when a library or a
/// function is missing (`CLoader_error` says which); a failure is remembered, not retried.
int CLoader_load(CLoader_set *set);

/// The set's failure as one line for the user ("cannot load FFmpeg (…); install libavcodec59 …"),
/// "" when it loaded.
const char *CLoader_message(CLoader_set *set);

/// For the calls through the table: loads the set the first time. The Swift floor loads every set
/// (and reports a failure as an error) before it calls into it, so this finds the set loaded; a
/// call that reached a set that failed to load is a bug in the shim's caller, and stops the
/// process with the message rather than calling through an empty slot.
static inline void CLoader_require(CLoader_set *set) {
    if (__builtin_expect(!__atomic_load_n(&set->loaded, __ATOMIC_ACQUIRE), 0)) {
        extern void CLoader_require_slow(CLoader_set *set);
        CLoader_require_slow(set);
    }
}

void CLoader_require_slow(CLoader_set *set);

#endif
