#include "CGcrypt.h"

#include <pthread.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int result = -1;

static void initialize(void) {
    if (gcry_check_version(GCRYPT_VERSION) == NULL) return;
    // gcry_control is variadic, which Swift cannot call: done here.
    gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
    result = 0;
}

int trackd_gcrypt_initialize(void) {
    pthread_once(&once, initialize);
    return result;
}
