/* SPDX-License-Identifier: MIT */
/* MPI-1.1 corners a careful user tries: a NULL buffer with a nonzero
 * count (MPI_ERR_BUFFER, where MPI_BOTTOM with absolute addresses still
 * works); cancelling sends nobody has matched (synchronous, long, to
 * self), whose MPI_Wait must return; a loop of MPI_Iprobe with no other
 * call between polls must see the message; running out of Portals match
 * entries is an error the program gets back (MPI_ERRORS_RETURN), after
 * which it carries on. */
#include <unistd.h>
#include "mpitest.h"

#define LONG_N 30000                /* ints: past the 64 KiB eager limit */

static int peer_of(void)
{
    return t_size == 1 ? 0 : (t_rank + 1) % t_size;
}

static int from_of(void)
{
    return t_size == 1 ? 0 : (t_rank + t_size - 1) % t_size;
}

static void null_buffer(void)
{
    int v[3] = { 1, 2, 3 }, got[3] = { 0 }, cls;
    MPI_Request q;
    MPI_Status st;

    CHECK(MPI_Send(NULL, 4, MPI_INT, t_rank, 1, MPI_COMM_WORLD) ==
          MPI_ERR_BUFFER);
    CHECK(MPI_Sendrecv_replace(NULL, 3, MPI_INT, t_rank, 2, t_rank, 2,
                               MPI_COMM_WORLD, &st) == MPI_ERR_BUFFER);
    CHECK(MPI_Recv(NULL, 1, MPI_DOUBLE, peer_of(), 3, MPI_COMM_WORLD, &st) ==
          MPI_ERR_BUFFER);
    CHECK(MPI_Isend(NULL, 2, MPI_INT, peer_of(), 4, MPI_COMM_WORLD, &q) ==
          MPI_ERR_BUFFER);
    MPI_Error_class(MPI_ERR_BUFFER, &cls);
    CHECK(cls == MPI_ERR_BUFFER);
    /* zero items from NULL are fine */
    CHECK(MPI_Sendrecv(NULL, 0, MPI_INT, t_rank, 5, NULL, 0, MPI_INT, t_rank,
                       5, MPI_COMM_WORLD, &st) == MPI_SUCCESS);
    /* MPI_BOTTOM (NULL) with a type of absolute addresses is legal */
    MPI_Aint a[2];
    int lens[2] = { 3, 0 };
    MPI_Datatype abs, types[2] = { MPI_INT, MPI_INT };
    MPI_Get_address(v, &a[0]);
    a[1] = a[0];
    MPI_Type_create_struct(1, lens, a, types, &abs);
    MPI_Type_commit(&abs);
    CHECK(MPI_Sendrecv(MPI_BOTTOM, 1, abs, t_rank, 6, got, 3, MPI_INT,
                       t_rank, 6, MPI_COMM_WORLD, &st) == MPI_SUCCESS);
    CHECK(got[0] == 1 && got[1] == 2 && got[2] == 3);
    MPI_Type_free(&abs);
}

/* Cancel a send nobody has received, wait for it (local: the receiver is
 * in the barrier), then send another with the same envelope: the receiver
 * must get the second one only. */
static void cancel_unmatched(int count, int mode_sync, int tag)
{
    int to = peer_of(), from = from_of(), flag = 0;
    int *a = malloc(count * sizeof(int)), *b = malloc(count * sizeof(int));
    int *r = malloc(count * sizeof(int));
    MPI_Request q;
    MPI_Status st;

    for (int i = 0; i < count; i++) {
        a[i] = -1 - i;
        b[i] = t_rank * 100000 + i;
    }
    if (mode_sync)
        MPI_Issend(a, count, MPI_INT, to, tag, MPI_COMM_WORLD, &q);
    else
        MPI_Isend(a, count, MPI_INT, to, tag, MPI_COMM_WORLD, &q);
    MPI_Cancel(&q);
    MPI_Wait(&q, &st);
    MPI_Test_cancelled(&st, &flag);
    CHECK(flag);
    CHECK(q == MPI_REQUEST_NULL);
    MPI_Barrier(MPI_COMM_WORLD);
    if (t_size == 1) {              /* withdrawn from the held queue */
        MPI_Iprobe(t_rank, tag, MPI_COMM_WORLD, &flag, &st);
        CHECK(!flag);
    }
    MPI_Isend(b, count, MPI_INT, to, tag, MPI_COMM_WORLD, &q);
    MPI_Recv(r, count, MPI_INT, from, tag, MPI_COMM_WORLD, &st);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    int ok = 1;
    for (int i = 0; i < count; i++)
        ok &= r[i] == from * 100000 + i;
    CHECK(ok);
    free(a);
    free(b);
    free(r);
}

