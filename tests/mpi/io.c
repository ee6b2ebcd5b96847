/* SPDX-License-Identifier: MIT */
/* MPI-IO: a 2-D array distributed in blocks over a grid of ranks, each
 * writing its block (from a buffer with a halo) through a subarray view
 * with MPI_File_write_all; the file read back with plain read() and
 * compared byte for byte with the array computed here, then read again by
 * rows dealt round-robin through a vector view; individual pointers,
 * seek, byte offsets, nonblocking calls, reads past the end, sizes; the
 * errors (no such file, access modes, data representation) and the
 * handler files start with (errors return).
 *
 * io [FILE [keep]]: write FILE (default io-test-JOB.dat, in the working
 * directory: yod's on the nodes), and keep it if asked, so a suite can
 * compare what two runs wrote. */
#include <fcntl.h>
#include <unistd.h>
#include "mpitest.h"

#define NR 13
#define NC 11

static char path[256];

static int expect(int i, int j) { return i * 1000 + j + 7; }

/* This rank's block of n split over p: [*from, *from + *len). */
static void block(int n, int p, int c, int *from, int *len)
{
    int q = n / p, r = n % p;

    *len = q + (c < r);
    *from = c * q + (c < r ? c : r);
}

static void subarray_write(void)
{
    int dims[2] = { 0, 0 }, r0, nr, c0, nc;
    MPI_Datatype ftype, mtype;
    MPI_File fh;
    MPI_Status st;

    MPI_Dims_create(t_size, 2, dims);
    block(NR, dims[0], t_rank / dims[1], &r0, &nr);
    block(NC, dims[1], t_rank % dims[1], &c0, &nc);
    /* the block with a halo of one all round: the interior goes out */
    int *loc = malloc((nr + 2) * (nc + 2) * sizeof(int));
    for (int i = 0; i < nr + 2; i++)
        for (int j = 0; j < nc + 2; j++)
            loc[i * (nc + 2) + j] = (i == 0 || j == 0 || i > nr || j > nc)
                                    ? -1 : expect(r0 + i - 1, c0 + j - 1);
    int gs[2] = { NR, NC }, ls[2] = { nr, nc }, gst[2] = { r0, c0 };
    int ms[2] = { nr + 2, nc + 2 }, mst[2] = { 1, 1 };
    MPI_Type_create_subarray(2, gs, ls, gst, MPI_ORDER_C, MPI_INT, &ftype);
    MPI_Type_create_subarray(2, ms, ls, mst, MPI_ORDER_C, MPI_INT, &mtype);
    MPI_Type_commit(&ftype);
    MPI_Type_commit(&mtype);
    CHECK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE |
                        MPI_MODE_WRONLY, MPI_INFO_NULL, &fh) == 0);
    MPI_File_set_view(fh, 0, MPI_INT, ftype, "native", MPI_INFO_NULL);
    CHECK(MPI_File_write_all(fh, loc, 1, mtype, &st) == 0);
    int cnt;
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(cnt == nr * nc);
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
    /* read it back without MPI: every byte as computed here */
    if (t_rank == 0) {
        int want[NR * NC], got[NR * NC + 1], fd = open(path, O_RDONLY), n;
        for (int i = 0; i < NR; i++)
            for (int j = 0; j < NC; j++)
                want[i * NC + j] = expect(i, j);
        n = fd >= 0 ? (int)read(fd, got, sizeof(got)) : -1;
        CHECK(n == (int)sizeof(want));
        CHECK(n == (int)sizeof(want) && memcmp(got, want, sizeof(want)) == 0);
        if (fd >= 0)
            close(fd);
    }
    MPI_Type_free(&ftype);
    MPI_Type_free(&mtype);
    free(loc);
}

/* Rows dealt round-robin: a vector of whole rows, every size-th. */
static void rows_read(void)
{
    int mine = (NR - t_rank + t_size - 1) / t_size, ok = 1;
    int *rows = malloc((mine + 1) * NC * sizeof(int));
    MPI_Datatype row, every;
    MPI_File fh;
    MPI_Status st;
    MPI_Offset size;

    MPI_Type_contiguous(NC, MPI_INT, &row);
    MPI_Type_create_resized(row, 0, (MPI_Aint)t_size * NC * sizeof(int),
                            &every);
    MPI_Type_commit(&every);
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    MPI_File_get_size(fh, &size);
    CHECK(size == NR * NC * (MPI_Offset)sizeof(int));
    MPI_File_set_view(fh, (MPI_Offset)t_rank * NC * sizeof(int), MPI_INT,
                      every, "native", MPI_INFO_NULL);
    /* ask for more than there is: the count says what came */
    MPI_File_read_all(fh, rows, (mine + 1) * NC, MPI_INT, &st);
    int cnt;
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(cnt == mine * NC);
    for (int k = 0; k < mine; k++)
        for (int j = 0; j < NC; j++)
            ok &= rows[k * NC + j] == expect(t_rank + k * t_size, j);
    CHECK(ok);
    MPI_File_close(&fh);
    MPI_Type_free(&row);
    MPI_Type_free(&every);
    free(rows);
}

