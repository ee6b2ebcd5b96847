/* SPDX-License-Identifier: MIT */
/*
 * ioserver.h: a job's I/O servers (docs/io.md).  Server 0 is yod itself
 * (fileio.c in yod's loop); the others are processes yod starts
 * (ioserver.c), each yod run again as `yod --io-server` (iod.c), a station
 * of its own on a service nid: N-1 on yod's host, and on a partition of
 * several hosts N on each other host with nodes for the job, started
 * through $LWK_RSH (default ssh) as `yod --io-server-stdio`, each serving
 * the ranks of its own host's nodes.  yod and each server speak over a
 * stream (a socket pair, the server's fd 3; through ssh, its stdin and
 * stdout), in messages of fixed sizes:
 *
 *   yod -> server  SETUP   the cluster's transport key, the job's size,
 *                          the server's index, its host's cluster
 *                          directory, yod's working directory, -chroot,
 *                          -pfs
 *   server -> yod  READY   joined the cluster's network on nid `nid`
 *   yod -> server  MAP     the job's key, the ranks' nids and the ranks
 *                          it serves, once the nodes are claimed (keys
 *                          only here and in SETUP, never on the wire)
 *   server -> yod  SERVING it serves its ranks from now on
 *   yod -> server  ENDED   rank `rank` ended: close its files
 *   yod -> server  END     the job is over
 *   server -> yod  DONE    `count` requests it dropped; then it exits
 * and from the server at any time: OPENED (rank's fd open for writing,
 * text the path), CLOSED, LINK (rank's link failed: text what was lost).
 * A server whose socket reaches end of file (yod gone) exits; a server
 * that dies is seen by yod at once (end of file), which names it and the
 * files it had open for writing and ends the job (status 125).
 */
#ifndef YOD_IOSERVER_H
#define YOD_IOSERVER_H

#include <limits.h>
#include <stdint.h>

#include "siphash.h"
#include "yod.h"

#define IOD_FD  3               /* a local server's end of the socket pair */

enum iod_type {
    IOD_SETUP = 1, IOD_READY, IOD_MAP, IOD_SERVING, IOD_ENDED, IOD_END,
    IOD_DONE, IOD_OPENED, IOD_CLOSED, IOD_LINK,
};

struct iod_setup {
    uint32_t type;              /* IOD_SETUP */
    int32_t index, size;
    uint32_t spare;
    struct sipkey transport_key;
    char cluster[PATH_MAX];     /* its host's cluster directory */
    char cwd[PATH_MAX];         /* yod's: the ranks' first directory */
    char chroot[PATH_MAX];      /* "": none */
    char pfs[PATH_MAX];         /* -pfs DIR, absolute; "": none */
};

struct iod_map {
    uint32_t type;              /* IOD_MAP */
    int32_t first, last;        /* the ranks it serves (none: last < first) */
    uint32_t spare;
    struct sipkey job_key;      /* the job's key (each fan-out attempt has
                                   its own: yod_proto.h) */
    uint32_t nids[MAX_RANKS];   /* rank r on nids[r] */
};

struct iod_msg {
    uint32_t type;
    int32_t rank, fd;
    uint32_t nid;               /* READY */
    uint32_t count;             /* DONE */
    char text[PATH_MAX];        /* OPENED: the path; LINK: what */
};

/* ioserver.c, in yod */
void ioservers_count(void);             /* o.io: -io N, else the site's */
void ioservers_start(int n);            /* before launch: READY from each */
/* "NID:PID@FIRST-LAST,...": yod, then each server, with the ranks each
   serves, for the ranks on nodes job[] (LWK_YOD's value); "NID:PID"
   when yod alone serves every rank; before the nodes are picked, the
   longest it can be. */
const char *ioservers_list(void);
/* The ranks yod itself serves. */
void ioservers_own(int *first, int *last);
void ioservers_map(void);               /* after launch: SERVING from each */
void ioservers_poll(void);              /* messages; a server that died */
void ioservers_rank_ended(int rank);
void ioservers_end(void);               /* END, DONE (counted), reaped */

/* iod.c: the server process (yod --io-server: the channel on fd 3;
   --io-server-stdio: on stdin and stdout); never returns. */
__attribute__((noreturn)) void iod_main(int in, int out);

#endif
