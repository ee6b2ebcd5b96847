/* SPDX-License-Identifier: MIT */
/*
 * rankdbg.c: DEBUG requests to a rank's PCT and the rank's memory
 * (rankdbg.h, yod_debug.h).  Requests go through control.c like every
 * other (request.c: signed, the answer in the node's `got`; never asked
 * again, since a step or a write is not idempotent).
 * Memory moves as Portals Gets and Puts against what the PCT exposes on
 * YOD_PT_DEBUG to this yod alone, at the offset of the address in its
 * region; nothing of it passes through a message.
 */
#include <stdio.h>
#include <string.h>

#include "cluster.h"
#include "rankdbg.h"
#include "yod.h"

#define MOVE_MAX    (4u << 20)  /* bytes in one Get or Put */

static char why[200];
static ptl_handle_eq_t eq;      /* the transfers' REPLY, ACK events */

const char *rankdbg_why(void)
{
    return why;
}

int rankdbg_op(int rank, uint32_t op, uint32_t cpu, uint64_t go,
               uint64_t step, int sig)
{
    struct node *n = leader_of(job[rank]);
    struct yod_msg m = { .type = YOD_DEBUG, .rank = rank, .reason = op,
                         .local = cpu, .status = sig };

    m.go = go;
    m.step = step;
    if (n->down) {
        snprintf(why, sizeof(why), "its node is down");
        return -1;
    }
    if (!ask_msg(n, &m)) {
        snprintf(why, sizeof(why), "node %u: %s", n->nid, n->tried);
        return -1;
    }
    if (n->got.type != YOD_OK) {
        snprintf(why, sizeof(why), "%.*s", (int)sizeof(n->got.text),
                 n->got.text);
        return -1;
    }
    return 0;
}

/* One Get or Put of len bytes at buf, `off` into what the PCT of the
   rank's node exposes as `what` (a region, or the debug buffer). */
static int move(int rank, int what, uint64_t off, void *buf, size_t len,
                int put)
{
    struct node *n = leader_of(job[rank]);
    ptl_process_t pct = { .phys = { n->nid, YOD_PCT_PID } };
    ptl_md_t md = { .start = buf, .length = len, .ct_handle = PTL_CT_NONE };
    int local = what == YOD_DBG_BUF ? 0 : job[rank]->local;
    uint64_t bits = auth_dbg_bits(local, what);
    static uintptr_t seq;       /* tells this transfer's event from late
                                   ones of a transfer that timed out */
    ptl_handle_md_t h;
    ptl_event_t ev;
    unsigned which;
    int rc = -1;

    if (!eq && PtlEQAlloc(yod_ni, 64, &eq) != PTL_OK)
        die("cannot allocate an event queue for debugging");
    md.eq_handle = eq;
    if (PtlMDBind(yod_ni, &md, &h) != PTL_OK)
        return -1;
    seq++;
    if ((put ? PtlPut(h, 0, len, PTL_ACK_REQ, pct, YOD_PT_DEBUG, bits, off,
                      (void *)seq, 0)
             : PtlGet(h, 0, len, pct, YOD_PT_DEBUG, bits, off, (void *)seq))
        != PTL_OK)
        goto out;
    for (double end = now_ms() + ANSWER_MS; now_ms() < end;) {
        if (PtlEQPoll(&eq, 1, 20, &ev, &which) != PTL_OK)
            continue;
        if (ev.type != (put ? PTL_EVENT_ACK : PTL_EVENT_REPLY) ||
            ev.user_ptr != (void *)seq)
            continue;
        rc = ev.ni_fail_type == PTL_NI_OK && ev.mlength == len ? 0 : -1;
        break;
    }
out:
    PtlMDRelease(h);
    if (rc < 0)
        snprintf(why, sizeof(why), "node %u did not give rank %d's memory "
                 "(region %d, offset %#lx)", n->nid, rank, what,
                 (unsigned long)off);
    return rc;
}

/* The bytes of region i in [addr, addr + len) as (region, offset, n). */
static int region_of(const struct yod_dbg_info *info, uint64_t addr,
                     size_t len, uint64_t *off, size_t *n)
{
    for (int i = 0; i < LWK_NREGIONS; i++)
        if (info->size[i] && addr >= info->va[i] &&
            addr - info->va[i] < info->size[i]) {
            *off = addr - info->va[i];
            *n = info->size[i] - *off < len ? info->size[i] - *off : len;
            return i;
        }
    snprintf(why, sizeof(why), "%#lx is not in the rank's memory",
             (unsigned long)addr);
    return -1;
}

static long transfer(int rank, const struct yod_dbg_info *info,
                     uint64_t addr, void *buf, size_t len, int put)
{
    uint64_t off;
    size_t n, done = 0;
    int i = region_of(info, addr, len, &off, &n);

    if (i < 0)
        return -1;
    while (done < n) {
        size_t k = n - done < MOVE_MAX ? n - done : MOVE_MAX;
        if (move(rank, i, off + done, (char *)buf + done, k, put) < 0)
            return done ? (long)done : -1;
        done += k;
    }
    return (long)n;
}

long rankdbg_read(int rank, const struct yod_dbg_info *info, uint64_t addr,
                  void *buf, size_t len)
{
    return transfer(rank, info, addr, buf, len, 0);
}

long rankdbg_write(int rank, const struct yod_dbg_info *info, uint64_t addr,
                   const void *buf, size_t len)
{
    return transfer(rank, info, addr, (void *)buf, len, 1);
}

int rankdbg_snap(int rank, struct yod_dbg_info *info)
{
    if (rankdbg_op(rank, YOD_DBG_SNAP, 0, 0, 0, 0) < 0 ||
        move(rank, YOD_DBG_BUF, 0, info, sizeof(*info), 0) < 0)
        return -1;
    if (info->nthreads > YOD_DBG_THREADS) {
        snprintf(why, sizeof(why), "its node sent %u threads",
                 info->nthreads);
        return -1;
    }
    return 0;
}

int rankdbg_used(int rank, int region, struct yod_dbg_used *u)
{
    if (rankdbg_op(rank, YOD_DBG_USED, (uint32_t)region, 0, 0, 0) < 0 ||
        move(rank, YOD_DBG_BUF, 0, u, sizeof(*u), 0) < 0)
        return -1;
    if (u->nchunks > YOD_DBG_USED_BITS || !u->chunk) {
        snprintf(why, sizeof(why), "its node sent a map of %lu chunks",
                 (unsigned long)u->nchunks);
        return -1;
    }
    return 0;
}

int rankdbg_setregs(int rank, uint32_t cpu, const struct lwk_dbg_regs *r)
{
    if (move(rank, YOD_DBG_BUF, offsetof(struct yod_dbg_info, regs),
             (void *)r, sizeof(*r), 1) < 0)
        return -1;
    return rankdbg_op(rank, YOD_DBG_SETREGS, cpu, 0, 0, 0);
}
