/* SPDX-License-Identifier: MIT */
/*
 * job_test.c: one rank of the job-interface tests, run by tools/ptlrun
 * (tests/portals/job/run).  Modes:
 *   ranks        every rank puts its rank to every other rank; each checks
 *                it received exactly 0..size-1 (except itself)
 *   barrier K    K barriers; before barrier k each rank delivers k to its
 *                right neighbour (waits for the ACK), after it checks the
 *                left neighbour's k (or k+1) is there: a barrier that let
 *                a rank through early would show k-1.  Ranks sleep
 *                unevenly.
 *   refcount     ptl_job_init twice gives the same job; fini twice
 *   abort R C    rank R calls ptl_job_abort(C, ...), the others wait in a
 *                barrier forever (the launcher must kill them)
 *   hang FILE    write our pid to FILE.rank, then sleep forever
 *   exit R C     rank R exits with status C at once, others sleep
 *   leave R      rank R exits 0 without ptl_job_fini (still in the job),
 *                the others wait for it in a barrier (the launcher must
 *                end the job)
 * Prints "rank R ok" on success; any failed check exits 1 with a reason.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ptl_job.h"

#define TEST_PT 16          /* outside every library's reserved range */

static struct ptl_job job;
static ptl_handle_eq_t eq;
static int puts_seen;       /* PUT events taken from the EQ so far */

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "rank %d: %s:%d: %s\n", \
    job.rank, __FILE__, __LINE__, #c); exit(1); } } while (0)

static void setup_pt(void *buf, ptl_size_t len)
{
    ptl_me_t me = { .start = buf, .length = len, .ct_handle = PTL_CT_NONE,
                    .uid = PTL_UID_ANY,
                    .options = PTL_ME_OP_PUT | PTL_ME_EVENT_LINK_DISABLE,
                    .match_id = { .rank = PTL_RANK_ANY },
                    .ignore_bits = ~(ptl_match_bits_t)0 };
    ptl_handle_me_t h;
    ptl_pt_index_t pt;

    CHECK(PtlEQAlloc(job.ni, 1024, &eq) == PTL_OK);
    CHECK(PtlPTAlloc(job.ni, 0, eq, TEST_PT, &pt) == PTL_OK);
    CHECK(PtlMEAppend(job.ni, TEST_PT, &me, PTL_PRIORITY_LIST, NULL, &h)
          == PTL_OK);
}

/* Put len bytes of buf to rank `to` at offset off; wait until delivered. */
static void put_wait(void *buf, ptl_size_t len, int to, ptl_size_t off)
{
    ptl_md_t md = { .start = buf, .length = len, .eq_handle = eq,
                    .ct_handle = PTL_CT_NONE,
                    .options = PTL_MD_EVENT_SEND_DISABLE };
    ptl_process_t p = { .rank = (ptl_rank_t)to };
    ptl_handle_md_t h;
    ptl_event_t ev;

    CHECK(PtlMDBind(job.ni, &md, &h) == PTL_OK);
    CHECK(PtlPut(h, 0, len, PTL_ACK_REQ, p, TEST_PT, 0, off, NULL, 0)
          == PTL_OK);
    do {
        CHECK(PtlEQWait(eq, &ev) == PTL_OK);
        puts_seen += ev.type == PTL_EVENT_PUT;
    } while (ev.type != PTL_EVENT_ACK);
    CHECK(ev.ni_fail_type == PTL_NI_OK);
    CHECK(PtlMDRelease(h) == PTL_OK);
}

static void wait_puts(int n)
{
    ptl_event_t ev;

    while (puts_seen < n) {
        CHECK(PtlEQWait(eq, &ev) == PTL_OK);
        CHECK(ev.ni_fail_type == PTL_NI_OK);
        puts_seen += ev.type == PTL_EVENT_PUT;
    }
}

