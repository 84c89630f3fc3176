// A preload library for scripts/fault-clock: shifts the wall clock (CLOCK_REALTIME and what reads it) of the
// process by the number of seconds in the file $WALLCLOCK_SHIFT_FILE, read again at most every 50 ms, so that a
// harness can set the clock at the start and jump it later. The monotonic clocks, sleeps and timeouts are left
// alone, as on a board whose clock is wrong. (libfaketime 0.9.10 was tried first: with a shifted clock and
// FAKETIME_DONT_FAKE_MONOTONIC=1 its interception of sleeps on the monotonic clock hangs or fails with EINVAL,
// which stopped trackd's timer; and its constructor's setenv() hides argv from a Swift program.)
//
//     cc -shared -fPIC -O2 -o wallclock-shift.so wallclock-shift.c -ldl
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static int (*real_clock_gettime)(clockid_t, struct timespec *);
static long long shift_ns;
static long long checked_ns = -1;

static long long shift(void) {
    if (!real_clock_gettime) real_clock_gettime = dlsym(RTLD_NEXT, "clock_gettime");
    struct timespec now;
    real_clock_gettime(CLOCK_MONOTONIC, &now);
    long long now_ns = now.tv_sec * 1000000000LL + now.tv_nsec;
    if (checked_ns >= 0 && now_ns - checked_ns < 50000000LL) return __atomic_load_n(&shift_ns, __ATOMIC_RELAXED);
    checked_ns = now_ns;
    const char *path = getenv("WALLCLOCK_SHIFT_FILE");
    if (path) {
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            char text[64];
            ssize_t n = read(fd, text, sizeof text - 1);
            close(fd);
            if (n > 0) {
                text[n] = 0;
                __atomic_store_n(&shift_ns, (long long)(strtod(text, NULL) * 1e9), __ATOMIC_RELAXED);
            }
        }
    }
    return __atomic_load_n(&shift_ns, __ATOMIC_RELAXED);
}

static int realtime(clockid_t id) {
    return id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE || id == CLOCK_TAI;
}

int clock_gettime(clockid_t id, struct timespec *ts) {
    if (!real_clock_gettime) real_clock_gettime = dlsym(RTLD_NEXT, "clock_gettime");
    int result = real_clock_gettime(id, ts);
    if (result == 0 && realtime(id)) {
        long long ns = ts->tv_sec * 1000000000LL + ts->tv_nsec + shift();
        ts->tv_sec = ns / 1000000000LL;
        ts->tv_nsec = ns % 1000000000LL;
        if (ts->tv_nsec < 0) { ts->tv_nsec += 1000000000LL; ts->tv_sec -= 1; }
    }
    return result;
}

int gettimeofday(struct timeval *tv, void *tz) {
    struct timespec ts;
    if (clock_gettime(CLOCK_REALTIME, &ts) != 0) return -1;
    if (tv) { tv->tv_sec = ts.tv_sec; tv->tv_usec = ts.tv_nsec / 1000; }
    (void)tz;
    return 0;
}

time_t time(time_t *out) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    if (out) *out = ts.tv_sec;
    return ts.tv_sec;
}
