// libqpdf loaded at run time: one table of its functions, filled once (see CQPDF.h).
#include "CQPDF.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// libqpdf's soname follows its major version (qpdf 10: libqpdf.so.28, 11: .29, 12: .30); the
// version is the one of the header the package is built with. An unknown version uses the
// development link (libqpdf.so) the build itself linked against.
#if QPDF_MAJOR_VERSION == 10
#define EZ_QPDF_SONAME "libqpdf.so.28"
#elif QPDF_MAJOR_VERSION == 11
#define EZ_QPDF_SONAME "libqpdf.so.29"
#elif QPDF_MAJOR_VERSION == 12
#define EZ_QPDF_SONAME "libqpdf.so.30"
#else
#define EZ_QPDF_SONAME "libqpdf.so"
#endif

static EZQPDFFunctions functions;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = 0;
static char failure[512];

/// Resolves `name` into `*slot`; false (with the reason kept) when the library lacks it.
static int resolve(void *library, const char *name, void **slot) {
    dlerror();
    *slot = dlsym(library, name);
    if (*slot == NULL) {
        const char *reason = dlerror();
        snprintf(failure, sizeof failure, "%s lacks %s: %s", EZ_QPDF_SONAME, name, reason ? reason : "not found");
        return 0;
    }
    return 1;
}

static void load(void) {
    // RTLD_LOCAL: libqpdf's symbols (and those of the libraries it brings) stay out of the
    // process's global scope; only the table reaches them.
    void *library = dlopen(EZ_QPDF_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(failure, sizeof failure, "%s", reason ? reason : EZ_QPDF_SONAME " cannot be loaded");
        return;
    }
#define EZ_QPDF_RESOLVE(name) && resolve(library, #name, (void **)&functions.name)
    loaded = 1 EZ_QPDF_FUNCTIONS(EZ_QPDF_RESOLVE);
#undef EZ_QPDF_RESOLVE
    // The library stays loaded for the rest of the process (documents may be open on any thread).
}

const EZQPDFFunctions *ez_qpdf_load(char *reason, size_t reasonSize) {
    pthread_once(&once, load);
    if (!loaded) {
        if (reasonSize > 0) snprintf(reason, reasonSize, "%s", failure);
        return NULL;
    }
    return &functions;
}
