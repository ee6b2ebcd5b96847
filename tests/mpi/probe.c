/* SPDX-License-Identifier: MIT */
/* Probe/Iprobe: sizes and sources learnt before receiving, wildcards,
 * eager and long messages, a message probed stays receivable, and one
 * that comes while the probe's search is being answered is found. */
#include <unistd.h>
#include <portals4.h>
#include "mpitest.h"

/* The library's PtlMESearch, through this program (mpi.mk links it with
 * -Wl,--wrap=PtlMESearch): with hold_search set, the next search is
 * answered only after 300 ms, so messages can come meanwhile. */
static volatile int hold_search;

int __real_PtlMESearch(ptl_handle_ni_t ni, ptl_pt_index_t pt,
                       const ptl_me_t *me, ptl_search_op_t op, void *uptr);
int __wrap_PtlMESearch(ptl_handle_ni_t ni, ptl_pt_index_t pt,
                       const ptl_me_t *me, ptl_search_op_t op, void *uptr);

int __wrap_PtlMESearch(ptl_handle_ni_t ni, ptl_pt_index_t pt,
                       const ptl_me_t *me, ptl_search_op_t op, void *uptr)
{
    int rc = __real_PtlMESearch(ni, pt, me, op, uptr);

    if (hold_search && op == PTL_SEARCH_ONLY) {
        hold_search = 0;
        usleep(300000);
    }
    return rc;
}

/* What rank r sends to rank 0: odd ranks a long message (> 64 KiB, the
 * eager limit), so a probe learns a length that came without its data. */
static int count_of(int r)
{
    return (r % 2 ? 20000 : 0) + r * 1000 + 1;
}

int main(int argc, char **argv)
{
    int to = 0;
    MPI_Status st;

    t_init(&argc, &argv, "probe");
    /* every rank sends count_of(rank) ints to rank 0, tag = rank */
    int n = count_of(t_rank), *b = malloc(n * sizeof(int));
    for (int i = 0; i < n; i++)
        b[i] = t_rank + i;
    MPI_Request q;
    MPI_Isend(b, n, MPI_INT, to, t_rank, MPI_COMM_WORLD, &q);
    if (t_rank == 0) {
        for (int k = 0; k < t_size; k++) {
            int cnt, flag = 0;
            MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            MPI_Get_count(&st, MPI_INT, &cnt);
            CHECK(cnt == count_of(st.MPI_SOURCE) && st.MPI_TAG == st.MPI_SOURCE);
            MPI_Iprobe(st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &flag,
                       MPI_STATUS_IGNORE);
            CHECK(flag);                /* still there */
            int *r = malloc(cnt * sizeof(int)), src = st.MPI_SOURCE, ok = 1;
            MPI_Recv(r, cnt, MPI_INT, src, src, MPI_COMM_WORLD, &st);
            for (int i = 0; i < cnt; i++)
                ok &= r[i] == src + i;
            CHECK(ok && st.MPI_SOURCE == src);
            free(r);
        }
        int flag = 1;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        CHECK(!flag);
    }
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    t_report("probe-then-receive");
    /* iprobe by tag skips other tags; a different communicator is apart */
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    int v = 7, flag = 0;
    MPI_Send(&v, 1, MPI_INT, t_rank, 5, dup);
    MPI_Iprobe(t_rank, 5, MPI_COMM_WORLD, &flag, &st);
    CHECK(!flag);
    MPI_Iprobe(t_rank, 6, dup, &flag, &st);
    CHECK(!flag);
    MPI_Iprobe(MPI_ANY_SOURCE, 5, dup, &flag, &st);
    CHECK(flag && st.MPI_SOURCE == t_rank);
    MPI_Recv(&v, 1, MPI_INT, t_rank, 5, dup, &st);
    MPI_Comm_free(&dup);
    t_report("iprobe-tag-and-context");
    /* Messages that come while MPI_Probe waits for its search's answer
     * (the search, which found nothing, is held 300 ms, and the other
     * ranks send 100 ms in): the wait takes their arrivals in, and the
     * probe must search again rather than sleep for an arrival event it
     * has handled already (it slept for ever). */
    MPI_Barrier(MPI_COMM_WORLD);
    if (t_rank != 0) {
        usleep(100000);         /* rank 0's search is held by now */
        MPI_Send(&t_rank, 1, MPI_INT, 0, 40 + t_rank, MPI_COMM_WORLD);
    } else {
        hold_search = t_size > 1;
        for (int k = 1; k < t_size; k++) {
            int got = -1, cnt = 0;
            MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            MPI_Get_count(&st, MPI_INT, &cnt);
            CHECK(cnt == 1 && st.MPI_TAG == 40 + st.MPI_SOURCE);
            MPI_Recv(&got, 1, MPI_INT, st.MPI_SOURCE, st.MPI_TAG,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            CHECK(got == st.MPI_SOURCE);
        }
        CHECK(hold_search == 0);        /* the search was held */
    }
    t_report("probe-arrival-while-searching");
    free(b);
    return t_finish();
}