static void test_ranks(void)
{
    int *got = calloc((size_t)job.size, sizeof(int));
    int mine = job.rank;

    CHECK(got != NULL);
    for (int i = 0; i < job.size; i++)
        got[i] = -1;
    setup_pt(got, sizeof(int) * (size_t)job.size);
    ptl_job_barrier();          /* everyone's TEST_PT exists now */
    for (int d = 1; d < job.size; d++)
        put_wait(&mine, sizeof(mine), (job.rank + d) % job.size,
                 sizeof(int) * (size_t)job.rank);
    wait_puts(job.size - 1);
    for (int i = 0; i < job.size; i++)
        CHECK(got[i] == (i == job.rank ? -1 : i));
    ptl_job_barrier();
}

static void test_barrier(int k)
{
    volatile int slot = -1;
    int val;
    struct timespec ts;

    setup_pt((void *)&slot, sizeof(slot));
    ptl_job_barrier();
    for (int i = 0; i < k; i++) {
        /* Uneven arrival: a different rank is slowest each time. */
        ts.tv_sec = 0;
        ts.tv_nsec = (long)((i + job.rank) % job.size == 0) * 20000000L;
        nanosleep(&ts, NULL);
        val = i;
        /* Delivered (ACKed) before we enter the barrier; its PUT event
         * is left in the EQ on purpose: we must not wait for it. */
        if (job.size > 1)
            put_wait(&val, sizeof(val), (job.rank + 1) % job.size, 0);
        ptl_job_barrier();
        /* The neighbour may already be past the barrier and have sent
         * i+1, never i+2 (that needs us in barrier i+1); i-1 would mean
         * we left barrier i before it entered. */
        CHECK(job.size == 1 || slot == i || slot == i + 1);
    }
}

static void test_refcount(void)
{
    struct ptl_job again;

    CHECK(ptl_job_init(&again) == PTL_OK);
    CHECK(again.ni == job.ni && again.rank == job.rank &&
          again.size == job.size && again.jid == job.jid);
    ptl_job_barrier();
    ptl_job_fini();
    ptl_job_barrier();          /* still usable: one reference left */
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "ranks";
    const char *e = getenv("PTL_JOB_ID");

    if (ptl_job_init(&job) != PTL_OK)
        return 2;
    CHECK(job.rank == atoi(getenv("PTL_JOB_RANK")));
    CHECK(job.size == atoi(getenv("PTL_JOB_SIZE")));
    CHECK(e == NULL || job.jid == (ptl_jid_t)atol(e));
    if (strcmp(mode, "ranks") == 0) {
        test_ranks();
    } else if (strcmp(mode, "barrier") == 0 && argc > 2) {
        test_barrier(atoi(argv[2]));
    } else if (strcmp(mode, "refcount") == 0) {
        test_refcount();
    } else if (strcmp(mode, "abort") == 0 && argc > 3) {
        if (job.rank == atoi(argv[2]))
            ptl_job_abort(atoi(argv[3]), "job_test: aborting on purpose");
        for (;;)
            ptl_job_barrier();
    } else if (strcmp(mode, "hang") == 0 && argc > 2) {
        char path[4096];
        FILE *f;
        snprintf(path, sizeof(path), "%s.%d", argv[2], job.rank);
        CHECK((f = fopen(path, "w")) != NULL);
        fprintf(f, "%d\n", (int)getpid());
        fclose(f);
        printf("rank %d hanging\n", job.rank);
        fflush(stdout);
        for (;;)
            pause();
    } else if (strcmp(mode, "leave") == 0 && argc > 2) {
        if (job.rank == atoi(argv[2]))
            exit(0);
        ptl_job_barrier();
        printf("rank %d passed a barrier it should never pass\n", job.rank);
        return 0;
    } else if (strcmp(mode, "exit") == 0 && argc > 3) {
        if (job.rank == atoi(argv[2]))
            exit(atoi(argv[3]));
        for (;;)
            pause();
    } else {
        fprintf(stderr, "job_test: unknown mode %s\n", mode);
        return 2;
    }
    ptl_job_fini();
    printf("rank %d ok\n", job.rank);
    return 0;
}
