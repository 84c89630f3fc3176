#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <sys/mman.h>
#include <unistd.h>

#include "CSpawn.h"

int trackd_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

int trackd_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

int trackd_memfd(const char *name) {
    return memfd_create(name, MFD_CLOEXEC);
}
