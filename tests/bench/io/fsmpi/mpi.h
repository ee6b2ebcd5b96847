/* SPDX-License-Identifier: MIT */
/*
 * fsmpi/mpi.h: the few MPI calls tests/bench/io/ior.c makes, for Linux
 * guests that share nothing but a file system (tests/bench/io/guest9p):
 * the same ior.c, built with -I tests/bench/io/fsmpi, runs in each guest
 * as one rank.  The ranks meet through files in a directory of the
 * shared file system:
 *   MPI_Barrier  rank r creates DIR/b<k>.<r> for its k-th barrier and
 *                waits (polling stat(2) every 200 us) until all SIZE exist
 *   MPI_Reduce   each rank writes its doubles to DIR/r<k>.<r> (write to a
 *                temporary name, then rename(2), so the root never reads
 *                half a file), a barrier, the root folds them (MAX, MIN)
 *   MPI_Wtime    CLOCK_MONOTONIC (a phase is timed on one guest's clock)
 * Rank, size and DIR come from the environment: FSMPI_RANK, FSMPI_SIZE,
 * FSMPI_DIR.  One communicator, MPI_COMM_WORLD; MPI_DOUBLE only.  A
 * failure to create or read a sync file ends the program (status 3) with
 * a line saying which file.
 */
#ifndef FSMPI_MPI_H
#define FSMPI_MPI_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

typedef int MPI_Comm;
typedef int MPI_Datatype;
typedef int MPI_Op;
#define MPI_COMM_WORLD 0
#define MPI_DOUBLE 1
#define MPI_MAX 1
#define MPI_MIN 2

static int fsmpi_rank, fsmpi_size, fsmpi_barriers, fsmpi_reduces;
static const char *fsmpi_dir;

static void fsmpi_die(const char *what, const char *path)
{
    fprintf(stderr, "fsmpi: rank %d: %s %s: %s\n", fsmpi_rank, what, path,
            strerror(errno));
    exit(3);
}

static int fsmpi_env(const char *name)
{
    const char *v = getenv(name);

    if (!v) {
        fprintf(stderr, "fsmpi: %s not set (FSMPI_RANK, FSMPI_SIZE and "
                "FSMPI_DIR say who this rank is and where ranks meet)\n",
                name);
        exit(3);
    }
    return atoi(v);
}

static inline int MPI_Init(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fsmpi_rank = fsmpi_env("FSMPI_RANK");
    fsmpi_size = fsmpi_env("FSMPI_SIZE");
    fsmpi_dir = getenv("FSMPI_DIR");
    if (!fsmpi_dir || fsmpi_size < 1 || fsmpi_rank < 0 ||
        fsmpi_rank >= fsmpi_size) {
        fprintf(stderr, "fsmpi: FSMPI_DIR unset or FSMPI_RANK not in "
                "0..FSMPI_SIZE-1\n");
        exit(3);
    }
    return 0;
}

static inline int MPI_Comm_rank(MPI_Comm c, int *r)
{
    (void)c;
    *r = fsmpi_rank;
    return 0;
}

static inline int MPI_Comm_size(MPI_Comm c, int *s)
{
    (void)c;
    *s = fsmpi_size;
    return 0;
}

static inline int MPI_Barrier(MPI_Comm c)
{
    char path[512];
    struct stat st;
    int fd, k = ++fsmpi_barriers;

    (void)c;
    snprintf(path, sizeof(path), "%s/b%d.%d", fsmpi_dir, k, fsmpi_rank);
    fd = open(path, O_WRONLY | O_CREAT, 0644);
    if (fd < 0 || close(fd) != 0)
        fsmpi_die("cannot create", path);
    for (int r = 0; r < fsmpi_size; r++) {
        snprintf(path, sizeof(path), "%s/b%d.%d", fsmpi_dir, k, r);
        while (stat(path, &st) != 0)
            usleep(200);
    }
    return 0;
}

static inline double MPI_Wtime(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static inline int MPI_Reduce(const void *in, void *out, int n, MPI_Datatype t,
                             MPI_Op op, int root, MPI_Comm c)
{
    char path[512], tmp[520];
    const double *v = in;
    double *res = out, x;
    int k = ++fsmpi_reduces;
    FILE *f;

    (void)t;
    snprintf(path, sizeof(path), "%s/r%d.%d", fsmpi_dir, k, fsmpi_rank);
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    f = fopen(tmp, "w");
    if (!f)
        fsmpi_die("cannot create", tmp);
    for (int i = 0; i < n; i++)
        fprintf(f, "%.17g\n", v[i]);
    if (fclose(f) != 0 || rename(tmp, path) != 0)
        fsmpi_die("cannot write", path);
    MPI_Barrier(c);
    if (fsmpi_rank != root)
        return 0;
    for (int r = 0; r < fsmpi_size; r++) {
        snprintf(path, sizeof(path), "%s/r%d.%d", fsmpi_dir, k, r);
        f = fopen(path, "r");
        if (!f)
            fsmpi_die("cannot open", path);
        for (int i = 0; i < n; i++) {
            if (fscanf(f, "%lf", &x) != 1)
                fsmpi_die("short", path);
            if (r == 0 || (op == MPI_MAX && x > res[i]) ||
                (op == MPI_MIN && x < res[i]))
                res[i] = x;
        }
        fclose(f);
    }
    return 0;
}

static inline int MPI_Abort(MPI_Comm c, int code)
{
    (void)c;
    exit(code);
}

static inline int MPI_Finalize(void)
{
    return 0;
}

#endif
