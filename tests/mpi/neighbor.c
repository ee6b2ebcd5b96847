/* SPDX-License-Identifier: MIT */
/* Neighbourhood collectives and distributed graphs: allgather on a
 * periodic ring and on a non-periodic 2-D grid (missing neighbours leave
 * their block alone), alltoall on a graph topology, a distributed graph
 * made adjacent (with weights) and made by rank 0 naming every edge,
 * alltoallv and alltoallw on it.  Expected blocks are computed here from
 * the edges each test defines.  Every part runs twice: with the blocking
 * calls and with MPI_Ineighbor_* (tested while other nonblocking
 * collectives are in flight on the same communicator), and three
 * nonblocking ones at once on a ring. */
#include "mpitest.h"

static int nonblocking;         /* the parts use MPI_Ineighbor_* */

/* A nonblocking neighbourhood collective's request: an Ibarrier on the
 * same communicator started after it is in flight meanwhile. */
static void done(MPI_Request *q, MPI_Comm c)
{
    MPI_Request b;
    int flag;

    MPI_Ibarrier(c, &b);
    MPI_Test(q, &flag, MPI_STATUS_IGNORE);
    MPI_Wait(q, MPI_STATUS_IGNORE);
    MPI_Wait(&b, MPI_STATUS_IGNORE);
}

static void n_allgather(const void *s, int sc, MPI_Datatype st, void *r,
                        int rc, MPI_Datatype rt, MPI_Comm c)
{
    MPI_Request q;

    if (!nonblocking) {
        MPI_Neighbor_allgather(s, sc, st, r, rc, rt, c);
        return;
    }
    MPI_Ineighbor_allgather(s, sc, st, r, rc, rt, c, &q);
    done(&q, c);
}

static void n_alltoall(const void *s, int sc, MPI_Datatype st, void *r,
                       int rc, MPI_Datatype rt, MPI_Comm c)
{
    MPI_Request q;

    if (!nonblocking) {
        MPI_Neighbor_alltoall(s, sc, st, r, rc, rt, c);
        return;
    }
    MPI_Ineighbor_alltoall(s, sc, st, r, rc, rt, c, &q);
    done(&q, c);
}

static void n_alltoallv(const void *s, const int *sc, const int *sd,
                        MPI_Datatype st, void *r, const int *rc,
                        const int *rd, MPI_Datatype rt, MPI_Comm c)
{
    MPI_Request q;

    if (!nonblocking) {
        MPI_Neighbor_alltoallv(s, sc, sd, st, r, rc, rd, rt, c);
        return;
    }
    MPI_Ineighbor_alltoallv(s, sc, sd, st, r, rc, rd, rt, c, &q);
    done(&q, c);
}

static void n_alltoallw(const void *s, const int *sc, const MPI_Aint *sd,
                        const MPI_Datatype *st, void *r, const int *rc,
                        const MPI_Aint *rd, const MPI_Datatype *rt,
                        MPI_Comm c)
{
    MPI_Request q;

    if (!nonblocking) {
        MPI_Neighbor_alltoallw(s, sc, sd, st, r, rc, rd, rt, c);
        return;
    }
    MPI_Ineighbor_alltoallw(s, sc, sd, st, r, rc, rd, rt, c, &q);
    done(&q, c);
}

static int val(int from, int to, int k) { return from * 1000 + to * 10 + k; }

static void cart(void)
{
    int dims[2] = { t_size, 1 }, per[2] = { 1, 0 }, me = t_rank, got[4];
    int left = (t_rank + t_size - 1) % t_size, right = (t_rank + 1) % t_size;
    MPI_Comm ring, grid;

    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, per, 0, &ring);
    n_allgather(&me, 1, MPI_INT, got, 1, MPI_INT, ring);
    CHECK(got[0] == left && got[1] == right);   /* -1 first, then +1 */
    MPI_Comm_free(&ring);
    /* a t_size x 1 grid, not periodic: the ends have no neighbour, and
     * dimension 1 (size 1) none at all */
    per[0] = 0;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, per, 0, &grid);
    for (int i = 0; i < 4; i++)
        got[i] = -7;
    int s[4] = { val(t_rank, 0, 0), val(t_rank, 0, 1), val(t_rank, 0, 2),
                 val(t_rank, 0, 3) };
    n_alltoall(s, 1, MPI_INT, got, 1, MPI_INT, grid);
    /* from the rank below: the block it sent "up" (index 1) */
    CHECK(got[0] == (t_rank > 0 ? val(t_rank - 1, 0, 1) : -7));
    CHECK(got[1] == (t_rank < t_size - 1 ? val(t_rank + 1, 0, 0) : -7));
    CHECK(got[2] == -7 && got[3] == -7);
    MPI_Comm_free(&grid);
    /* periodic both ways: dimension 1 (size 1) has this rank on both
     * sides, and on 1 or 2 ranks so has dimension 0.  From each side
     * comes the block the neighbour sent the other way: from the left
     * (-1) its block sent right (+1), MPI-3.1 7.6 */
    per[0] = per[1] = 1;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, per, 0, &grid);
    n_alltoall(s, 1, MPI_INT, got, 1, MPI_INT, grid);
    CHECK(got[0] == val(left, 0, 1) && got[1] == val(right, 0, 0));
    CHECK(got[2] == val(t_rank, 0, 3) && got[3] == val(t_rank, 0, 2));
    int c1[4] = { 1, 1, 1, 1 }, d1[4] = { 3, 2, 1, 0 }, w[4] = { -7, -7,
                                                                  -7, -7 };
    n_alltoallv(s, c1, d1, MPI_INT, w, c1, d1, MPI_INT, grid);
    /* sent block j from s[3-j], received block i into w[3-i] */
    CHECK(w[3] == val(left, 0, 2) && w[2] == val(right, 0, 3));
    CHECK(w[1] == val(t_rank, 0, 0) && w[0] == val(t_rank, 0, 1));
    MPI_Comm_free(&grid);
}

