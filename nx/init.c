/* SPDX-License-Identifier: MIT */
/*
 * init.c: libnx starts on the first NX call (the job's shared NI from
 * ptl_job_init, our three portals, the buffer for unexpected messages)
 * and ends at exit, after its sends are delivered.  Also the one error
 * convention: nx_error() records errno and a reason for the caller,
 * nx_fatal() ends the job.
 *
 * Tunables (environment, for tests and big jobs):
 *   NX_EAGER       bytes sent with the header, default 65536 (as MPI):
 *                  above it a message is long (send.c)
 *   NX_COPY        bytes sent from a copy, the send done at once, default
 *                  4096 (as MPI); a larger eager send is done at its ACK
 *   NX_BLOCK_SIZE  one block of unexpected-message buffer, default 1 MiB
 *   NX_BLOCKS      blocks at start, default 4
 *   NX_BUFFER_MAX  the buffer grows to this when flow control finds no
 *                  room at all, default 256 MiB
 *   NX_STATS=1     print flow-control counters at exit
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nx_internal.h"

/* No message yet: info* say -1. */
struct nx_state nx = { .last = { -1, -1, -1, -1 } };

int nx_error(int err, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(nx.errmsg, sizeof(nx.errmsg), fmt, ap);
    va_end(ap);
    nx.err_peer = 0;
    errno = err;
    return -1;
}

void nx_fatal(const char *fmt, ...)
{
    char msg[300];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    /* A node that is gone is named, so the launcher tells its end (the
       job's cause) from this consequence of it. */
    ptl_job_abort_peer(1, nx.err_peer - 1, msg);
}

static long env_long(const char *name, long dflt, long min)
{
    const char *v = getenv(name);
    char *end;
    long n;

    if (v == NULL || *v == '\0')
        return dflt;
    n = strtol(v, &end, 0);
    if (*end != '\0' || n < min)
        nx_fatal("NX: %s=%s: need a number >= %ld", name, v, min);
    return n;
}

/* ---- the buffer for unexpected messages: locally managed blocks on the
 * overflow list; a block unlinks itself when it has less than one eager
 * message of room left and comes back once every message in it has been
 * received (AUTO_FREE). ---- */

void nx_block_repost(struct nx_block *b)
{
    ptl_me_t me = {
        .start = b->mem, .length = (ptl_size_t)nx.block_size,
        .ct_handle = PTL_CT_NONE, .uid = PTL_UID_ANY,
        .options = PTL_ME_OP_PUT | PTL_ME_MANAGE_LOCAL |
                   PTL_ME_EVENT_LINK_DISABLE,
        .match_id = { .rank = PTL_RANK_ANY },
        .match_bits = 0, .ignore_bits = ~(ptl_match_bits_t)0,
        .min_free = (ptl_size_t)nx.eager,
    };

    if (PtlMEAppend(nx.job.ni, NX_PT_DATA, &me, PTL_OVERFLOW_LIST, b,
                    &b->me) != PTL_OK)
        nx_fatal("NX: cannot post a receive buffer block "
                 "(out of Portals match entries?)");
    b->linked = 1;
    nx.blocks_linked++;
}

int nx_block_add(void)
{
    struct nx_block *nb;

    if ((long)(nx.nblocks + 1) * nx.block_size > nx.buffer_max)
        return -1;
    /* Blocks are referenced by Portals through user_ptr: allocate each
     * descriptor separately so growing never moves one. */
    nb = calloc(1, sizeof(*nb));
    if (nb == NULL || (nb->mem = malloc((size_t)nx.block_size)) == NULL) {
        free(nb);
        return -1;
    }
    nx_block_repost(nb);
    nx.nblocks++;
    return 0;
}

/* ---- setup ---- */

static int alloc_eqs(void)
{
    int n = nx.n;

    if (PtlEQAlloc(nx.job.ni, 4096, &nx.tgt_eq) != PTL_OK ||
        PtlEQAlloc(nx.job.ni, 8192 + 8 * (ptl_size_t)n, &nx.ctl_eq)
            != PTL_OK ||
        PtlEQAlloc(nx.job.ni, 2 * NX_MAX_INFLIGHT + 64, &nx.ini_eq)
            != PTL_OK)
        return -1;
    return 0;
}

/* Data (flow controlled), rendezvous and control portals, the control
 * entry, the MD control messages are sent from and the one every data
 * Put and rendezvous Get uses. */
