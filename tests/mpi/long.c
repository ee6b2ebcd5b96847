/* SPDX-License-Identifier: MIT */
/*
 * long.c: long messages (past the eager limit) and synchronous ones, whose
 * put carries the data (mpi/proto.c): one that finds its receive posted
 * lands in place and is never fetched; one that comes first keeps only
 * its header and is fetched when its receive comes (MPIX_Fetch_count, the
 * receiver's PtlGets, says which way each went).
 *   preposted   64 KiB + 1 and 1 MiB into posted receives: intact, no Get
 *   unexpected  the same arriving first (probed, then received): intact,
 *               one Get each, the probe's count the whole length
 *   ssend       synchronous, small and long, to a posted receive (no Get)
 *               and to a late one (not complete before it is posted)
 *   cancel      a long send whose header waits unmatched is withdrawn
 *               (the receive then takes the next message); one whose
 *               data landed in a posted receive is not
 *   truncate    a long message into a smaller receive, posted or late:
 *               MPI_ERR_TRUNCATE, the bytes past the buffer untouched
 *   anysource   long messages from every rank to MPI_ANY_SOURCE receives,
 *               posted first and arriving first
 *   order       long messages on one tag, half posted for, half not:
 *               received in the order sent
 *   adapt       4 long messages that arrive before their receive, the
 *               first one's ACK awaited: only its data crossed for nothing
 *               (MPIX_Long_dropped_count), the others put their header
 *               only; then 10 to posted receives: the first ones
 *               header-only (fetched), then with their data again (not)
 * Ranks 0 and 1 talk; anysource and order use every rank.
 */
#include "mpitest.h"

#define BIG (1 << 20)
#define GUARD 4096

static unsigned char *sbuf, *rbuf;

static unsigned char pat(int seed, size_t i)
{
    return (unsigned char)(i * 7 + (size_t)seed * 31 + (i >> 9));
}

static void fill(unsigned char *b, size_t n, int seed)
{
    for (size_t i = 0; i < n; i++)
        b[i] = pat(seed, i);
}

static int bad_bytes(const unsigned char *b, size_t n, int seed)
{
    int bad = 0;

    for (size_t i = 0; i < n; i++)
        bad += b[i] != pat(seed, i);
    return bad;
}

static const int sizes[] = { 65537, BIG };

/* Whether a long message's put carries its data depends on how the last
 * ones to that peer fared (mpi/send.c, learn): synchronous empty messages
 * from every rank to every other, each receive posted first, enough in a
 * row to set every pair to carry data, for the parts that test that. */
#define PRIME_ROUNDS 9             /* > DATA_AFTER (mpi/send.c) */

static void prime(void)
{
    MPI_Request q[64];

    for (int round = 0; round < PRIME_ROUNDS; round++) {
        int n = 0;
        for (int r = 0; r < t_size && r < 64; r++)
            if (r != t_rank)
                MPI_Irecv(NULL, 0, MPI_BYTE, r, 99, MPI_COMM_WORLD, &q[n++]);
        MPI_Barrier(MPI_COMM_WORLD);
        for (int r = 0; r < t_size && r < 64; r++)
            if (r != t_rank)
                MPI_Ssend(NULL, 0, MPI_BYTE, r, 99, MPI_COMM_WORLD);
        MPI_Waitall(n, q, MPI_STATUSES_IGNORE);
    }
}