/* Individual pointers, seek, byte offsets, nonblocking calls, sizes:
 * each rank on a file of its own. */
static void pointers(void)
{
    char mine[300];
    int v[6] = { 1, 2, 3, 4, 5, 6 }, r[6] = { 0 }, cnt, flag;
    MPI_File fh;
    MPI_Offset pos, byte, size;
    MPI_Datatype every2;
    MPI_Request q;
    MPI_Status st;

    snprintf(mine, sizeof(mine), "%s.%d", path, t_rank);
    MPI_File_open(MPI_COMM_SELF, mine, MPI_MODE_CREATE | MPI_MODE_RDWR,
                  MPI_INFO_NULL, &fh);
    /* ints at 0, 2, 4, ... after an 8-byte header */
    MPI_Type_vector(1, 1, 2, MPI_INT, &every2);
    MPI_Datatype tile;
    MPI_Type_create_resized(every2, 0, 2 * sizeof(int), &tile);
    MPI_Type_commit(&tile);
    MPI_File_set_view(fh, 8, MPI_INT, tile, "native", MPI_INFO_NULL);
    MPI_File_write(fh, v, 3, MPI_INT, &st);
    MPI_File_get_position(fh, &pos);
    CHECK(pos == 3);
    MPI_File_get_byte_offset(fh, pos, &byte);
    CHECK(byte == 8 + 3 * 2 * (MPI_Offset)sizeof(int));
    MPI_File_iwrite(fh, v + 3, 3, MPI_INT, &q);
    MPI_Test(&q, &flag, &st);
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(flag && cnt == 3);
    MPI_File_seek(fh, -2, MPI_SEEK_CUR);
    MPI_File_read(fh, r, 2, MPI_INT, &st);
    CHECK(r[0] == 5 && r[1] == 6);
    MPI_File_seek(fh, 0, MPI_SEEK_END);         /* after the 6th int */
    MPI_File_get_position(fh, &pos);
    CHECK(pos == 6);
    MPI_File_iread_at(fh, 1, r, 4, MPI_INT, &q);
    MPI_Wait(&q, &st);
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(cnt == 4 && r[0] == 2 && r[3] == 5);
    MPI_File_get_size(fh, &size);       /* the last int's hole is not in */
    CHECK(size == 8 + 11 * (MPI_Offset)sizeof(int));
    MPI_File_set_size(fh, 16);
    MPI_File_get_size(fh, &size);
    CHECK(size == 16);
    MPI_File_preallocate(fh, 100);
    MPI_File_preallocate(fh, 50);       /* never shrinks */
    MPI_File_get_size(fh, &size);
    CHECK(size == 100);
    MPI_File_sync(fh);
    MPI_File_close(&fh);
    CHECK(MPI_File_delete(mine, MPI_INFO_NULL) == MPI_SUCCESS);
    MPI_Type_free(&every2);
    MPI_Type_free(&tile);
}

static int handled;

static void on_file_error(MPI_File *f, int *code, ...)
{
    (void)f;
    handled = *code;
}