static int alloc_portals(void)
{
    ptl_me_t me = { .start = NULL, .length = 0, .ct_handle = PTL_CT_NONE,
                    .uid = PTL_UID_ANY,
                    .options = PTL_ME_OP_PUT | PTL_ME_EVENT_LINK_DISABLE,
                    .match_id = { .rank = PTL_RANK_ANY },
                    .ignore_bits = ~(ptl_match_bits_t)0 };
    ptl_md_t md = { .start = NULL, .length = 0, .eq_handle = PTL_EQ_NONE,
                    .ct_handle = PTL_CT_NONE };
    ptl_md_t all = { .start = PTL_JOB_MD_START, .length = PTL_JOB_MD_LENGTH,
                     .eq_handle = nx.ini_eq, .ct_handle = PTL_CT_NONE,
                     .options = PTL_MD_EVENT_SEND_DISABLE };
    ptl_me_t hdr_only = me;
    ptl_pt_index_t pt;

    if (PtlPTAlloc(nx.job.ni, PTL_PT_FLOWCTRL, nx.tgt_eq, NX_PT_DATA, &pt)
            != PTL_OK ||
        PtlPTAlloc(nx.job.ni, 0, nx.ctl_eq, NX_PT_RNDV, &pt) != PTL_OK ||
        PtlPTAlloc(nx.job.ni, 0, nx.ctl_eq, NX_PT_CTL, &pt) != PTL_OK)
        return -1;
    /* First on the overflow list, ahead of the blocks (which are
     * re-posted behind it): a long message that finds no receive keeps
     * only its header here, and its receiver Gets the data later. */
    hdr_only.match_bits = NX_MB_LONG;
    hdr_only.ignore_bits = ~NX_MB_LONG;
    if (PtlMEAppend(nx.job.ni, NX_PT_CTL, &me, PTL_PRIORITY_LIST, NULL,
                    &nx.ctl_me) != PTL_OK ||
        PtlMEAppend(nx.job.ni, NX_PT_DATA, &hdr_only, PTL_OVERFLOW_LIST,
                    NULL, &nx.long_me) != PTL_OK ||
        PtlMDBind(nx.job.ni, &md, &nx.ctl_md) != PTL_OK ||
        PtlMDBind(nx.job.ni, &all, &nx.all_md) != PTL_OK)
        return -1;
    return 0;
}

static void read_tunables(void)
{
    /* 64 KiB: a ping-pong posts its receive when its send is done, so a
     * long message's answer finds no receive and is fetched with a Get;
     * a copy out of the overflow buffer is cheaper up to here (two nodes,
     * 64 KiB: 292-295 us against 449-511 us with 16 KiB). */
    nx.eager = env_long("NX_EAGER", 65536, 0);
    /* A copy lets the sender post its next receive before the answer
     * comes; since the nodes' kernel lets a process woken by the ACK run
     * before the answer's frames are taken in (kernel/portals.c), the
     * ACK is early enough for that, and a 64 KiB copy (a malloc, a
     * memcpy and a free per message) costs more than it saves. */
    nx.copy = env_long("NX_COPY", 4096, 0);
    if (nx.copy > nx.eager)
        nx.copy = nx.eager;
    nx.block_size = env_long("NX_BLOCK_SIZE", 1 << 20, 1);
    if (nx.block_size < nx.eager + 1)
        nx_fatal("NX: NX_BLOCK_SIZE (%ld) must exceed NX_EAGER (%ld)",
                 nx.block_size, nx.eager);
    nx.buffer_max = env_long("NX_BUFFER_MAX", 256L << 20, nx.block_size);
}

static void nx_exit(void);

int nx_up(void)
{
    long blocks;

    if (nx.up)
        return 0;
    if (nx.finished)
        return nx_error(EINVAL, "called after exit processing began");
    read_tunables();
    blocks = env_long("NX_BLOCKS", 4, 1);
    if (ptl_job_init(&nx.job) != PTL_OK)
        nx_fatal("NX: cannot join the job (see the line above)");
    nx.me = nx.job.rank;
    nx.n = nx.job.size;
    /* Each Put or Get in flight holds an MD and a message slot.  Take at
     * most a quarter of the NI's (a node has 256 of each, Linux 1024):
     * MPI in the same program takes another quarter, yod's output channel
     * and the job interface need theirs, and a target needs a slot for
     * every ACK or REPLY it owes (two processes whose slots are all held
     * by operations to each other can answer neither). */
    nx.max_inflight = nx.job.limits.max_mds / 4;
    if (nx.max_inflight > NX_MAX_INFLIGHT)
        nx.max_inflight = NX_MAX_INFLIGHT;
    if (nx.max_inflight < 4)
        nx.max_inflight = 4;
    nx.peers = calloc((size_t)nx.n, sizeof(*nx.peers));
    if (nx.peers == NULL || alloc_eqs() != 0 || alloc_portals() != 0)
        nx_fatal("NX: cannot set up portals %d..%d (out of Portals "
                 "resources, or another library uses them)",
                 NX_PT_DATA, NX_PT_CTL);
    for (long i = 0; i < blocks; i++)
        if (nx_block_add() != 0)
            nx_fatal("NX: cannot allocate %ld blocks of %ld bytes",
                     blocks, nx.block_size);
    nx.up = 1;
    atexit(nx_exit);
    /* Nobody may send before every node's portals exist. */
    ptl_job_barrier();
    return 0;
}

/* ---- teardown ---- */

/* Sends the program never waited for are still delivered, and control
 * messages still queued go out: wait for them (a bounded time: a
 * receiver that never receives must not hang us). */
static void drain_sends(void)
{
    double until = dclock() + 30.0;

    while ((nx.legs_pending > 0 || nx.ctl_head != NULL) && dclock() < until)
        nx_progress(1);
    if (nx.legs_pending > 0)
        fprintf(stderr, "NX: node %d: exiting with %d send(s) never "
                "received\n", nx.me, nx.legs_pending);
}

static void nx_exit(void)
{
    if (!nx.up)
        return;
    drain_sends();
    nx_flow_bye();
    drain_sends();                  /* a BYE Portals had no room for */
    if (getenv("NX_STATS") != NULL)
        fprintf(stderr, "NX: node %d: flow-control recoveries %ld, "
                "refused sends %ld, buffer blocks %d (%ld added); long "
                "messages received in place %ld, fetched %ld\n",
                nx.me, nx.stats.recoveries, nx.stats.nacks, nx.nblocks,
                nx.stats.blocks_added, nx.stats.long_in_place,
                nx.stats.long_fetched);
    nx.up = 0;
    nx.finished = 1;
    ptl_job_fini();
}
