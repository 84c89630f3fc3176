#ifndef TRACKD_CPSEUDOTERMINAL_H
#define TRACKD_CPSEUDOTERMINAL_H

#include <stddef.h>

/*
 * The pseudo-terminal calls of <stdlib.h>. Swift's Glibc module imports that header without the XSI/GNU feature
 * macros that declare them, so they are wrapped here, where the macros are set.
 */
int trackd_posix_openpt(int flags);
int trackd_grantpt(int descriptor);
int trackd_unlockpt(int descriptor);
int trackd_ptsname_r(int descriptor, char *buffer, size_t length);

#endif
