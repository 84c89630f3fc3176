#include "CFileSystem.h"

#include <linux/magic.h>
#include <sys/vfs.h>

int trackd_is_in_memory(const char *path) {
    struct statfs volume;
    if (statfs(path, &volume) != 0) {
        return -1;
    }
    return volume.f_type == TMPFS_MAGIC || volume.f_type == RAMFS_MAGIC;
}
