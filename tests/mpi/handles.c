/* SPDX-License-Identifier: MIT */
/* Every call that makes a handle gives back its kind's null handle when
 * it fails (as MPICH does; programs test for it): each call below is
 * made to fail with a bad argument, its output preset to a live handle
 * of the kind, under MPI_ERRORS_RETURN.  MPI_Comm_dup whose attribute
 * copy callback fails gives MPI_COMM_NULL, deletes what it had copied
 * and leaves the old communicator as it was. */
#include <limits.h>
#include "mpitest.h"

/* The call failed (nonzero code) and left the null handle. */
#define FAILS_NULL(call, out, null)                                        \
    do {                                                                   \
        int rc_ = (call);                                                  \
        CHECK(rc_ != MPI_SUCCESS);                                         \
        CHECK((out) == (null));                                            \
    } while (0)

static int copies, deletes;

/* Copies the first attribute, fails on the second. */
static int copy_fail(MPI_Comm c, int key, void *extra, void *in, void *out,
                     int *flag)
{
    (void)c, (void)key, (void)extra;
    if (copies++ > 0)
        return MPI_ERR_OTHER;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int count_delete(MPI_Comm c, int key, void *val, void *extra)
{
    (void)c, (void)key, (void)val, (void)extra;
    deletes++;
    return MPI_SUCCESS;
}

static void comms(void)
{
    MPI_Comm c = MPI_COMM_SELF, cart;
    MPI_Group g = MPI_GROUP_EMPTY, world;
    int k1, k2, v1 = 1, v2 = 2, *got, flag, dims[1] = { 0 }, per[1] = { 0 };
    int bad[1] = { 7 }, one[1] = { 1 }, rank[1] = { t_size };

    /* the copy callback fails on the second attribute */
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_create_keyval(copy_fail, count_delete, &k1, NULL);
    MPI_Comm_create_keyval(copy_fail, count_delete, &k2, NULL);
    MPI_Comm_set_attr(dup, k1, &v1);
    MPI_Comm_set_attr(dup, k2, &v2);
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    c = MPI_COMM_SELF;
    FAILS_NULL(MPI_Comm_dup(dup, &c), c, MPI_COMM_NULL);
    CHECK(copies == 2 && deletes == 1);     /* the one copied, deleted */
    MPI_Comm_get_attr(dup, k2, &got, &flag);
    CHECK(flag && got == &v2);              /* the old one as it was */
    c = MPI_COMM_SELF;
    FAILS_NULL(MPI_Comm_dup_with_info(dup, MPI_INFO_NULL, &c), c,
               MPI_COMM_NULL);
    MPI_Comm_delete_attr(dup, k1);
    MPI_Comm_delete_attr(dup, k2);
    MPI_Comm_free_keyval(&k1);
    MPI_Comm_free_keyval(&k2);
    MPI_Comm_free(&dup);

    c = MPI_COMM_SELF;
    FAILS_NULL(MPI_Comm_dup(MPI_COMM_NULL, &c), c, MPI_COMM_NULL);
    c = MPI_COMM_SELF;
    FAILS_NULL(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_NULL, &c), c,
               MPI_COMM_NULL);
    c = MPI_COMM_SELF;
    FAILS_NULL(MPI_Comm_split(MPI_COMM_WORLD, -5, 0, &c), c, MPI_COMM_NULL);
    c = MPI_COMM_SELF;
    FAILS_NULL(MPI_Comm_split_type(MPI_COMM_WORLD, 12345, 0, MPI_INFO_NULL,
                                   &c), c, MPI_COMM_NULL);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    c = MPI_COMM_SELF;
    FAILS_NULL(MPI_Comm_create_group(MPI_COMM_WORLD, world, -1, &c), c,
               MPI_COMM_NULL);
    c = MPI_COMM_SELF;
    FAILS_NULL(MPI_Intercomm_create(MPI_COMM_WORLD, t_size, MPI_COMM_WORLD, 0,
                                    0, &c), c, MPI_COMM_NULL);
    c = MPI_COMM_SELF;
    FAILS_NULL(MPI_Intercomm_merge(MPI_COMM_WORLD, 0, &c), c, MPI_COMM_NULL);
    c = MPI_COMM_SELF;
    FAILS_NULL(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, per, 0, &c), c,
               MPI_COMM_NULL);
    c = MPI_COMM_SELF;
    FAILS_NULL(MPI_Graph_create(MPI_COMM_WORLD, 1, one, bad, 0, &c), c,
               MPI_COMM_NULL);
    c = MPI_COMM_SELF;
    FAILS_NULL(MPI_Cart_sub(MPI_COMM_WORLD, one, &c), c, MPI_COMM_NULL);
    c = MPI_COMM_SELF;
    FAILS_NULL(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, rank,
                                              MPI_UNWEIGHTED, 0, NULL,
                                              MPI_UNWEIGHTED, MPI_INFO_NULL,
                                              0, &c), c, MPI_COMM_NULL);
    c = MPI_COMM_SELF;
    FAILS_NULL(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, rank, one, rank,
                                     MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &c),
               c, MPI_COMM_NULL);
    /* a Cartesian communicator made right still works */
    dims[0] = t_size;
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, per, 0, &cart);
    CHECK(cart != MPI_COMM_NULL);
    MPI_Comm_free(&cart);

    g = MPI_GROUP_EMPTY;
    FAILS_NULL(MPI_Comm_group(MPI_COMM_NULL, &g), g, MPI_GROUP_NULL);
    g = MPI_GROUP_EMPTY;
    FAILS_NULL(MPI_Comm_remote_group(MPI_COMM_WORLD, &g), g, MPI_GROUP_NULL);
    MPI_Group_free(&world);
    t_report("communicators");
}

