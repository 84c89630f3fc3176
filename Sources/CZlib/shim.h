#ifndef TRACKD_CZLIB_SHIM_H
#define TRACKD_CZLIB_SHIM_H
#include <zlib.h>
#endif
