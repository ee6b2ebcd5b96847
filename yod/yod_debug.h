/* SPDX-License-Identifier: MIT */
/*
 * yod_debug.h: what yod and the PCTs say to debug a rank, to take its
 * stack when its job ends abnormally or a user asks (yod -stacks), and to
 * write its core file.  Part of the protocol of yod_proto.h (the same
 * messages, keys and rules: a request is obeyed only from the station
 * that claimed the node for that job, signed with the job's key, each
 * message once), shared by yod (yod/rankdbg.c and the files beside it)
 * and the PCT (pct/debug.c).  The kernel's side: uapi/abi.h, proc_debug.
 *
 * Requests (yod -> PCT): YOD_DEBUG, `rank` the rank (one of the node's),
 * `reason` the operation:
 *   ATTACH    the rank is to be debugged: int3 and single steps stop it
 *             (LWK_DBG_TRAP), its memory may be written; it is stopped
 *             (before it starts, if START has not come yet: yod -debug)
 *             and the PCT answers STOPPED
 *   STOP      stop every thread; STOPPED follows once they are
 *   SNAP      stop every thread (if the rank runs) and write what yod
 *             needs into the rank's debug buffer (struct yod_dbg_info:
 *             its regions, threads, registers); OK once it is there
 *   SETREGS   the thread `local` (its CPU) takes the registers yod has
 *             Put into the debug buffer's first struct lwk_dbg_regs; OK
 *   CONT      the threads in `go` (a mask of CPUs) go on, those also in
 *             `step` for one instruction; `status` is a signal to give it
 *             (0 none): a stop for a fault or an abort ends the rank if it
 *             is given one (EXIT follows, as the fault's or abort's end);
 *             OK, and STOPPED or EXIT when it next stops or ends
 *   DETACH    no more traps; every thread goes on; OK
 *   RELEASE   a rank that yod heard of as held (EXIT with flags
 *             YOD_EXIT_HELD: its process was kept for yod to read) may go
 *   USED      which parts of region `local` hold anything but zeros (a
 *             region is zeroed when it is made, so the rest was never
 *             written): a bitmap in the debug buffer (struct
 *             yod_dbg_used); a core file carries only those (the rest are
 *             holes, which read as zeros)
 * Answers: OK, ERR (text), and
 *   STOPPED   (PCT -> yod) rank `rank` stopped: `local` the thread (CPU)
 *             that stopped it, `reason` why (enum lwk_dbg_why), `status`
 *             the signal a debugger shows (Linux's numbers: SIGTRAP 5 for
 *             a breakpoint or step, SIGSEGV 11 for a page fault, ...,
 *             SIGINT 2 for STOP), `addr` the faulting address, `rip`.
 *
 * A held end.  Every rank a PCT runs for yod is loaded with LWK_DBG_HOLD:
 * a fault or an abort stops it instead of ending it.  Unless a debugger
 * is attached, the PCT stops its other threads and tells yod EXIT as
 * before, with YOD_EXIT_HELD in `flags`: the process is kept, unchanged,
 * for yod to read (its stack for the summary, its core file) until
 * RELEASE, KILL, FREE or the lease's end.  A rank of a job yod profiles
 * (LOAD's profile_hz) is held the same way at a normal exit, for yod to
 * read its histogram (yod_dbg_info.prof, in the rank's memory).
 *
 * Memory.  No message carries it: while a rank is debugged or held the
 * PCT exposes each of its regions, through the PCT's window on them, on
 * portal YOD_PT_DEBUG to its owner alone (match_id yod's nid and pid),
 * match bits yod_dbg_bits(job key, index on the node, region): yod Gets
 * (and for a debugged rank Puts) at the offset of the address in the
 * region.  The debug buffer (YOD_DBG_BUF) is exposed the same way.  The
 * bits carry a value derived from the job's key, so only a holder of the
 * key can name them; below that, yod's and the PCT's frames are signed
 * with the cluster's transport key (portals/PROTOCOL.md 2.3).
 */
