// libqpdf loaded at run time: one table of its functions, filled once (see CQPDF.h).
#include "CQPDF.h"

#include "CLibraryLoader.h"

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

static void load(void) {
    void *library = ez_library_open(EZ_QPDF_SONAME, failure, sizeof failure);
    if (library == NULL) return;
#define EZ_QPDF_RESOLVE(name) && ez_library_resolve(library, EZ_QPDF_SONAME, #name, (void **)&functions.name, failure, sizeof failure)
    loaded = 1 EZ_QPDF_FUNCTIONS(EZ_QPDF_RESOLVE);
#undef EZ_QPDF_RESOLVE
}

const EZQPDFFunctions *ez_qpdf_load(char *reason, size_t reasonSize) {
    pthread_once(&once, load);
    if (!loaded) {
        if (reasonSize > 0) snprintf(reason, reasonSize, "%s", failure);
        return NULL;
    }
    return &functions;
}
