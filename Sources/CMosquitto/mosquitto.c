// The libmosquitto functions trackd calls, forwarded to the library loaded (dlopen) when the first MQTT uplink is
// made, not when trackd starts: with OpenSSL's libssl and libcrypto it is some 1.8 MB of resident pages that a
// car without an MQTT uplink never needs (docs/benchmarks.md, "Memory"). The declarations are mosquitto.h's.
#include "CMosquitto.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static struct {
    int (*lib_init)(void);
    struct mosquitto *(*new_)(const char *, bool, void *);
    void (*destroy)(struct mosquitto *);
    int (*will_set)(struct mosquitto *, const char *, int, const void *, int, bool);
    int (*username_pw_set)(struct mosquitto *, const char *, const char *);
    int (*connect_async)(struct mosquitto *, const char *, int, int);
    int (*disconnect)(struct mosquitto *);
    int (*publish)(struct mosquitto *, int *, const char *, int, const void *, int, bool);
    int (*loop)(struct mosquitto *, int, int);
    int (*threaded_set)(struct mosquitto *, bool);
    int (*int_option)(struct mosquitto *, enum mosq_opt_t, int);
    int (*tls_set)(struct mosquitto *, const char *, const char *, const char *, const char *,
                   int (*)(char *, int, int, void *));
    void (*connect_callback_set)(struct mosquitto *, void (*)(struct mosquitto *, void *, int));
    void (*disconnect_callback_set)(struct mosquitto *, void (*)(struct mosquitto *, void *, int));
    void (*publish_callback_set)(struct mosquitto *, void (*)(struct mosquitto *, void *, int));
    void (*log_callback_set)(struct mosquitto *, void (*)(struct mosquitto *, void *, int, const char *));
    const char *(*strerror)(int);
    const char *(*connack_string)(int);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[512];
static int loaded = 0;

#define LOAD(field, name)                                                                     \
    do {                                                                                      \
        *(void **)&api.field = dlsym(library, name);                                          \
        if (api.field == NULL) {                                                              \
            snprintf(load_error, sizeof load_error, "libmosquitto.so.1 lacks %s", name);     \
            return;                                                                           \
        }                                                                                     \
    } while (0)

static void load(void) {
    void *library = dlopen("libmosquitto.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(load_error, sizeof load_error, "libmosquitto is not installed (%s): apt install libmosquitto1",
                 dlerror());
        return;
    }
    LOAD(lib_init, "mosquitto_lib_init");
    LOAD(new_, "mosquitto_new");
    LOAD(destroy, "mosquitto_destroy");
    LOAD(will_set, "mosquitto_will_set");
    LOAD(username_pw_set, "mosquitto_username_pw_set");
    LOAD(connect_async, "mosquitto_connect_async");
    LOAD(disconnect, "mosquitto_disconnect");
    LOAD(publish, "mosquitto_publish");
    LOAD(loop, "mosquitto_loop");
    LOAD(threaded_set, "mosquitto_threaded_set");
    LOAD(int_option, "mosquitto_int_option");
    LOAD(tls_set, "mosquitto_tls_set");
    LOAD(connect_callback_set, "mosquitto_connect_callback_set");
    LOAD(disconnect_callback_set, "mosquitto_disconnect_callback_set");
    LOAD(publish_callback_set, "mosquitto_publish_callback_set");
    LOAD(log_callback_set, "mosquitto_log_callback_set");
    LOAD(strerror, "mosquitto_strerror");
    LOAD(connack_string, "mosquitto_connack_string");
    loaded = 1;
}

const char *trackd_mosquitto_unavailable(void) {
    pthread_once(&once, load);
    return loaded ? NULL : load_error;
}

#define AVAILABLE(failure) \
    if (trackd_mosquitto_unavailable() != NULL) return failure

int mosquitto_lib_init(void) { AVAILABLE(MOSQ_ERR_NOT_SUPPORTED); return api.lib_init(); }

