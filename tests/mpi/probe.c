/* SPDX-License-Identifier: MIT */
/* Probe/Iprobe: sizes and sources learnt before receiving, wildcards,
 * eager and long messages, and a message probed stays receivable. */
#include <unistd.h>
#include "mpitest.h"

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
    /* Messages already on the link, unread, when MPI_Probe starts (rank 0
     * makes no call while they come): the probe's own pass takes them in
     * after its search has looked, and must search again rather than
     * wait for an arrival whose event it consumed (on Linux this hung
     * every time; in the field about one run in 20 of a probe loop). */
    MPI_Barrier(MPI_COMM_WORLD);
    if (t_rank != 0) {
        usleep(100000);         /* rank 0 is asleep by now */
        MPI_Send(&t_rank, 1, MPI_INT, 0, 40 + t_rank, MPI_COMM_WORLD);
    } else {
        usleep(400000);
        for (int k = 1; k < t_size; k++) {
            int got = -1, cnt = 0;
            MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            MPI_Get_count(&st, MPI_INT, &cnt);
            CHECK(cnt == 1 && st.MPI_TAG == 40 + st.MPI_SOURCE);
            MPI_Recv(&got, 1, MPI_INT, st.MPI_SOURCE, st.MPI_TAG,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            CHECK(got == st.MPI_SOURCE);
        }
    }
    t_report("probe-message-unread-on-link");
    free(b);
    return t_finish();
}
