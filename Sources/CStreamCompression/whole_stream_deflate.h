// The whole-stream deflate streams behind the zlib entry points (internal to this target).
#ifndef EZR_WHOLE_STREAM_DEFLATE_H
#define EZR_WHOLE_STREAM_DEFLATE_H

#include <zlib.h>

/// 1 when `stream` was started by ezr_whole_stream_deflate_init and not yet ended.
int ezr_whole_stream_owns(z_streamp stream);

/// zlib's `deflate` for a whole stream.
int ezr_whole_stream_deflate(z_streamp stream, int flush);

/// zlib's `deflateEnd` for a whole stream.
int ezr_whole_stream_end(z_streamp stream);

#endif
