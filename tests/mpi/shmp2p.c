/* SPDX-License-Identifier: MIT */
/* Point-to-point messages between the ranks of a node, every byte
 * checked, at sizes around the single-copy threshold T (mpi/shm.c: on
 * the compute nodes a message of at least T bytes to a rank of the same
 * node is copied once, straight from the sender's memory):
 *   sizes       every pair of ranks, T-1, T, T+1, 64 KiB +- 1, 1 MiB + 3,
 *               the receive posted before the message comes, or after
 *   any-source  MPI_ANY_SOURCE receives name the right sender
 *   truncated   a receive shorter than the message: MPI_ERR_TRUNCATE,
 *               the bytes that fit, nothing written past the buffer
 *   ssend       MPI_Issend completes only once received
 *   vector      received into a strided datatype
 *   cancel      a send nobody received yet is cancelled; a receive posted
 *               later gets the next message with that tag instead
 *   counted     MPIX_Single_copy_count: with "yes", exactly the messages
 *               of at least T bytes from a rank of this node went single
 *               copy; with "no" (or no arguments, as on Linux) none did
 * Usage: shmp2p [T yes|no]  (T: the LWK_MPI_SINGLE_COPY the job has) */
#include <stdint.h>
#include "mpitest.h"

static size_t thr = 16384;
static int expect_copies;       /* single copies expected from peers */
static int *on_node;            /* world rank -> shares this node */
static int copies_expected;

