/* SPDX-License-Identifier: MIT */
/*
 * rma_bench.c: MPI_Put and MPI_Get against raw Portals put and get
 * between ranks 0 and 1, in one job: size by size, raw and MPI rounds
 * alternating (measure()).
 *   lat  rank 0 does one operation and waits for its completion (MPI:
 *        the operation then MPI_Win_flush under MPI_Win_lock_all; raw:
 *        PtlPut with a counted ACK, or PtlGet, then PtlCTWait): the
 *        median over ITERS of microseconds per operation.
 *   bw   rank 0 starts BURST operations of SIZE bytes back to back, then
 *        waits for them all, ITERS times: MB/s (10^6 bytes), best burst.
 * Raw Portals uses the job's NI on portal PTL_JOB_PT_NX (this program
 * does not use NX): on rank 1 one entry over the target buffer that
 * posts no events; on rank 0 an MD over its buffer counting ACKs and
 * REPLYs.  Rank 0 prints "rma,KIND,OP,SIZE,VALUE" lines.
 * Usage (2 ranks): rma-bench lat|bw ITERS SIZE...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpi.h"
#include "portals4.h"
#include "ptl_job.h"
#include "../median.h"

#define BURST 16

static struct {
    struct ptl_job job;
    ptl_handle_md_t md;
    ptl_handle_ct_t ct;
    ptl_handle_me_t me;
    uint64_t issued;
} raw;

static char *buf;
static size_t maxsize;

static void die(const char *what, int rc)
{
    fprintf(stderr, "rma-bench: %s failed (Portals error %d)\n", what, rc);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

static void raw_setup(int rank)
{
    ptl_pt_index_t pt;
    int rc;

    if ((rc = ptl_job_init(&raw.job)) != PTL_OK)
        die("ptl_job_init", rc);
    if ((rc = PtlPTAlloc(raw.job.ni, 0, PTL_EQ_NONE, PTL_JOB_PT_NX, &pt)) !=
        PTL_OK)
        die("PtlPTAlloc", rc);
    if (rank == 1) {
        ptl_me_t me = { .start = buf, .length = maxsize,
                        .ct_handle = PTL_CT_NONE, .uid = PTL_UID_ANY,
                        .options = PTL_ME_OP_PUT | PTL_ME_OP_GET |
                                   PTL_ME_EVENT_COMM_DISABLE |
                                   PTL_ME_EVENT_LINK_DISABLE |
                                   PTL_ME_EVENT_UNLINK_DISABLE };
        me.match_id.rank = PTL_RANK_ANY;
        if ((rc = PtlMEAppend(raw.job.ni, PTL_JOB_PT_NX, &me,
                              PTL_PRIORITY_LIST, NULL, &raw.me)) != PTL_OK)
            die("PtlMEAppend", rc);
    } else {
        ptl_md_t md = { .start = buf, .length = maxsize,
                        .options = PTL_MD_EVENT_CT_ACK |
                                   PTL_MD_EVENT_CT_REPLY,
                        .eq_handle = PTL_EQ_NONE };
        if ((rc = PtlCTAlloc(raw.job.ni, &raw.ct)) != PTL_OK)
            die("PtlCTAlloc", rc);
        md.ct_handle = raw.ct;
        if ((rc = PtlMDBind(raw.job.ni, &md, &raw.md)) != PTL_OK)
            die("PtlMDBind", rc);
    }
}

static void raw_op(int get, size_t size)
{
    ptl_process_t to = { .rank = 1 };
    int rc = get ? PtlGet(raw.md, 0, size, to, PTL_JOB_PT_NX, 0, 0, NULL)
                 : PtlPut(raw.md, 0, size, PTL_CT_ACK_REQ, to, PTL_JOB_PT_NX,
                          0, 0, NULL, 0);

    if (rc != PTL_OK)
        die(get ? "PtlGet" : "PtlPut", rc);
    raw.issued++;
}

static void raw_wait(void)
{
    ptl_ct_event_t c;
    int rc = PtlCTWait(raw.ct, raw.issued, &c);

    if (rc != PTL_OK || c.failure)
        die("PtlCTWait", rc);
}

static void mpi_op(int get, size_t size, MPI_Win w)
{
    if (get)
        MPI_Get(buf, (int)size, MPI_BYTE, 1, 0, (int)size, MPI_BYTE, w);
    else
        MPI_Put(buf, (int)size, MPI_BYTE, 1, 0, (int)size, MPI_BYTE, w);
}

/* One timed round: per ops of raw or MPI get/put of size bytes, then
 * the wait for them all; seconds. */
