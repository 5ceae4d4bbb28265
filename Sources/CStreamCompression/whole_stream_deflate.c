// A deflate stream with zlib's interface whose data libdeflate compresses in one piece.
//
// Cairo and minizip feed a stream with Z_NO_FLUSH and end it with Z_FINISH; they never flush in
// between. Such a stream can keep its input until Z_FINISH, compress it whole with libdeflate
// (one compressor per thread and level, kept for the thread's life) and hand the result out as
// the caller's output buffer allows, exactly as zlib would return it: Z_OK while output is
// pending, Z_STREAM_END once all of it is out. zlib's return codes are kept for the misuses zlib
// itself reports (no output space, feeding a finished stream); an intermediate flush, which
// those libraries never ask for, is refused with Z_STREAM_ERROR rather than done wrongly.
#include "whole_stream_deflate.h"
#include "stream_compression.h"

#include <libdeflate.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define WHOLE_STREAM_MAGIC 0x455a5244u  /* "EZRD" */

typedef struct {
    z_streamp stream;            /* the stream this state belongs to */
    uint32_t magic;
    int level;                   /* libdeflate level, 0 … 9 */
    int raw;                     /* raw deflate (minizip) rather than the zlib format (Cairo) */
    int finished;                /* Z_FINISH seen: `output` holds the whole compressed stream */
    unsigned char *input;
    size_t input_length, input_capacity;
    unsigned char *output;
    size_t output_length, output_position;
} whole_stream_t;

/* zalloc/zfree mark a whole stream's z_stream: zlib never calls them for it, and no zlib stream
 * has them, so ownership is known without reading a foreign state. */
static voidpf whole_stream_alloc_marker(voidpf opaque, uInt items, uInt size) {
    (void)opaque; (void)items; (void)size;
    return Z_NULL;
}
static void whole_stream_free_marker(voidpf opaque, voidpf address) { (void)opaque; (void)address; }

static _Thread_local unsigned long compressed_count;

/* MARK: - One libdeflate compressor per thread and level */

typedef struct { struct libdeflate_compressor *by_level[10]; } compressors_t;

static pthread_key_t compressors_key;
static pthread_once_t compressors_once = PTHREAD_ONCE_INIT;
static _Thread_local compressors_t *thread_compressors;

static void free_compressors(void *value) {
    compressors_t *c = value;
    thread_compressors = NULL;  /* runs on the exiting thread: nothing may reach the freed set */
    for (int i = 0; i < 10; i++) {
        if (c->by_level[i] != NULL) libdeflate_free_compressor(c->by_level[i]);
    }
    free(c);
}

static void make_compressors_key(void) { (void)pthread_key_create(&compressors_key, free_compressors); }

static struct libdeflate_compressor *compressor_for(int level) {
    compressors_t *c = thread_compressors;
    if (c == NULL) {
        (void)pthread_once(&compressors_once, make_compressors_key);
        c = calloc(1, sizeof *c);
        if (c == NULL) return NULL;
        if (pthread_setspecific(compressors_key, c) != 0) { free(c); return NULL; }
        thread_compressors = c;
    }
    if (c->by_level[level] == NULL) c->by_level[level] = libdeflate_alloc_compressor(level);
    return c->by_level[level];
}

/* MARK: - The stream */

int ezr_whole_stream_deflate_init(z_streamp stream, int level, int window_bits) {
    if (stream == Z_NULL) return Z_STREAM_ERROR;
    if (level == Z_DEFAULT_COMPRESSION) level = 6;
    if (level < 0 || level > 9 || (window_bits != 15 && window_bits != -15)) return Z_STREAM_ERROR;
    whole_stream_t *s = calloc(1, sizeof *s);
    if (s == NULL) return Z_MEM_ERROR;
    s->stream = stream;
    s->magic = WHOLE_STREAM_MAGIC;
    s->level = level;
    s->raw = window_bits < 0;
    stream->state = (struct internal_state *)s;
    stream->zalloc = whole_stream_alloc_marker;
    stream->zfree = whole_stream_free_marker;
    stream->total_in = stream->total_out = 0;
    stream->msg = Z_NULL;
    stream->data_type = Z_UNKNOWN;
    stream->adler = 1;  /* adler32 of nothing, as zlib starts it */
    return Z_OK;
}

