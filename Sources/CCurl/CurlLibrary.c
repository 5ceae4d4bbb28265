// libcurl loaded at run time: one table of its functions, filled once (see CCurl.h).
#include "CCurl.h"

#include "CLibraryLoader.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

/// The libcurl functions ezreport calls, resolved from the loaded library.
static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    CURLcode (*easy_perform)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
} curl;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = 0;
static char failure[512];

/// Resolves `name` into `*slot`; false (with the reason kept) when the library lacks it.
static int resolve(void *library, const char *name, void **slot) {
    return ez_library_resolve(library, "libcurl.so.4", name, slot, failure, sizeof failure);
}

static void load(void) {
    void *library = ez_library_open("libcurl.so.4", failure, sizeof failure);
    if (library == NULL) return;
    loaded = resolve(library, "curl_global_init", (void **)&curl.global_init)
        && resolve(library, "curl_easy_init", (void **)&curl.easy_init)
        && resolve(library, "curl_easy_cleanup", (void **)&curl.easy_cleanup)
        && resolve(library, "curl_easy_perform", (void **)&curl.easy_perform)
        && resolve(library, "curl_easy_strerror", (void **)&curl.easy_strerror)
        && resolve(library, "curl_slist_append", (void **)&curl.slist_append)
        && resolve(library, "curl_slist_free_all", (void **)&curl.slist_free_all)
        && resolve(library, "curl_easy_setopt", (void **)&curl.easy_setopt)
        && resolve(library, "curl_easy_getinfo", (void **)&curl.easy_getinfo);
    // The library stays loaded for the rest of the process (its handles may outlive any caller).
}

int ez_curl_load(char *reason, size_t reasonSize) {
    pthread_once(&once, load);
    if (!loaded && reason != NULL && reasonSize > 0) {
        snprintf(reason, reasonSize, "%s", failure);
    }
    return loaded;
}

CURLcode ez_curl_global_init(long flags) { return curl.global_init(flags); }
CURL *ez_curl_easy_init(void) { return curl.easy_init(); }
void ez_curl_easy_cleanup(CURL *handle) { curl.easy_cleanup(handle); }
CURLcode ez_curl_easy_perform(CURL *handle) { return curl.easy_perform(handle); }
const char *ez_curl_easy_strerror(CURLcode code) { return curl.easy_strerror(code); }
struct curl_slist *ez_curl_slist_append(struct curl_slist *list, const char *item) { return curl.slist_append(list, item); }
void ez_curl_slist_free_all(struct curl_slist *list) { curl.slist_free_all(list); }

CURLcode ez_curl_setopt_long(CURL *handle, CURLoption option, long value) { return curl.easy_setopt(handle, option, value); }
CURLcode ez_curl_setopt_string(CURL *handle, CURLoption option, const char *value) { return curl.easy_setopt(handle, option, value); }
CURLcode ez_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) { return curl.easy_setopt(handle, option, value); }
CURLcode ez_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode ez_curl_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) { return curl.easy_setopt(handle, option, value); }
CURLcode ez_curl_setopt_read_function(CURL *handle, curl_read_callback callback) {
    return curl.easy_setopt(handle, CURLOPT_READFUNCTION, callback);
}
CURLcode ez_curl_setopt_write_function(CURL *handle, curl_write_callback callback) {
    return curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}
CURLcode ez_curl_setopt_debug_function(CURL *handle, curl_debug_callback callback) {
    return curl.easy_setopt(handle, CURLOPT_DEBUGFUNCTION, callback);
}
CURLcode ez_curl_setopt_sockopt_function(CURL *handle, curl_sockopt_callback callback) {
    return curl.easy_setopt(handle, CURLOPT_SOCKOPTFUNCTION, callback);
}
CURLcode ez_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) { return curl.easy_getinfo(handle, info, value); }
CURLcode ez_curl_getinfo_socket(CURL *handle, CURLINFO info, curl_socket_t *value) { return curl.easy_getinfo(handle, info, value); }
