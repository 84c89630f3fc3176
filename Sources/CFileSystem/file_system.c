#define _GNU_SOURCE
#include "CFileSystem.h"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/vfs.h>

int trackd_is_in_memory(const char *path) {
    struct statfs volume;
    if (statfs(path, &volume) != 0) {
        return -1;
    }
    return volume.f_type == TMPFS_MAGIC || volume.f_type == RAMFS_MAGIC;
}

int trackd_open_direct(const char *path, unsigned int mode) {
    return open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_DIRECT, (mode_t)mode);
}

unsigned int trackd_device_major(unsigned long long device) {
    return major((dev_t)device);
}

unsigned int trackd_device_minor(unsigned long long device) {
    return minor((dev_t)device);
}
