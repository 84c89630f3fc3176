#ifndef TRACKD_CMOSQUITTO_H
#define TRACKD_CMOSQUITTO_H

#include <mosquitto.h>

/// Why libmosquitto cannot be used (not installed, not the expected library), or NULL when it can. Loads it
/// (dlopen) at the first call; every mosquitto_ function trackd calls loads it too, and fails as
/// MOSQ_ERR_NOT_SUPPORTED (or NULL) without it.
const char *trackd_mosquitto_unavailable(void);

#endif