static void groups(void)
{
    MPI_Group world, g;
    int r[1] = { t_size }, range[1][3] = { { 0, 0, 0 } };

    MPI_Comm_group(MPI_COMM_WORLD, &world);
    g = world;
    FAILS_NULL(MPI_Group_union(world, MPI_GROUP_NULL, &g), g,
               MPI_GROUP_NULL);
    g = world;
    FAILS_NULL(MPI_Group_intersection(MPI_GROUP_NULL, world, &g), g,
               MPI_GROUP_NULL);
    g = world;
    FAILS_NULL(MPI_Group_difference(MPI_GROUP_NULL, world, &g), g,
               MPI_GROUP_NULL);
    g = world;
    FAILS_NULL(MPI_Group_incl(world, 1, r, &g), g, MPI_GROUP_NULL);
    g = world;
    FAILS_NULL(MPI_Group_excl(world, 1, r, &g), g, MPI_GROUP_NULL);
    g = world;
    FAILS_NULL(MPI_Group_range_incl(world, 1, range, &g), g,
               MPI_GROUP_NULL);
    g = world;
    FAILS_NULL(MPI_Group_range_excl(world, 1, range, &g), g,
               MPI_GROUP_NULL);
    MPI_Group_free(&world);
    t_report("groups");
}

static void types(void)
{
    MPI_Datatype t;
    int lens[1] = { 1 }, displs[1] = { 0 }, sizes[1] = { 4 };
    int sub[1] = { 5 }, start[1] = { 0 };
    MPI_Aint adispl[1] = { 0 };
    MPI_Datatype types[1] = { MPI_DATATYPE_NULL };

    t = MPI_INT;
    FAILS_NULL(MPI_Type_contiguous(-1, MPI_INT, &t), t, MPI_DATATYPE_NULL);
    t = MPI_INT;
    FAILS_NULL(MPI_Type_vector(1, 1, 1, MPI_DATATYPE_NULL, &t), t,
               MPI_DATATYPE_NULL);
    t = MPI_INT;
    FAILS_NULL(MPI_Type_create_hvector(-1, 1, 4, MPI_INT, &t), t,
               MPI_DATATYPE_NULL);
    t = MPI_INT;
    FAILS_NULL(MPI_Type_indexed(-1, lens, displs, MPI_INT, &t), t,
               MPI_DATATYPE_NULL);
    t = MPI_INT;
    FAILS_NULL(MPI_Type_create_hindexed(1, lens, adispl, MPI_DATATYPE_NULL,
                                        &t), t, MPI_DATATYPE_NULL);
    t = MPI_INT;
    FAILS_NULL(MPI_Type_create_indexed_block(-1, 1, displs, MPI_INT, &t), t,
               MPI_DATATYPE_NULL);
    t = MPI_INT;
    FAILS_NULL(MPI_Type_create_hindexed_block(-1, 1, adispl, MPI_INT, &t), t,
               MPI_DATATYPE_NULL);
    t = MPI_INT;
    FAILS_NULL(MPI_Type_create_struct(1, lens, adispl, types, &t), t,
               MPI_DATATYPE_NULL);
    t = MPI_INT;
    FAILS_NULL(MPI_Type_create_resized(MPI_DATATYPE_NULL, 0, 4, &t), t,
               MPI_DATATYPE_NULL);
    t = MPI_INT;
    FAILS_NULL(MPI_Type_create_subarray(1, sizes, sub, start, MPI_ORDER_C,
                                        MPI_INT, &t), t, MPI_DATATYPE_NULL);
    t = MPI_INT;
    FAILS_NULL(MPI_Type_create_darray(2, 5, 1, sizes, lens, lens, lens,
                                      MPI_ORDER_C, MPI_INT, &t), t,
               MPI_DATATYPE_NULL);
    t = MPI_INT;
    FAILS_NULL(MPI_Type_dup(MPI_DATATYPE_NULL, &t), t, MPI_DATATYPE_NULL);
    t_report("datatypes");
}

