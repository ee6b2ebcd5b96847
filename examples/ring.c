/* SPDX-License-Identifier: MIT */
/*
 * ring: the smallest parallel program, with Portals 4 and the job
 * interface only (portals/include/ptl_job.h), for `make demo`.
 *
 *   yod -sz 4 build/examples/ring
 *
 * Rank 0 sends a token around the ring 0 -> 1 -> ... -> n-1 -> 0; each
 * rank prints a line when the token reaches it and adds one before
 * passing it on.  Then every rank Puts its rank number into its own slot
 * of a buffer on rank 0, which adds them up and checks the sum.
 *
 * Messages go to logical process ids (ranks) on the job's NI; a rank
 * sends only after ptl_job_barrier(), so every rank's portal exists.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <lwk/lwk.h>

#include "portals4.h"
#include "ptl_job.h"

#define PT_RING     2           /* our portal (ptl_job.h leaves 2..3 free) */
#define MB_TOKEN    1ull
#define MB_SUM      2ull
#define MAX_RANKS   128

static struct ptl_job job;
static ptl_handle_eq_t eq;      /* arrivals on PT_RING */
static ptl_handle_eq_t ini_eq;  /* our Puts' ACKs */
static ptl_handle_md_t md;
static int64_t token_in, out, slots[MAX_RANKS];
static int arrived[3];          /* Puts that came in, by match bits */

static void check(int rc, const char *what)
{
    if (rc != PTL_OK) {
        char why[96];
        snprintf(why, sizeof(why), "%s failed (%d)", what, rc);
        ptl_job_abort(1, why);
    }
}

/* A buffer on our portal that matches `bits` and stays. */
static void expose(void *buf, size_t len, ptl_match_bits_t bits)
{
    ptl_me_t me = { .start = buf, .length = len, .ct_handle = PTL_CT_NONE,
                    .match_id.rank = PTL_RANK_ANY, .match_bits = bits,
                    .options = PTL_ME_OP_PUT };
    ptl_handle_me_t h;

    check(PtlMEAppend(job.ni, PT_RING, &me, PTL_PRIORITY_LIST, NULL, &h),
          "PtlMEAppend");
}

/* `value` to rank `to` at `offset` of its `bits` buffer; waits for the
   ACK, so the value has arrived before we go on (or exit). */
static void put(int to, ptl_match_bits_t bits, uint64_t offset,
                int64_t value)
{
    ptl_process_t target = { .rank = (ptl_rank_t)to };
    ptl_event_t ev;

    out = value;
    check(PtlPut(md, 0, sizeof(out), PTL_ACK_REQ, target, PT_RING, bits,
                 offset, NULL, 0), "PtlPut");
    do
        check(PtlEQWait(ini_eq, &ev), "PtlEQWait");
    while (ev.type != PTL_EVENT_ACK);
    if (ev.ni_fail_type != PTL_NI_OK)
        ptl_job_abort(1, "a Put was not delivered");
}

/* Wait until `n` Puts with match bits `bits` have come in, counting the
   others too: rank 0 can get ranks' sums before the token is back. */
static void await(ptl_match_bits_t bits, int n)
{
    ptl_event_t ev;

    while (arrived[bits] < n) {
        check(PtlEQWait(eq, &ev), "PtlEQWait");
        if (ev.type == PTL_EVENT_PUT && ev.match_bits <= MB_SUM)
            arrived[ev.match_bits]++;
    }
}

static void ring(void)
{
    int next = (job.rank + 1) % job.size;

    if (job.rank == 0)
        put(next, MB_TOKEN, 0, 1);
    await(MB_TOKEN, 1);
    printf("rank %d of %d on nid %ld: got token %lld from rank %d\n",
           job.rank, job.size, lwk_nid(), (long long)token_in,
           (job.rank + job.size - 1) % job.size);
    fflush(stdout);
    if (job.rank != 0)
        put(next, MB_TOKEN, 0, token_in + 1);
}

/* Every rank's number into its slot on rank 0; rank 0 adds them up. */
static int sum(void)
{
    int64_t total = 0, want = (int64_t)job.size * (job.size - 1) / 2;

    if (job.rank != 0) {
        put(0, MB_SUM, job.rank * sizeof(int64_t), job.rank);
        return 0;
    }
    await(MB_SUM, job.size - 1);
    for (int r = 0; r < job.size; r++)
        total += slots[r];
    printf("rank 0: sum of the ranks 0..%d = %lld (%s)\n", job.size - 1,
           (long long)total, total == want ? "correct" : "WRONG");
    return total == want ? 0 : 1;
}

int main(void)
{
    ptl_md_t d = { .start = &out, .length = sizeof(out),
                   .ct_handle = PTL_CT_NONE };
    ptl_pt_index_t pt;
    int status;

    if (ptl_job_init(&job) != PTL_OK)
        return 1;               /* it said why */
    if (job.size > MAX_RANKS)
        ptl_job_abort(1, "more than 128 ranks");
    check(PtlEQAlloc(job.ni, 64, &eq), "PtlEQAlloc");
    check(PtlEQAlloc(job.ni, 16, &ini_eq), "PtlEQAlloc");
    check(PtlPTAlloc(job.ni, 0, eq, PT_RING, &pt), "PtlPTAlloc");
    d.eq_handle = ini_eq;
    check(PtlMDBind(job.ni, &d, &md), "PtlMDBind");
    expose(&token_in, sizeof(token_in), MB_TOKEN);
    expose(slots, sizeof(slots), MB_SUM);
    ptl_job_barrier();          /* every rank's portal exists now */
    ring();
    status = sum();
    ptl_job_barrier();          /* nobody leaves while others still send */
    ptl_job_fini();
    return status;
}
