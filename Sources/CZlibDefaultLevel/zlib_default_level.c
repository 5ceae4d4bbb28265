// zlib's deflateInit_ and deflateInit2_, defined in the executable so that the libraries it loads
// bind to them before libz.so: a request for Z_DEFAULT_COMPRESSION becomes the level chosen here,
// any explicit level passes through unchanged, and the work is then done by zlib's own
// deflateInit2_, found with dlsym(RTLD_NEXT).
//
// Why: Cairo's PDF surface and minizip (inside libxlsxwriter) deflate at zlib's default level 6
// and have no setting for it; at level 1 the no-PNG batch takes ~8 % less CPU for files ~6 % (PDF)
// and ~10 % (XLSX) larger. Package.swift exports both symbols (--export-dynamic-symbol) from
// every product that links this target.
#define _GNU_SOURCE
#include "zlib_default_level.h"

#include <dlfcn.h>
#include <stdatomic.h>
#include <stddef.h>
#include <zlib.h>

typedef int (*deflate_init2_fn)(z_streamp, int, int, int, int, int, const char *, int);

static _Atomic int default_level = 1;
static _Atomic(deflate_init2_fn) real_init2 = NULL;

static deflate_init2_fn zlib_deflate_init2(void) {
    deflate_init2_fn fn = atomic_load_explicit(&real_init2, memory_order_acquire);
    if (fn == NULL) {
        fn = (deflate_init2_fn)dlsym(RTLD_NEXT, "deflateInit2_");
        atomic_store_explicit(&real_init2, fn, memory_order_release);
    }
    return fn;
}

static int effective_level(int level) {
    return level == Z_DEFAULT_COMPRESSION ? atomic_load_explicit(&default_level, memory_order_relaxed) : level;
}

int deflateInit2_(z_streamp strm, int level, int method, int windowBits, int memLevel, int strategy,
                  const char *version, int stream_size) {
    deflate_init2_fn fn = zlib_deflate_init2();
    if (fn == NULL) return Z_VERSION_ERROR;
    return fn(strm, effective_level(level), method, windowBits, memLevel, strategy, version, stream_size);
}

// zlib's deflateInit_ is deflateInit2_ with its defaults: deflate, a 32 KB window, memLevel 8.
int deflateInit_(z_streamp strm, int level, const char *version, int stream_size) {
    return deflateInit2_(strm, level, Z_DEFLATED, MAX_WBITS, 8, Z_DEFAULT_STRATEGY, version, stream_size);
}

int ezr_zlib_default_level(void) {
    return atomic_load_explicit(&default_level, memory_order_relaxed);
}

int ezr_zlib_set_default_level(int level) {
    if (level < -1 || level > 9) return -1;
    atomic_store_explicit(&default_level, level, memory_order_relaxed);
    return 0;
}

int ezr_zlib_default_level_is_active(void) {
    return dlsym(RTLD_DEFAULT, "deflateInit2_") == (void *)deflateInit2_
        && dlsym(RTLD_DEFAULT, "deflateInit_") == (void *)deflateInit_;
}
