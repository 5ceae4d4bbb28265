// glibc's malloc extensions (malloc_trim), which the Glibc module does not include. Part of the C
// library: nothing to link, no pkg-config. Only the include.
#include <malloc.h>
