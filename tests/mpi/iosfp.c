/* SPDX-License-Identifier: MIT */
/* MPI-IO's shared file pointer (MPI-3.1 13.4.4) and the MPI-3.1 data
 * calls: every rank appends records of its own with
 * MPI_File_write_shared in no order (the file must hold each exactly
 * once, nothing overwritten), then MPI_File_write_ordered (records in
 * rank order after them), MPI_File_seek_shared and
 * _get_position_shared, reads back with read_ordered, read_shared and
 * the nonblocking ones; split collectives (begin/end) and
 * MPI_File_iread_all/_iwrite_all/_iread_at_all/_iwrite_at_all; a
 * registered data representation named once, and refused by views. */
#include <unistd.h>
#include "mpitest.h"

#define NREC 6

static char path[256];

static void shared_pointer(void)
{
    MPI_File fh;
    MPI_Offset pos = -1, size = 0;
    int rec[2], n = t_size, back[2 * 64 * NREC];

    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR,
                  MPI_INFO_NULL, &fh);
    MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
    for (int i = 0; i < NREC; i++) {
        MPI_Request rq;
        rec[0] = t_rank, rec[1] = i;
        if (i % 2)
            MPI_File_write_shared(fh, rec, 2, MPI_INT, MPI_STATUS_IGNORE);
        else {
            MPI_File_iwrite_shared(fh, rec, 2, MPI_INT, &rq);
            MPI_Wait(&rq, MPI_STATUS_IGNORE);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_get_position_shared(fh, &pos);
    CHECK(pos == 2 * NREC * n);
    /* ordered: rank r's t_rank+1 ints, in rank order, after them */
    int ord[64];
    for (int i = 0; i <= t_rank; i++)
        ord[i] = 500 + t_rank;
    MPI_File_write_ordered(fh, ord, t_rank + 1, MPI_INT, MPI_STATUS_IGNORE);
    MPI_File_get_position_shared(fh, &pos);
    CHECK(pos == 2 * NREC * n + n * (n + 1) / 2);
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_get_size(fh, &size);
    CHECK(size == (MPI_Offset)sizeof(int) * pos);
    /* every rank's records once each, whatever the order */
    int seen[64][NREC];
    memset(seen, 0, sizeof(seen));
    MPI_File_read_at(fh, 0, back, 2 * NREC * n, MPI_INT, MPI_STATUS_IGNORE);
    for (int k = 0; k < NREC * n; k++) {
        int r = back[2 * k], i = back[2 * k + 1];
        CHECK(r >= 0 && r < n && i >= 0 && i < NREC);
        if (r >= 0 && r < n && i >= 0 && i < NREC)
            seen[r][i]++;
    }
    for (int r = 0; r < n; r++)
        for (int i = 0; i < NREC; i++)
            CHECK(seen[r][i] == 1);
    MPI_File_read_at(fh, 2 * NREC * n, back, n * (n + 1) / 2, MPI_INT,
                     MPI_STATUS_IGNORE);
    for (int r = 0, k = 0; r < n; r++)
        for (int i = 0; i <= r; i++)
            CHECK(back[k++] == 500 + r);
    /* seek back to the ordered part; read it in order */
    MPI_File_seek_shared(fh, 2 * NREC * n, MPI_SEEK_SET);
    memset(ord, 0, sizeof(ord));
    MPI_Status st;
    int cnt = -1;
    MPI_File_read_ordered(fh, ord, t_rank + 1, MPI_INT, &st);
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(cnt == t_rank + 1 && ord[0] == 500 + t_rank &&
          ord[t_rank] == 500 + t_rank);
    /* seek_shared from the end, then two read_shared by rank 0 only: the
     * pointer moves by what is asked, read or not (as ROMIO's) */
    MPI_File_seek_shared(fh, -1, MPI_SEEK_END);
    if (t_rank == 0) {
        int last = -1;
        MPI_Request rq;
        MPI_File_iread_shared(fh, &last, 1, MPI_INT, &rq);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        CHECK(last == 500 + n - 1);
        MPI_File_read_shared(fh, &last, 1, MPI_INT, &st);
        MPI_Get_count(&st, MPI_INT, &cnt);
        CHECK(cnt == 0);        /* at the end */
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_get_position_shared(fh, &pos);
    CHECK(pos == 2 * NREC * n + n * (n + 1) / 2 + 1);
    /* a new view puts it back at 0 */
    MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
    MPI_File_get_position_shared(fh, &pos);
    CHECK(pos == 0);
    MPI_File_close(&fh);
}

static void split_and_nonblocking(void)
{
    MPI_File fh;
    MPI_Status st;
    MPI_Request rq;
    int v[4], w[4] = { -1, -1, -1, -1 }, cnt = -1;

    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    for (int i = 0; i < 4; i++)
        v[i] = 10 * t_rank + i;
    /* rank r's 4 ints at 4r */
    MPI_File_write_at_all_begin(fh, 16 * t_rank, v, 4, MPI_INT);
    CHECK(MPI_File_write_all_begin(fh, v, 4, MPI_INT) != MPI_SUCCESS);
    MPI_File_write_at_all_end(fh, v, &st);
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(cnt == 4);
    CHECK(MPI_File_read_all_end(fh, w, &st) != MPI_SUCCESS);   /* no begin */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_read_at_all_begin(fh, 16 * ((t_rank + 1) % t_size), w, 4,
                               MPI_INT);
    MPI_File_read_at_all_end(fh, w, &st);
    CHECK(w[0] == 10 * ((t_rank + 1) % t_size) && w[3] == w[0] + 3);
    MPI_Barrier(MPI_COMM_WORLD);        /* all read before any writes */
    /* the individual pointer: begin/end, then the nonblocking ones */
    MPI_File_seek(fh, 16 * t_rank, MPI_SEEK_SET);
    memset(w, -1, sizeof(w));
    MPI_File_read_all_begin(fh, w, 4, MPI_INT);
    MPI_File_read_all_end(fh, w, &st);
    CHECK(w[0] == 10 * t_rank && w[3] == 10 * t_rank + 3);
    for (int i = 0; i < 4; i++)
        v[i] = -v[i];
    MPI_File_seek(fh, 16 * t_rank, MPI_SEEK_SET);
    MPI_File_iwrite_all(fh, v, 4, MPI_INT, &rq);
    MPI_Wait(&rq, &st);
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(cnt == 4);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_seek(fh, 16 * t_rank, MPI_SEEK_SET);
    MPI_File_iread_all(fh, w, 4, MPI_INT, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    CHECK(w[0] == -10 * t_rank && w[3] == -10 * t_rank - 3);
    MPI_File_iwrite_at_all(fh, 16 * t_rank + 4, v, 1, MPI_INT, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MPI_File_iread_at_all(fh, 16 * t_rank + 4, w, 2, MPI_INT, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    CHECK(w[0] == -10 * t_rank && w[1] == -10 * t_rank - 2);
    /* the ordered split pair */
    MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
    MPI_File_write_ordered_begin(fh, v, 1, MPI_INT);
    MPI_File_write_ordered_end(fh, v, MPI_STATUS_IGNORE);
    MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
    MPI_File_read_ordered_begin(fh, w, 1, MPI_INT);
    MPI_File_read_ordered_end(fh, w, MPI_STATUS_IGNORE);
    CHECK(w[0] == -10 * t_rank);
    MPI_File_close(&fh);
}

static int ext_fn(MPI_Datatype t, MPI_Aint *ext, void *extra)
{
    (void)extra;
    return MPI_Type_get_extent(t, &(MPI_Aint){ 0 }, ext);
}

static void datareps(void)
{
    MPI_File fh;
    int cls = -1;

    CHECK(MPI_Register_datarep("mine", MPI_CONVERSION_FN_NULL,
                               MPI_CONVERSION_FN_NULL, ext_fn, NULL) ==
          MPI_SUCCESS);
    MPI_Error_class(MPI_Register_datarep("mine", MPI_CONVERSION_FN_NULL,
                                         MPI_CONVERSION_FN_NULL, ext_fn,
                                         NULL), &cls);
    CHECK(cls == MPI_ERR_DUP_DATAREP);
    MPI_Error_class(MPI_Register_datarep("native", MPI_CONVERSION_FN_NULL,
                                         MPI_CONVERSION_FN_NULL, ext_fn,
                                         NULL), &cls);
    CHECK(cls == MPI_ERR_DUP_DATAREP);
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    MPI_Error_class(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "mine",
                                      MPI_INFO_NULL), &cls);
    CHECK(cls == MPI_ERR_UNSUPPORTED_DATAREP);
    MPI_File_close(&fh);
}

int main(int argc, char **argv)
{
    int job = 0;

    t_init(&argc, &argv, "iosfp");
    if (t_rank == 0)
        job = (int)getpid();
    MPI_Bcast(&job, 1, MPI_INT, 0, MPI_COMM_WORLD);
    snprintf(path, sizeof(path), "iosfp-test-%d.dat", job);
    shared_pointer();
    t_report("shared-pointer-ordered-seek");
    split_and_nonblocking();
    t_report("split-collectives-i-all");
    datareps();
    t_report("register-datarep");
    MPI_Barrier(MPI_COMM_WORLD);
    if (t_rank == 0)
        MPI_File_delete(path, MPI_INFO_NULL);
    return t_finish();
}