struct mosquitto *mosquitto_new(const char *id, bool clean_session, void *obj) {
    AVAILABLE(NULL);
    return api.new_(id, clean_session, obj);
}

void mosquitto_destroy(struct mosquitto *mosq) { AVAILABLE(); api.destroy(mosq); }

int mosquitto_will_set(struct mosquitto *mosq, const char *topic, int payloadlen, const void *payload, int qos,
                       bool retain) {
    AVAILABLE(MOSQ_ERR_NOT_SUPPORTED);
    return api.will_set(mosq, topic, payloadlen, payload, qos, retain);
}

int mosquitto_username_pw_set(struct mosquitto *mosq, const char *username, const char *password) {
    AVAILABLE(MOSQ_ERR_NOT_SUPPORTED);
    return api.username_pw_set(mosq, username, password);
}

int mosquitto_connect_async(struct mosquitto *mosq, const char *host, int port, int keepalive) {
    AVAILABLE(MOSQ_ERR_NOT_SUPPORTED);
    return api.connect_async(mosq, host, port, keepalive);
}

int mosquitto_disconnect(struct mosquitto *mosq) { AVAILABLE(MOSQ_ERR_NOT_SUPPORTED); return api.disconnect(mosq); }

int mosquitto_publish(struct mosquitto *mosq, int *mid, const char *topic, int payloadlen, const void *payload,
                      int qos, bool retain) {
    AVAILABLE(MOSQ_ERR_NOT_SUPPORTED);
    return api.publish(mosq, mid, topic, payloadlen, payload, qos, retain);
}

int mosquitto_loop(struct mosquitto *mosq, int timeout, int max_packets) {
    AVAILABLE(MOSQ_ERR_NOT_SUPPORTED);
    return api.loop(mosq, timeout, max_packets);
}

int mosquitto_threaded_set(struct mosquitto *mosq, bool threaded) {
    AVAILABLE(MOSQ_ERR_NOT_SUPPORTED);
    return api.threaded_set(mosq, threaded);
}

int mosquitto_int_option(struct mosquitto *mosq, enum mosq_opt_t option, int value) {
    AVAILABLE(MOSQ_ERR_NOT_SUPPORTED);
    return api.int_option(mosq, option, value);
}

int mosquitto_tls_set(struct mosquitto *mosq, const char *cafile, const char *capath, const char *certfile,
                      const char *keyfile, int (*pw_callback)(char *buf, int size, int rwflag, void *userdata)) {
    AVAILABLE(MOSQ_ERR_NOT_SUPPORTED);
    return api.tls_set(mosq, cafile, capath, certfile, keyfile, pw_callback);
}

void mosquitto_connect_callback_set(struct mosquitto *mosq, void (*on_connect)(struct mosquitto *, void *, int)) {
    AVAILABLE();
    api.connect_callback_set(mosq, on_connect);
}

void mosquitto_disconnect_callback_set(struct mosquitto *mosq,
                                       void (*on_disconnect)(struct mosquitto *, void *, int)) {
    AVAILABLE();
    api.disconnect_callback_set(mosq, on_disconnect);
}

void mosquitto_publish_callback_set(struct mosquitto *mosq, void (*on_publish)(struct mosquitto *, void *, int)) {
    AVAILABLE();
    api.publish_callback_set(mosq, on_publish);
}

void mosquitto_log_callback_set(struct mosquitto *mosq,
                                void (*on_log)(struct mosquitto *, void *, int, const char *)) {
    AVAILABLE();
    api.log_callback_set(mosq, on_log);
}

const char *mosquitto_strerror(int mosq_errno) {
    AVAILABLE("libmosquitto is not installed");
    return api.strerror(mosq_errno);
}

const char *mosquitto_connack_string(int connack_code) {
    AVAILABLE("libmosquitto is not installed");
    return api.connack_string(connack_code);
}
