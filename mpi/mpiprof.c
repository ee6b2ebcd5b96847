/*
 * mpiprof.c: the MPI profile's own wrappers (mpiprof.h): MPI_Init and
 * MPI_Init_thread look once at LWK_MPIPROF; MPI_Finalize gathers every
 * rank's counts at rank 0, which writes one file for the job in mpiP's
 * layout (its MPI time per task, the aggregate per call, each call per
 * task), PROG.NTASKS.JOB.mpiP in the launcher's directory.  Off (the
 * variable not set), a wrapped call costs one test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpiprof.h"

int mpiprof_on;
static double t_init;

static void start(void)
{
    const char *e = getenv("LWK_MPIPROF");

    t_init = PMPI_Wtime();
    mpiprof_on = e && *e && strcmp(e, "0") != 0;
}

int MPI_Init(int *argc, char ***argv)
{
    int rc = PMPI_Init(argc, argv);

    if (rc == MPI_SUCCESS)
        start();
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int rc = PMPI_Init_thread(argc, argv, required, provided);

    if (rc == MPI_SUCCESS)
        start();
    return rc;
}

/* ---- the report ---------------------------------------------------------

   Each rank's row: its time from MPI_Init to MPI_Finalize (ns), then
   each call's count, then each call's ns. */

#define ROW     (1 + 2 * (size_t)mpiprof_ncalls)
#define APP(r)  (all[(size_t)(r) * ROW])
#define CALLS(r, c) (all[(size_t)(r) * ROW + 1 + (size_t)(c)])
#define NS(r, c) (all[(size_t)(r) * ROW + 1 + (size_t)mpiprof_ncalls + (c)])
#define RULE    "---------------------------------------------------------" \
                "------------------\n"

static const uint64_t *all;
static int ntasks;

static uint64_t total_ns(int c)
{
    uint64_t t = 0;

    for (int r = 0; r < ntasks; r++)
        t += NS(r, c);
    return t;
}

static uint64_t total_calls(int c)
{
    uint64_t n = 0;

    for (int r = 0; r < ntasks; r++)
        n += CALLS(r, c);
    return n;
}

static uint64_t mpi_ns(int r)
{
    uint64_t t = 0;

    for (int c = 0; c < mpiprof_ncalls; c++)
        t += NS(r, c);
    return t;
}

static double pct(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0;
}

static int by_time(const void *a, const void *b)
{
    uint64_t x = total_ns(*(const int *)a), y = total_ns(*(const int *)b);

    return x < y ? 1 : x > y ? -1 : *(const int *)a - *(const int *)b;
}

static void section(FILE *f, const char *title)
{
    fprintf(f, RULE "@--- %s ", title);
    for (size_t n = strlen(title) + 5; n < 74; n++)
        fputc('-', f);
    fprintf(f, "\n" RULE);
}

static void write_report(FILE *f, const char *exe, const char *job)
{
    int *order = malloc(sizeof(int) * (size_t)mpiprof_ncalls), n = 0;
    uint64_t app = 0, mpi = 0;

    fprintf(f, "@ mpiP\n@ Command : %s\n@ Version : LWK MPI profile "
            "(mpiP's layout)\n@ MPI Tasks : %d\n@ Job : %s\n", exe, ntasks,
            job);
    section(f, "MPI Time (seconds)");
    fprintf(f, "Task    AppTime    MPITime     MPI%%\n");
    for (int r = 0; r < ntasks; r++) {
        fprintf(f, "%4d %10.4f %10.4f %8.2f\n", r, APP(r) / 1e9,
                mpi_ns(r) / 1e9, pct(mpi_ns(r), APP(r)));
        app += APP(r);
        mpi += mpi_ns(r);
    }
    fprintf(f, "   * %10.4f %10.4f %8.2f\n", app / 1e9, mpi / 1e9,
            pct(mpi, app));
    for (int c = 0; order && c < mpiprof_ncalls; c++)
        if (total_calls(c))
            order[n++] = c;
    if (order)
        qsort(order, (size_t)n, sizeof(int), by_time);
    section(f, "Aggregate Time (all calls, descending, milliseconds)");
    fprintf(f, "%-24s %10s %12s %7s %7s\n", "Call", "Calls", "Time", "App%",
            "MPI%");
    for (int i = 0; i < n; i++) {
        int c = order[i];
        fprintf(f, "%-24s %10lu %12.3f %7.2f %7.2f\n", mpiprof_calls[c].name,
                (unsigned long)total_calls(c), total_ns(c) / 1e6,
                pct(total_ns(c), app), pct(total_ns(c), mpi));
    }
    section(f, "Calls per task (all, milliseconds)");
    fprintf(f, "%-24s %4s %10s %12s %10s\n", "Name", "Task", "Calls", "Time",
            "Mean");
    for (int i = 0; i < n; i++) {
        int c = order[i];
        for (int r = 0; r <= ntasks; r++) {
            uint64_t k = r < ntasks ? CALLS(r, c) : total_calls(c);
            uint64_t t = r < ntasks ? NS(r, c) : total_ns(c);
            if (r < ntasks)
                fprintf(f, "%-24s %4d", mpiprof_calls[c].name, r);
            else
                fprintf(f, "%-24s %4s", mpiprof_calls[c].name, "*");
            fprintf(f, " %10lu %12.3f %10.4f\n", (unsigned long)k, t / 1e6,
                    k ? t / 1e6 / (double)k : 0);
        }
    }
    fprintf(f, RULE "@--- End of Report -----------------------------------"
            "---------------------\n" RULE);
    free(order);
}

/* Rank 0: the job's file, PROG.NTASKS.JOB.mpiP (mpiP's PROG.N.PID.I). */
static void write_file(void)
{
    const char *exe = getenv("LWK_EXE"), *job = getenv("PTL_JOB_ID");
    const char *base = exe && strrchr(exe, '/') ? strrchr(exe, '/') + 1
                       : exe ? exe : "mpi";
    char path[256];
    FILE *f;

    snprintf(path, sizeof(path), "%s.%d.%s.mpiP", base, ntasks,
             job ? job : "0");
    if (!(f = fopen(path, "w"))) {
        perror(path);
        return;
    }
    write_report(f, exe ? exe : base, job ? job : "0");
    if (fclose(f) != 0)
        perror(path);
}

static void report(void)
{
    uint64_t mine[ROW], *rows = NULL;
    int rank;

    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &ntasks);
    if (rank == 0)
        rows = malloc(ROW * sizeof(uint64_t) * (size_t)ntasks);
    if (rank == 0 && !rows) {
        fprintf(stderr, "mpiprof: out of memory: no MPI profile\n");
        mpiprof_on = 0;         /* the others' sends will go unread */
    }
    mine[0] = (uint64_t)((PMPI_Wtime() - t_init) * 1e9);
    for (int c = 0; c < mpiprof_ncalls; c++) {
        mine[1 + c] = mpiprof_calls[c].calls;
        mine[1 + mpiprof_ncalls + c] = mpiprof_calls[c].ns;
    }
    PMPI_Gather(mine, (int)ROW, MPI_UINT64_T, rows, (int)ROW, MPI_UINT64_T,
                0, MPI_COMM_WORLD);
    all = rows;
    if (rank == 0 && rows)
        write_file();
    free(rows);
}

int MPI_Finalize(void)
{
    if (mpiprof_on) {
        mpiprof_on = 0;         /* its own gather is not the program's */
        report();
    }
    return PMPI_Finalize();
}
