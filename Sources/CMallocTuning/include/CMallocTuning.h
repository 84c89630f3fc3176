#ifndef TRACKD_CMALLOCTUNING_H
#define TRACKD_CMALLOCTUNING_H

#include <stddef.h>
#include <stdint.h>

/// Whether glibc's malloc was limited to one arena at start (see malloctuning.c); the rest in resident_pages.c.
int trackd_malloc_single_arena(void);

/// Returns the heap's free memory at its top and in its free lists to the system (glibc's malloc_trim(0)).
void trackd_malloc_trim(void);

/// The program's `.rodata` in memory (its section header, with the load bias): 0, or -1 when it cannot be read.
int trackd_program_rodata(uintptr_t *start, size_t *length);

/// Takes the whole pages of [start, start + length) that are still the mapped file's out of the process's page
/// tables (`MADV_DONTNEED`); pages the process has its own copy of (written, or relocated at start) stay. Only for
/// memory nothing writes any more (read-only mappings, constants). Returns the bytes released, or -1.
long trackd_release_unchanged_pages(uintptr_t start, size_t length);

#endif