static void requests(void)
{
    MPI_Request q, live;
    MPI_Comm line;
    int x = 0, n = 1, per = 0;

    MPI_Irecv(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &live);
    q = live;
    FAILS_NULL(MPI_Isend(&x, 1, MPI_INT, t_size, 0, MPI_COMM_WORLD, &q), q,
               MPI_REQUEST_NULL);
    q = live;
    FAILS_NULL(MPI_Issend(&x, 1, MPI_INT, 0, -1, MPI_COMM_WORLD, &q), q,
               MPI_REQUEST_NULL);
    q = live;
    FAILS_NULL(MPI_Irecv(&x, -1, MPI_INT, 0, 0, MPI_COMM_WORLD, &q), q,
               MPI_REQUEST_NULL);
    q = live;
    FAILS_NULL(MPI_Send_init(&x, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD,
                             &q), q, MPI_REQUEST_NULL);
    q = live;
    FAILS_NULL(MPI_Recv_init(&x, 1, MPI_INT, t_size, 0, MPI_COMM_WORLD, &q),
               q, MPI_REQUEST_NULL);
    q = live;
    FAILS_NULL(MPI_Isend_c(&x, (MPI_Count)INT_MAX + 1, MPI_INT, 0, 0,
                           MPI_COMM_WORLD, &q), q, MPI_REQUEST_NULL);
    q = live;
    FAILS_NULL(MPI_Ibarrier(MPI_COMM_NULL, &q), q, MPI_REQUEST_NULL);
    q = live;
    FAILS_NULL(MPI_Ibcast(&x, 1, MPI_INT, t_size, MPI_COMM_WORLD, &q), q,
               MPI_REQUEST_NULL);
    q = live;
    FAILS_NULL(MPI_Iallreduce(&x, &n, 1, MPI_INT, MPI_OP_NULL,
                              MPI_COMM_WORLD, &q), q, MPI_REQUEST_NULL);
    q = live;
    FAILS_NULL(MPI_Ialltoall(&x, -1, MPI_INT, &n, 1, MPI_INT, MPI_COMM_WORLD,
                             &q), q, MPI_REQUEST_NULL);
    q = live;
    FAILS_NULL(MPI_Ineighbor_alltoall(&x, 1, MPI_INT, &n, 1, MPI_INT,
                                      MPI_COMM_WORLD, &q), q,
               MPI_REQUEST_NULL);
    MPI_Cart_create(MPI_COMM_WORLD, 1, &n, &per, 0, &line);
    if (line != MPI_COMM_NULL) {
        MPI_Comm_set_errhandler(line, MPI_ERRORS_RETURN);
        q = live;
        FAILS_NULL(MPI_Ineighbor_allgather(&x, -1, MPI_INT, &n, 1, MPI_INT,
                                           line, &q), q, MPI_REQUEST_NULL);
        MPI_Comm_free(&line);
    }
    MPI_Wait(&live, MPI_STATUS_IGNORE);
    t_report("requests");
}

