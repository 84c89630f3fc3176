#ifndef TRACKD_CSPAWN_H
#define TRACKD_CSPAWN_H

#include <spawn.h>

/*
 * posix_spawn_file_actions_addclosefrom_np (glibc 2.34): close every descriptor from `from` up in the child, so
 * that a program trackd starts inherits none of its files, sockets or pipes. Swift's Glibc module imports <spawn.h>
 * and <unistd.h> without _GNU_SOURCE, which declares it and pipe2, so they are wrapped here, where the macro is set.
 */
int trackd_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int from);

/* pipe2(fds, O_CLOEXEC): a pipe whose ends no other program started meanwhile inherits. */
int trackd_pipe_cloexec(int fds[2]);

/*
 * memfd_create(name, MFD_CLOEXEC): a file in memory, for a program's standard input (a message for msmtp), so that
 * nothing of it reaches the disk and the writer never waits on a pipe the program does not read.
 */
int trackd_memfd(const char *name);

#endif
