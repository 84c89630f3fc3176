#include "ccurl.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// libcurl is loaded when the first handle is made, not when trackd starts: with its TLS, Kerberos, LDAP and
// compression libraries it is some 25 shared libraries and 4 MB of resident pages that a car without an OsmAnd
// uplink never needs (docs/benchmarks.md, "Memory").
static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    const char *(*easy_strerror)(CURLcode);
    void (*easy_cleanup)(CURL *);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[512];

static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(load_error, sizeof load_error, "libcurl is not installed (%s): apt install libcurl4", dlerror());
        return;
    }
    *(void **)&api.global_init = dlsym(library, "curl_global_init");
    *(void **)&api.easy_init = dlsym(library, "curl_easy_init");
    *(void **)&api.easy_setopt = dlsym(library, "curl_easy_setopt");
    *(void **)&api.easy_perform = dlsym(library, "curl_easy_perform");
    *(void **)&api.easy_getinfo = dlsym(library, "curl_easy_getinfo");
    *(void **)&api.easy_strerror = dlsym(library, "curl_easy_strerror");
    *(void **)&api.easy_cleanup = dlsym(library, "curl_easy_cleanup");
    if (!api.global_init || !api.easy_init || !api.easy_setopt || !api.easy_perform || !api.easy_getinfo
        || !api.easy_strerror || !api.easy_cleanup) {
        snprintf(load_error, sizeof load_error, "libcurl.so.4 lacks the easy interface");
        api.easy_init = NULL;
        return;
    }
    api.global_init(CURL_GLOBAL_DEFAULT);
}

/// The answer's body is not needed: read and dropped.
static size_t discard(char *data, size_t size, size_t count, void *context) {
    (void)data;
    (void)context;
    return size * count;
}

struct ccurl_handle {
    CURL *curl;
};

const char *ccurl_unavailable(void) {
    pthread_once(&once, load);
    return api.easy_init == NULL ? load_error : NULL;
}

ccurl_handle *ccurl_new(void) {
    if (ccurl_unavailable() != NULL) return NULL;
    ccurl_handle *handle = calloc(1, sizeof *handle);
    if (handle == NULL) return NULL;
    handle->curl = api.easy_init();
    if (handle->curl == NULL) {
        free(handle);
        return NULL;
    }
    return handle;
}

int ccurl_post(ccurl_handle *handle, const char *url, const char *body, size_t length, long timeout_ms,
               const char *ca_file, long *status, char *error) {
    CURL *curl = handle->curl;
    error[0] = '\0';
    api.easy_setopt(curl, CURLOPT_URL, url);
    api.easy_setopt(curl, CURLOPT_POST, 1L);
    api.easy_setopt(curl, CURLOPT_POSTFIELDS, body);
    api.easy_setopt(curl, CURLOPT_POSTFIELDSIZE, (long)length);
    api.easy_setopt(curl, CURLOPT_TIMEOUT_MS, timeout_ms);
    api.easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
    api.easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    api.easy_setopt(curl, CURLOPT_WRITEFUNCTION, discard);
    api.easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
    api.easy_setopt(curl, CURLOPT_USERAGENT, "trackd");
    api.easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    if (ca_file != NULL) api.easy_setopt(curl, CURLOPT_CAINFO, ca_file);
    CURLcode code = api.easy_perform(curl);
    if (code == CURLE_OK) {
        api.easy_getinfo(curl, CURLINFO_RESPONSE_CODE, status);
    } else if (error[0] == '\0') {
        strncpy(error, api.easy_strerror(code), 255);
        error[255] = '\0';
    }
    api.easy_setopt(curl, CURLOPT_ERRORBUFFER, NULL);
    return (int)code;
}

void ccurl_free(ccurl_handle *handle) {
    if (handle == NULL) return;
    api.easy_cleanup(handle->curl);
    free(handle);
}