int ezr_whole_stream_owns(z_streamp stream) {
    if (stream == Z_NULL || stream->state == Z_NULL || stream->zfree != whole_stream_free_marker) return 0;
    const whole_stream_t *s = (const whole_stream_t *)stream->state;
    return s->magic == WHOLE_STREAM_MAGIC && s->stream == stream;
}

static int take_input(whole_stream_t *s, z_streamp stream) {
    size_t n = stream->avail_in;
    if (n == 0) return Z_OK;
    if (s->input_length + n > s->input_capacity) {
        size_t capacity = s->input_capacity ? s->input_capacity : 16384;
        while (capacity < s->input_length + n) capacity *= 2;
        unsigned char *grown = realloc(s->input, capacity);
        if (grown == NULL) return Z_MEM_ERROR;
        s->input = grown;
        s->input_capacity = capacity;
    }
    memcpy(s->input + s->input_length, stream->next_in, n);
    s->input_length += n;
    stream->next_in += n;
    stream->avail_in = 0;
    stream->total_in += n;
    return Z_OK;
}

static int compress_whole(whole_stream_t *s, z_streamp stream) {
    struct libdeflate_compressor *c = compressor_for(s->level);
    if (c == NULL) return Z_MEM_ERROR;
    size_t bound = s->raw ? libdeflate_deflate_compress_bound(c, s->input_length)
                          : libdeflate_zlib_compress_bound(c, s->input_length);
    s->output = malloc(bound);
    if (s->output == NULL) return Z_MEM_ERROR;
    s->output_length = s->raw ? libdeflate_deflate_compress(c, s->input, s->input_length, s->output, bound)
                              : libdeflate_zlib_compress(c, s->input, s->input_length, s->output, bound);
    if (s->output_length == 0) return Z_STREAM_ERROR;  /* cannot happen within the bound */
    if (!s->raw) stream->adler = libdeflate_adler32(1, s->input, s->input_length);
    free(s->input);
    s->input = NULL;
    s->input_capacity = 0;
    s->finished = 1;
    compressed_count++;
    return Z_OK;
}

int ezr_whole_stream_deflate(z_streamp stream, int flush) {
    whole_stream_t *s = (whole_stream_t *)stream->state;
    if (flush != Z_NO_FLUSH && flush != Z_FINISH) return Z_STREAM_ERROR;
    if (stream->next_out == Z_NULL || (stream->avail_in != 0 && stream->next_in == Z_NULL)) return Z_STREAM_ERROR;
    if (s->finished && flush != Z_FINISH) return Z_STREAM_ERROR;   /* as zlib, after Z_FINISH */
    if (stream->avail_out == 0) return Z_BUF_ERROR;
    if (!s->finished) {
        if (stream->avail_in == 0 && flush == Z_NO_FLUSH) return Z_BUF_ERROR;  /* no progress possible */
        int status = take_input(s, stream);
        if (status != Z_OK) return status;
        if (flush == Z_NO_FLUSH) return Z_OK;
        status = compress_whole(s, stream);
        if (status != Z_OK) return status;
    } else if (stream->avail_in != 0) {
        return Z_BUF_ERROR;                                          /* as zlib: input after the end */
    }
    size_t n = s->output_length - s->output_position;
    if (n > stream->avail_out) n = stream->avail_out;
    memcpy(stream->next_out, s->output + s->output_position, n);
    s->output_position += n;
    stream->next_out += n;
    stream->avail_out -= (uInt)n;
    stream->total_out += n;
    return s->output_position == s->output_length ? Z_STREAM_END : Z_OK;
}

int ezr_whole_stream_end(z_streamp stream) {
    whole_stream_t *s = (whole_stream_t *)stream->state;
    /* zlib reports a stream ended with data still in it as Z_DATA_ERROR. */
    int status = (s->finished ? s->output_position < s->output_length : s->input_length > 0) ? Z_DATA_ERROR : Z_OK;
    free(s->input);
    free(s->output);
    s->magic = 0;
    free(s);
    stream->state = Z_NULL;
    return status;
}

unsigned long ezr_whole_stream_deflate_count_on_this_thread(void) {
    return compressed_count;
}
