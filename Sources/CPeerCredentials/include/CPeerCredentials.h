#ifndef TRACKD_CPEERCREDENTIALS_H
#define TRACKD_CPEERCREDENTIALS_H

/*
 * The credentials a Unix socket reports for its peer (SO_PEERCRED). glibc declares `struct ucred` only with
 * _GNU_SOURCE, which Swift's Glibc module does not set; this is the same layout, checked in peer_credentials.c.
 */
struct trackd_peer_credentials {
    int pid;
    unsigned int uid;
    unsigned int gid;
};

/* SO_PEERCRED and SOL_SOCKET, as the kernel numbers them. */
int trackd_so_peercred(void);
int trackd_sol_socket(void);

#endif
