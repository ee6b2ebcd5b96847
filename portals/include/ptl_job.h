/* SPDX-License-Identifier: MIT */
/*
 * ptl_job.h: how a process of a parallel job learns who it is and gets the
 * job's shared logical NI.  Shared by the MPI and NX libraries (one NI per
 * process, reference counted), on Linux (launched by tools/ptlrun) and on
 * the compute nodes (launched by yod through the PCT), from the same
 * environment:
 *
 *   PTL_JOB_RANK  this process's rank, 0..size-1
 *   PTL_JOB_SIZE  number of ranks
 *   PTL_JOB_MAP   rank -> physical id, in rank order: comma-separated items,
 *                 each "nid:pid" or "a-b:pid" (nids a..b, one rank each),
 *                 e.g. "0-7:17" or "4:17,9:17"
 *   PTL_JOB_ID    job id (optional, default 0)
 *   PTL_JOB_STATE a file that exists while this process is in the job
 *                 (optional; tools/ptlrun: a rank that exits while it is
 *                 there left without finalizing)
 *
 * Uses only portals4.h and libc, so it builds for Linux and with lwkcc.
 */
#ifndef PTL_JOB_H
#define PTL_JOB_H

#include "portals4.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ptl_job {
    int rank, size;
    ptl_handle_ni_t ni;     /* logical, matching; the map is set */
    ptl_jid_t jid;
    /* The NI's actual limits (PtlNIInit): a library sizes what it keeps
     * in flight by them, since a compute node's tables are smaller than
     * Linux's (kernel/portals.c: 256 MDs, 1024 entries and headers). */
    ptl_ni_limits_t limits;
};

/* One MD over the whole user address space, bound once, so a library
 * never binds one per message (on a compute node each bind and release is
 * a system call).  The x86-64 user half, not all of memory: the node
 * kernel refuses an MD that reaches into its half, and Linux processes
 * live there too.  It starts at 1 (an MD may not start at NULL), so a
 * buffer at p is at offset p - 1; a 0-byte transfer uses offset 0. */
#define PTL_JOB_MD_START    ((void *)1)
#define PTL_JOB_MD_LENGTH   ((ptl_size_t)(1ull << 47) - 1)

static inline ptl_size_t ptl_job_md_off(const void *p, ptl_size_t len)
{
    return len == 0 ? 0 : (ptl_size_t)((const char *)p - (const char *)1);
}

/* Portal table indexes reserved per library, so libraries never collide. */
#define PTL_JOB_PT_BOOT 1   /* ptl_job_barrier */
#define PTL_JOB_PT_MPI  4   /* 4..7 */
#define PTL_JOB_PT_NX   8   /* 8..11 */
#define PTL_JOB_PT_IO   12  /* 12..15, yod I/O */

/*
 * PtlInit, PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_LOGICAL,
 * pid from the map), PtlSetMap, then a startup barrier: when it returns,
 * every rank's NI and boot portal exist.  A library that allocates its own
 * portals afterwards must call ptl_job_barrier() once they are ready,
 * before it sends (a message to a portal not yet allocated is dropped).
 * Idempotent and reference counted: later calls return the same job.
 * Returns PTL_OK, or an error after printing a one-line reason to stderr;
 * ptl_job_why() then returns that reason (for a library that ends the
 * process with it: a node's stderr may not reach yod before the end).
 */
int ptl_job_init(struct ptl_job *job);
const char *ptl_job_why(void);

/* Job-wide barrier (dissemination, on PTL_JOB_PT_BOOT).  Every rank must
 * call it the same number of times.  A message refused in the start-up
 * barrier (a peer not there yet) is sent again; after it, one that cannot
 * be delivered (PTL_NI_UNDELIVERABLE: the peer is gone) ends the job
 * through ptl_job_abort_peer, naming that rank. */
void ptl_job_barrier(void);

/* Drop a reference; the last one finalizes the NI and Portals.  A process
 * that ends without it (its job NI still open) leaves its peers waiting:
 * on the nodes yod ends the job with that process's status (docs/yod.md). */
void ptl_job_fini(void);

/* End the whole job with status `code` (1 if its low byte is 0): on the
 * nodes yod kills every rank and prints why; on Linux the rank prints
 * "rank R: why" and exits, and tools/ptlrun kills the other ranks. */
__attribute__((noreturn)) void ptl_job_abort(int code, const char *why);
/* The same, because rank `peer` is gone (a message to it failed): on the
 * nodes yod then reports that rank's end as the job's cause, if it ended
 * abnormally (it aborted or faulted first), rather than this consequence. */
__attribute__((noreturn)) void ptl_job_abort_peer(int code, int peer,
                                                  const char *why);

#ifdef __cplusplus
}
#endif

#endif /* PTL_JOB_H */
