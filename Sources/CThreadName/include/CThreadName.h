#ifndef TRACKD_CTHREADNAME_H
#define TRACKD_CTHREADNAME_H

/*
 * pthread_setname_np(pthread_self(), name): the calling thread's name, as ps and top show it (Linux keeps 15 bytes
 * and refuses a longer one). Swift's Glibc module imports <pthread.h> without _GNU_SOURCE, which declares it, so it
 * is wrapped here, where the macro is set. Returns 0 or an error number.
 */
int trackd_thread_setname(const char *name);

#endif
