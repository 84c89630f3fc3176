#ifndef TRACKD_CQRENCODE_SHIM_H
#define TRACKD_CQRENCODE_SHIM_H

/* libqrencode (Debian's libqrencode-dev): the QR code trackctl web pair prints in the terminal. */
#include <qrencode.h>

#endif
