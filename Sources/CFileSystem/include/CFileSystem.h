#ifndef TRACKD_CFILESYSTEM_H
#define TRACKD_CFILESYSTEM_H

/*
 * Whether the folder at `path` is held in memory (tmpfs or ramfs): 1 yes, 0 no, -1 with errno set when statfs(2)
 * fails. Swift's Glibc module does not declare statfs or the filesystems' magic numbers.
 */
int trackd_is_in_memory(const char *path);

/*
 * Opens `path` for reading and writing (created with `mode` if missing; O_CLOEXEC, O_NOFOLLOW) with O_DIRECT, which
 * Swift's Glibc module does not declare: writes go to the device as the whole blocks given, past the page cache.
 * Returns the descriptor, or -1 with errno set (EINVAL: the filesystem takes no direct writes).
 */
int trackd_open_direct(const char *path, unsigned int mode);

/*
 * The major and the minor number of a device number (st_dev, st_rdev), by glibc's major() and minor(), which are
 * macros of <sys/sysmacros.h> that Swift's Glibc module does not bring.
 */
unsigned int trackd_device_major(unsigned long long device);
unsigned int trackd_device_minor(unsigned long long device);

#endif