/* A graph: rank r is joined to r+1 and r+2 (mod n) both ways. */
static void graph(void)
{
    int n = t_size, *index = malloc(n * sizeof(int));
    int *edges = malloc(4 * n * sizeof(int)), e = 0;
    MPI_Comm g;

    for (int r = 0; r < n; r++) {
        int nb[4] = { (r + 1) % n, (r + 2) % n, (r + n - 1) % n,
                      (r + n - 2) % n };
        for (int k = 0; k < 4; k++)
            edges[e++] = nb[k];
        index[r] = e;
    }
    MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, 0, &g);
    int s[4], r[4], cnt;
    MPI_Graph_neighbors_count(g, t_rank, &cnt);
    const int *nb = edges + 4 * t_rank;
    for (int k = 0; k < 4; k++)
        s[k] = val(t_rank, nb[k], k);
    n_alltoall(s, 1, MPI_INT, r, 1, MPI_INT, g);
    /* block k came from nb[k], which sent us its block j where its j-th
     * neighbour is us: the first such j not already used */
    int used[4][4] = { { 0 } };
    for (int k = 0; k < 4; k++) {
        const int *theirs = edges + 4 * nb[k];
        int j = 0;
        while (j < 4 && (theirs[j] != t_rank || used[k][j]))
            j++;
        for (int k2 = k + 1; k2 < 4; k2++)
            if (nb[k2] == nb[k])
                used[k2][j] = 1;    /* the next edge to them pairs next */
        CHECK(j < 4 && r[k] == val(nb[k], t_rank, j));
    }
    CHECK(cnt == 4);
    MPI_Comm_free(&g);
    free(index);
    free(edges);
}

/* rank r sends to r+1 and r+3 (weights 1 and 3), receives from r-1 and
 * r-3; the general form: rank 0 names every edge. */