static void windows_files(void)
{
    MPI_Win w = MPI_WIN_NULL, good;
    MPI_Group g;
    MPI_Info info;
    MPI_Errhandler eh;
    MPI_Request q, live;
    MPI_File f;
    MPI_Datatype et, ft;
    int buf[4] = { 0 }, x = 0;
    void *base;

    MPI_Win_create(buf, sizeof(buf), 4, MPI_INFO_NULL, MPI_COMM_WORLD, &good);
    MPI_Win_set_errhandler(good, MPI_ERRORS_RETURN);
    w = good;
    FAILS_NULL(MPI_Win_create(buf, sizeof(buf), 0, MPI_INFO_NULL,
                              MPI_COMM_WORLD, &w), w, MPI_WIN_NULL);
    w = good;
    FAILS_NULL(MPI_Win_allocate(-1, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base,
                                &w), w, MPI_WIN_NULL);
    w = good;
    FAILS_NULL(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_NULL, &w), w,
               MPI_WIN_NULL);
    MPI_Comm_group(MPI_COMM_SELF, &g);
    FAILS_NULL(MPI_Win_get_group(MPI_WIN_NULL, &g), g, MPI_GROUP_NULL);
    MPI_Info_create(&info);
    FAILS_NULL(MPI_Win_get_info(MPI_WIN_NULL, &info), info, MPI_INFO_NULL);
    eh = MPI_ERRORS_RETURN;
    FAILS_NULL(MPI_Win_create_errhandler(NULL, &eh), eh,
               MPI_ERRHANDLER_NULL);
    eh = MPI_ERRORS_RETURN;
    FAILS_NULL(MPI_Win_get_errhandler(MPI_WIN_NULL, &eh), eh,
               MPI_ERRHANDLER_NULL);
    MPI_Irecv(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &live);
    MPI_Win_lock_all(0, good);
    q = live;
    FAILS_NULL(MPI_Rput(&x, 1, MPI_INT, t_size, 0, 1, MPI_INT, good, &q), q,
               MPI_REQUEST_NULL);
    q = live;
    FAILS_NULL(MPI_Rget(&x, 1, MPI_INT, 0, 0, 2, MPI_INT, good, &q), q,
               MPI_REQUEST_NULL);
    q = live;
    FAILS_NULL(MPI_Raccumulate(&x, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_OP_NULL,
                               good, &q), q, MPI_REQUEST_NULL);
    q = live;
    FAILS_NULL(MPI_Rget_accumulate(&x, 1, MPI_INT, &x, 1, MPI_INT, -7, 0, 1,
                                   MPI_INT, MPI_SUM, good, &q), q,
               MPI_REQUEST_NULL);
    MPI_Win_unlock_all(good);
    MPI_Win_free(&good);

    /* files return errors by default */
    f = (MPI_File)&x;              /* anything but MPI_FILE_NULL */
    FAILS_NULL(MPI_File_open(MPI_COMM_WORLD, "/nonexistent-dir/none",
                             MPI_MODE_RDONLY, MPI_INFO_NULL, &f), f,
               MPI_FILE_NULL);
    MPI_Comm_group(MPI_COMM_SELF, &g);
    FAILS_NULL(MPI_File_get_group(MPI_FILE_NULL, &g), g, MPI_GROUP_NULL);
    MPI_Info_create(&info);
    FAILS_NULL(MPI_File_get_info(MPI_FILE_NULL, &info), info, MPI_INFO_NULL);
    et = ft = MPI_INT;
    CHECK(MPI_File_get_view(MPI_FILE_NULL, &(MPI_Offset){ 0 }, &et, &ft,
                            (char[MPI_MAX_DATAREP_STRING]){ 0 }) != 0);
    CHECK(et == MPI_DATATYPE_NULL && ft == MPI_DATATYPE_NULL);
    eh = MPI_ERRORS_RETURN;
    FAILS_NULL(MPI_File_create_errhandler(NULL, &eh), eh,
               MPI_ERRHANDLER_NULL);
    q = live;
    FAILS_NULL(MPI_File_iread_at(MPI_FILE_NULL, 0, &x, 1, MPI_INT, &q), q,
               MPI_REQUEST_NULL);
    q = live;
    FAILS_NULL(MPI_File_iwrite(MPI_FILE_NULL, &x, 1, MPI_INT, &q), q,
               MPI_REQUEST_NULL);
    MPI_Wait(&live, MPI_STATUS_IGNORE);
    t_report("windows-and-files");
}

static void others(void)
{
    MPI_Info info, keep;
    MPI_Errhandler eh;
    MPI_Op op;

    MPI_Info_create(&keep);
    info = keep;
    FAILS_NULL(MPI_Info_dup(MPI_INFO_NULL, &info), info, MPI_INFO_NULL);
    info = keep;
    FAILS_NULL(MPI_Comm_get_info(MPI_COMM_NULL, &info), info,
               MPI_INFO_NULL);
    MPI_Info_free(&keep);
    eh = MPI_ERRORS_RETURN;
    FAILS_NULL(MPI_Comm_create_errhandler(NULL, &eh), eh,
               MPI_ERRHANDLER_NULL);
    eh = MPI_ERRORS_RETURN;
    FAILS_NULL(MPI_Comm_get_errhandler(MPI_COMM_NULL, &eh), eh,
               MPI_ERRHANDLER_NULL);
    op = MPI_SUM;
    FAILS_NULL(MPI_Op_create(NULL, 1, &op), op, MPI_OP_NULL);
    t_report("infos-errhandlers-ops");
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv, "handles");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    comms();
    groups();
    types();
    requests();
    windows_files();
    others();
    return t_finish();
}
