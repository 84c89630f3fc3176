#ifndef TRACKD_CYAML_SHIM_H
#define TRACKD_CYAML_SHIM_H

/* libyaml (Debian's libyaml-dev): TrackConfig reads the configuration file through its event parser only. */
#include <yaml.h>

#endif
