// glibc's malloc tuning (mallopt), which Swift's Glibc module does not expose.
#include <malloc.h>
