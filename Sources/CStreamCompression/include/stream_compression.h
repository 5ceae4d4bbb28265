// How the libraries that compress for us without offering a setting do it: Cairo for a PDF's
// content and font streams, minizip (inside libxlsxwriter) for the parts of an XLSX.
//
// The executable defines zlib's deflateInit_, deflateInit2_, deflate and deflateEnd (see
// deflate_entry_points.c) so that those libraries' calls come here first:
//   - a request for zlib's default level gets the level chosen here (1 unless changed);
//   - the streams Cairo and minizip open at that default are compressed whole, when they finish,
//     by libdeflate (whole_stream_deflate.c), which is 2-3x faster than zlib on them and writes
//     slightly smaller output; every other stream is zlib's, untouched.
// docs/performance.md has the measurements.
#ifndef EZR_STREAM_COMPRESSION_H
#define EZR_STREAM_COMPRESSION_H

#include <zlib.h>

/// The level (1 fastest … 9 smallest) substituted for Z_DEFAULT_COMPRESSION. Starts at 1.
int ezr_zlib_default_level(void);

/// Sets the level substituted for Z_DEFAULT_COMPRESSION; -1 restores zlib's own default (6).
/// Returns 0, or -1 (and changes nothing) for a level outside -1 … 9.
int ezr_zlib_set_default_level(int level);

/// 1 when zlib's `deflateInit_`, `deflateInit2_`, `deflate` and `deflateEnd` in this process are
/// this library's (the executable exports them, so the dynamic linker binds Cairo's and
/// minizip's calls here); 0 when they are zlib's own, in which case nothing here has effect.
int ezr_zlib_default_level_is_active(void);

/// 1 while Cairo's and minizip's default-level streams go to libdeflate (the default); 0 sends
/// them to zlib. The compressed bytes differ, the data they decompress to does not.
int ezr_whole_stream_deflate_enabled(void);

/// Turns the libdeflate path on (1) or off (0) for streams opened from now on, process-wide.
void ezr_whole_stream_deflate_set_enabled(int enabled);

/// Starts `stream` as a whole-stream (libdeflate) deflate stream, as the entry points do for
/// Cairo's and minizip's: zlib format for `window_bits` 15, raw deflate for -15; `level` 0 … 9,
/// or -1 for 6. Driven through `deflate` (Z_NO_FLUSH and Z_FINISH only) and ended with
/// `deflateEnd`, like any zlib stream. Returns Z_OK, Z_STREAM_ERROR or Z_MEM_ERROR.
int ezr_whole_stream_deflate_init(z_streamp stream, int level, int window_bits);

/// How many streams libdeflate has compressed on the calling thread so far.
unsigned long ezr_whole_stream_deflate_count_on_this_thread(void);

#endif
