#ifndef RECEPTION_CCURL_SHIM_H
#define RECEPTION_CCURL_SHIM_H

// libcurl (Debian: libcurl4-openssl-dev, HTTP/2 through nghttp2), used only by the emulator's APNs provider.
#include <curl/curl.h>

// Swift cannot call C variadic functions (curl_easy_setopt, curl_easy_getinfo) nor import macros that are
// expressions (CURL_GLOBAL_DEFAULT). These helpers are the fixed-argument view the provider needs.

static inline CURLcode reception_curl_global_init(void) { return curl_global_init(CURL_GLOBAL_DEFAULT); }

static inline CURLcode reception_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode reception_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode reception_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode reception_curl_set_headers(CURL *handle, struct curl_slist *headers) {
    return curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
}

static inline CURLcode reception_curl_set_body(CURL *handle, const char *bytes, long length) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_POSTFIELDSIZE, length);
    if (code != CURLE_OK) return code;
    // COPYPOSTFIELDS: curl keeps its own copy, so the caller's buffer may go away before the transfer.
    return curl_easy_setopt(handle, CURLOPT_COPYPOSTFIELDS, bytes);
}

// The callbacks receive the answer's body and header lines; `context` is passed back to both.
static inline CURLcode reception_curl_set_receivers(CURL *handle, curl_write_callback body, curl_write_callback header,
                                                    void *context) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, body);
    if (code == CURLE_OK) code = curl_easy_setopt(handle, CURLOPT_WRITEDATA, context);
    if (code == CURLE_OK) code = curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, header);
    if (code == CURLE_OK) code = curl_easy_setopt(handle, CURLOPT_HEADERDATA, context);
    return code;
}

// HTTP/2 over TLS only (ALPN h2); a server that cannot speak it fails the transfer instead of falling back.
static inline CURLcode reception_curl_require_http2(CURL *handle) {
    return curl_easy_setopt(handle, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_2TLS);
}

// The HTTP version the last transfer used: 2 for HTTP/2, 1 for HTTP/1.x, 0 when unknown.
static inline int reception_curl_http_major(CURL *handle) {
    long version = 0;
    if (curl_easy_getinfo(handle, CURLINFO_HTTP_VERSION, &version) != CURLE_OK) return 0;
    if (version == CURL_HTTP_VERSION_2_0) return 2;
    if (version == CURL_HTTP_VERSION_1_0 || version == CURL_HTTP_VERSION_1_1) return 1;
    return 0;
}

static inline long reception_curl_status(CURL *handle) {
    long status = 0;
    if (curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &status) != CURLE_OK) return 0;
    return status;
}

// Whether this libcurl was built with HTTP/2 (nghttp2).
static inline int reception_curl_has_http2(void) {
    curl_version_info_data *info = curl_version_info(CURLVERSION_NOW);
    return info != NULL && (info->features & CURL_VERSION_HTTP2) != 0;
}

#endif
