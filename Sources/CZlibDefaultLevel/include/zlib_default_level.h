// The zlib level used when a library in this process asks zlib for its default level
// (Z_DEFAULT_COMPRESSION) and offers its callers no setting of its own: Cairo for a PDF's
// content and font streams, libxlsxwriter's minizip for the parts of an XLSX.
//
// See zlib_default_level.c for how, and docs/performance.md for why and what it gained.
#ifndef EZR_ZLIB_DEFAULT_LEVEL_H
#define EZR_ZLIB_DEFAULT_LEVEL_H

/// The level (1 fastest … 9 smallest) substituted for Z_DEFAULT_COMPRESSION. Starts at 1.
int ezr_zlib_default_level(void);

/// Sets the level substituted for Z_DEFAULT_COMPRESSION; -1 restores zlib's own default (6).
/// Returns 0, or -1 (and changes nothing) for a level outside -1 … 9.
int ezr_zlib_set_default_level(int level);

/// 1 when zlib's `deflateInit_` and `deflateInit2_` in this process are this file's (the executable
/// exports them, so the dynamic linker binds Cairo's and minizip's calls here); 0 when they are
/// zlib's own, in which case the level above has no effect.
int ezr_zlib_default_level_is_active(void);

#endif
