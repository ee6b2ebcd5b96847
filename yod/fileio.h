/* SPDX-License-Identifier: MIT */
/*
 * fileio.h: yod's file server (fileio.c), as yod.c drives it.
 */
#ifndef YOD_FILEIO_H
#define YOD_FILEIO_H

#include "portals4.h"

/* Serve the job's `size` ranks (rank r on node nids[r]) on portal
   YOD_PT_FILE of `ni`, events on `eq`, confined to directory `chroot`
   unless it is NULL; before the ranks start.  0, or -1 (errno) if yod
   cannot (no memory, no fd, no portal). */
int fileio_start(ptl_handle_ni_t ni, ptl_handle_eq_t eq, int size,
                 const unsigned *nids, const char *chroot);

/* An event from `eq`: 1 if it was the file server's (handled), else 0. */
int fileio_event(const ptl_event_t *ev);

/* Retry reads parked until their fd (stdin, a pipe) has input. */
void fileio_poll(void);

/* A Linux errno as the protocol's number (yod_proto.h, Files; EIO if the
   protocol has none). */
uint32_t fileio_errno_code(int e);

/* The rank ended: close its files and its working directory. */
void fileio_rank_ended(int rank);

#endif
