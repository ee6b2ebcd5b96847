/* SPDX-License-Identifier: MIT */
/*
 * yod_proto.h: what yod (Linux, libportals) and the PCTs (compute nodes)
 * say to each other, and how an application's stdout/stderr reach yod.
 * Shared by yod/yod.c, pct/serve.c and libc/yodio.c.
 *
 * Addresses.  A PCT with no boot-module program serves on Portals pid
 * YOD_PCT_PID (physical, matching NI).  yod is a Linux station on a
 * service nid (LWK_SERVICE_NID_FIRST.., one lock file per nid in the
 * cluster directory) with pid YOD_PID.  Ranks run with Portals pid
 * YOD_APP_PID (one rank per node today; rank-local index i adds i).
 *
 * Control.  Every request and answer is one struct yod_msg Put to portal
 * YOD_PT_CTL (match bits 0), acknowledged.  yod -> PCT:
 *   ALLOC job           claim the node; answer OK, or BUSY with the owner
 *   LOAD job rank size  the PCT Gets the program image (match bits
 *                       YOD_MB_IMAGE) and the argv/env block (YOD_MB_ARGS)
 *                       from yod's portal YOD_PT_DATA, loads it; OK or ERR
 *   START job           run it; the PCT answers OK, and EXIT when it ends
 *   KILL job            end it now (an EXIT follows if it was loaded)
 *   FREE job            give the node back (kills what still runs)
 * PCT -> yod: OK, BUSY (owner in `job2`), ERR (text), EXIT (status, or a
 * fault: reason LWK_STOP_FAULT, addr, rip, text "what <symbol+off>").
 *
 * The argv/env block: argc strings then envc strings, each NUL-ended.
 * The PCT adds PTL_JOB_RANK=<rank> to the environment.
 *
 * Output.  When LWK_YOD=NID:PID is in a program's environment, libc sends
 * what it writes to fds 1 and 2 as Puts (at most YOD_IO_CHUNK bytes each,
 * acknowledged before write returns, so nothing is lost at exit) to that
 * station's portal YOD_PT_IO, hdr_data = rank << 8 | fd, from a physical
 * NI of its own pid (PTL_PID in its environment), so a job's logical NI
 * (ptl_job.h) is untouched.
 *
 * Fan-out loading (the default; yod with YOD_FANOUT=0 uses ALLOC + LOAD
 * to every node instead).  Nodes form a binomial tree over the ranks
 * (yod_tree_child): rank r's children are r + 2^k for every 2^k > r,
 * largest subtree first.  yod sends one message, to rank 0's PCT:
 *   FLOAD job rank size src owner  claim the node for `job` (if it is
 *                       free) and load like LOAD, but Get the image and
 *                       the block from station `src` (yod or the parent
 *                       PCT, same portal and match bits), and answer to
 *                       station `owner` (yod)
 * The node first tells its parent (src) GOT (status 0: it has the image;
 * else it refused: BUSY, or the Gets failed), then sends FLOAD to each
 * child in turn, exposing the image and block on its own YOD_PT_DATA,
 * and waits for that child's GOT before the next one (one copy at a time
 * leaves each link to one transfer: the tree doubles every step, so the
 * load takes log2 N image times).  A child that refused or never answers
 * is skipped: its parent forwards to that child's children itself, so
 * every node of the job hears from the tree.  Then the node loads its
 * own program and answers yod (owner): OK (loaded), BUSY, or ERR.  For a
 * child that did not take the forward at all the parent tells yod LOST
 * (rank = the child's rank).  yod is rank 0's parent.  START, KILL and
 * FREE go from yod to every node, as in the direct path.
 *   HELLO job           yod -> every node of the job first, not answered:
 *                       a PCT that knew an earlier yod on the same station
 *                       would answer that incarnation, and the new one
 *                       drops such frames (portals/PROTOCOL.md,
 *                       incarnations); any frame from the new yod updates
 *                       the PCT's view.  The direct path never needed it:
 *                       there yod always speaks first.
 */
#ifndef YOD_PROTO_H
#define YOD_PROTO_H

#include <stdint.h>

#define YOD_PCT_PID     1       /* the PCT's Portals pid on every node */
#define YOD_PID         2       /* yod's pid on its service nid */
#define YOD_APP_PID     10      /* rank-local index 0 */

/* A station (nid, pid) in one word, as FLOAD carries src and owner. */
#define YOD_STATION(nid, pid)   ((uint64_t)(nid) << 32 | (uint32_t)(pid))
#define YOD_STATION_NID(s)      ((uint32_t)((s) >> 32))
#define YOD_STATION_PID(s)      ((uint32_t)(s))

#define YOD_PT_CTL      0       /* control messages, both directions */
#define YOD_PT_DATA     1       /* yod: image and argv/env, for Gets */
#define YOD_PT_IO       12      /* yod: program output (PTL_JOB_PT_IO) */

#define YOD_MB_IMAGE    1ull
#define YOD_MB_ARGS     2ull

#define YOD_IO_CHUNK    4096
#define YOD_ARGS_MAX    8192    /* argv/env block */

enum yod_type {
    YOD_ALLOC = 1, YOD_LOAD, YOD_START, YOD_KILL, YOD_FREE,
    YOD_FLOAD = 10, YOD_GOT, YOD_HELLO, /* fan-out loading */
    YOD_OK = 16, YOD_BUSY, YOD_ERR, YOD_EXIT,
    YOD_LOST = 24,                      /* fan-out: a child did not answer */
};

struct yod_msg {
    uint32_t type;              /* enum yod_type */
    uint32_t job;               /* job id (yod's choice, never 0) */
    uint32_t job2;              /* BUSY: the owner's job */
    int32_t rank, size;         /* LOAD */
    uint32_t argc, envc;        /* LOAD */
    int32_t status;             /* EXIT: exit status */
    uint32_t reason;            /* EXIT: LWK_STOP_EXIT / _FAULT, 0 killed */
    uint32_t pad;
    uint64_t image_len, args_len; /* LOAD, FLOAD */
    union {
        struct { uint64_t addr, rip; };     /* EXIT after a fault */
        struct { uint64_t src, owner; };    /* FLOAD: YOD_STATIONs */
    };
    char text[200];             /* ERR and fault descriptions */
};

/* Rank r's child after `prev` (-1: its first) in the binomial tree of
   `size` ranks, or -1: r + 1, r + 2, r + 4, ... for the powers of two
   above r (largest subtree first). */
static inline int yod_tree_child(int r, int prev, int size)
{
    long k = 1;

    if (prev >= 0)
        k = 2L * (prev - r);
    else
        while (k <= r)
            k <<= 1;
    return r + k < size ? (int)(r + k) : -1;
}

#endif
