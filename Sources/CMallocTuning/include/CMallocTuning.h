#ifndef TRACKD_CMALLOCTUNING_H
#define TRACKD_CMALLOCTUNING_H

/// Whether glibc's malloc was limited to one arena at start (see malloctuning.c).
int trackd_malloc_single_arena(void);

/// Returns the heap's free memory at its top and in its free lists to the system (glibc's malloc_trim(0)).
void trackd_malloc_trim(void);

#endif
