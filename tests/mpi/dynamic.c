/* SPDX-License-Identifier: MIT */
/* What this system cannot do fails with the standard's error class
 * (mpi/README.md, Limits): spawning (MPI_ERR_SPAWN, every error code
 * too, no intercommunicator), ports (MPI_Open_port:
 * MPI_ERR_UNSUPPORTED_OPERATION; the rest MPI_ERR_PORT), names (lookup:
 * MPI_ERR_NAME; unpublish: MPI_ERR_SERVICE), MPI_Comm_join; a job has
 * no parent; MPI_Comm_disconnect frees a communicator (intra- and
 * inter-).  Shared-memory windows (11.2.3): MPI_COMM_SELF always; all
 * the ranks on Linux (one host), refused with MPI_ERR_RMA_SHARED on the
 * nodes; every rank's part where MPI_Win_shared_query says, contiguous
 * in rank order, stores of one seen by the others; RMA on it too. */
#include "mpitest.h"

static int cls_of(int rc)
{
    int c = -1;

    MPI_Error_class(rc, &c);
    return c;
}

static void dynamic(void)
{
    MPI_Comm ic = MPI_COMM_SELF, parent = MPI_COMM_SELF, d;
    int codes[3] = { 0, 0, 0 }, rc;
    char port[MPI_MAX_PORT_NAME] = "x", *argv[] = { "a.out", NULL };

    rc = MPI_Comm_spawn("a.out", argv, 3, MPI_INFO_NULL, 0, MPI_COMM_WORLD,
                        &ic, codes);
    CHECK(cls_of(rc) == MPI_ERR_SPAWN && ic == MPI_COMM_NULL);
    CHECK(codes[0] == MPI_ERR_SPAWN && codes[2] == MPI_ERR_SPAWN);
    char *cmds[2] = { "a.out", "b.out" };
    int mp[2] = { 1, 1 };
    MPI_Info infos[2] = { MPI_INFO_NULL, MPI_INFO_NULL };
    rc = MPI_Comm_spawn_multiple(2, cmds, MPI_ARGVS_NULL, mp, infos, 0,
                                 MPI_COMM_WORLD, &ic, MPI_ERRCODES_IGNORE);
    CHECK(cls_of(rc) == MPI_ERR_SPAWN);
    CHECK(MPI_Comm_get_parent(&parent) == MPI_SUCCESS &&
          parent == MPI_COMM_NULL);
    CHECK(cls_of(MPI_Open_port(MPI_INFO_NULL, port)) ==
          MPI_ERR_UNSUPPORTED_OPERATION);
    CHECK(cls_of(MPI_Comm_accept("p", MPI_INFO_NULL, 0, MPI_COMM_WORLD,
                                 &ic)) == MPI_ERR_PORT &&
          ic == MPI_COMM_NULL);
    CHECK(cls_of(MPI_Comm_connect("p", MPI_INFO_NULL, 0, MPI_COMM_WORLD,
                                  &ic)) == MPI_ERR_PORT);
    CHECK(cls_of(MPI_Close_port("p")) == MPI_ERR_PORT);
    CHECK(cls_of(MPI_Publish_name("svc", MPI_INFO_NULL, "p")) ==
          MPI_ERR_UNSUPPORTED_OPERATION);
    CHECK(cls_of(MPI_Lookup_name("svc", MPI_INFO_NULL, port)) ==
          MPI_ERR_NAME);
    CHECK(cls_of(MPI_Unpublish_name("svc", MPI_INFO_NULL, "p")) ==
          MPI_ERR_SERVICE);
    CHECK(cls_of(MPI_Comm_join(0, &ic)) == MPI_ERR_UNSUPPORTED_OPERATION &&
          ic == MPI_COMM_NULL);
    /* disconnect: a duplicate, and an intercommunicator of two halves */
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    CHECK(MPI_Comm_disconnect(&d) == MPI_SUCCESS && d == MPI_COMM_NULL);
    if (t_size > 1) {
        MPI_Comm half;
        int lo = t_rank < t_size / 2;
        MPI_Comm_split(MPI_COMM_WORLD, lo, 0, &half);
        MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, lo ? t_size / 2 : 0, 1,
                             &ic);
        CHECK(MPI_Comm_disconnect(&ic) == MPI_SUCCESS &&
              ic == MPI_COMM_NULL);
        MPI_Comm_free(&half);
    }
}

static void shared(void)
{
    MPI_Win w;
    MPI_Aint size;
    int unit, *mine, *part, rc;

    /* one process: always */
    rc = MPI_Win_allocate_shared(16, 4, MPI_INFO_NULL, MPI_COMM_SELF, &mine,
                                 &w);
    CHECK(rc == MPI_SUCCESS);
    mine[3] = 42;
    MPI_Win_shared_query(w, 0, &size, &unit, &part);
    CHECK(size == 16 && unit == 4 && part == mine && part[3] == 42);
    MPI_Win_free(&w);
    /* every rank: t_rank + 1 ints each */
    rc = MPI_Win_allocate_shared((t_rank + 1) * (MPI_Aint)sizeof(int),
                                 sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                                 &mine, &w);
#ifdef __lwk__
    if (t_size > 1) {           /* ranks of nodes share no memory */
        CHECK(cls_of(rc) == MPI_ERR_RMA_SHARED && w == MPI_WIN_NULL);
        return;
    }
#endif
    CHECK(rc == MPI_SUCCESS);
    for (int i = 0; i <= t_rank; i++)
        mine[i] = 100 * t_rank + i;
    MPI_Win_lock_all(0, w);
    MPI_Win_sync(w);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_sync(w);
    int *first = NULL;
    for (int r = 0; r < t_size; r++) {
        MPI_Win_shared_query(w, r, &size, &unit, &part);
        CHECK(size == (r + 1) * (MPI_Aint)sizeof(int) && unit == 4);
        if (r == 0)
            first = part;
        /* contiguous in rank order: r's part after r-1's */
        CHECK(part == first + r * (r + 1) / 2);
        for (int i = 0; i <= r; i++)
            CHECK(part[i] == 100 * r + i);
    }
    MPI_Win_shared_query(w, MPI_PROC_NULL, &size, &unit, &part);
    CHECK(part == first && size == sizeof(int));
    /* an RMA put lands where the loads see it (once every rank has
     * looked at the parts as they were) */
    MPI_Barrier(MPI_COMM_WORLD);
    int v = -t_rank, to = (t_rank + 1) % t_size;
    MPI_Put(&v, 1, MPI_INT, to, 0, 1, MPI_INT, w);
    MPI_Win_flush_all(w);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_sync(w);
    CHECK(mine[0] == -((t_rank + t_size - 1) % t_size));
    MPI_Win_unlock_all(w);
    int flavor = 0, *fl, flag;
    MPI_Win_get_attr(w, MPI_WIN_CREATE_FLAVOR, &fl, &flag);
    flavor = *fl;
    CHECK(flavor == MPI_WIN_FLAVOR_SHARED);
    MPI_Win_free(&w);
    /* not a shared window */
    MPI_Win_create(&v, sizeof v, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
    CHECK(cls_of(MPI_Win_shared_query(w, 0, &size, &unit, &part)) ==
          MPI_ERR_RMA_FLAVOR);
    MPI_Win_free(&w);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv, "dynamic");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    dynamic();
    t_report("spawn-ports-names-join-fail-with-their-class");
    shared();
    t_report("shared-windows");
    return t_finish();
}