/* The classes MPI-3.1 13.7 names, each from the case it describes. */
static void more_errors(const char *none)
{
    static const int bad_modes[] = {
        0,                                              /* no access mode */
        MPI_MODE_RDONLY | MPI_MODE_RDWR,                /* two of them */
        MPI_MODE_RDWR | MPI_MODE_SEQUENTIAL,
        MPI_MODE_RDONLY | MPI_MODE_EXCL,
    };
    char longname[5000], missing_dir[320];
    MPI_File fh = MPI_FILE_NULL;
    MPI_Offset size;
    int cls, v = 1;

    for (size_t i = 0; i < sizeof(bad_modes) / sizeof(bad_modes[0]); i++) {
        MPI_Error_class(MPI_File_open(MPI_COMM_WORLD, path, bad_modes[i],
                                      MPI_INFO_NULL, &fh), &cls);
        CHECK(cls == MPI_ERR_AMODE && fh == MPI_FILE_NULL);
    }
    /* the processes of a collective open must give the same amode */
    if (t_size > 1) {
        MPI_Error_class(MPI_File_open(MPI_COMM_WORLD, path,
                                      t_rank ? MPI_MODE_RDWR
                                             : MPI_MODE_RDONLY,
                                      MPI_INFO_NULL, &fh), &cls);
        CHECK(cls == MPI_ERR_NOT_SAME && fh == MPI_FILE_NULL);
    }
    /* no such directory, a name too long, a directory */
    snprintf(missing_dir, sizeof(missing_dir), "%s.d/f", none);
    MPI_Error_class(MPI_File_open(MPI_COMM_WORLD, missing_dir,
                                  MPI_MODE_CREATE | MPI_MODE_WRONLY,
                                  MPI_INFO_NULL, &fh), &cls);
    CHECK(cls == MPI_ERR_NO_SUCH_FILE);
    memset(longname, 'n', sizeof(longname) - 1);
    longname[sizeof(longname) - 1] = 0;
    MPI_Error_class(MPI_File_open(MPI_COMM_WORLD, longname, MPI_MODE_RDONLY,
                                  MPI_INFO_NULL, &fh), &cls);
    CHECK(cls == MPI_ERR_BAD_FILE);
    MPI_Error_class(MPI_File_open(MPI_COMM_WORLD, ".", MPI_MODE_RDWR,
                                  MPI_INFO_NULL, &fh), &cls);
    CHECK(cls == MPI_ERR_BAD_FILE);
    /* reading a file opened write-only; seeking one opened sequential */
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    MPI_Error_class(MPI_File_read_at(fh, 0, &v, 1, MPI_INT,
                                     MPI_STATUS_IGNORE), &cls);
    CHECK(cls == MPI_ERR_ACCESS);
    MPI_File_close(&fh);
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY | MPI_MODE_SEQUENTIAL,
                  MPI_INFO_NULL, &fh);
    MPI_Error_class(MPI_File_seek(fh, 0, MPI_SEEK_SET), &cls);
    CHECK(cls == MPI_ERR_UNSUPPORTED_OPERATION);
    MPI_Error_class(MPI_File_read_at(fh, 0, &v, 1, MPI_INT,
                                     MPI_STATUS_IGNORE), &cls);
    CHECK(cls == MPI_ERR_UNSUPPORTED_OPERATION);
    MPI_File_close(&fh);
    /* no file at all */
    MPI_Error_class(MPI_File_get_size(MPI_FILE_NULL, &size), &cls);
    CHECK(cls == MPI_ERR_FILE);
}

static void errors(void)
{
    MPI_File fh = MPI_FILE_NULL;
    MPI_Errhandler eh;
    char none[300];
    int cls, v = 1;

    snprintf(none, sizeof(none), "%s.absent", path);
    /* files return errors unless told otherwise */
    MPI_Error_class(MPI_File_open(MPI_COMM_WORLD, none, MPI_MODE_RDONLY,
                                  MPI_INFO_NULL, &fh), &cls);
    CHECK(cls == MPI_ERR_NO_SUCH_FILE && fh == MPI_FILE_NULL);
    CHECK(MPI_File_open(MPI_COMM_WORLD, none, MPI_MODE_RDONLY |
                        MPI_MODE_CREATE, MPI_INFO_NULL, &fh) ==
          MPI_ERR_AMODE);
    MPI_Error_class(MPI_File_delete(none, MPI_INFO_NULL), &cls);
    CHECK(cls == MPI_ERR_NO_SUCH_FILE);
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    CHECK(MPI_File_write_at(fh, 0, &v, 1, MPI_INT, MPI_STATUS_IGNORE) ==
          MPI_ERR_READ_ONLY);
    CHECK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "external32",
                            MPI_INFO_NULL) == MPI_ERR_UNSUPPORTED_DATAREP);
    MPI_File_create_errhandler(on_file_error, &eh);
    MPI_File_set_errhandler(fh, eh);
    MPI_File_read_at(fh, -1, &v, 1, MPI_INT, MPI_STATUS_IGNORE);
    CHECK(handled == MPI_ERR_ARG);
    MPI_File_close(&fh);
    MPI_Errhandler_free(&eh);
    /* O_EXCL is rank 0's alone: the file exists, so everyone fails */
    MPI_Error_class(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE |
                                  MPI_MODE_EXCL | MPI_MODE_WRONLY,
                                  MPI_INFO_NULL, &fh), &cls);
    CHECK(cls == MPI_ERR_FILE_EXISTS);
    more_errors(none);
}

int main(int argc, char **argv)
{
    int job = 0;

    t_init(&argc, &argv, "io");
    if (t_rank == 0)
        job = (int)getpid();
    MPI_Bcast(&job, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (argc > 1)
        snprintf(path, sizeof(path), "%s", argv[1]);
    else
        snprintf(path, sizeof(path), "io-test-%d.dat", job);
    subarray_write();
    t_report("subarray-view-write-all-read-back");
    rows_read();
    t_report("vector-view-read-all");
    pointers();
    t_report("pointers-seek-nonblocking-sizes");
    errors();
    t_report("errors-and-handlers");
    MPI_Barrier(MPI_COMM_WORLD);
    if (t_rank == 0 && !(argc > 2 && strcmp(argv[2], "keep") == 0))
        MPI_File_delete(path, MPI_INFO_NULL);
    return t_finish();
}
