/* SPDX-License-Identifier: MIT */
/*
 * ior.c: an IOR-style file benchmark for the compute nodes (tests/bench/io/
 * run; after LLNL's IOR, its "-w -r -t XFER -b BLOCK [-F]").  Each rank
 * writes BLOCK bytes in write(2) calls of XFER bytes, to a file of its
 * own (fpp: NAME.rank) or to its block of one shared file (shared: NAME,
 * rank r at r * BLOCK), then reads them back the same way and checks
 * every byte.  Barriers around each phase; a phase's time is from the
 * barrier before it to the barrier after it (open and close included, as
 * IOR counts them), so the aggregate is all ranks' bytes over the slowest
 * rank's time.  One line per run:
 *
 *   ior,MODE,XFER,BLOCK,RANKS,WRITE_MB_S,READ_MB_S
 *
 * Usage: ior fpp|shared XFER BLOCK NAME     (exit 1 if a byte is wrong)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>

static int rank, size;

static void fill(unsigned char *b, size_t n, long long at)
{
    for (size_t i = 0; i < n; i++)
        b[i] = (unsigned char)((at + (long long)i) % 251 + rank);
}

static int open_file(const char *name, int shared, int wr)
{
    char path[256];
    int fl = wr ? O_WRONLY | O_CREAT | (shared ? 0 : O_TRUNC) : O_RDONLY;

    if (shared)
        snprintf(path, sizeof(path), "%s", name);
    else
        snprintf(path, sizeof(path), "%s.%d", name, rank);
    return open(path, fl, 0644);
}

/* One phase: every rank's block in transfers; its time in seconds, or
   -1 if a call failed or (reading) a byte was wrong. */
static double phase(const char *name, int shared, int wr, size_t xfer,
                    size_t block, unsigned char *buf, unsigned char *want)
{
    long long base = shared ? (long long)rank * (long long)block : 0;
    double t0;
    int fd, bad = 0;

    if (shared && wr && rank == 0) {            /* one rank creates it */
        fd = open_file(name, 1, 1);
        bad |= fd < 0 || close(fd) != 0;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    fd = open_file(name, shared, wr);
    bad |= fd < 0 || lseek(fd, (off_t)base, SEEK_SET) != (off_t)base;
    for (size_t done = 0; !bad && done < block; done += xfer) {
        size_t n = block - done < xfer ? block - done : xfer;
        if (wr) {
            fill(buf, n, base + (long long)done);
            bad |= write(fd, buf, n) != (ssize_t)n;
        } else {
            bad |= read(fd, buf, n) != (ssize_t)n;
            fill(want, n, base + (long long)done);
            bad |= memcmp(buf, want, n) != 0;
        }
    }
    bad |= fd >= 0 && close(fd) != 0;
    MPI_Barrier(MPI_COMM_WORLD);
    return bad ? -1 : MPI_Wtime() - t0;
}

int main(int argc, char **argv)
{
    size_t xfer, block;
    unsigned char *buf, *want;
    double t[2], worst[2], best[2];
    int shared;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 5 || (strcmp(argv[1], "fpp") && strcmp(argv[1], "shared"))) {
        if (rank == 0)
            fprintf(stderr, "usage: ior fpp|shared XFER BLOCK NAME\n");
        MPI_Finalize();
        return 2;
    }
    shared = !strcmp(argv[1], "shared");
    xfer = strtoul(argv[2], NULL, 0);
    block = strtoul(argv[3], NULL, 0);
    buf = malloc(xfer);
    want = malloc(xfer);
    if (!buf || !want || !xfer || block % xfer) {
        fprintf(stderr, "ior: rank %d: no memory, or BLOCK not a multiple "
                "of XFER\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    t[0] = phase(argv[4], shared, 1, xfer, block, buf, want);
    t[1] = phase(argv[4], shared, 0, xfer, block, buf, want);
    MPI_Reduce(t, worst, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(t, best, 2, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        double mb = (double)block * size / 1e6;
        if (best[0] < 0 || best[1] < 0) {
            printf("ior: a rank's write or read failed or read wrong "
                   "bytes\n");
            MPI_Finalize();
            return 1;
        }
        printf("ior,%s,%zu,%zu,%d,%.1f,%.1f\n", argv[1], xfer, block, size,
               mb / worst[0], mb / worst[1]);
    }
    MPI_Finalize();
    return 0;
}
