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
 */
#ifndef YOD_PROTO_H
#define YOD_PROTO_H

#include <stdint.h>

#define YOD_PCT_PID     1       /* the PCT's Portals pid on every node */
#define YOD_PID         2       /* yod's pid on its service nid */
#define YOD_APP_PID     10      /* rank-local index 0 */

#define YOD_PT_CTL      0       /* control messages, both directions */
#define YOD_PT_DATA     1       /* yod: image and argv/env, for Gets */
#define YOD_PT_IO       12      /* yod: program output (PTL_JOB_PT_IO) */

#define YOD_MB_IMAGE    1ull
#define YOD_MB_ARGS     2ull

#define YOD_IO_CHUNK    4096
#define YOD_ARGS_MAX    8192    /* argv/env block */

enum yod_type {
    YOD_ALLOC = 1, YOD_LOAD, YOD_START, YOD_KILL, YOD_FREE,
    YOD_OK = 16, YOD_BUSY, YOD_ERR, YOD_EXIT,
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
    uint64_t image_len, args_len; /* LOAD */
    uint64_t addr, rip;         /* EXIT after a fault */
    char text[200];             /* ERR and fault descriptions */
};

#endif
