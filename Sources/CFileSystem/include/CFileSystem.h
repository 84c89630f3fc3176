#ifndef TRACKD_CFILESYSTEM_H
#define TRACKD_CFILESYSTEM_H

/*
 * Whether the folder at `path` is held in memory (tmpfs or ramfs): 1 yes, 0 no, -1 with errno set when statfs(2)
 * fails. Swift's Glibc module does not declare statfs or the filesystems' magic numbers.
 */
int trackd_is_in_memory(const char *path);

#endif
