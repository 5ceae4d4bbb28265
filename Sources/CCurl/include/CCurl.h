// libcurl (Debian's libcurl4 with OpenSSL): the SMTP client behind `ezreport deliver`, loaded
// when `deliver` first needs it (dlopen of libcurl.so.4), not linked into the executable: linked,
// its library and the 16 it brings (Kerberos, LDAP, SSH, RTMP, …) were bound at the start of
// every command, ~3 ms of each `export` for a library only `deliver` uses.
//
// The types and constants come from libcurl's own header (libcurl4-openssl-dev at build time).
// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed wrapper
// per argument type used. Every other wrapper calls the function of the same name.
#ifndef EZ_CCURL_H
#define EZ_CCURL_H

#include <curl/curl.h>
#include <stddef.h>

/// Loads libcurl once per process (thread-safe). Returns 1 when it is loaded; otherwise 0, with
/// the loader's reason (e.g. "libcurl.so.4: cannot open shared object file…") in `reason`.
/// Every other function here may be called only after a successful load.
int ez_curl_load(char *reason, size_t reasonSize);

CURLcode ez_curl_global_init(long flags);
CURL *ez_curl_easy_init(void);
void ez_curl_easy_cleanup(CURL *handle);
CURLcode ez_curl_easy_perform(CURL *handle);
const char *ez_curl_easy_strerror(CURLcode code);
struct curl_slist *ez_curl_slist_append(struct curl_slist *list, const char *item);
void ez_curl_slist_free_all(struct curl_slist *list);

CURLcode ez_curl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ez_curl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode ez_curl_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode ez_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode ez_curl_setopt_offset(CURL *handle, CURLoption option, curl_off_t value);
CURLcode ez_curl_setopt_read_function(CURL *handle, curl_read_callback callback);
CURLcode ez_curl_setopt_write_function(CURL *handle, curl_write_callback callback);
CURLcode ez_curl_setopt_debug_function(CURL *handle, curl_debug_callback callback);
CURLcode ez_curl_setopt_sockopt_function(CURL *handle, curl_sockopt_callback callback);
CURLcode ez_curl_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode ez_curl_getinfo_socket(CURL *handle, CURLINFO info, curl_socket_t *value);

#endif
