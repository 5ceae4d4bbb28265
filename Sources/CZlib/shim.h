// zlib, for the PNG encoder's optional zlib engine, its CRC-32 and Adler-32. Only includes, plus
// static inline wrappers where Swift cannot call a C macro.
#include <zlib.h>

/// `deflateInit2` is a macro (it passes the library version and stream size); Swift needs a function.
static inline int ez_deflate_init(z_streamp stream, int level, int strategy) {
    return deflateInit2(stream, level, Z_DEFLATED, 15, 8, strategy);
}
