// glibc's `__snprintf_chk`, defined in the executable so that the libraries it loads bind to it
// before libc.so (Package.swift exports it with --export-dynamic-symbol). It answers the simple
// specifications Cairo's PDF writer uses itself (_cairo_dtostr and _cairo_output_stream_vprintf
// in cairo-output-stream.c) and hands every other call, unchanged, to glibc's `__vsnprintf_chk`.
//
// Why: glibc prints a double with its multi-precision printf_fp; a statement PDF prints ~6,000 of
// them and ~1,800 integers, and those calls were ~7 % of the CPU of the batch without PNGs
// (docs/performance.md). The output must be byte-identical to glibc's, so:
//   - "%.Nf" is computed exactly: a finite double is m·2^e with m < 2^53, so |d|·10^N is the
//     integer m·10^N·2^e, which for |d| < 2^63 and N ≤ 18 fits in 128 bits; it is rounded to
//     nearest with ties to even, as glibc does in the default rounding mode;
//   - the decimal point is the current locale's, as printf's;
//   - anything outside those cases (infinities, NaN, |d| ≥ 2^63, flags or widths other than a
//     zero-pad, '*' widths, results that do not fit) takes glibc's path.
// Tests compare it with glibc's vsnprintf over random and edge values of every covered shape.
#define _GNU_SOURCE
#include "fast_number_format.h"

#include <dlfcn.h>
#include <langinfo.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

extern int __vsnprintf_chk(char *s, size_t maxlen, int flag, size_t slen, const char *format, va_list args);

static _Atomic int fast_path_enabled = 1;
static _Thread_local unsigned long fast_calls;

static const uint64_t powers_of_ten[19] = {
    1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL, 100000000ULL,
    1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL, 10000000000000ULL,
    100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL, 100000000000000000ULL,
    1000000000000000000ULL,
};

/// One conversion the fast path covers: the whole format is this single specification.
typedef struct {
    char conversion;  // 'f', or one of d i u x X o
    int precision;    // for 'f': digits after the point; -1 when given as '*'
    int zero_pad;     // integers: the '0' flag
    int width;        // integers: minimum field width (0 = none)
    int is_long;      // integers: the 'l' length modifier
} spec_t;

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/// Parses "%f", "%.N f", "%.*f" or "%[0][width][l]{d,i,u,x,X,o}" (nothing before or after).
static int parse_spec(const char *f, spec_t *spec) {
    if (f[0] != '%') return 0;
    f++;
    memset(spec, 0, sizeof *spec);
    if (*f == 'f' && f[1] == '\0') { spec->conversion = 'f'; spec->precision = 6; return 1; }
    if (*f == '.') {
        f++;
        if (*f == '*') { f++; spec->precision = -1; }
        else {
            if (!is_digit(*f)) return 0;
            int p = 0, n = 0;
            while (is_digit(*f) && n < 2) { p = p * 10 + (*f - '0'); f++; n++; }
            if (p > 18) return 0;
            spec->precision = p;
        }
        if (*f != 'f' || f[1] != '\0') return 0;
        spec->conversion = 'f';
        return 1;
    }
    if (*f == '0') { spec->zero_pad = 1; f++; }
    int n = 0;
    while (is_digit(*f) && n < 2) { spec->width = spec->width * 10 + (*f - '0'); f++; n++; }
    if (spec->width > 40) return 0;
    if (*f == 'l') { spec->is_long = 1; f++; }
    switch (*f) {
    case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': spec->conversion = *f; break;
    default: return 0;
    }
    return f[1] == '\0';
}

