/* SPDX-License-Identifier: MIT */
/*
 * fileio.h: the ranks' file server (fileio.c), as yod.c runs it for I/O
 * server 0 and iod.c in each I/O server process yod starts (ioserver.c).
 */
#ifndef YOD_FILEIO_H
#define YOD_FILEIO_H

#include "portals4.h"
#include "siphash.h"

/* Chunks of 1 MiB one transfer keeps in flight (YOD_IO_SLOTS=N in the
   server's environment overrides it, 1..16; 1 is stop and wait), fewer
   for a server of more than 64 ranks (256 MiB of buffers at most).
   Measured in docs/io.md. */
#define FILEIO_SLOTS    4

struct fileio_job {
    ptl_handle_ni_t ni;
    ptl_handle_eq_t eq;         /* every event of the server's requests */
    int size;                   /* the job's ranks; rank r on nids[r] */
    const unsigned *nids;
    int first, last;            /* the ranks it serves (none: last < first;
                                   ioserver.c says which) */
    struct sipkey job_key;      /* each rank's key is derived from it */
    const char *chroot;         /* confine the files to it; NULL: none */
    const char *pfs;            /* served as /pfs (yod -pfs); NULL: none */
    /* What the server reports: a request dropped (not from a rank it
       serves, unsigned, replayed), a rank's link that failed, a file
       opened for writing and closed (NULL: not told). */
    void (*dropped)(void);
    void (*link_failed)(int rank, const char *what);
    void (*opened)(int rank, int fd, const char *path);
    void (*closed)(int rank, int fd);
};

/* Serve the job's ranks that are this server's on portal YOD_PT_FILE,
   before they start.  0, or -1 (errno) if it cannot (no memory, no fd,
   no portal). */
int fileio_start(const struct fileio_job *j);

/* An event from the job's eq: 1 if it was the file server's (handled),
   else 0. */
int fileio_event(const ptl_event_t *ev);

/* Retry reads parked until their fd (stdin, a pipe) has input. */
void fileio_poll(void);

/* A Linux errno as the protocol's number (yod_proto.h, Files; EIO if the
   protocol has none). */
uint32_t fileio_errno_code(int e);

/* The rank ended: close its files and its working directory. */
void fileio_rank_ended(int rank);

#endif
