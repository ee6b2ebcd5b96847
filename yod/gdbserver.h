/* SPDX-License-Identifier: MIT */
/*
 * gdbserver.h: yod as gdb's remote target for ranks of its job (yod
 * -debug, yod -attach): one unix socket per rank, in the user's private
 * directory (jobctl.c), served from yod's event loop.
 */
#ifndef YOD_GDBSERVER_H
#define YOD_GDBSERVER_H

#include "yod_proto.h"

/* Stop rank `rank` (ATTACH) and serve it on a new socket; say where.
   `attached`: gdb attaches to a running rank (yod -attach), else it was
   stopped before it started (yod -debug).  0, or -1 with a line said.
   The socket's path goes to `path` (len bytes) if it is not NULL. */
int gdbserver_open(int rank, int attached, char *path, size_t len);
/* From the event loop: new connections, gdb's packets, stops to tell. */
void gdbserver_poll(void);
/* How long the event loop may wait for Portals (ms): short while gdb
   may be typing. */
int gdbserver_wait(int ms);
/* A rank stopped (STOPPED), or ended (its EXIT). */
void gdbserver_stopped(const struct yod_msg *m);
void gdbserver_ended(int rank, const struct yod_msg *m);
/* Is gdb serving rank `rank`? */
int gdbserver_has(int rank);
/* The job is over: every socket goes. */
void gdbserver_close_all(void);

#endif
