/* SPDX-License-Identifier: MIT */
/* MPI-3's matched probes (3.8.2-3.8.3): a message MPI_Mprobe or
 * MPI_Improbe finds is received by MPI_Mrecv/MPI_Imrecv only, however
 * many receives wait for one like it; eager and long messages, to
 * oneself, into a derived type; MPI_PROC_NULL's MPI_MESSAGE_NO_PROC.
 * MPI_Request_get_status; generalized requests (12.2) and the status
 * calls their query functions use. */
#include "mpitest.h"

#define LONG_N (40 * 1024)      /* ints: past the 64 KiB eager limit */

static int *longbuf(int seed)
{
    int *b = malloc(LONG_N * sizeof(int));
    for (int i = 0; i < LONG_N; i++)
        b[i] = seed * 7 + i;
    return b;
}

/* Rank r+1 sends r two messages with the same tag: a receive posted
 * with MPI_ANY_SOURCE after the probe must get the second one. */
static void probe_then_receive(bool nonblocking)
{
    int to = (t_rank + t_size - 1) % t_size, from = (t_rank + 1) % t_size;
    int a = 100 + t_rank, b = 200 + t_rank, x = -1, y = -1, flag = 0;
    MPI_Message msg = MPI_MESSAGE_NULL;
    MPI_Status st;
    MPI_Request sr[2], rr;

    MPI_Isend(&a, 1, MPI_INT, to, 4, MPI_COMM_WORLD, &sr[0]);
    MPI_Isend(&b, 1, MPI_INT, to, 4, MPI_COMM_WORLD, &sr[1]);
    if (nonblocking)
        while (!flag)
            MPI_Improbe(from, 4, MPI_COMM_WORLD, &flag, &msg, &st);
    else
        MPI_Mprobe(from, 4, MPI_COMM_WORLD, &msg, &st);
    CHECK(msg != MPI_MESSAGE_NULL && st.MPI_SOURCE == from &&
          st.MPI_TAG == 4);
    int n = -1;
    MPI_Get_count(&st, MPI_INT, &n);
    CHECK(n == 1);
    /* a wildcard receive posted now cannot take the probed message */
    MPI_Irecv(&y, 1, MPI_INT, MPI_ANY_SOURCE, 4, MPI_COMM_WORLD, &rr);
    if (nonblocking) {
        MPI_Request mr;
        MPI_Imrecv(&x, 1, MPI_INT, &msg, &mr);
        MPI_Wait(&mr, &st);
    } else {
        MPI_Mrecv(&x, 1, MPI_INT, &msg, &st);
    }
    MPI_Wait(&rr, MPI_STATUS_IGNORE);
    CHECK(msg == MPI_MESSAGE_NULL);
    CHECK(x == 100 + from && y == 200 + from && st.MPI_SOURCE == from);
    MPI_Waitall(2, sr, MPI_STATUSES_IGNORE);
}

static void long_and_derived(void)
{
    int to = (t_rank + 1) % t_size, from = (t_rank + t_size - 1) % t_size;
    int *out = longbuf(t_rank), *in = calloc(LONG_N, sizeof(int));
    MPI_Message msg;
    MPI_Status st;
    MPI_Request sr;
    MPI_Datatype every2;
    int cnt = -1, bad = 0;

    MPI_Isend(out, LONG_N, MPI_INT, to, 9, MPI_COMM_WORLD, &sr);
    MPI_Mprobe(MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, &msg, &st);
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(st.MPI_SOURCE == from && cnt == LONG_N);
    MPI_Mrecv(in, LONG_N, MPI_INT, &msg, &st);
    for (int i = 0; i < LONG_N; i++)
        bad += in[i] != from * 7 + i;
    CHECK(bad == 0);
    MPI_Wait(&sr, MPI_STATUS_IGNORE);
    /* eager, into every other int of the buffer */
    MPI_Type_vector(16, 1, 2, MPI_INT, &every2);
    MPI_Type_commit(&every2);
    memset(in, 0, 32 * sizeof(int));
    MPI_Isend(out, 16, MPI_INT, to, 10, MPI_COMM_WORLD, &sr);
    MPI_Mprobe(from, 10, MPI_COMM_WORLD, &msg, &st);
    MPI_Mrecv(in, 1, every2, &msg, &st);
    for (int i = 0; i < 16; i++)
        bad += in[2 * i] != from * 7 + i || in[2 * i + 1] != 0;
    CHECK(bad == 0);
    MPI_Wait(&sr, MPI_STATUS_IGNORE);
    MPI_Type_free(&every2);
    free(out);
    free(in);
}

static void self_and_proc_null(void)
{
    int v = 42, w = 0, flag = 0;
    MPI_Message msg;
    MPI_Status st;
    MPI_Request sr;

    MPI_Improbe(t_rank, 11, MPI_COMM_WORLD, &flag, &msg, &st);
    CHECK(!flag);                       /* nothing sent yet */
    MPI_Isend(&v, 1, MPI_INT, t_rank, 11, MPI_COMM_WORLD, &sr);
    MPI_Mprobe(t_rank, 11, MPI_COMM_WORLD, &msg, &st);
    MPI_Mrecv(&w, 1, MPI_INT, &msg, MPI_STATUS_IGNORE);
    MPI_Wait(&sr, MPI_STATUS_IGNORE);
    CHECK(w == 42);
    MPI_Improbe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &flag, &msg, &st);
    CHECK(flag && msg == MPI_MESSAGE_NO_PROC &&
          st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG);
    w = 7;
    MPI_Mrecv(&w, 1, MPI_INT, &msg, &st);
    CHECK(msg == MPI_MESSAGE_NULL && w == 7 &&
          st.MPI_SOURCE == MPI_PROC_NULL);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    msg = MPI_MESSAGE_NULL;
    CHECK(MPI_Mrecv(&w, 1, MPI_INT, &msg, &st) != MPI_SUCCESS);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

