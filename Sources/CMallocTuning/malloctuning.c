#include "CMallocTuning.h"

#include <malloc.h>
#include <stdlib.h>

// glibc gives each thread that allocates an arena of its own (up to 8 per core), each keeping freed memory of its
// own. trackd's threads (the event loop, the dispatch workers, a receiver's reader) allocate little, and one arena
// keeps some 1 MB less resident (docs/benchmarks.md, "Memory"). Set before main, so before any thread starts; a
// MALLOC_ARENA_MAX in the environment is left to glibc.
static int single_arena = 0;

__attribute__((constructor)) static void tune_malloc(void) {
    if (getenv("MALLOC_ARENA_MAX") != NULL) return;
    single_arena = mallopt(M_ARENA_MAX, 1) == 1;
}

int trackd_malloc_single_arena(void) {
    return single_arena;
}

// free() gives memory back to the system only from the heap's top (past M_TRIM_THRESHOLD); the pages of freed chunks
// inside it stay the process's until malloc_trim. Called after the rare jobs that allocate a lot at once.
void trackd_malloc_trim(void) {
    malloc_trim(0);
}
