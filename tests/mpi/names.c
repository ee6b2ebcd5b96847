/* SPDX-License-Identifier: MIT */
/* A program whose own global names are short words a library might use
 * inside (eq, drain, init, comm, group, check_buf, ...), as functions and
 * as variables: it must link with libmpi.a, whose shared names are
 * private (mpii_*, mpi/names.h), and MPI must work beside them.  The
 * program's own functions pass a token round the ring and its own
 * variables hold what it checks.  (Not send or recv: those are the C
 * library's, which the Portals transport calls on Linux.)
 *
 * tests/mpi/run also reads both libraries' symbol tables and links a
 * program defining every name in mpi/names.h. */
#include "mpitest.h"

/* variables */
int eq, check_buf, job, md, peers, posted, comm, group, request, state;
double tmp_typed[4];
long table[8];

/* functions */
int init(void)
{
    eq = 0;
    return t_rank;
}

int drain(int v)
{
    return v + 1;
}

int list_add(int a, int b)
{
    return a + b;
}

int coll_send(int v, int to, int from)
{
    int got = -1;

    MPI_Sendrecv(&v, 1, MPI_INT, to, 7, &got, 1, MPI_INT, from, 7,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return got;
}

int comm_check(void)
{
    return comm;
}

int main(int argc, char **argv)
{
    int to, from, want = 0;

    t_init(&argc, &argv, "names");
    to = (t_rank + 1) % t_size;
    from = (t_rank + t_size - 1) % t_size;
    comm = init();
    /* each lap every rank adds one and passes its value on: after
     * t_size laps the value has been round the ring once */
    check_buf = comm;
    for (int lap = 0; lap < t_size; lap++)
        check_buf = coll_send(drain(check_buf), to, from);
    CHECK(check_buf == t_rank + t_size);
    CHECK(comm_check() == t_rank);
    for (int i = 0; i < t_size; i++)
        want = list_add(want, i);
    MPI_Allreduce(&comm, &group, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(group == want && eq == 0);
    t_report("own-globals-beside-mpi");
    return t_finish();
}
