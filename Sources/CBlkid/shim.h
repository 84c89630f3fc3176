#include <blkid/blkid.h>