static double round_time(int mpi, int get, size_t size, int per, MPI_Win w)
{
    double t0 = MPI_Wtime();

    for (int k = 0; k < per; k++)
        if (mpi)
            mpi_op(get, size, w);
        else
            raw_op(get, size);
    if (mpi)
        MPI_Win_flush(1, w);
    else
        raw_wait();
    return MPI_Wtime() - t0;
}

/* One figure each for raw (v[0]) and MPI (v[1]): per-operation latency
 * (us, median) or bandwidth (MB/s, best burst) of get/put of size
 * bytes.  Raw and MPI alternate round by round, and which goes first
 * alternates too, so a change of the host's load between rounds falls
 * on both alike (timing ITERS raw rounds and then ITERS MPI ones made
 * an 8-byte MPI_Get look 1.13 times raw in one run). */
static void measure(int bw, int get, size_t size, int iters, MPI_Win w,
                    double v[2])
{
    double *t[2] = { malloc(sizeof(double) * (size_t)iters),
                     malloc(sizeof(double) * (size_t)iters) };
    int per = bw ? BURST : 1;

    for (int i = -1; i < iters; i++)            /* i = -1: warm-up */
        for (int j = 0; j < 2; j++) {
            int mpi = (i & 1) ? 1 - j : j;
            double dt = round_time(mpi, get, size, per, w);
            if (i >= 0)
                t[mpi][i] = dt;
        }
    for (int mpi = 0; mpi < 2; mpi++) {
        if (bw) {
            double best = t[mpi][0];
            for (int i = 1; i < iters; i++)
                best = t[mpi][i] < best ? t[mpi][i] : best;
            v[mpi] = (double)size * per / best / 1e6;
        } else {
            v[mpi] = bench_median(t[mpi], iters) * 1e6;
        }
        free(t[mpi]);
    }
}

int main(int argc, char **argv)
{
    int rank, n, bw, iters;
    MPI_Win w;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (argc < 4 || n != 2 || (strcmp(argv[1], "lat") &&
                               strcmp(argv[1], "bw"))) {
        if (rank == 0)
            fprintf(stderr, "usage (2 ranks): rma-bench lat|bw ITERS "
                    "SIZE...\n");
        MPI_Finalize();
        return 2;
    }
    bw = strcmp(argv[1], "bw") == 0;
    iters = atoi(argv[2]);
    for (int a = 3; a < argc; a++)
        if ((size_t)atol(argv[a]) > maxsize)
            maxsize = (size_t)atol(argv[a]);
    buf = calloc(1, maxsize + 1);
    raw_setup(rank);
    MPI_Win_create(buf, (MPI_Aint)maxsize, 1, MPI_INFO_NULL, MPI_COMM_WORLD,
                   &w);
    MPI_Win_lock_all(0, w);
    MPI_Barrier(MPI_COMM_WORLD);        /* every entry is there */
    for (int a = 3; a < argc && rank == 0; a++) {
        size_t size = (size_t)atol(argv[a]);
        for (int get = 0; get <= 1; get++) {
            double v[2];
            measure(bw, get, size, iters, w, v);
            for (int mpi = 0; mpi <= 1; mpi++)
                printf("rma,%s,%s-%s,%zu,%.3f\n", argv[1],
                       mpi ? "mpi" : "raw", get ? "get" : "put", size,
                       v[mpi]);
        }
    }
    fflush(stdout);
    MPI_Win_unlock_all(w);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&w);
    MPI_Finalize();
    return 0;
}
