/* SPDX-License-Identifier: MIT */
/*
 * benchutil.c: what a benchmark suite's utility layer calls, written for
 * tests/tools/wrappers after the OSU micro-benchmarks 7.x's (which did
 * not link with mpicc --lwk): long options, page-aligned buffers, a
 * directory for validation logs, an optional plot through popen and
 * system() whose status is read with <stdlib.h>'s WEXITSTATUS, the
 * clocks.  Each call that a node cannot do fails cleanly at run time;
 * here it must compile and link.
 */
#include <ctype.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <unistd.h>

#include <mpi.h>

static const struct option options[] = {
    { "iterations", required_argument, NULL, 'i' },
    { "graph", no_argument, NULL, 'G' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
};

/* A plot of the results, if the machine can run gnuplot. */
static void plot(const char *data)
{
    char cmd[256];
    FILE *gp = popen("gnuplot", "w");
    int st;

    if (gp) {
        fprintf(gp, "plot '%s'\n", data);
        pclose(gp);
    }
    snprintf(cmd, sizeof(cmd), "gnuplot -e \"plot '%s'\"", data);
    st = system(cmd);
    if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) != 0)
        fprintf(stderr, "gnuplot exited with %d\n", WEXITSTATUS(st));
}

int main(int argc, char **argv)
{
    long iterations = 100;
    int opt, rank, graph = 0;
    void *buf;
    struct stat st;
    struct timeval tv;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    while ((opt = getopt_long(argc, argv, "i:Gh", options, NULL)) != -1)
        if (opt == 'i')
            iterations = strtol(optarg, NULL, 10);
        else if (opt == 'G')
            graph = 1;
    if (posix_memalign(&buf, (size_t)getpagesize(), 1 << 20))
        MPI_Abort(MPI_COMM_WORLD, 1);
    if (stat("validation_output", &st) != 0)
        mkdir("validation_output", 0775);
    gettimeofday(&tv, NULL);
    if (rank == 0 && !strcasecmp(argv[0], "BENCH"))
        printf("%ld iterations, %.2f us\n", iterations,
               round(MPI_Wtime() * 1e6));
    if (graph && isalpha('x'))
        plot("data.txt");
    free(buf);
    MPI_Finalize();
    return 0;
}
