/* SPDX-License-Identifier: MIT */
/*
 * request.c: the requests yod sends the PCTs (yod_proto.h): each node's
 * in a buffer of its own (struct node's req), many on their way at once,
 * each followed until its PCT took it (the Portals ACK) and, for those
 * that are answered, until its answer came; asked again when the answer
 * seems lost, since every request is idempotent for its job.
 *
 * One at a time, as before, a START or FREE to N nodes took N round trips
 * after each other, and with 10 s allowed for each a single silent node
 * held the rest.  All at once, the answers of 128 nodes overflowed yod's
 * port on the switch (it holds ~160 small frames: the switch's socket
 * buffer) and came again only after the PCTs' retransmission timeouts.
 * So WINDOW of them are on their way at any time: the answers and their
 * link ACKs fit the port, and a job of N nodes takes N / WINDOW round
 * trips.  Each step looks only at the requests on their way, never at
 * every node: nothing here grows with the square of the nodes.
 */
#include <stdio.h>
#include <string.h>

#include "cluster.h"
#include "yod.h"

#define WINDOW      48          /* requests on their way at once */
#define RESEND_MS   1000        /* taken, no answer: ask again, doubling */
#define RESEND_MAX  2000        /* ... up to this: 5 more asks in ANSWER_MS */

enum { REQ_IDLE, REQ_SENT, REQ_TAKEN, REQ_DONE, REQ_FAILED };

static struct {
    ptl_handle_md_t md;         /* over nodes[]: each node's req */
    ptl_handle_eq_t eq;         /* their ACKs */
} R;

static const char *const names[] = {
    [YOD_ALLOC] = "ALLOC", [YOD_LOAD] = "LOAD", [YOD_START] = "START",
    [YOD_KILL] = "KILL", [YOD_FREE] = "FREE", [YOD_FLOAD] = "FLOAD",
    [YOD_DEBUG] = "DEBUG", [YOD_OK] = "OK", [YOD_BUSY] = "BUSY", [YOD_ERR] = "ERR",
    [YOD_LOST] = "LOST",
};

const char *request_name(uint32_t type)
{
    return type < sizeof(names) / sizeof(names[0]) && names[type]
           ? names[type] : "a request";
}

/* Requests a PCT answers (FLOAD's answer comes through the tree). */
static int answered(uint32_t type)
{
    return type == YOD_ALLOC || type == YOD_LOAD || type == YOD_START ||
           type == YOD_FLOAD || type == YOD_DEBUG;
}

ptl_handle_eq_t requests_open(void)
{
    ptl_md_t md = { .start = nodes, .length = sizeof(nodes),
                    .ct_handle = PTL_CT_NONE };

    if (PtlEQAlloc(yod_ni, 4 * WINDOW, &R.eq) != PTL_OK)
        die("cannot allocate an event queue");
    md.eq_handle = R.eq;
    if (PtlMDBind(yod_ni, &md, &R.md) != PTL_OK)
        die("PtlMDBind failed");
    return R.eq;
}

static void fail(struct node *n, const char *fmt, const char *what, int x)
{
    snprintf(n->tried, sizeof(n->tried), fmt, what, x);
    n->req_state = REQ_FAILED;
}

/* Sign n's request afresh and put it on its way; its ACK is told from an
   earlier post's by the post's number (user_ptr: node index, number). */
static void post(struct node *n)
{
    ptl_process_t to = { .phys = { n->nid, YOD_PCT_PID } };
    uint64_t tag;
    int rc;

    auth_sign(&n->req, n->nid);
    n->req_no++;
    n->req_state = REQ_SENT;
    n->req_last = now_ms();
    tag = (uint64_t)(n - nodes) << 32 | n->req_no;
    rc = PtlPut(R.md, (ptl_size_t)((char *)&n->req - (char *)nodes),
                sizeof(n->req), PTL_ACK_REQ, to, YOD_PT_CTL, 0, 0,
                (void *)(uintptr_t)tag, 0);
    if (rc != PTL_OK)
        fail(n, "yod could not send %s: PtlPut %d",
             request_name(n->req.type), rc);
}

/* Request m (its type and arguments) to n's PCT. */
static void start_msg(struct node *n, const struct yod_msg *m)
{
    n->req = *m;
    n->req.size = o.size;
    n->got.type = 0;
    n->tried[0] = 0;
    n->req_first = now_ms();
    n->resend_ms = RESEND_MS;
    post(n);
}

/* A new request of `type` to n's PCT, for n's rank. */
static void start(struct node *n, uint32_t type)
{
    struct yod_msg m = { .type = type, .rank = n->rank };

    if (type == YOD_LOAD || type == YOD_FLOAD) {
        m.image_len = image_len;
        m.args_len = args_len;
        for (char **a = o.argv; *a; a++)
            m.argc++;
        m.envc = nenv;
        m.heap = o.heap;
        m.stack = o.stack;
        m.mode = o.mode;
        m.profile_hz = o.profile_hz;
        m.counters = (uint32_t)o.counters;
        m.local = (uint32_t)n->nlocal;
        m.src = m.owner = YOD_STATION(self_nid, YOD_PID);
    }
    start_msg(n, &m);
}

