#ifndef TRACKD_CCURL_H
#define TRACKD_CCURL_H

#include <stddef.h>

/// libcurl's easy interface for one HTTP form POST at a time, without its variadic curl_easy_setopt (which Swift
/// cannot call). A handle keeps its connection open between requests.
typedef struct ccurl_handle ccurl_handle;

/// Why libcurl cannot be used (not installed, not the expected library), or NULL when it can. Loads it (dlopen) at
/// the first call, as ccurl_new does.
const char *ccurl_unavailable(void);

/// A new handle (libcurl loaded and curl_global_init done once); NULL when libcurl cannot make one.
ccurl_handle *ccurl_new(void);

/// POSTs `body` (application/x-www-form-urlencoded) to `url`, waiting at most `timeout_ms`; `ca_file` (or NULL:
/// the system's) verifies an https server. Returns CURLE_OK (0) with the HTTP status in `status`, or libcurl's
/// error code with its words in `error` (at least 256 bytes).
int ccurl_post(ccurl_handle *handle, const char *url, const char *body, size_t length, long timeout_ms,
               const char *ca_file, long *status, char *error);

void ccurl_free(ccurl_handle *handle);

#endif
