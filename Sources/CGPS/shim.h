#ifndef TRACKD_CGPS_SHIM_H
#define TRACKD_CGPS_SHIM_H

#include <gps.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * trackd reads libgps through these accessors only, so that the Swift side does not depend on where a field
 * lives in a given API version.
 *
 * - API 9 (gpsd 3.20): fix.time became a timespec; altHAE/altMSL replaced altitude.
 * - API 10 (gpsd 3.21): status moved from gps_data_t into gps_fix_t.
 * - API 11 (gpsd 3.22, Debian 12): what trackd is built and tested against.
 * - API 12 (gpsd 3.23): gps_data_t.fix.status stays; log/ecef fields grew (not used here).
 * - API 13+ (gpsd 3.25): no change to the fields used below.
 */
#if !defined(GPSD_API_MAJOR_VERSION) || GPSD_API_MAJOR_VERSION < 9
#error "trackd needs libgps API 9 or newer (gpsd 3.20+): install libgps-dev from Debian 11 or later"
#endif

static inline int trackd_gps_api_major(void) { return GPSD_API_MAJOR_VERSION; }
static inline int trackd_gps_api_minor(void) { return GPSD_API_MINOR_VERSION; }

static inline unsigned int trackd_watch_flags(void) { return WATCH_ENABLE | WATCH_JSON; }

static inline int trackd_fix_status(const struct gps_data_t *data) {
#if GPSD_API_MAJOR_VERSION >= 10
    return data->fix.status;
#else
    return data->status;
#endif
}

static inline int trackd_fix_mode(const struct gps_data_t *data) { return data->fix.mode; }
static inline long long trackd_fix_time_sec(const struct gps_data_t *data) { return (long long)data->fix.time.tv_sec; }
static inline long trackd_fix_time_nsec(const struct gps_data_t *data) { return data->fix.time.tv_nsec; }
static inline int trackd_fix_has_time(const struct gps_data_t *data) { return (data->set & TIME_SET) != 0; }
static inline int trackd_fix_is_new(const struct gps_data_t *data) { return (data->set & (MODE_SET | LATLON_SET | TIME_SET)) != 0; }
static inline double trackd_fix_latitude(const struct gps_data_t *data) { return data->fix.latitude; }
static inline double trackd_fix_longitude(const struct gps_data_t *data) { return data->fix.longitude; }
static inline double trackd_fix_alt_msl(const struct gps_data_t *data) { return data->fix.altMSL; }
static inline double trackd_fix_geoid_sep(const struct gps_data_t *data) { return data->fix.geoid_sep; }
static inline double trackd_fix_speed(const struct gps_data_t *data) { return data->fix.speed; }
static inline double trackd_fix_track(const struct gps_data_t *data) { return data->fix.track; }
static inline double trackd_fix_eph(const struct gps_data_t *data) { return data->fix.eph; }
static inline double trackd_dop_h(const struct gps_data_t *data) { return data->dop.hdop; }
static inline double trackd_dop_v(const struct gps_data_t *data) { return data->dop.vdop; }
static inline double trackd_dop_p(const struct gps_data_t *data) { return data->dop.pdop; }
static inline int trackd_satellites_used(const struct gps_data_t *data) { return data->satellites_used; }
static inline int trackd_satellites_visible(const struct gps_data_t *data) { return data->satellites_visible; }
static inline int trackd_is_tpv(const struct gps_data_t *data) { return (data->set & (MODE_SET | LATLON_SET)) != 0; }

/*
 * Connection handling for GPSDSource. gps_data_t is large (24 KB in API 11, mostly the skyview and the AIS/RTCM
 * union) and its size changes between API versions, so it is allocated here rather than on a Swift stack.
 * The calls themselves are the same from API 9 on: gps_open (a failure is -1 with errno set to a negative netlib
 * NL_* code, not a system error), gps_stream, gps_waiting (timeout in microseconds, per libgps(3) of API 11),
 * gps_read with a message buffer (since API 7) and gps_close.
 */
static inline struct gps_data_t *trackd_gps_new(void) { return calloc(1, sizeof(struct gps_data_t)); }
static inline void trackd_gps_free(struct gps_data_t *data) { free(data); }
static inline void trackd_gps_clear(struct gps_data_t *data) { memset(data, 0, sizeof(struct gps_data_t)); }
/* The connection's socket, so that the caller can bound how long a read may block; valid only while open. */
static inline int trackd_gps_socket(const struct gps_data_t *data) { return (int)data->gps_fd; }

#endif
