/* SPDX-License-Identifier: MIT */
/* Shared-memory windows (MPI_Win_allocate_shared, MPI_Win_shared_query)
 * among the ranks of a node (MPI_Comm_split_type, MPI_COMM_TYPE_SHARED):
 *   contiguous  segments of different sizes, each rank's right after the
 *               previous one's (the default layout); every rank stores
 *               into every segment with plain stores, round after round,
 *               MPI_Win_sync and a barrier between rounds, and every rank
 *               finds every element exact
 *   noncontig   the same with alloc_shared_noncontig
 *   rma         MPI_Put, MPI_Accumulate and MPI_Get on the shared window
 *               (a segment that lives in another rank's memory is still
 *               this rank's window memory), seen by plain loads
 *   send        MPI_Send from and MPI_Recv into shared segments (100 KiB)
 *   proc-null   MPI_Win_shared_query(MPI_PROC_NULL) names the lowest
 *               nonempty segment; empty segments; attributes
 *   refused     a window over ranks that do not share memory (the world,
 *               when it spans nodes) fails with MPI_ERR_RMA_SHARED on
 *               every rank; shared_query on another flavor of window
 *               fails with MPI_ERR_RMA_FLAVOR
 * Expected values are computed here.  Usage: shmwin */
#include <stdint.h>
#include "mpitest.h"

#define ROUNDS 5

static MPI_Comm node;
static int nr, me;              /* in node */

/* Elements of rank r's segment: sizes differ, rank 0's is empty when
   `empty` (a zero-size segment is legal). */
static int count_of(int r, int empty)
{
    return empty && r == 0 ? 0 : 1000 + 37 * r;
}

/* What round k leaves in element i (of `total`) once every rank has
   added (owner + 1) * (k + 1) where it owns i in that round. */
static int64_t expect(int64_t i, int rounds)
{
    int64_t v = 0;

    for (int k = 0; k < rounds; k++)
        v += ((i + k) % nr + 1) * (int64_t)(k + 1);
    return v;
}

/* Every rank adds to the elements it owns in each round, wherever they
   are; elem(i) is element i of the whole array. */
static void rounds(MPI_Win win, int64_t *(*elem)(int64_t), int64_t total)
{
    for (int64_t i = me; i < total; i += nr)
        *elem(i) = 0;
    MPI_Win_sync(win);
    MPI_Barrier(node);
    MPI_Win_sync(win);
    for (int k = 0; k < ROUNDS; k++) {
        for (int64_t i = 0; i < total; i++)
            if ((i + k) % nr == me)
                *elem(i) += (me + 1) * (int64_t)(k + 1);
        MPI_Win_sync(win);
        MPI_Barrier(node);
        MPI_Win_sync(win);
    }
    for (int64_t i = 0; i < total; i++)
        if (*elem(i) != expect(i, ROUNDS)) {
            CHECK(*elem(i) == expect(i, ROUNDS));
            break;
        }
}

static int64_t *seg_base[64];
static int64_t seg_first[65];   /* first element of each segment */

static int64_t *contig_elem(int64_t i)
{
    return seg_base[0] + i;
}

static int64_t *apart_elem(int64_t i)
{
    int r = 0;

    while (i >= seg_first[r + 1])
        r++;
    return seg_base[r] + (i - seg_first[r]);
}

/* Make a window (noncontig or not), look at every segment. */
static MPI_Win make(int noncontig, int empty, int64_t **mine)
{
    MPI_Info info;
    MPI_Win win;
    MPI_Aint size;
    int unit;

    MPI_Info_create(&info);
    if (noncontig)
        MPI_Info_set(info, "alloc_shared_noncontig", "true");
    MPI_Win_allocate_shared((MPI_Aint)count_of(me, empty) * 8, 8, info, node,
                            mine, &win);
    MPI_Info_free(&info);
    seg_first[0] = 0;
    for (int r = 0; r < nr; r++) {
        MPI_Win_shared_query(win, r, &size, &unit, &seg_base[r]);
        CHECK(size == (MPI_Aint)count_of(r, empty) * 8 && unit == 8);
        seg_first[r + 1] = seg_first[r] + count_of(r, empty);
        if (!noncontig && r > 0)
            CHECK(seg_base[r] == seg_base[r - 1] + count_of(r - 1, empty));
    }
    CHECK(seg_base[me] == *mine);
    return win;
}

static void layout(int noncontig)
{
    int64_t *mine;
    MPI_Win win = make(noncontig, 0, &mine);

    MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    rounds(win, noncontig ? apart_elem : contig_elem, seg_first[nr]);
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    t_report(noncontig ? "noncontig" : "contiguous");
}