/* A receive already posted: the cancel may lose the race to the
 * receiver's fetch.  Whichever happens, the sender says which, and the
 * receiver must have got exactly the message that was not cancelled. */
static void cancel_race(void)
{
    int to = peer_of(), from = from_of(), flag, sent, got_flag;
    int *a = malloc(LONG_N * sizeof(int)), *r = malloc(LONG_N * sizeof(int));
    MPI_Request rq, sq;
    MPI_Status st;

    MPI_Irecv(r, LONG_N, MPI_INT, from, 20, MPI_COMM_WORLD, &rq);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < LONG_N; i++)
        a[i] = t_rank + i;
    MPI_Issend(a, LONG_N, MPI_INT, to, 20, MPI_COMM_WORLD, &sq);
    MPI_Cancel(&sq);
    MPI_Wait(&sq, &st);
    MPI_Test_cancelled(&st, &flag);
    if (flag) {                     /* not received: send it again */
        for (int i = 0; i < LONG_N; i++)
            a[i] = 7 * t_rank + i;
        MPI_Send(a, LONG_N, MPI_INT, to, 20, MPI_COMM_WORLD);
    }
    MPI_Sendrecv(&flag, 1, MPI_INT, to, 21, &got_flag, 1, MPI_INT, from, 21,
                 MPI_COMM_WORLD, &st);
    MPI_Wait(&rq, &st);
    sent = got_flag ? 7 * from : from;
    int ok = 1;
    for (int i = 0; i < LONG_N; i++)
        ok &= r[i] == sent + i;
    CHECK(ok);
    free(a);
    free(r);
}

/* A small standard send completes at once (it is copied): cancelling it
 * is too late, and the message arrives. */
static void cancel_completed(void)
{
    int v = 40 + t_rank, r = -1, flag = 1;
    MPI_Request q;
    MPI_Status st;

    MPI_Isend(&v, 1, MPI_INT, peer_of(), 30, MPI_COMM_WORLD, &q);
    MPI_Cancel(&q);
    MPI_Wait(&q, &st);
    MPI_Test_cancelled(&st, &flag);
    CHECK(!flag);
    MPI_Recv(&r, 1, MPI_INT, from_of(), 30, MPI_COMM_WORLD, &st);
    CHECK(r == 40 + from_of());
}

/* Rank 0 polls with MPI_Iprobe only, for an eager and a long message
 * from the last rank; nothing else between polls. */
static void iprobe_loop(void)
{
    int src = t_size - 1, n_eager = 2500, flag = 0, cnt;
    int *b = malloc(LONG_N * sizeof(int));
    MPI_Request q[2];
    MPI_Status st;

    for (int i = 0; i < LONG_N; i++)
        b[i] = 3 * i + 1;
    if (t_rank == src) {
        if (t_size > 1)
            usleep(300000);         /* rank 0 is polling by now */
        MPI_Isend(b, n_eager, MPI_INT, 0, 50, MPI_COMM_WORLD, &q[0]);
        MPI_Isend(b, LONG_N, MPI_INT, 0, 51, MPI_COMM_WORLD, &q[1]);
    }
    if (t_rank == 0) {
        for (int tag = 50; tag <= 51; tag++) {
            int *r = calloc(LONG_N, sizeof(int)), want, ok = 1;
            flag = 0;
            while (!flag)
                MPI_Iprobe(src, tag, MPI_COMM_WORLD, &flag, &st);
            MPI_Get_count(&st, MPI_INT, &cnt);
            want = tag == 50 ? n_eager : LONG_N;
            CHECK(cnt == want && st.MPI_SOURCE == src && st.MPI_TAG == tag);
            MPI_Recv(r, cnt, MPI_INT, src, tag, MPI_COMM_WORLD, &st);
            for (int i = 0; i < want; i++)
                ok &= r[i] == 3 * i + 1;
            CHECK(ok);
            free(r);
        }
    }
    if (t_rank == src)
        MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
    free(b);
}