#ifndef YOD_DEBUG_H
#define YOD_DEBUG_H

#include <stdint.h>

#include "uapi/abi.h"
#include "yod_proto.h"

#define YOD_PT_DEBUG    2       /* PCT: ranks' memory, the debug buffer */
#define YOD_DBG_BUF     LWK_NREGIONS    /* "region" of the debug buffer */
#define YOD_DBG_THREADS 16      /* threads a snapshot holds */
#define YOD_KDF_DBG     0x4b474244u     /* "DBGK" */
#define YOD_EXIT_HELD   1       /* EXIT's flags: the process is kept */

enum yod_dbg_op {
    YOD_DBG_ATTACH = 1, YOD_DBG_STOP, YOD_DBG_SNAP, YOD_DBG_SETREGS,
    YOD_DBG_CONT, YOD_DBG_DETACH, YOD_DBG_RELEASE, YOD_DBG_USED,
};

/* The debug buffer after SNAP. */
struct yod_dbg_info {
    uint32_t nthreads;          /* of regs[] and cpu[] */
    uint32_t main_cpu;          /* the main thread's CPU */
    uint64_t threads, stopped;  /* CPU masks (lwk_dbg_state) */
    uint64_t va[LWK_NREGIONS], size[LWK_NREGIONS];  /* its regions */
    uint64_t auxv;              /* its auxiliary vector (in its stack) */
    uint64_t held_reason;       /* LWK_STOP_FAULT, _ABORT, or 0 */
    uint32_t alive;             /* 0: it has ended (kept for yod) */
    struct lwk_prof prof;       /* yod -profile: its histogram (bins 0:
                                   none) */
    uint32_t prof_hz;           /* samples a second */
    int32_t counters;           /* yod -counters: 1 counted, -1 its CPU
                                   has no PMU (lwk_dbg LWK_DBG_COUNT),
                                   0 not asked */
    struct lwk_counts counts;   /* when counted */
    uint32_t cpu[YOD_DBG_THREADS];              /* each thread's CPU */
    struct lwk_dbg_event ev[YOD_DBG_THREADS];   /* why each stopped */
    struct lwk_dbg_regs regs[YOD_DBG_THREADS];
};

/* The debug buffer after USED: bit k of bits is chunk k (chunk bytes,
   from the region's start), set if it holds anything but zeros. */
#define YOD_DBG_USED_BITS   65536
struct yod_dbg_used {
    uint64_t chunk;             /* bytes: 4 KiB, more for a huge region */
    uint64_t nchunks;
    uint8_t bits[YOD_DBG_USED_BITS / 8];
};

union yod_dbg_buf {
    struct yod_dbg_info info;
    struct yod_dbg_used used;
};

/* The match bits of region `what` (or YOD_DBG_BUF) of the rank with
   index `local` on its node. */
static inline uint64_t yod_dbg_bits(const struct sipkey *job_key, int local,
                                    int what)
{
    return (yod_kdf(job_key, YOD_KDF_DBG, 0, 0).k0 & ~0xFFFull) |
           (uint64_t)local << 4 | (uint64_t)what;
}

/* The signal a debugger shows for a stop (Linux's numbers): for a fault,
   the one Linux sends for CPU exception `vector`. */
static inline int yod_dbg_signal(uint32_t why, uint32_t vector)
{
    if (why == LWK_DBG_STOPPED)
        return 2;               /* SIGINT: the debugger asked */
    if (why == LWK_DBG_ABORTED)
        return 6;               /* SIGABRT */
    switch (vector) {
    case 1: case 3: return 5;   /* SIGTRAP: debug, breakpoint */
    case 0: case 16: case 19: return 8;     /* SIGFPE: divide, x87, SIMD */
    case 6: return 4;           /* SIGILL: invalid opcode */
    case 17: return 7;          /* SIGBUS: alignment check */
    default: return 11;         /* SIGSEGV: page, protection, stack */
    }
}

#endif
