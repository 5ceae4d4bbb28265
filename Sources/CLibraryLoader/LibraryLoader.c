// See CLibraryLoader.h.
#include "CLibraryLoader.h"

#include <dlfcn.h>
#include <stdio.h>

void *ez_library_open(const char *soname, char *failure, size_t failureSize) {
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(failure, failureSize, "%s", reason ? reason : "the library cannot be loaded");
    }
    return library;
}

int ez_library_resolve(void *library, const char *soname, const char *name, void **slot,
                       char *failure, size_t failureSize) {
    dlerror();
    *slot = dlsym(library, name);
    if (*slot == NULL) {
        const char *reason = dlerror();
        snprintf(failure, failureSize, "%s lacks %s: %s", soname, name, reason ? reason : "not found");
        return 0;
    }
    return 1;
}
