#ifndef TRACKD_CMALLOCTUNING_H
#define TRACKD_CMALLOCTUNING_H

/// Whether glibc's malloc was limited to one arena at start (see malloctuning.c).
int trackd_malloc_single_arena(void);

#endif