/// Writes |d| rounded to `precision` decimals (glibc's "%.{precision}f") into `out` (≥ 64 bytes).
static int format_fixed(char *out, double d, int precision) {
    if (precision < 0 || precision > 18) return -1;
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    int negative = (int)(bits >> 63);
    int biased_exponent = (int)((bits >> 52) & 0x7ff);
    uint64_t m = bits & ((1ULL << 52) - 1);
    if (biased_exponent == 0x7ff) return -1;  // infinity or NaN
    int e;
    if (biased_exponent == 0) e = -1074;      // subnormal
    else { m |= 1ULL << 52; e = biased_exponent - 1075; }

    unsigned __int128 scaled;  // round(|d| · 10^precision)
    if (m == 0) scaled = 0;
    else if (e >= 0) {
        if (e > 10) return -1;                // |d| ≥ 2^63
        scaled = (unsigned __int128)(m << e) * powers_of_ten[precision];
    } else {
        int shift = -e;
        unsigned __int128 exact = (unsigned __int128)m * powers_of_ten[precision];  // < 2^113
        if (shift >= 120) scaled = 0;         // exact / 2^shift < 2^-7 rounds to 0
        else {
            scaled = exact >> shift;
            unsigned __int128 rest = exact - (scaled << shift);
            unsigned __int128 half = (unsigned __int128)1 << (shift - 1);
            if (rest > half || (rest == half && (scaled & 1))) scaled++;
        }
    }
    uint64_t whole, fraction;
    if ((scaled >> 64) == 0) {
        uint64_t s = (uint64_t)scaled;
        whole = s / powers_of_ten[precision];
        fraction = s % powers_of_ten[precision];
    } else {
        whole = (uint64_t)(scaled / powers_of_ten[precision]);
        fraction = (uint64_t)(scaled % powers_of_ten[precision]);
    }

    char *p = out;
    if (negative) *p++ = '-';  // glibc keeps the sign of -0.0 and of negatives that round to 0
    char digits[20];
    int count = 0;
    do { digits[count++] = (char)('0' + whole % 10); whole /= 10; } while (whole != 0);
    while (count > 0) *p++ = digits[--count];
    if (precision > 0) {
        const char *point = nl_langinfo(RADIXCHAR);
        size_t point_length = strlen(point);
        if (point_length > 8) return -1;
        memcpy(p, point, point_length);
        p += point_length;
        for (int i = precision - 1; i >= 0; i--) { p[i] = (char)('0' + fraction % 10); fraction /= 10; }
        p += precision;
    }
    *p = '\0';
    return (int)(p - out);
}

/// Writes an integer conversion (value given as sign and magnitude) into `out` (≥ 64 bytes).
static int format_integer(char *out, const spec_t *spec, int negative, uint64_t magnitude) {
    unsigned base = spec->conversion == 'o' ? 8 : (spec->conversion == 'x' || spec->conversion == 'X') ? 16 : 10;
    const char *symbols = spec->conversion == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
    char digits[24];
    int count = 0;
    do { digits[count++] = symbols[magnitude % base]; magnitude /= base; } while (magnitude != 0);
    int length = count + negative;
    int padding = spec->width > length ? spec->width - length : 0;
    char *p = out;
    if (!spec->zero_pad) { memset(p, ' ', (size_t)padding); p += padding; }
    if (negative) *p++ = '-';
    if (spec->zero_pad) { memset(p, '0', (size_t)padding); p += padding; }
    while (count > 0) *p++ = digits[--count];
    *p = '\0';
    return (int)(p - out);
}

int ezr_fast_vsnprintf(char *buffer, size_t size, const char *format, va_list args) {
    spec_t spec;
    if (!parse_spec(format, &spec)) return -1;
    char out[64];
    int length;
    if (spec.conversion == 'f') {
        int precision = spec.precision < 0 ? va_arg(args, int) : spec.precision;
        double d = va_arg(args, double);
        length = format_fixed(out, d, precision);
    } else if (spec.conversion == 'd' || spec.conversion == 'i') {
        long v = spec.is_long ? va_arg(args, long) : (long)va_arg(args, int);
        uint64_t magnitude = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
        length = format_integer(out, &spec, v < 0, magnitude);
    } else {
        uint64_t v = spec.is_long ? (uint64_t)va_arg(args, unsigned long) : (uint64_t)va_arg(args, unsigned int);
        length = format_integer(out, &spec, 0, v);
    }
    if (length < 0 || (size_t)length >= size) return -1;
    memcpy(buffer, out, (size_t)length + 1);
    return length;
}

int __snprintf_chk(char *s, size_t maxlen, int flag, size_t slen, const char *format, ...) {
    va_list args;
    va_start(args, format);
    // glibc aborts when the buffer is smaller than the length given; leave that check to it.
    if (slen >= maxlen && atomic_load_explicit(&fast_path_enabled, memory_order_relaxed)) {
        va_list probe;
        va_copy(probe, args);
        int length = ezr_fast_vsnprintf(s, maxlen, format, probe);
        va_end(probe);
        if (length >= 0) {
            fast_calls++;
            va_end(args);
            return length;
        }
    }
    int result = __vsnprintf_chk(s, maxlen, flag, slen, format, args);
    va_end(args);
    return result;
}

int ezr_fast_number_format_is_active(void) {
    return dlsym(RTLD_DEFAULT, "__snprintf_chk") == (void *)__snprintf_chk;
}

int ezr_fast_number_format_enabled(void) {
    return atomic_load_explicit(&fast_path_enabled, memory_order_relaxed);
}

void ezr_fast_number_format_set_enabled(int enabled) {
    atomic_store_explicit(&fast_path_enabled, enabled != 0, memory_order_relaxed);
}

unsigned long ezr_fast_number_format_calls_on_this_thread(void) {
    return fast_calls;
}
