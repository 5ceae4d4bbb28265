// zlib's deflateInit_, deflateInit2_, deflate and deflateEnd, defined in the executable so that
// the libraries it loads bind to them before libz.so (Package.swift exports them with
// --export-dynamic-symbol from every product that links this target).
//
// - A request for Z_DEFAULT_COMPRESSION becomes the level chosen here (1 unless changed); an
//   explicit level passes through unchanged. Cairo's PDF surface and minizip ask for the default
//   and have no setting of their own.
// - A default-level stream opened by Cairo or minizip (the caller is found with dladdr) becomes a
//   whole-stream libdeflate stream (whole_stream_deflate.c). Both are known to drive a stream
//   only with Z_NO_FLUSH and Z_FINISH and to call nothing but these four functions on it (their
//   sources; their dynamic imports). Every other stream, our own PNG encoder's included, is
//   zlib's own, found with dlsym(RTLD_NEXT).
#define _GNU_SOURCE
#include "stream_compression.h"
#include "whole_stream_deflate.h"

#include <dlfcn.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef int (*deflate_init2_fn)(z_streamp, int, int, int, int, int, const char *, int);
typedef int (*deflate_fn)(z_streamp, int);
typedef int (*deflate_end_fn)(z_streamp);

static _Atomic int default_level = 1;
static _Atomic int whole_streams_enabled = 1;

/// zlib's own function `name`, the next definition after this executable's.
static void *zlib_function(_Atomic(void *) *cache, const char *name) {
    void *fn = atomic_load_explicit(cache, memory_order_acquire);
    if (fn == NULL) {
        fn = dlsym(RTLD_NEXT, name);
        atomic_store_explicit(cache, fn, memory_order_release);
    }
    return fn;
}
static _Atomic(void *) zlib_init2, zlib_deflate, zlib_end;

static int effective_level(int level) {
    return level == Z_DEFAULT_COMPRESSION ? atomic_load_explicit(&default_level, memory_order_relaxed) : level;
}

/* MARK: - Who is calling */

/// Whether the code at `address` belongs to Cairo or minizip. There are few call sites, so the
/// answers are remembered as (address << 1 | answer), exact for any user-space address (below
/// 2^47). Racing writers store the same answer; a missed entry only means another dladdr.
static int caller_uses_whole_streams(const void *address) {
    enum { slots = 8 };
    static _Atomic(uintptr_t) known[slots];  /* 0: empty */
    uintptr_t a = (uintptr_t)address;
    for (int i = 0; i < slots; i++) {
        uintptr_t k = atomic_load_explicit(&known[i], memory_order_relaxed);
        if (k == 0) break;
        if (k >> 1 == a) return (int)(k & 1);
    }
    Dl_info info;
    int answer = 0;
    if (dladdr(address, &info) != 0 && info.dli_fname != NULL) {
        const char *base = strrchr(info.dli_fname, '/');
        base = base ? base + 1 : info.dli_fname;
        answer = strncmp(base, "libcairo.so", 11) == 0 || strncmp(base, "libminizip.so", 13) == 0;
    }
    if (a < ((uintptr_t)1 << (sizeof(uintptr_t) * 8 - 1))) {
        for (int i = 0; i < slots; i++) {
            uintptr_t expected = 0;
            if (atomic_compare_exchange_strong_explicit(&known[i], &expected, (a << 1) | (uintptr_t)answer,
                                                        memory_order_relaxed, memory_order_relaxed)
                || expected >> 1 == a) break;
        }
    }
    return answer;
}

static int init_stream(z_streamp strm, int level, int method, int windowBits, int memLevel, int strategy,
                       const char *version, int stream_size, const void *caller) {
    if (level == Z_DEFAULT_COMPRESSION && method == Z_DEFLATED && (windowBits == 15 || windowBits == -15)
        && memLevel == 8 && strategy == Z_DEFAULT_STRATEGY && stream_size == (int)sizeof(z_stream)
        && version != NULL && version[0] == ZLIB_VERSION[0]
        && atomic_load_explicit(&whole_streams_enabled, memory_order_relaxed)
        && caller_uses_whole_streams(caller)) {
        return ezr_whole_stream_deflate_init(strm, effective_level(level), windowBits);
    }
    deflate_init2_fn fn = (deflate_init2_fn)zlib_function(&zlib_init2, "deflateInit2_");
    if (fn == NULL) return Z_VERSION_ERROR;
    return fn(strm, effective_level(level), method, windowBits, memLevel, strategy, version, stream_size);
}

/* MARK: - zlib's entry points */

int deflateInit2_(z_streamp strm, int level, int method, int windowBits, int memLevel, int strategy,
                  const char *version, int stream_size) {
    return init_stream(strm, level, method, windowBits, memLevel, strategy, version, stream_size,
                       __builtin_return_address(0));
}

// zlib's deflateInit_ is deflateInit2_ with its defaults: deflate, a 32 KB window, memLevel 8.
int deflateInit_(z_streamp strm, int level, const char *version, int stream_size) {
    return init_stream(strm, level, Z_DEFLATED, MAX_WBITS, 8, Z_DEFAULT_STRATEGY, version, stream_size,
                       __builtin_return_address(0));
}

int deflate(z_streamp strm, int flush) {
    if (ezr_whole_stream_owns(strm)) return ezr_whole_stream_deflate(strm, flush);
    deflate_fn fn = (deflate_fn)zlib_function(&zlib_deflate, "deflate");
    return fn ? fn(strm, flush) : Z_STREAM_ERROR;
}

int deflateEnd(z_streamp strm) {
    if (ezr_whole_stream_owns(strm)) return ezr_whole_stream_end(strm);
    deflate_end_fn fn = (deflate_end_fn)zlib_function(&zlib_end, "deflateEnd");
    return fn ? fn(strm) : Z_STREAM_ERROR;
}

/* MARK: - Settings */

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
        && dlsym(RTLD_DEFAULT, "deflateInit_") == (void *)deflateInit_
        && dlsym(RTLD_DEFAULT, "deflate") == (void *)deflate
        && dlsym(RTLD_DEFAULT, "deflateEnd") == (void *)deflateEnd;
}

int ezr_whole_stream_deflate_enabled(void) {
    return atomic_load_explicit(&whole_streams_enabled, memory_order_relaxed);
}

void ezr_whole_stream_deflate_set_enabled(int enabled) {
    atomic_store_explicit(&whole_streams_enabled, enabled != 0, memory_order_relaxed);
}