/* Post receives until Portals has no match entry left: the error comes
 * back (class MPI_ERR_OTHER, a message naming match entries), a long
 * send meets the same, and after cancelling them all the job goes on. */
#define MAX_POSTS 9000

static void out_of_entries(void)
{
    static MPI_Request q[MAX_POSTS];
    static int sink[MAX_POSTS];
    int n = 0, rc = MPI_SUCCESS, cls = -1, len, flag, all_cancelled = 1;
    char msg[MPI_MAX_ERROR_STRING] = "";
    int *big = calloc(LONG_N, sizeof(int));
    MPI_Request lq;
    MPI_Status st;

    while (n < MAX_POSTS && (rc = MPI_Irecv(&sink[n], 1, MPI_INT,
                                            MPI_ANY_SOURCE, 77,
                                            MPI_COMM_WORLD, &q[n])) == 0)
        n++;
    CHECK(rc != MPI_SUCCESS && n > 500);
    MPI_Error_class(rc, &cls);
    MPI_Error_string(rc, msg, &len);
    CHECK(cls == MPI_ERR_OTHER);
    CHECK(strstr(msg, "match entries") != NULL);
    if (t_size > 1) {       /* a long send needs an entry too */
        rc = MPI_Isend(big, LONG_N, MPI_INT, peer_of(), 78, MPI_COMM_WORLD,
                       &lq);
        MPI_Error_class(rc, &cls);
        CHECK(rc != MPI_SUCCESS && cls == MPI_ERR_OTHER);
    }
    for (int i = 0; i < n; i++) {
        MPI_Cancel(&q[i]);
        MPI_Wait(&q[i], &st);
        MPI_Test_cancelled(&st, &flag);
        all_cancelled &= flag;
    }
    CHECK(all_cancelled);
    /* everything works again, long messages included */
    int v = t_rank, r = -1;
    MPI_Sendrecv(&v, 1, MPI_INT, peer_of(), 79, &r, 1, MPI_INT, from_of(),
                 79, MPI_COMM_WORLD, &st);
    CHECK(r == from_of());
    MPI_Sendrecv_replace(big, LONG_N, MPI_INT, peer_of(), 80, from_of(), 80,
                         MPI_COMM_WORLD, &st);
    free(big);
}

static void cancel_ssend(void) { cancel_unmatched(10, 1, 10); }
static void cancel_long(void) { cancel_unmatched(LONG_N, 0, 11); }
static void cancel_long_ssend(void) { cancel_unmatched(LONG_N, 1, 12); }

/* name, test, fewest ranks it needs (a long standard send to self is
 * buffered, so done at once: nothing to cancel) */
static const struct {
    const char *name;
    void (*fn)(void);
    int min;
} parts[] = {
    { "null-buffer", null_buffer, 1 },
    { "cancel-ssend-unmatched", cancel_ssend, 1 },
    { "cancel-long-send-unmatched", cancel_long, 2 },
    { "cancel-long-ssend-unmatched", cancel_long_ssend, 1 },
    { "cancel-ssend-posted-receive", cancel_race, 2 },
    { "cancel-completed-send", cancel_completed, 1 },
    { "iprobe-loop", iprobe_loop, 1 },
    { "out-of-match-entries", out_of_entries, 1 },
};

/* corners [NAME...]: the parts named, or all. */
static int wanted(int argc, char **argv, const char *name)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], name) == 0)
            return 1;
    return argc < 2;
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv, "corners");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
        if (t_size < parts[i].min || !wanted(argc, argv, parts[i].name))
            continue;
        parts[i].fn();
        t_report(parts[i].name);
    }
    return t_finish();
}
