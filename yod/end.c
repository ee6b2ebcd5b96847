/* SPDX-License-Identifier: MIT */
/*
 * end.c: how a job ended, what yod says about it and the status it exits
 * with (yod -h, docs/yod.md).
 *
 * Some ends of a rank end the whole job: an abort (MPI_Abort, abort(),
 * assert, an NX fatal error, ptl_job_abort), a fault (unless -keep), a
 * nonzero exit with -kill-on-error.  When one rank aborts, others often
 * fail next because it is gone (their messages to it now fail at once),
 * and the nodes' reports reach yod in any order: so yod decides which end
 * caused the job's end only when the job is over.  A rank that gave up
 * because of a peer says so (the `peer` of its EXIT: lwk_abort_peer); the
 * cause is the first end heard that is not such a consequence.
 */
#include <stdio.h>

#include "uapi/abi.h"
#include "yod.h"

struct job_end end;

/* Does n's end, as it ended, end the job? */
static int ends_job(const struct node *n)
{
    const struct yod_msg *m = &n->exit;

    if (!n->ended_at || n->down)
        return 0;
    return m->reason == LWK_STOP_ABORT ||
           (m->reason == LWK_STOP_FAULT && !o.keep) ||
           (m->reason == LWK_STOP_EXIT && m->status && o.kill_on_error);
}

int end_of_rank(struct node *n)
{
    n->ended_at = ++end.heard;
    return ends_job(n);
}

/* The end n's end is a consequence of: follow "gave up because rank P is
   gone" while P's own end ended the job. */
static const struct node *root_of(const struct node *n)
{
    for (int hops = 0; hops < o.size; hops++) {
        int p = n->exit.reason == LWK_STOP_ABORT ? n->exit.peer : -1;
        if (p < 0 || p >= o.size || p == n->rank || !ends_job(job[p]))
            return n;
        n = job[p];
    }
    return n;                   /* a cycle: any of it will do */
}

/* The rank whose end ended the job, or NULL (it ended well, or a signal,
   the time limit or a lost node ended it). */
static const struct node *cause(void)
{
    const struct node *first = NULL, *root = NULL;

    for (int r = 0; r < o.size; r++) {
        const struct node *n = job[r];
        if (!ends_job(n))
            continue;
        if (!first || n->ended_at < first->ended_at)
            first = n;
        if (root_of(n) == n && (!root || n->ended_at < root->ended_at))
            root = n;
    }
    return root ? root : first;
}

/* One line for the cause; `killed`: other ranks were killed for it. */
static void say_cause(const struct node *n, int killed)
{
    const struct yod_msg *m = &n->exit;
    const char *tail = killed ? "; job killed" : "";

    if (m->reason == LWK_STOP_ABORT)
        fprintf(stderr, "yod: rank %d (nid %u) aborted: %.*s%s\n", n->rank,
                n->nid, (int)sizeof(m->text), m->text, tail);
    else if (m->reason == LWK_STOP_FAULT && killed)
        fprintf(stderr, "yod: rank %d (nid %u) faulted (yod -keep lets the "
                "others run on)%s\n", n->rank, n->nid, tail);
    else if (m->reason == LWK_STOP_EXIT)
        fprintf(stderr, "yod: rank %d (nid %u) exited with status %d "
                "(-kill-on-error)%s\n", n->rank, n->nid, m->status, tail);
}

static int status_of(const struct yod_msg *m)
{
    return m->status & 0xff ? m->status & 0xff : 1;
}

/* Each rank that did not end well, in a line; the job's status. */
int report(void)
{
    const struct node *c = cause();
    int status = 0, lost = 0, killed = 0;

    for (int r = 0; r < o.size; r++)
        killed += job[r]->ended_at && !job[r]->down && !job[r]->exit.reason;
    if (c)
        say_cause(c, killed);
    for (int r = 0; r < o.size; r++) {
        const struct node *n = job[r];
        const struct yod_msg *m = &n->exit;
        if (n->down) {
            lost = 1;           /* lost() said why */
            continue;
        }
        if (m->reason == LWK_STOP_EXIT && m->status) {
            if (n != c)
                fprintf(stderr, "yod: rank %d (nid %u) exited with status "
                        "%d\n", r, n->nid, m->status);
        } else if (m->reason == LWK_STOP_FAULT) {
            fprintf(stderr, "yod: rank %d (nid %u) %s\n", r, n->nid,
                    m->text[0] ? m->text : "ended without a status");
        } else {
            continue;           /* killed by yod, or an abort: not ours */
        }
        if (status_of(m) > status)
            status = status_of(m);
    }
    if (stop_signal)
        return 128 + stop_signal;       /* as a shell reports it */
    if (end.timed_out)
        return ST_TIME;
    if (c && c->exit.reason == LWK_STOP_ABORT)
        return status_of(&c->exit);
    if (lost || end.io_lost)
        return ST_CANNOT_RUN;
    return status ? status : end.out_status;
}
