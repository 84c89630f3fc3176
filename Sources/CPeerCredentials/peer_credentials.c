#define _GNU_SOURCE
#include <stddef.h>
#include <sys/socket.h>
#include "CPeerCredentials.h"

_Static_assert(sizeof(struct trackd_peer_credentials) == sizeof(struct ucred), "struct ucred layout");
_Static_assert(offsetof(struct trackd_peer_credentials, uid) == offsetof(struct ucred, uid), "struct ucred layout");
_Static_assert(offsetof(struct trackd_peer_credentials, gid) == offsetof(struct ucred, gid), "struct ucred layout");

int trackd_so_peercred(void) { return SO_PEERCRED; }
int trackd_sol_socket(void) { return SOL_SOCKET; }