static void preposted(void)
{
    for (int k = 0; k < 2; k++) {
        int n = sizes[k], f0;
        MPI_Request q;
        MPI_Status st;
        int cnt = -1;

        prime();
        f0 = MPIX_Fetch_count();

        if (t_rank == 1) {
            memset(rbuf, 0, (size_t)n);
            MPI_Irecv(rbuf, n, MPI_BYTE, 0, 5, MPI_COMM_WORLD, &q);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        if (t_rank == 0) {
            fill(sbuf, (size_t)n, k);
            MPI_Send(sbuf, n, MPI_BYTE, 1, 5, MPI_COMM_WORLD);
        } else if (t_rank == 1) {
            MPI_Wait(&q, &st);
            MPI_Get_count(&st, MPI_BYTE, &cnt);
            CHECK(cnt == n && st.MPI_SOURCE == 0 && st.MPI_TAG == 5);
            CHECK(bad_bytes(rbuf, (size_t)n, k) == 0);
            CHECK(MPIX_Fetch_count() == f0);      /* landed, not fetched */
        }
    }
}

static void unexpected(void)
{
    for (int k = 0; k < 2; k++) {
        int n = sizes[k], f0 = MPIX_Fetch_count();
        MPI_Request q;
        MPI_Status st;
        int cnt = -1;

        if (t_rank == 0) {
            fill(sbuf, (size_t)n, 10 + k);
            MPI_Isend(sbuf, n, MPI_BYTE, 1, 6, MPI_COMM_WORLD, &q);
        } else if (t_rank == 1) {
            MPI_Probe(0, 6, MPI_COMM_WORLD, &st);     /* it came first */
            MPI_Get_count(&st, MPI_BYTE, &cnt);
            CHECK(cnt == n);
            memset(rbuf, 0, (size_t)n);
            MPI_Recv(rbuf, n, MPI_BYTE, 0, 6, MPI_COMM_WORLD, &st);
            MPI_Get_count(&st, MPI_BYTE, &cnt);
            CHECK(cnt == n && st.MPI_SOURCE == 0 && st.MPI_TAG == 6);
            CHECK(bad_bytes(rbuf, (size_t)n, 10 + k) == 0);
            CHECK(MPIX_Fetch_count() == f0 + 1);
        }
        if (t_rank == 0)
            MPI_Wait(&q, MPI_STATUS_IGNORE);
        MPI_Barrier(MPI_COMM_WORLD);
    }
}

/* Spin on MPI_Test for a while: false if q completed meanwhile. */
static int stays_open(MPI_Request *q)
{
    double t0 = MPI_Wtime();
    int flag = 0;

    while (!flag && MPI_Wtime() - t0 < 0.05)
        MPI_Test(q, &flag, MPI_STATUS_IGNORE);
    return !flag;
}

static void ssend(void)
{
    static const int ssizes[] = { 100, BIG };

    for (int k = 0; k < 2; k++) {
        int n = ssizes[k], f0;
        MPI_Request q;

        prime();
        f0 = MPIX_Fetch_count();
        /* to a posted receive */
        if (t_rank == 1) {
            memset(rbuf, 0, (size_t)n);
            MPI_Irecv(rbuf, n, MPI_BYTE, 0, 7, MPI_COMM_WORLD, &q);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        if (t_rank == 0) {
            fill(sbuf, (size_t)n, 20 + k);
            MPI_Ssend(sbuf, n, MPI_BYTE, 1, 7, MPI_COMM_WORLD);
        } else if (t_rank == 1) {
            MPI_Wait(&q, MPI_STATUS_IGNORE);
            CHECK(bad_bytes(rbuf, (size_t)n, 20 + k) == 0);
            CHECK(MPIX_Fetch_count() == f0);
        }
        /* to a receive posted late: not done before it */
        if (t_rank == 0) {
            fill(sbuf, (size_t)n, 30 + k);
            MPI_Issend(sbuf, n, MPI_BYTE, 1, 8, MPI_COMM_WORLD, &q);
            CHECK(stays_open(&q));
        }
        MPI_Barrier(MPI_COMM_WORLD);
        if (t_rank == 0) {
            MPI_Wait(&q, MPI_STATUS_IGNORE);
        } else if (t_rank == 1) {
            memset(rbuf, 0, (size_t)n);
            MPI_Recv(rbuf, n, MPI_BYTE, 0, 8, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            CHECK(bad_bytes(rbuf, (size_t)n, 30 + k) == 0);
            CHECK(MPIX_Fetch_count() == f0 + 1);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
}

static void cancel(void)
{
    MPI_Request q;
    MPI_Status st;
    int flag = -1;

    /* Unmatched: its header waits at rank 1 (probed); withdrawn, the
     * receive takes the next message on that tag. */
    if (t_rank == 0) {
        fill(sbuf, BIG, 40);
        MPI_Isend(sbuf, BIG, MPI_BYTE, 1, 9, MPI_COMM_WORLD, &q);
    } else if (t_rank == 1) {
        MPI_Probe(0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (t_rank == 0) {
        MPI_Cancel(&q);
        MPI_Wait(&q, &st);
        MPI_Test_cancelled(&st, &flag);
        CHECK(flag == 1);
    }
    MPI_Barrier(MPI_COMM_WORLD);    /* no receive before the cancel */
    if (t_rank == 0) {
        fill(sbuf + BIG, 1000, 41);
        MPI_Send(sbuf + BIG, 1000, MPI_BYTE, 1, 9, MPI_COMM_WORLD);
    } else if (t_rank == 1) {
        int cnt = -1;
        MPI_Recv(rbuf, BIG, MPI_BYTE, 0, 9, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_BYTE, &cnt);
        CHECK(cnt == 1000 && bad_bytes(rbuf, 1000, 41) == 0);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* Matched: cancelled at once, while its data lands in the posted
     * receive: the receive has it, so the send must not say cancelled. */
    for (int k = 0; k < 2; k++) {
        int n = sizes[k];
        prime();
        if (t_rank == 1) {
            memset(rbuf, 0, (size_t)n);
            MPI_Irecv(rbuf, n, MPI_BYTE, 0, 10, MPI_COMM_WORLD, &q);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        if (t_rank == 0) {
            fill(sbuf, (size_t)n, 42 + k);
            MPI_Isend(sbuf, n, MPI_BYTE, 1, 10, MPI_COMM_WORLD, &q);
            MPI_Cancel(&q);
            MPI_Wait(&q, &st);
            MPI_Test_cancelled(&st, &flag);
            CHECK(flag == 0);
        } else if (t_rank == 1) {
            MPI_Wait(&q, MPI_STATUS_IGNORE);
            CHECK(bad_bytes(rbuf, (size_t)n, 42 + k) == 0);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
}

/* Receive n bytes of a BIG message into rbuf (n + GUARD bytes of 0xee):
 * MPI_ERR_TRUNCATE, the first n bytes the message's, the guard intact. */
static void check_truncated(int rc, MPI_Status *st, int n, int seed)
{
    int cnt = -1, guard = 0;

    MPI_Get_count(st, MPI_BYTE, &cnt);
    CHECK(rc == MPI_ERR_TRUNCATE);
    CHECK(cnt == n);
    CHECK(bad_bytes(rbuf, (size_t)n, seed) == 0);
    for (int i = 0; i < GUARD; i++)
        guard += rbuf[n + i] != 0xee;
    CHECK(guard == 0);
}

static void trunc_long(void)
{
    const int n = 70000;
    MPI_Request q;
    MPI_Status st;
    int rc;

    prime();
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    /* posted: the put lands truncated */
    if (t_rank == 1) {
        memset(rbuf, 0xee, (size_t)n + GUARD);
        MPI_Irecv(rbuf, n, MPI_BYTE, 0, 11, MPI_COMM_WORLD, &q);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (t_rank == 0) {
        fill(sbuf, BIG, 50);
        CHECK(MPI_Send(sbuf, BIG, MPI_BYTE, 1, 11, MPI_COMM_WORLD) ==
              MPI_SUCCESS);
    } else if (t_rank == 1) {
        rc = MPI_Wait(&q, &st);
        check_truncated(rc, &st, n, 50);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    /* late: the Get fetches what fits */
    if (t_rank == 0) {
        fill(sbuf, BIG, 51);
        MPI_Isend(sbuf, BIG, MPI_BYTE, 1, 12, MPI_COMM_WORLD, &q);
    } else if (t_rank == 1) {
        MPI_Probe(0, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        memset(rbuf, 0xee, (size_t)n + GUARD);
        rc = MPI_Recv(rbuf, n, MPI_BYTE, 0, 12, MPI_COMM_WORLD, &st);
        check_truncated(rc, &st, n, 51);
    }
    if (t_rank == 0)
        CHECK(MPI_Wait(&q, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Every other rank sends rank 0 a long message per round; round 0's
 * receives are posted first, round 1's after every message came. */
static void anysource(void)
{
    int m = t_size - 1, n = 100000;
    unsigned char *in = malloc((size_t)(m > 0 ? m : 1) * (size_t)n);
    MPI_Request *q = malloc(sizeof(*q) * (size_t)(m > 0 ? m : 1));
    MPI_Status st;
    int seen[64] = { 0 };

    for (int round = 0; round < 2; round++) {
        int f0;
        if (round == 0)
            prime();
        f0 = MPIX_Fetch_count();
        if (t_rank == 0 && round == 0)
            for (int i = 0; i < m; i++)
                MPI_Irecv(in + (size_t)i * n, n, MPI_BYTE, MPI_ANY_SOURCE,
                          13, MPI_COMM_WORLD, &q[i]);
        MPI_Barrier(MPI_COMM_WORLD);
        if (t_rank != 0) {
            fill(sbuf, (size_t)n, 60 + t_rank + 8 * round);
            MPI_Send(sbuf, n, MPI_BYTE, 0, 13, MPI_COMM_WORLD);
        } else {
            for (int i = 0; i < m; i++) {
                if (round == 0) {
                    MPI_Wait(&q[i], &st);
                } else {
                    MPI_Probe(MPI_ANY_SOURCE, 13, MPI_COMM_WORLD, &st);
                    MPI_Recv(in + (size_t)i * n, n, MPI_BYTE, st.MPI_SOURCE,
                             13, MPI_COMM_WORLD, &st);
                }
                CHECK(st.MPI_SOURCE > 0 && st.MPI_SOURCE < t_size);
                if (st.MPI_SOURCE > 0 && st.MPI_SOURCE < 64)
                    seen[st.MPI_SOURCE]++;
                CHECK(bad_bytes(in + (size_t)i * n, (size_t)n,
                                60 + st.MPI_SOURCE + 8 * round) == 0);
            }
            CHECK(MPIX_Fetch_count() == f0 + (round ? m : 0));
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    for (int r = 1; r < t_size && r < 64; r++)
        CHECK(t_rank != 0 || seen[r] == 2);
    free(in);
    free(q);
}

/* Rank 1 sends 6 long messages on one tag; rank 0 posts receives for the
 * first 3 before, the rest after they all came. */
static void order(void)
{
    enum { K = 6, N = 80000 };
    MPI_Request q[K];

    if (t_rank == 0)
        for (int i = 0; i < K / 2; i++)
            MPI_Irecv(rbuf + (size_t)i * N, N, MPI_BYTE, 1, 14,
                      MPI_COMM_WORLD, &q[i]);
    MPI_Barrier(MPI_COMM_WORLD);
    if (t_rank == 1) {
        for (int i = 0; i < K; i++) {
            fill(sbuf + (size_t)i * N, N, 70 + i);
            MPI_Isend(sbuf + (size_t)i * N, N, MPI_BYTE, 0, 14,
                      MPI_COMM_WORLD, &q[i]);
        }
        MPI_Waitall(K, q, MPI_STATUSES_IGNORE);
    } else if (t_rank == 0) {
        MPI_Waitall(K / 2, q, MPI_STATUSES_IGNORE);
        for (int i = K / 2; i < K; i++)
            MPI_Irecv(rbuf + (size_t)i * N, N, MPI_BYTE, 1, 14,
                      MPI_COMM_WORLD, &q[i]);
        MPI_Waitall(K / 2, q + K / 2, MPI_STATUSES_IGNORE);
        for (int i = 0; i < K; i++)
            CHECK(bad_bytes(rbuf + (size_t)i * N, N, 70 + i) == 0);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Rank 1 to rank 0: how a long message fared decides whether the next
 * one to that peer carries its data (mpi/send.c, learn). */
static void adapt(void)
{
    enum { K = 4, M = 10, N = 100000 };   /* M * N <= BIG */
    int d0, f0;
    MPI_Request q[K], p[M];

    prime();
    d0 = MPIX_Long_dropped_count();

    /* each unexpected (rank 0 receives after the barrier); the first one's
     * ACK (from the overflow list) is awaited before the others go */
    if (t_rank == 1) {
        double t0 = MPI_Wtime();
        int flag = 0;
        for (int i = 0; i < K; i++) {
            fill(sbuf + (size_t)i * N, N, 80 + i);
            MPI_Isend(sbuf + (size_t)i * N, N, MPI_BYTE, 0, 20 + i,
                      MPI_COMM_WORLD, &q[i]);
            while (i == 0 && MPIX_Long_dropped_count() == d0 && !flag &&
                   MPI_Wtime() - t0 < 30)
                MPI_Test(&q[0], &flag, MPI_STATUS_IGNORE);
        }
        CHECK(!flag);
        CHECK(MPIX_Long_dropped_count() - d0 == 1);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (t_rank == 0) {
        for (int i = 0; i < K; i++) {
            MPI_Recv(rbuf, N, MPI_BYTE, 1, 20 + i, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            CHECK(bad_bytes(rbuf, N, 80 + i) == 0);
        }
    }
    if (t_rank == 1)
        MPI_Waitall(K, q, MPI_STATUSES_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);

    /* M to posted receives, one after the other: the first ones put
     * their header only (fetched), then the data goes again (not) */
    f0 = MPIX_Fetch_count();
    if (t_rank == 0)
        for (int i = 0; i < M; i++)
            MPI_Irecv(rbuf + (size_t)i * N, N, MPI_BYTE, 1, 15,
                      MPI_COMM_WORLD, &p[i]);
    MPI_Barrier(MPI_COMM_WORLD);
    if (t_rank == 1) {
        for (int i = 0; i < M; i++) {
            fill(sbuf, N, 90 + i);
            MPI_Send(sbuf, N, MPI_BYTE, 0, 15, MPI_COMM_WORLD);
        }
        CHECK(MPIX_Long_dropped_count() - d0 == 1);
    } else if (t_rank == 0) {
        int got;
        MPI_Waitall(M, p, MPI_STATUSES_IGNORE);
        for (int i = 0; i < M; i++)
            CHECK(bad_bytes(rbuf + (size_t)i * N, N, 90 + i) == 0);
        got = MPIX_Fetch_count() - f0;
        CHECK(got >= 1 && got < M);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv, "long");
    sbuf = malloc(BIG + GUARD);
    rbuf = malloc(BIG + GUARD);
    CHECK(sbuf != NULL && rbuf != NULL);
    if (t_size >= 2) {
        preposted();
        t_report("preposted");
        unexpected();
        t_report("unexpected");
        ssend();
        t_report("ssend");
        cancel();
        t_report("cancel");
        trunc_long();
        t_report("truncate");
        order();
        t_report("order");
        adapt();
        t_report("adapt");
    }
    anysource();
    t_report("anysource");
    free(sbuf);
    free(rbuf);
    return t_finish();
}