void request_post(struct node *n, uint32_t type)
{
    start(n, type);
}

void request_ack(const ptl_event_t *ev)
{
    uint64_t tag = (uintptr_t)ev->user_ptr;
    struct node *n = tag >> 32 < (uint64_t)nnodes ? &nodes[tag >> 32] : NULL;

    if (ev->type != PTL_EVENT_ACK || !n || n->req_state != REQ_SENT ||
        n->req_no != (uint32_t)tag)
        return;                 /* an earlier post's, or one given up */
    if (ev->ni_fail_type != PTL_NI_OK) {
        fail(n, "%s to its PCT failed: Portals failure %d",
             request_name(n->req.type), ev->ni_fail_type);
        if (ev->ni_fail_type == PTL_NI_UNDELIVERABLE)
            strncat(n->tried, " (resent until given up, or no process "
                    "there any more)", sizeof(n->tried) - strlen(n->tried)
                    - 1);
        return;
    }
    n->req_state = answered(n->req.type) ? REQ_TAKEN : REQ_DONE;
    n->req_last = now_ms();
}

int request_answer(struct node *n, const struct yod_msg *m)
{
    if ((n->req_state != REQ_SENT && n->req_state != REQ_TAKEN) ||
        m->asked != n->req.type)
        return 0;               /* late: an earlier request's */
    if (m->type == YOD_LOST) {  /* its parent speaks for it: unless it */
        if (!n->got.type)       /* answers itself, it was not reached */
            n->got = *m;
        return 1;
    }
    n->got = *m;
    n->req_state = REQ_DONE;
    return 1;
}

void request_tree(struct node *n)
{
    n->req = (struct yod_msg){ .type = YOD_FLOAD, .rank = n->rank };
    n->got.type = 0;
    n->tried[0] = 0;
    n->req_state = REQ_TAKEN;   /* the tree asks it for us */
}

int request_loaded(struct node *n, const struct yod_msg *alive)
{
    if (n->req_state != REQ_TAKEN || n->req.type != YOD_FLOAD ||
        !alive->status)
        return 0;
    n->got = *alive;            /* its OK was lost: it has the program */
    n->got.type = YOD_OK;
    n->req_state = REQ_DONE;
    return 1;
}

/* Is n's request still on its way (ask again, or give up, when due)? */
static int pending(struct node *n, int until_answer)
{
    double now = now_ms();

    if (n->req_state == REQ_DONE || n->req_state == REQ_FAILED ||
        (n->req_state == REQ_TAKEN && !until_answer))
        return 0;
    if (now - n->req_first > ANSWER_MS) {
        fail(n, n->req_state == REQ_TAKEN
             ? "its PCT took %s but sent no answer in %d s"
             : "%s to its PCT (pid 1) not acknowledged in %d s",
             request_name(n->req.type), ANSWER_MS / 1000);
        return 0;
    }
    /* DEBUG is never asked again: a step or a write is not idempotent. */
    if (n->req_state == REQ_TAKEN && n->req.type != YOD_FLOAD &&
        n->req.type != YOD_DEBUG && now - n->req_last > n->resend_ms) {
        /* Its answer seems lost: ask again, less often (a loaded host's
           PCT may only be slow), yet often enough that a few lost
           answers in a row cost seconds, not the node. */
        if ((n->resend_ms *= 2) > RESEND_MAX)
            n->resend_ms = RESEND_MAX;
        post(n);
    }
    return 1;
}

void request_all(struct node **list, int count, uint32_t type,
                 int until_answer)
{
    struct node *on_way[WINDOW];
    int next = 0, busy = 0;

    while (next < count || busy) {
        while (next < count && busy < WINDOW) {
            start(list[next], type);
            on_way[busy++] = list[next++];
        }
        pump(10);
        for (int i = 0; i < busy;)
            if (pending(on_way[i], until_answer))
                i++;
            else
                on_way[i] = on_way[--busy];
    }
}

int request(struct node *n, uint32_t type)
{
    request_all(&n, 1, type, 0);
    return n->req_state == REQ_FAILED ? -1 : 0;
}

uint32_t ask(struct node *n, uint32_t type)
{
    request_all(&n, 1, type, 1);
    return n->req_state == REQ_DONE ? n->got.type : 0;
}

uint32_t ask_msg(struct node *n, const struct yod_msg *m)
{
    start_msg(n, m);
    while (pending(n, 1))
        pump(10);
    return n->req_state == REQ_DONE ? n->got.type : 0;
}
