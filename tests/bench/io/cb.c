/* SPDX-License-Identifier: MIT */
/* Collective buffering against each rank writing its own runs (benchmark,
 * not a test; tests/bench/io/cb, docs/io.md): an R x C array of doubles in
 * 2-D blocks over the ranks (MPI_Dims_create), each block a subarray
 * view, written with MPI_File_write_all, alternately with
 * romio_cb_write=enable and =disable, N times each (interleaved, so load
 * falls on both alike), then the same read back with MPI_File_read_all
 * (romio_cb_read).  Each timing is from a barrier before the call to a
 * barrier after it.  Rank 0 prints one line per run:
 *   cb MODE rep ROWS COLS write_s read_s write_MB_s read_MB_s
 * and the file is checked once (every element) after the last write.
 *
 * cb FILE [N [ROWS [COLS]]] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpi.h"

static double value(long i, long j) { return (double)(i * 100003 + j); }

int main(int argc, char **argv)
{
    int rank, size, dims[2] = { 0, 0 }, n, rows, cols, bad = 0;
    const char *modes[2] = { "enable", "disable" };

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 2) {
        if (rank == 0)
            fprintf(stderr, "usage: cb FILE [N [ROWS [COLS]]]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    n = argc > 2 ? atoi(argv[2]) : 5;
    rows = argc > 3 ? atoi(argv[3]) : 1024;
    cols = argc > 4 ? atoi(argv[4]) : 1024;
    MPI_Dims_create(size, 2, dims);
    int pr = rank / dims[1], pc = rank % dims[1];
    int nr = rows / dims[0] + (pr < rows % dims[0]);
    int nc = cols / dims[1] + (pc < cols % dims[1]);
    int r0 = pr * (rows / dims[0]) + (pr < rows % dims[0] ? pr : rows % dims[0]);
    int c0 = pc * (cols / dims[1]) + (pc < cols % dims[1] ? pc : cols % dims[1]);
    double *a = malloc((size_t)nr * nc * sizeof(double) + 1);
    double *b = malloc((size_t)nr * nc * sizeof(double) + 1);
    for (int i = 0; i < nr; i++)
        for (int j = 0; j < nc; j++)
            a[(long)i * nc + j] = value(r0 + i, c0 + j);
    int gs[2] = { rows, cols }, ls[2] = { nr, nc }, st[2] = { r0, c0 };
    MPI_Datatype ft;
    MPI_Type_create_subarray(2, gs, ls, st, MPI_ORDER_C, MPI_DOUBLE, &ft);
    MPI_Type_commit(&ft);
    double mb = (double)rows * cols * sizeof(double) / 1e6;
    for (int rep = 0; rep < n; rep++)
        for (int m = 0; m < 2; m++) {
            MPI_Info info;
            MPI_File fh;
            double t0, t1, t2;
            MPI_Info_create(&info);
            MPI_Info_set(info, "romio_cb_write", modes[m]);
            MPI_Info_set(info, "romio_cb_read", modes[m]);
            MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE |
                          MPI_MODE_RDWR, info, &fh);
            MPI_File_set_view(fh, 0, MPI_DOUBLE, ft, "native", MPI_INFO_NULL);
            MPI_Barrier(MPI_COMM_WORLD);
            t0 = MPI_Wtime();
            MPI_File_write_all(fh, a, nr * nc, MPI_DOUBLE, MPI_STATUS_IGNORE);
            MPI_Barrier(MPI_COMM_WORLD);
            t1 = MPI_Wtime();
            memset(b, 0, (size_t)nr * nc * sizeof(double));
            MPI_File_seek(fh, 0, MPI_SEEK_SET);
            MPI_File_read_all(fh, b, nr * nc, MPI_DOUBLE, MPI_STATUS_IGNORE);
            MPI_Barrier(MPI_COMM_WORLD);
            t2 = MPI_Wtime();
            bad += memcmp(a, b, (size_t)nr * nc * sizeof(double)) != 0;
            MPI_File_close(&fh);
            MPI_Info_free(&info);
            if (rank == 0)
                printf("cb %s %d %d %d %.4f %.4f %.1f %.1f\n", modes[m], rep,
                       rows, cols, t1 - t0, t2 - t1, mb / (t1 - t0),
                       mb / (t2 - t1));
        }
    int all = 0;
    MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("cb check %s\n", all ? "FAILED" : "ok");
    MPI_Type_free(&ft);
    free(a);
    free(b);
    MPI_Finalize();
    return all != 0;
}
