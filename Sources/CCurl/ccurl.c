#include "ccurl.h"

#include <curl/curl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct ccurl_handle {
    CURL *curl;
};

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void global_init(void) {
    curl_global_init(CURL_GLOBAL_DEFAULT);
}

/// The answer's body is not needed: read and dropped.
static size_t discard(char *data, size_t size, size_t count, void *context) {
    (void)data;
    (void)context;
    return size * count;
}

ccurl_handle *ccurl_new(void) {
    pthread_once(&once, global_init);
    ccurl_handle *handle = calloc(1, sizeof *handle);
    if (handle == NULL) return NULL;
    handle->curl = curl_easy_init();
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
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_POST, 1L);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, (long)length);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, timeout_ms);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, discard);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
    curl_easy_setopt(curl, CURLOPT_USERAGENT, "trackd");
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    if (ca_file != NULL) curl_easy_setopt(curl, CURLOPT_CAINFO, ca_file);
    CURLcode code = curl_easy_perform(curl);
    if (code == CURLE_OK) {
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, status);
    } else if (error[0] == '\0') {
        strncpy(error, curl_easy_strerror(code), 255);
        error[255] = '\0';
    }
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, NULL);
    return (int)code;
}

void ccurl_free(ccurl_handle *handle) {
    if (handle == NULL) return;
    curl_easy_cleanup(handle->curl);
    free(handle);
}