/* MPI_Request_get_status: done or not, and the request still there */
static void get_status(void)
{
    int v = 5, w = 0, flag = -1, to = (t_rank + 1) % t_size;
    int from = (t_rank + t_size - 1) % t_size;
    MPI_Request r, s;
    MPI_Status st;

    MPI_Irecv(&w, 1, MPI_INT, from, 12, MPI_COMM_WORLD, &r);
    MPI_Request_get_status(r, &flag, &st);
    if (t_size > 1)
        CHECK(flag == 0);       /* nobody has sent */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Isend(&v, 1, MPI_INT, to, 12, MPI_COMM_WORLD, &s);
    do
        MPI_Request_get_status(r, &flag, &st);
    while (!flag);
    CHECK(r != MPI_REQUEST_NULL && st.MPI_SOURCE == from && w == 5);
    MPI_Wait(&r, &st);          /* still to be completed and freed */
    CHECK(r == MPI_REQUEST_NULL && st.MPI_SOURCE == from);
    MPI_Wait(&s, MPI_STATUS_IGNORE);
    MPI_Request_get_status(MPI_REQUEST_NULL, &flag, &st);
    CHECK(flag && st.MPI_SOURCE == MPI_ANY_SOURCE);
}

/* ---- generalized requests ---- */

struct greq_state {
    int queried, freed, cancelled, cancel_complete;
};

static int q_fn(void *extra, MPI_Status *st)
{
    struct greq_state *g = extra;

    g->queried++;
    MPI_Status_set_elements(st, MPI_DOUBLE, 3);
    MPI_Status_set_cancelled(st, g->cancelled > 0);
    st->MPI_SOURCE = 77;
    st->MPI_TAG = 78;
    return MPI_SUCCESS;
}

static int f_fn(void *extra)
{
    ((struct greq_state *)extra)->freed++;
    return MPI_SUCCESS;
}

static int c_fn(void *extra, int complete)
{
    struct greq_state *g = extra;

    g->cancelled++;
    g->cancel_complete = complete;
    return MPI_SUCCESS;
}

static int q_fails(void *extra, MPI_Status *st)
{
    (void)extra, (void)st;
    return MPI_ERR_OTHER;
}

static void grequests(void)
{
    struct greq_state g = { 0 }, h = { 0 };
    MPI_Request r, rs[2];
    MPI_Status st, sts[2];
    MPI_Count big = -1;
    int flag = -1, n = -1, cancelled = -1;

    MPI_Grequest_start(q_fn, f_fn, c_fn, &g, &r);
    MPI_Test(&r, &flag, &st);
    CHECK(flag == 0 && g.queried == 0 && r != MPI_REQUEST_NULL);
    MPI_Grequest_complete(r);
    MPI_Wait(&r, &st);
    MPI_Get_elements(&st, MPI_DOUBLE, &n);
    MPI_Get_elements_x(&st, MPI_DOUBLE, &big);
    MPI_Test_cancelled(&st, &cancelled);
    CHECK(r == MPI_REQUEST_NULL && g.queried == 1 && g.freed == 1);
    CHECK(n == 3 && big == 3 && !cancelled && st.MPI_SOURCE == 77 &&
          st.MPI_TAG == 78);
    /* cancelled before completing: the cancel function hears so, the
     * status says cancelled */
    memset(&g, 0, sizeof(g));
    MPI_Grequest_start(q_fn, f_fn, c_fn, &g, &r);
    MPI_Cancel(&r);
    CHECK(g.cancelled == 1 && g.cancel_complete == 0);
    MPI_Grequest_complete(r);
    MPI_Wait(&r, &st);
    MPI_Test_cancelled(&st, &cancelled);
    CHECK(cancelled && g.freed == 1);
    /* freed before completing: the free function comes at completion */
    memset(&g, 0, sizeof(g));
    MPI_Grequest_start(q_fn, f_fn, c_fn, &g, &r);
    MPI_Request_free(&r);
    CHECK(g.freed == 0 && r == MPI_REQUEST_NULL);
    rs[0] = MPI_REQUEST_NULL;
    MPI_Grequest_start(q_fn, f_fn, c_fn, &h, &rs[1]);
    MPI_Grequest_complete(rs[1]);
    MPI_Waitall(2, rs, sts);
    CHECK(h.freed == 1 && sts[1].MPI_TAG == 78);
    /* a query that fails is the wait's error */
    MPI_Grequest_start(q_fails, NULL, NULL, NULL, &r);
    MPI_Grequest_complete(r);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(MPI_Wait(&r, &st) == MPI_ERR_OTHER);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    /* set_elements on a derived type: elements, and whole items */
    MPI_Datatype three;
    MPI_Type_contiguous(3, MPI_INT, &three);
    MPI_Type_commit(&three);
    MPI_Status_set_elements(&st, three, 7);
    MPI_Get_elements(&st, three, &n);
    CHECK(n == 7);
    MPI_Get_count(&st, three, &n);
    CHECK(n == MPI_UNDEFINED);
    MPI_Status_set_elements_x(&st, three, 6);
    MPI_Get_count(&st, three, &n);
    CHECK(n == 2);
    MPI_Type_free(&three);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv, "mprobe");
    probe_then_receive(false);
    t_report("mprobe-message-not-stolen");
    probe_then_receive(true);
    t_report("improbe-imrecv");
    long_and_derived();
    t_report("long-and-derived");
    self_and_proc_null();
    t_report("self-proc-null-errors");
    get_status();
    t_report("request-get-status");
    grequests();
    t_report("generalized-requests");
    return t_finish();
}
