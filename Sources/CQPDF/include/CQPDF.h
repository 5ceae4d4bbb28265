// qpdf's C API (libqpdf), with which ezreport completes the tagged PDFs Cairo 1.16 writes (the
// catalog's /Lang and /ViewerPreferences, figures' /Alt, artifacts): loaded when the first PDF is
// completed (dlopen), not linked into the executable. Linked, libqpdf and the TLS stack it brings
// (GnuTLS, Nettle, p11-kit, libtasn1, …: 1,100 symbols bound eagerly) were bound at the start of
// every command, ~3 ms before `main` even for commands that make no PDF; an export now loads it
// on another core while it reads the ledger (``QPDFLibrary``).
//
// The types and constants come from qpdf's own header (libqpdf-dev at build time). The functions
// are reached through one table whose fields have the header's own types (`__typeof__`), so a
// call through it is checked by the compiler as a direct call would be.
#ifndef EZ_CQPDF_H
#define EZ_CQPDF_H

#include <qpdf/qpdf-c.h>
#include <qpdf/DLL.h>
#include <stddef.h>

/// The libqpdf functions ezreport calls: add one here to call it.
#define EZ_QPDF_FUNCTIONS(X) \
    X(qpdf_cleanup) \
    X(qpdf_get_buffer) \
    X(qpdf_get_buffer_length) \
    X(qpdf_get_error) \
    X(qpdf_get_error_full_text) \
    X(qpdf_get_num_pages) \
    X(qpdf_get_object_by_id) \
    X(qpdf_get_page_n) \
    X(qpdf_get_root) \
    X(qpdf_get_trailer) \
    X(qpdf_init) \
    X(qpdf_init_write) \
    X(qpdf_init_write_memory) \
    X(qpdf_oh_append_item) \
    X(qpdf_oh_get_array_item) \
    X(qpdf_oh_get_array_n_items) \
    X(qpdf_oh_get_dict) \
    X(qpdf_oh_get_key) \
    X(qpdf_oh_get_name) \
    X(qpdf_oh_get_object_id) \
    X(qpdf_oh_get_stream_data) \
    X(qpdf_oh_has_key) \
    X(qpdf_oh_is_array) \
    X(qpdf_oh_is_dictionary) \
    X(qpdf_oh_is_integer) \
    X(qpdf_oh_is_name) \
    X(qpdf_oh_is_name_and_equals) \
    X(qpdf_oh_new_array) \
    X(qpdf_oh_new_binary_string) \
    X(qpdf_oh_new_bool) \
    X(qpdf_oh_new_dictionary) \
    X(qpdf_oh_new_integer) \
    X(qpdf_oh_new_name) \
    X(qpdf_oh_new_null) \
    X(qpdf_oh_new_unicode_string) \
    X(qpdf_oh_release) \
    X(qpdf_oh_remove_key) \
    X(qpdf_oh_replace_key) \
    X(qpdf_oh_replace_stream_data) \
    X(qpdf_oh_set_array_item) \
    X(qpdf_oh_unparse_resolved) \
    X(qpdf_read_memory) \
    X(qpdf_set_compress_streams) \
    X(qpdf_set_decode_level) \
    X(qpdf_set_deterministic_ID) \
    X(qpdf_set_object_stream_mode) \
    X(qpdf_set_suppress_warnings) \
    X(qpdf_write)

/// The functions of ``EZ_QPDF_FUNCTIONS``, resolved from the loaded library.
typedef struct {
#define EZ_QPDF_FIELD(name) __typeof__(name) *_Nonnull name;
    EZ_QPDF_FUNCTIONS(EZ_QPDF_FIELD)
#undef EZ_QPDF_FIELD
} EZQPDFFunctions;

/// Loads libqpdf once per process (thread-safe; the first caller loads, others wait). Returns
/// its functions; NULL when it cannot be loaded or lacks one of them, with the reason (e.g.
/// "libqpdf.so.29: cannot open shared object file…") in `reason`.
const EZQPDFFunctions *_Nullable ez_qpdf_load(char *_Nonnull reason, size_t reasonSize);

#endif