static void *xmalloc(size_t n)
{
    void *p = malloc(n);

    if (p == NULL) {
        fprintf(stderr, "rank %d: out of memory for %zu bytes\n", t_rank, n);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return p;
}

static uint8_t pat(int src, int dst, size_t size, size_t i)
{
    return (uint8_t)(i * 131 + (size_t)src * 7 + (size_t)dst * 13 + size);
}

static void fill(uint8_t *b, int src, int dst, size_t size)
{
    for (size_t i = 0; i < size; i++)
        b[i] = pat(src, dst, size, i);
}

/* The first byte that differs, or -1. */
static long bad_byte(const uint8_t *b, int src, int dst, size_t size,
                     size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (b[i] != pat(src, dst, size, i))
            return (long)i;
    return -1;
}

/* A message of `size` bytes from src was received here. */
static void received(int src, size_t size)
{
    if (expect_copies && on_node[src] && src != t_rank && size >= thr)
        copies_expected++;
}

/* Every rank sends to every other, shift by shift. */
static void sizes(int late)
{
    size_t list[] = { thr - 1, thr, thr + 1, 65535, 65536, 65537,
                      (1 << 20) + 3 };

    for (size_t s = 0; s < sizeof(list) / sizeof(list[0]); s++) {
        size_t size = list[s];
        uint8_t *out = xmalloc(size), *in = xmalloc(size + 16);

        for (int k = 1; k < t_size; k++) {
            int dst = (t_rank + k) % t_size, src = (t_rank - k + t_size) %
                                                   t_size;
            MPI_Request rq[2];
            MPI_Status st;
            long bad;

            fill(out, t_rank, dst, size);
            memset(in, 0xEE, size + 16);
            if (!late)
                MPI_Irecv(in, (int)size, MPI_BYTE, src, k, MPI_COMM_WORLD,
                          &rq[1]);
            MPI_Barrier(MPI_COMM_WORLD);
            MPI_Isend(out, (int)size, MPI_BYTE, dst, k, MPI_COMM_WORLD,
                      &rq[0]);
            if (late) {         /* the header is there before the receive */
                MPI_Barrier(MPI_COMM_WORLD);
                MPI_Irecv(in, (int)size, MPI_BYTE, src, k, MPI_COMM_WORLD,
                          &rq[1]);
            }
            MPI_Wait(&rq[1], &st);
            MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
            received(src, size);
            int n;
            MPI_Get_count(&st, MPI_BYTE, &n);
            CHECK((size_t)n == size);
            if ((bad = bad_byte(in, src, t_rank, size, size)) >= 0)
                fprintf(stderr, "rank %d: %zu bytes from %d: byte %ld "
                        "wrong\n", t_rank, size, src, bad);
            CHECK(bad < 0);
            CHECK(in[size] == 0xEE && in[size + 15] == 0xEE);
        }
        free(out);
        free(in);
    }
    t_report(late ? "sizes-late" : "sizes-posted");
}

static void any_source(void)
{
    size_t size = thr + 4096;
    uint8_t *in = xmalloc(size);
    uint8_t **out = xmalloc(sizeof(*out) * (size_t)t_size);
    MPI_Request *rq = xmalloc(sizeof(*rq) * (size_t)t_size);

    for (int d = 0; d < t_size; d++)
        if (d != t_rank) {
            out[d] = xmalloc(size);
            fill(out[d], t_rank, d, size);
            MPI_Isend(out[d], (int)size, MPI_BYTE, d, 5, MPI_COMM_WORLD,
                      &rq[d]);
        }
    for (int k = 1; k < t_size; k++) {
        MPI_Status st;
        MPI_Recv(in, (int)size, MPI_BYTE, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD,
                 &st);
        received(st.MPI_SOURCE, size);
        CHECK(bad_byte(in, st.MPI_SOURCE, t_rank, size, size) < 0);
    }
    for (int d = 0; d < t_size; d++)
        if (d != t_rank) {
            MPI_Wait(&rq[d], MPI_STATUS_IGNORE);
            free(out[d]);
        }
    free(rq);
    free(out);
    free(in);
    t_report("any-source");
}

/* Rank 0 sends thr + 1000 bytes to rank 1, whose buffer holds 500 fewer. */
static void truncated(void)
{
    size_t size = thr + 1000, room = size - 500;
    uint8_t *b = xmalloc(size + 16);
    int rc, cls = -1;

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (t_rank == 0) {
        fill(b, 0, 1, size);
        MPI_Send(b, (int)size, MPI_BYTE, 1, 6, MPI_COMM_WORLD);
    } else if (t_rank == 1) {
        memset(b, 0xEE, size + 16);
        rc = MPI_Recv(b, (int)room, MPI_BYTE, 0, 6, MPI_COMM_WORLD,
                      MPI_STATUS_IGNORE);
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_TRUNCATE);
        CHECK(bad_byte(b, 0, 1, size, room) < 0);
        CHECK(b[room] == 0xEE && b[size - 1] == 0xEE);
        received(0, size);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    free(b);
    t_report("truncated");
}

/* Rank 0's MPI_Issend to rank 1 is not done before rank 1 receives. */
static void ssend(void)
{
    size_t size = thr + 8;
    uint8_t *b = xmalloc(size);
    MPI_Request rq;
    int done = -1;

    if (t_rank == 0) {
        fill(b, 0, 1, size);
        MPI_Issend(b, (int)size, MPI_BYTE, 1, 8, MPI_COMM_WORLD, &rq);
        for (int i = 0; i < 100; i++)
            MPI_Test(&rq, &done, MPI_STATUS_IGNORE);
        CHECK(!done);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        if (t_rank == 1) {
            MPI_Recv(b, (int)size, MPI_BYTE, 0, 8, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            CHECK(bad_byte(b, 0, 1, size, size) < 0);
            received(0, size);
        }
    }
    free(b);
    t_report("ssend");
}

/* thr + 1 ints from rank 1 into every other int of rank 0's buffer. */
static void vector(void)
{
    int n = (int)(thr / 4) + 1;
    int *b = xmalloc(sizeof(int) * 2 * (size_t)n);
    MPI_Datatype every_other;

    MPI_Type_vector(n, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    if (t_rank == 1) {
        for (int i = 0; i < n; i++)
            b[i] = 3 * i + 1;
        MPI_Send(b, n, MPI_INT, 0, 9, MPI_COMM_WORLD);
    } else if (t_rank == 0) {
        for (int i = 0; i < 2 * n; i++)
            b[i] = -1;
        MPI_Recv(b, 1, every_other, 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        received(1, sizeof(int) * (size_t)n);
        for (int i = 0; i < n; i++)
            if (b[2 * i] != 3 * i + 1 || b[2 * i + 1] != -1) {
                CHECK(b[2 * i] == 3 * i + 1 && b[2 * i + 1] == -1);
                break;
            }
    }
    MPI_Type_free(&every_other);
    free(b);
    t_report("vector");
}

/* Rank 0 cancels a send rank 1 has not received (its header may well be
   there already), then sends another with the same tag, which is what
   rank 1's receive gets.  Longer than an eager message, which is
   delivered as it is sent and cannot be cancelled (mpi/README.md). */
static void cancel(void)
{
    size_t size = (thr > 65536 ? thr : 65536) + 16;
    uint8_t *first = xmalloc(size), *second = xmalloc(size);
    MPI_Request rq;
    MPI_Status st;
    int cancelled = 0;

    if (t_rank == 0) {
        fill(first, 0, 1, size);
        fill(second, 0, 1, size + 1);
        MPI_Isend(first, (int)size, MPI_BYTE, 1, 10, MPI_COMM_WORLD, &rq);
        MPI_Barrier(MPI_COMM_WORLD);    /* rank 1 has the header, maybe */
        MPI_Cancel(&rq);
        MPI_Wait(&rq, &st);
        MPI_Test_cancelled(&st, &cancelled);
        CHECK(cancelled);
        memset(first, 0, size);         /* a late copy would show this */
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Send(second, (int)size, MPI_BYTE, 1, 10, MPI_COMM_WORLD);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
        if (t_rank == 1) {
            MPI_Recv(second, (int)size, MPI_BYTE, 0, 10, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            CHECK(bad_byte(second, 0, 1, size + 1, size) < 0);
            received(0, size);
        }
    }
    free(first);
    free(second);
    t_report("cancel");
}

/* Which world ranks share this rank's node (MPI_Comm_split_type). */
static void find_node(void)
{
    MPI_Comm node;
    MPI_Group wg, ng;
    int n, *in, *out;

    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
                        MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &n);
    MPI_Comm_group(node, &ng);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    in = xmalloc(sizeof(int) * (size_t)n);
    out = xmalloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++)
        in[i] = i;
    MPI_Group_translate_ranks(ng, n, in, wg, out);
    on_node = xmalloc(sizeof(int) * (size_t)t_size);
    memset(on_node, 0, sizeof(int) * (size_t)t_size);
    for (int i = 0; i < n; i++)
        on_node[out[i]] = 1;
    MPI_Group_free(&ng);
    MPI_Group_free(&wg);
    MPI_Comm_free(&node);
    free(in);
    free(out);
}

int main(int argc, char **argv)
{
    int before;

    t_init(&argc, &argv, "shmp2p");
    if (argc > 2) {
        thr = (size_t)atol(argv[1]);
        expect_copies = strcmp(argv[2], "yes") == 0;
    }
    find_node();
    before = MPIX_Single_copy_count();
    sizes(0);
    sizes(1);
    any_source();
    if (t_size > 1) {
        truncated();
        ssend();
        vector();
        cancel();
    }
    CHECK(MPIX_Single_copy_count() - before == copies_expected);
    if (MPIX_Single_copy_count() - before != copies_expected)
        fprintf(stderr, "rank %d: %d single copies, %d expected\n", t_rank,
                MPIX_Single_copy_count() - before, copies_expected);
    t_report("counted");
    free(on_node);
    return t_finish();
}
