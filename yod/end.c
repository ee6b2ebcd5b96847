/* SPDX-License-Identifier: MIT */
/*
 * end.c: how a job ended, what yod says about it and the status it exits
 * with (yod -h, docs/yod.md).
 *
 * Some ends of a rank end the whole job: an abort (MPI_Abort, abort(),
 * assert, an NX fatal error, ptl_job_abort), a fault (unless -keep), a
 * nonzero exit with -kill-on-error, and any exit of a rank that leaves its
 * parallel job without finalizing (its peers would wait for it: the
 * kernel says so, EXIT's left_job).  When one rank ends abnormally,
 * others often fail next because it is gone (their messages to it now
 * fail at once), and the nodes' reports reach yod in any order: so yod
 * decides which end caused the job's end only when the job is over.  A
 * rank that gave up because of a peer says so (the `peer` of its EXIT:
 * lwk_abort_peer), and so does the PCT of a rank that faulted on a peer's
 * memory after that peer had ended (SMARTMAP: its memory was gone); the
 * cause is the earliest end such consequences lead back to, and its
 * status, not theirs, is the job's.
 */
#include <stdio.h>

#include "uapi/abi.h"
#include "yod.h"

struct job_end end;

static int ended(const struct node *n)
{
    return n->ended_at && !n->down;
}

/* Does n's end, as it ended, end the job? */
static int ends_job(const struct node *n)
{
    const struct yod_msg *m = &n->exit;

    if (!ended(n))
        return 0;
    return m->reason == LWK_STOP_ABORT ||
           (m->reason == LWK_STOP_FAULT && !o.keep) ||
           (m->reason == LWK_STOP_EXIT &&
            ((m->status && o.kill_on_error) || m->left_job));
}

/* Could n's end be why a peer gave up: anything but a clean exit 0 after
   finalizing? */
static int abnormal(const struct node *n)
{
    const struct yod_msg *m = &n->exit;

    return ended(n) && (m->reason != LWK_STOP_EXIT || m->status ||
                        m->left_job);
}

int end_of_rank(struct node *n)
{
    n->ended_at = ++end.heard;
    return ends_job(n);
}

/* The rank n's end says it was caused by: an abort because a message to
   that rank failed, a fault on its memory after it had ended; -1. */
static int peer_of(const struct node *n)
{
    uint32_t reason = n->exit.reason;

    return reason == LWK_STOP_ABORT || reason == LWK_STOP_FAULT
               ? n->exit.peer : -1;
}

/* The end n's end is a consequence of: follow "gave up because rank P is
   gone" while P ended abnormally. */
static const struct node *root_of(const struct node *n)
{
    for (int hops = 0; hops < o.size; hops++) {
        int p = peer_of(n);
        if (p < 0 || p >= o.size || p == n->rank || !abnormal(job[p]))
            return n;
        n = job[p];
    }
    return n;                   /* a cycle: any of it will do */
}

/* The rank whose end ended the job, or NULL (it ended well, or a signal,
   the time limit or a lost node ended it): of the ends that ended it, the
   one heard first once each is followed back to what it was a consequence
   of. */
static const struct node *cause(void)
{
    const struct node *c = NULL;

    for (int r = 0; r < o.size; r++) {
        const struct node *root;
        if (!ends_job(job[r]))
            continue;
        root = root_of(job[r]);
        if (!c || root->ended_at < c->ended_at)
            c = root;
    }
    return c;
}

/* The line of an exit that was not a clean one, `why` and `tail` after. */
static void say_exit(const struct node *n, const char *why, const char *tail)
{
    if (n->exit.left_job)
        fprintf(stderr, "yod: rank %d (nid %u) left the parallel job without "
                "finalizing (exit status %d)%s\n", n->rank, n->nid,
                n->exit.status, tail);
    else
        fprintf(stderr, "yod: rank %d (nid %u) exited with status %d%s%s\n",
                n->rank, n->nid, n->exit.status, why, tail);
}

/* One line for the cause; `killed`: other ranks were killed for it. */
static void say_cause(const struct node *n, int killed)
{
    const struct yod_msg *m = &n->exit;
    const char *tail = killed ? "; job killed" : "";

    if (m->reason == LWK_STOP_ABORT)
        fprintf(stderr, "yod: rank %d (nid %u) aborted: %.*s%s\n", n->rank,
                n->nid, (int)sizeof(m->text), m->text, tail);
    else if (m->reason == LWK_STOP_FAULT && killed && !o.keep)
        fprintf(stderr, "yod: rank %d (nid %u) faulted (yod -keep lets the "
                "others run on)%s\n", n->rank, n->nid, tail);
    else if (m->reason == LWK_STOP_EXIT)
        say_exit(n, o.kill_on_error ? " (-kill-on-error)" : "", tail);
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
        if (m->reason == LWK_STOP_EXIT && (m->status || m->left_job)) {
            if (n != c)
                say_exit(n, "", "");
        } else if (m->reason == LWK_STOP_FAULT) {
            fprintf(stderr, "yod: rank %d (nid %u) %s\n", r, n->nid,
                    m->text[0] ? m->text : "ended without a status");
            if (root_of(n) != n)
                continue;       /* its peer's end did it: not its status */
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
