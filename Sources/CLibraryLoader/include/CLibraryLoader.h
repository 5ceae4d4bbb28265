// Loading a system library at run time (dlopen) instead of linking it: what CCurl and CQPDF
// share. Each keeps its own table of functions and calls these once, under its own
// pthread_once.
#ifndef EZ_CLIBRARYLOADER_H
#define EZ_CLIBRARYLOADER_H

#include <stddef.h>

/// Opens `soname` with RTLD_NOW | RTLD_LOCAL (its symbols, and those of the libraries it
/// brings, stay out of the process's global scope; it stays loaded for the rest of the process).
/// Returns the handle, or NULL with the loader's reason in `failure`.
void *ez_library_open(const char *soname, char *failure, size_t failureSize);

/// Resolves `name` from `library` into `*slot`. Returns 1, or 0 with "<soname> lacks <name>: …"
/// in `failure`.
int ez_library_resolve(void *library, const char *soname, const char *name, void **slot,
                       char *failure, size_t failureSize);

#endif
