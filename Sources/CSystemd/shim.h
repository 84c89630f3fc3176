#ifndef TRACKD_CSYSTEMD_SHIM_H
#define TRACKD_CSYSTEMD_SHIM_H
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#include <systemd/sd-bus.h>
#endif