static void dist_graph(int general)
{
    int n = t_size, out[2] = { (t_rank + 1) % n, (t_rank + 3) % n };
    int in[2] = { (t_rank + n - 1) % n, ((t_rank - 3) % n + n) % n };
    int w[2] = { 1, 3 }, indeg, outdeg, weighted, gi[2], go[2], giw[2], gow[2];
    MPI_Comm d;

    if (!general) {
        MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, in, w, 2, out, w,
                                       MPI_INFO_NULL, 0, &d);
    } else {
        int *src = malloc(n * sizeof(int)), *deg = malloc(n * sizeof(int));
        int *dst = malloc(2 * n * sizeof(int)), *ww = malloc(2 * n *
                                                             sizeof(int));
        for (int r = 0; r < n; r++) {
            src[r] = r;
            deg[r] = 2;
            dst[2 * r] = (r + 1) % n;
            dst[2 * r + 1] = (r + 3) % n;
            ww[2 * r] = 1;
            ww[2 * r + 1] = 3;
        }
        MPI_Dist_graph_create(MPI_COMM_WORLD, t_rank ? 0 : n, src, deg, dst,
                              ww, MPI_INFO_NULL, 0, &d);
        free(src), free(deg), free(dst), free(ww);
    }
    MPI_Dist_graph_neighbors_count(d, &indeg, &outdeg, &weighted);
    CHECK(indeg == 2 && outdeg == 2 && weighted);
    MPI_Dist_graph_neighbors(d, 2, gi, giw, 2, go, gow);
    /* the general form orders edges its own way: compare as sets */
    int ok_in = 0, ok_out = 0;
    for (int k = 0; k < 2; k++)
        for (int j = 0; j < 2; j++) {
            ok_in += gi[k] == in[j] && giw[k] == w[j];
            ok_out += go[k] == out[j] && gow[k] == w[j];
        }
    CHECK(ok_in >= 2 && ok_out >= 2);
    int topo;
    MPI_Topo_test(d, &topo);
    CHECK(topo == MPI_DIST_GRAPH);
    /* alltoallv: to each out-neighbour k+1 ints, at displacement 3k */
    int s[6], r[6], sc[2] = { 1, 2 }, sd[2] = { 0, 3 }, rc[2], rd[2] = { 0, 3 };
    for (int k = 0; k < 2; k++) {
        sc[k] = go[k] == out[0] ? 1 : 2;        /* 1 to r+1, 2 to r+3 */
        for (int i = 0; i < sc[k]; i++)
            s[sd[k] + i] = val(t_rank, go[k], i);
        rc[k] = gi[k] == in[0] ? 1 : 2;         /* 1 from r-1, 2 from r-3 */
    }
    for (int i = 0; i < 6; i++)
        r[i] = -1;
    if (n > 2)     /* r+1 and r+3 differ, and r-1 and r-3 */
        n_alltoallv(s, sc, sd, MPI_INT, r, rc, rd, MPI_INT, d);
    if (n > 2)
        for (int k = 0; k < 2; k++)
            for (int i = 0; i < rc[k]; i++)
                CHECK(r[rd[k] + i] == val(gi[k], t_rank, i));
    /* alltoallw: the same with byte displacements and a type per block */
    MPI_Aint bsd[2] = { 0, 3 * sizeof(int) }, brd[2] = { 0, 3 * sizeof(int) };
    MPI_Datatype ts[2] = { MPI_INT, MPI_INT };
    for (int i = 0; i < 6; i++)
        r[i] = -1;
    if (n > 2) {
        n_alltoallw(s, sc, bsd, ts, r, rc, brd, ts, d);
        for (int k = 0; k < 2; k++)
            for (int i = 0; i < rc[k]; i++)
                CHECK(r[rd[k] + i] == val(gi[k], t_rank, i));
    }
    MPI_Comm_free(&d);
}

/* Three nonblocking ones in flight at once on a periodic ring, started
 * in one order and completed in reverse: allgather, allgatherv (rank r
 * gets r%3+1 ints from each side), alltoall. */
static void ring_in_flight(void)
{
    int dims[1] = { t_size }, per[1] = { 1 }, n = t_size;
    int left = (t_rank + n - 1) % n, right = (t_rank + 1) % n;
    int me = t_rank, ag[2] = { -1, -1 }, v[3], gv[6], rc[2], rd[2];
    int s2[2] = { val(t_rank, 0, 0), val(t_rank, 0, 1) }, a2[2];
    MPI_Request q[3];
    MPI_Comm ring;

    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, per, 0, &ring);
    for (int i = 0; i < 3; i++)
        v[i] = val(t_rank, 1, i);
    for (int i = 0; i < 6; i++)
        gv[i] = -1;
    rc[0] = left % 3 + 1, rc[1] = right % 3 + 1, rd[0] = 0, rd[1] = 3;
    MPI_Ineighbor_allgather(&me, 1, MPI_INT, ag, 1, MPI_INT, ring, &q[0]);
    MPI_Ineighbor_allgatherv(v, t_rank % 3 + 1, MPI_INT, gv, rc, rd, MPI_INT,
                             ring, &q[1]);
    MPI_Ineighbor_alltoall(s2, 1, MPI_INT, a2, 1, MPI_INT, ring, &q[2]);
    for (int k = 2; k >= 0; k--)
        MPI_Wait(&q[k], MPI_STATUS_IGNORE);
    CHECK(ag[0] == left && ag[1] == right);
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 3; i++)
            CHECK(gv[rd[k] + i] == (i < rc[k] ? val(k ? right : left, 1, i)
                                              : -1));
    /* from the left its "+1" block (index 1), from the right its "-1",
       on 1 or 2 ranks too, where left and right are one process */
    CHECK(a2[0] == val(left, 0, 1) && a2[1] == val(right, 0, 0));
    MPI_Comm_free(&ring);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv, "neighbor");
    for (nonblocking = 0; nonblocking < 2; nonblocking++) {
        const char *sfx = nonblocking ? "-nonblocking" : "";
        char name[64];
        cart();
        snprintf(name, sizeof(name), "cart-allgather-alltoall%s", sfx);
        t_report(name);
        graph();
        snprintf(name, sizeof(name), "graph-alltoall%s", sfx);
        t_report(name);
        dist_graph(0);
        snprintf(name, sizeof(name), "dist-graph-adjacent%s", sfx);
        t_report(name);
        dist_graph(1);
        snprintf(name, sizeof(name), "dist-graph-general%s", sfx);
        t_report(name);
    }
    ring_in_flight();
    t_report("three-nonblocking-in-flight-ring");
    return t_finish();
}
