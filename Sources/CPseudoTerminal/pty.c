#define _GNU_SOURCE
#include <stdlib.h>

#include "CPseudoTerminal.h"

int trackd_posix_openpt(int flags) { return posix_openpt(flags); }
int trackd_grantpt(int descriptor) { return grantpt(descriptor); }
int trackd_unlockpt(int descriptor) { return unlockpt(descriptor); }
int trackd_ptsname_r(int descriptor, char *buffer, size_t length) { return ptsname_r(descriptor, buffer, length); }
