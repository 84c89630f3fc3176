#ifndef TRACKD_CGCRYPT_H
#define TRACKD_CGCRYPT_H

#include <gcrypt.h>

/// Initializes libgcrypt once (gcry_check_version, no secure memory: trackd hashes what it stores anyway), from any
/// thread; returns 0, or -1 when the library is older than the headers it was built with.
int trackd_gcrypt_initialize(void);

#endif
