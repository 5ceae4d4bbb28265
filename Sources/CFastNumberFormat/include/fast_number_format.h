// A fast path for the numbers Cairo writes into a PDF.
//
// Cairo prints every coordinate, matrix and colour of a PDF with snprintf("%f") and every
// integer with snprintf("%d")-like formats, through glibc's fortified `__snprintf_chk`. glibc
// formats a double with multi-precision arithmetic; for the ~6,000 numbers of a statement that
// was ~7 % of the batch without PNGs. The executable defines `__snprintf_chk` (see
// fast_number_format.c) and formats the few simple specifications Cairo uses itself, with
// output byte-identical to glibc's; every other call goes to glibc unchanged.
#ifndef EZR_FAST_NUMBER_FORMAT_H
#define EZR_FAST_NUMBER_FORMAT_H

#include <stdarg.h>
#include <stddef.h>

/// Formats `args` by `format` into `buffer` (of `size` bytes, NUL-terminated) exactly as glibc's
/// vsnprintf would, when `format` is one this fast path covers: "%f", "%.Nf" (N ≤ 18), "%.*f"
/// for finite |values| < 2^63, and "%[0][width][l]{d,i,u,x,X,o}". Returns the length written;
/// returns -1, writing nothing, for any other format or value, or when the result does not fit.
int ezr_fast_vsnprintf(char *buffer, size_t size, const char *format, va_list args);

/// 1 when `__snprintf_chk` in this process is this library's (the executable exports it, so the
/// dynamic linker binds Cairo's calls here), 0 when it is glibc's own.
int ezr_fast_number_format_is_active(void);

/// 1 while the fast path is used (the default), 0 when every call goes to glibc.
int ezr_fast_number_format_enabled(void);

/// Turns the fast path on (1) or off (0) for the whole process; the output is the same either
/// way, so this exists for tests and benchmarks.
void ezr_fast_number_format_set_enabled(int enabled);

/// How many `__snprintf_chk` calls the fast path answered on the calling thread so far.
unsigned long ezr_fast_number_format_calls_on_this_thread(void);

#endif