/* One-sided operations through Portals on the shared window: each rank
   puts its id into element 0 of the next rank's segment, adds to element
   1 of rank 0's, gets element 2 of the previous rank's. */
static void rma(void)
{
    int64_t *mine, one = me + 100, add = me + 1, got = -1;
    MPI_Win win = make(0, 0, &mine);
    int next = (me + 1) % nr, prev = (me + nr - 1) % nr;

    mine[0] = -1;
    mine[1] = 0;
    mine[2] = 1000 + me;
    MPI_Win_fence(0, win);
    MPI_Put(&one, 1, MPI_INT64_T, next, 0, 1, MPI_INT64_T, win);
    MPI_Accumulate(&add, 1, MPI_INT64_T, 0, 1, 1, MPI_INT64_T, MPI_SUM, win);
    MPI_Get(&got, 1, MPI_INT64_T, prev, 2, 1, MPI_INT64_T, win);
    MPI_Win_fence(0, win);
    CHECK(mine[0] == prev + 100);
    CHECK(got == 1000 + prev);
    CHECK(seg_base[0][1] == (int64_t)nr * (nr + 1) / 2);
    MPI_Win_free(&win);
    t_report("rma");
}

/* 100 KiB from a shared segment to the next rank's segment. */
static void send(void)
{
    enum { N = 102400 / 8 };
    MPI_Info info;
    MPI_Win win;
    int64_t *mine;
    int next = (me + 1) % nr, prev = (me + nr - 1) % nr;

    MPI_Info_create(&info);
    MPI_Win_allocate_shared(2 * N * 8, 8, info, node, &mine, &win);
    MPI_Info_free(&info);
    for (int i = 0; i < N; i++) {
        mine[i] = (int64_t)me << 32 | i;
        mine[N + i] = -1;
    }
    MPI_Sendrecv(mine, N, MPI_INT64_T, next, 7, mine + N, N, MPI_INT64_T,
                 prev, 7, node, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++)
        if (mine[N + i] != ((int64_t)prev << 32 | i)) {
            CHECK(mine[N + i] == ((int64_t)prev << 32 | i));
            break;
        }
    MPI_Win_free(&win);
    t_report("send");
}

static void proc_null(void)
{
    int64_t *mine, *base;
    MPI_Aint size;
    int unit, flag, *flavor, *model;
    MPI_Win win = make(0, 1, &mine);

    /* rank 0's segment is empty: the lowest nonempty one is rank 1's,
       which starts where rank 0's would */
    MPI_Win_shared_query(win, MPI_PROC_NULL, &size, &unit, &base);
    if (nr > 1)
        CHECK(size == (MPI_Aint)count_of(1, 1) * 8 && base == seg_base[1] &&
              seg_base[1] == seg_base[0]);
    else
        CHECK(size == 0 && base == NULL);
    MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag);
    CHECK(flag && *flavor == MPI_WIN_FLAVOR_SHARED);
    MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag);
    CHECK(flag && *model == MPI_WIN_UNIFIED);
    MPI_Win_free(&win);
    t_report("proc-null");
}

static void refused(void)
{
    int64_t *mine = NULL, *base;
    MPI_Win win = MPI_WIN_NULL, plain;
    MPI_Aint size;
    int unit, rc, wsize;

    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    rc = MPI_Win_allocate_shared(64, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &mine,
                                 &win);
    if (wsize == nr) {          /* the world is one node */
        CHECK(rc == MPI_SUCCESS);
        if (rc == MPI_SUCCESS)
            MPI_Win_free(&win);
    } else {
        int cls = -1;
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_RMA_SHARED && win == MPI_WIN_NULL);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Win_allocate(64, 8, MPI_INFO_NULL, node, &base, &plain);
    MPI_Win_set_errhandler(plain, MPI_ERRORS_RETURN);
    rc = MPI_Win_shared_query(plain, 0, &size, &unit, &base);
    MPI_Error_class(rc, &unit);
    CHECK(unit == MPI_ERR_RMA_FLAVOR);
    MPI_Win_free(&plain);
    t_report("refused");
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv, "shmwin");
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
                        MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &nr);
    MPI_Comm_rank(node, &me);
    if (nr > 64)
        MPI_Abort(MPI_COMM_WORLD, 2);   /* this test's tables */
    layout(0);
    layout(1);
    rma();
    send();
    proc_null();
    refused();
    MPI_Comm_free(&node);
    return t_finish();
}
