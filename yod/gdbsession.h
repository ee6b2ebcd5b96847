/* SPDX-License-Identifier: MIT */
/*
 * gdbsession.h: one rank served to gdb, shared by gdbserver.c (its
 * socket, yod's event loop, the rank's stops and end) and gdbpackets.c
 * (what each of gdb's packets does).
 */
#ifndef YOD_GDBSESSION_H
#define YOD_GDBSESSION_H

#include <stddef.h>
#include <stdint.h>
#include <sys/un.h>

#include "gdbrsp.h"
#include "yod_debug.h"

#define MAX_BP      256
#define LINES       64          /* memory read cache, per session */
#define LINE        1024

struct session {
    int rank;
    int lfd, fd;                /* listening socket; gdb (-1: none) */
    char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
    int attached;               /* qAttached: gdb attached to a running rank */
    int noack;                  /* QStartNoAckMode */
    int running;                /* resumed: a stop reply is owed */
    int stop_pending;           /* `stop` is yet to be told */
    struct yod_msg stop;
    struct rsp_reader rd;
    struct yod_dbg_info info;   /* threads and registers at the last stop */
    uint64_t dirty;             /* threads (CPUs) whose registers changed */
    int cpu;                    /* the thread g, p, G, P act on (Hg) */
    char last_stop[64];         /* '?' */
    char sent[2 * RSP_MAX + 8]; /* the last answer, framed (for '-') */
    size_t sent_len;
    struct { uint64_t addr; uint8_t orig; } bp[MAX_BP];
    int nbp;
    struct { uint64_t base; size_t n; uint8_t b[LINE]; } cache[LINES];
};

/* gdbpackets.c: answer packet p (len bytes, NUL-ended) of gdb; the
   stop reply for m (STOPPED, or one yod made); the registers gdb changed
   back into the rank; a breakpoint out; an answer, framed, and bytes as
   they are. */
void handle(struct session *s, const char *p, size_t len);
void tell_stop(struct session *s, const struct yod_msg *m);
int write_back(struct session *s);
int bp_remove(struct session *s, uint64_t addr);
void reply(struct session *s, const char *text);
void send_raw(struct session *s, const char *p, size_t n);
/* gdbserver.c: the session ends (gdb detached, killed the rank, left). */
void session_close(struct session *s);

#endif
