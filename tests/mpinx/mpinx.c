/* SPDX-License-Identifier: MIT */
/*
 * mpinx.c: one job whose every rank uses MPI and NX at once, over the one
 * Portals NI the job interface gives both (their own portals: MPI 4..7,
 * NX 8..11).  Checks that neither library sees the other's messages, that
 * both have messages in flight at the same time (eager and long in each),
 * and that their global operations agree.  Runs on Linux under
 * tools/ptlrun (tests/mpi/run) and on the nodes under yod
 * (tests/qemu/suite-mpinodes); rank 0 prints "PASS mpi.mpinx.nN.what".
 */
#include "mpitest.h"
#include "nx.h"

#define BIG 100000          /* long protocol in both (eager 64K / 16K) */

/* Byte i of a message from src to dst; lib 'M' or 'N' so that a message
 * delivered to the wrong library cannot pass. */
static unsigned char pat(int lib, int src, int dst, long i)
{
    return (unsigned char)(lib * 3 + src * 31 + dst * 7 + i + (i >> 8));
}

static void fill(unsigned char *b, long n, int lib, int src, int dst)
{
    for (long i = 0; i < n; i++)
        b[i] = pat(lib, src, dst, i);
}

static int same(const unsigned char *b, long n, int lib, int src, int dst)
{
    for (long i = 0; i < n; i++)
        if (b[i] != pat(lib, src, dst, i))
            return 0;
    return 1;
}

/* Both libraries agree who is who. */
static void identity(void)
{
    CHECK(mynode() == t_rank);
    CHECK(numnodes() == t_size);
    t_report("identity");
}

/* A ring in both libraries at once, the same tag/type number in each:
 * every receive is posted and every send started before any wait. */
static void ring_both(long len, const char *name)
{
    int right = (t_rank + 1) % t_size, left = (t_rank + t_size - 1) % t_size;
    unsigned char *ms = malloc(BIG), *mr = malloc(BIG);
    unsigned char *ns = malloc(BIG), *nr = malloc(BIG);
    MPI_Request rq[2];
    MPI_Status st[2];
    int count = -1;
    long nrid, nsid;

    fill(ms, len, 'M', t_rank, right);
    fill(ns, len, 'N', t_rank, left);
    memset(mr, 0, BIG);
    memset(nr, 0, BIG);
    MPI_Irecv(mr, BIG, MPI_BYTE, left, 7, MPI_COMM_WORLD, &rq[0]);
    nrid = irecv(7, nr, BIG);
    MPI_Isend(ms, (int)len, MPI_BYTE, right, 7, MPI_COMM_WORLD, &rq[1]);
    nsid = isend(7, ns, len, left, 0);
    MPI_Waitall(2, rq, st);
    msgwait(nrid);
    CHECK(infocount() == len && infonode() == right && infotype() == 7);
    msgwait(nsid);
    MPI_Get_count(&st[0], MPI_BYTE, &count);
    CHECK(count == len && st[0].MPI_SOURCE == left && st[0].MPI_TAG == 7);
    CHECK(same(mr, len, 'M', left, t_rank));
    CHECK(same(nr, len, 'N', right, t_rank));
    free(ms);
    free(mr);
    free(ns);
    free(nr);
    t_report(name);
}

/* Everyone sends rank 0 one NX message and then one MPI message; rank 0
 * takes the MPI ones with ANY_SOURCE/ANY_TAG first: a wildcard receive
 * of one library must never match the other's. */
static void wildcards(void)
{
    unsigned char buf[512];

    MPI_Barrier(MPI_COMM_WORLD);
    if (t_rank != 0) {
        fill(buf, 300, 'N', t_rank, 0);
        csend(3, buf, 300, 0, 0);
        fill(buf, 200, 'M', t_rank, 0);
        MPI_Send(buf, 200, MPI_BYTE, 0, 3, MPI_COMM_WORLD);
    } else {
        int seen = 0;
        for (int k = 1; k < t_size; k++) {
            MPI_Status st;
            int count = -1;
            MPI_Recv(buf, sizeof(buf), MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG,
                     MPI_COMM_WORLD, &st);
            MPI_Get_count(&st, MPI_BYTE, &count);
            CHECK(count == 200 && st.MPI_TAG == 3);
            CHECK(st.MPI_SOURCE > 0 && st.MPI_SOURCE < t_size);
            if (st.MPI_SOURCE > 0 && st.MPI_SOURCE < t_size) {
                CHECK(same(buf, 200, 'M', st.MPI_SOURCE, 0));
                seen |= 1 << st.MPI_SOURCE;
            }
        }
        CHECK(seen == (1 << t_size) - 2);
        seen = 0;
        for (int k = 1; k < t_size; k++) {
            crecv(-1, buf, sizeof(buf));
            long src = infonode();
            CHECK(infocount() == 300 && infotype() == 3);
            CHECK(src > 0 && src < t_size);
            if (src > 0 && src < t_size) {
                CHECK(same(buf, 300, 'N', (int)src, 0));
                seen |= 1 << src;
            }
        }
        CHECK(seen == (1 << t_size) - 2);
        CHECK(iprobe(-1) == 0);
        int flag = 1;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag,
                   MPI_STATUS_IGNORE);
        CHECK(flag == 0);
    }
    t_report("wildcards-stay-in-their-library");
}

/* Global operations of both, alternated: same sums, and the barriers of
 * one do not disturb the other's. */
static void globals(void)
{
    for (int it = 0; it < 20; it++) {
        double x = t_rank + 1 + it, work, sum = 0;
        long k = t_rank * it, kw;
        gdsum(&x, 1, &work);
        MPI_Allreduce(&(double){ t_rank + 1 + it }, &sum, 1, MPI_DOUBLE,
                      MPI_SUM, MPI_COMM_WORLD);
        CHECK(x == sum);
        CHECK(sum == t_size * (t_size + 1) / 2.0 + (double)t_size * it);
        gsync();
        MPI_Barrier(MPI_COMM_WORLD);
        gihigh(&k, 1, &kw);
        CHECK(k == (long)(t_size - 1) * it);
    }
    t_report("globals-agree");
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv, "mpinx");
    identity();
    ring_both(0, "ring-both-0B");
    ring_both(1000, "ring-both-1000B");
    ring_both(BIG, "ring-both-100000B");
    wildcards();
    globals();
    return t_finish();
}
