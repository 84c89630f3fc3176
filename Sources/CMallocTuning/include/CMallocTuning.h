#ifndef TRACKD_CMALLOCTUNING_H
#define TRACKD_CMALLOCTUNING_H

/// Whether glibc's malloc was limited to one arena at start (see malloctuning.c).
int trackd_malloc_single_arena(void);

/// Gives the heap's free memory back to the system: its top and the free pages inside it (glibc's malloc_trim(0)).
void trackd_malloc_trim(void);

#endif
