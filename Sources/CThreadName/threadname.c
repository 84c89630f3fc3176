#define _GNU_SOURCE
#include <pthread.h>

#include "CThreadName.h"

int trackd_thread_setname(const char *name) {
#if defined(__linux__)
    return pthread_setname_np(pthread_self(), name);
#else
    (void)name;
    return 0;
#endif
}
