/* SPDX-License-Identifier: MIT */
/*
 * postmortem.c: what yod does for a rank that died (a fault or an abort,
 * whose process its node kept: yod_debug.h's held end) before it lets the
 * process go: its stack for the job's summary (stacks.c), and its core
 * file if the options and the user's core limit (ulimit -c) say so.  From
 * yod's loop, never from an event's handler (it makes requests and waits
 * for their answers).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "cluster.h"
#include "core.h"
#include "postmortem.h"
#include "profile.h"
#include "rankdbg.h"
#include "stacks.h"
#include "yod.h"

static int cores_written;

struct rank_mem {
    int rank;
    const struct yod_dbg_info *info;
    struct yod_dbg_used used;
};

static long read_mem(void *arg, uint64_t addr, void *buf, size_t len)
{
    struct rank_mem *m = arg;

    return rankdbg_read(m->rank, m->info, addr, buf, len);
}

static const struct yod_dbg_used *used_of(void *arg, int region)
{
    struct rank_mem *m = arg;

    return rankdbg_used(m->rank, region, &m->used) == 0 ? &m->used : NULL;
}

/* The user's core limit (ulimit -c): bytes, UINT64_MAX for none. */
static uint64_t core_limit(void)
{
    struct rlimit rl;

    if (getrlimit(RLIMIT_CORE, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY)
        return UINT64_MAX;
    return rl.rlim_cur;
}

/* The thread whose fault or abort ended it; -1 if none says so. */
static int dead_thread(const struct yod_dbg_info *in)
{
    for (uint32_t i = 0; i < in->nthreads; i++)
        if (in->ev[i].why == LWK_DBG_FAULTED ||
            in->ev[i].why == LWK_DBG_ABORTED)
            return (int)in->cpu[i];
    return -1;
}

static int wants_core(void)
{
    if (o.core == CORE_NONE || core_limit() == 0)
        return 0;
    return o.core == CORE_ALL || !cores_written;
}

/* The signal it died of, as Linux would have killed it. */
static int death(const struct node *n)
{
    return n->exit.reason == LWK_STOP_ABORT ? 6 : n->exit.status - 128;
}

static void core(struct node *n, const struct yod_dbg_info *info)
{
    struct rank_mem mem = { .rank = n->rank, .info = info };
    char path[64], args[80] = "";
    const char *name = strrchr(o.argv[0], '/');
    struct core_src src = {
        .info = info, .first_cpu = dead_thread(info), .sig = death(n),
        .name = name ? name + 1 : o.argv[0], .args = args,
        .read = read_mem, .used = used_of, .arg = &mem,
    };
    double t0 = now_ms();
    long size;

    for (char **a = o.argv; *a; a++)
        snprintf(args + strlen(args), sizeof(args) - strlen(args), "%s%s",
                 a == o.argv ? "" : " ", *a);
    snprintf(path, sizeof(path), "core.%u.%d", jobid, n->rank);
    cores_written++;
    if ((size = core_write(path, &src, core_limit())) < 0) {
        fprintf(stderr, "yod: rank %d (nid %u): no core file: %s: %s\n",
                n->rank, n->nid, path, errno == EIO ? rankdbg_why()
                                                    : strerror(errno));
        return;
    }
    fprintf(stderr, "yod: rank %d (nid %u): core dumped to %s (%.1f MiB "
            "with its holes, %.1f s)\n", n->rank, n->nid, path,
            (double)size / (1 << 20), (now_ms() - t0) / 1e3);
}

/* A rank whose node kept its process after it died (or, profiled, after
   any end): its profile, its stack and core file, then the process
   goes. */
static void held(struct node *n)
{
    struct yod_dbg_info *info = malloc(sizeof(*info));

    n->held = 0;
    if (info && rankdbg_snap(n->rank, info) == 0) {
        profile_take(n->rank, info);
        if (n->exit.reason != LWK_STOP_EXIT) {  /* else kept to profile */
            stacks_take(n->rank, info, death(n));
            if (wants_core())
                core(n, info);
        }
    } else {
        fprintf(stderr, "yod: rank %d (nid %u): cannot read it: %s\n",
                n->rank, n->nid, rankdbg_why());
    }
    free(info);
    if (rankdbg_op(n->rank, YOD_DBG_RELEASE, 0, 0, 0, 0) < 0)
        fprintf(stderr, "yod: rank %d: %s\n", n->rank, rankdbg_why());
}

/* Once the job is being killed, a rank that dies of it (its peers gone)
   is no news, and its node destroys it anyway.  Reading one rank waits
   for answers, and another rank's end heard meanwhile (the job's last,
   after which yod's loop would not call again) is read before this
   returns. */
void postmortem_held(void)
{
    for (int again = 1; again;) {
        again = 0;
        for (int r = 0; r < o.size; r++) {
            if (job[r]->held && !job[r]->down && !end.killing) {
                held(job[r]);
                again = 1;
            }
            job[r]->held = 0;
        }
    }
}
