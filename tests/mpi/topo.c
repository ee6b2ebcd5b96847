/* SPDX-License-Identifier: MIT */
/* Topologies: Dims_create, Cartesian create/get/rank/coords/shift/sub/map
 * (periodic and not), graph create/get/neighbors/map, Topo_test. */
#include "mpitest.h"

static void dims(void)
{
    int d[3] = { 0, 0, 0 };

    MPI_Dims_create(12, 2, d);
    CHECK(d[0] == 4 && d[1] == 3);
    d[0] = d[1] = d[2] = 0;
    MPI_Dims_create(30, 3, d);
    CHECK(d[0] * d[1] * d[2] == 30 && d[0] >= d[1] && d[1] >= d[2]);
    d[0] = 0; d[1] = 5;
    MPI_Dims_create(10, 2, d);
    CHECK(d[0] == 2 && d[1] == 5);
    d[0] = d[1] = 0;
    MPI_Dims_create(7, 2, d);
    CHECK(d[0] == 7 && d[1] == 1);
}

static void cart(void)
{
    int d[2] = { 0, 0 }, per[2] = { 1, 0 }, st, nd, c[2], r, src, dst;
    MPI_Comm cc, row;

    MPI_Dims_create(t_size, 2, d);
    MPI_Cart_create(MPI_COMM_WORLD, 2, d, per, 1, &cc);
    MPI_Topo_test(cc, &st);
    CHECK(st == MPI_CART);
    MPI_Topo_test(MPI_COMM_WORLD, &st);
    CHECK(st == MPI_UNDEFINED);
    MPI_Cartdim_get(cc, &nd);
    CHECK(nd == 2);
    int gd[2], gp[2];
    MPI_Cart_get(cc, 2, gd, gp, c);
    CHECK(gd[0] == d[0] && gd[1] == d[1] && gp[0] == 1 && gp[1] == 0);
    CHECK(c[0] == t_rank / d[1] && c[1] == t_rank % d[1]);
    MPI_Cart_rank(cc, c, &r);
    CHECK(r == t_rank);
    MPI_Cart_coords(cc, d[0] * d[1] - 1, 2, c);
    CHECK(c[0] == d[0] - 1 && c[1] == d[1] - 1);
    /* dim 0 periodic: wraps; dim 1 not: PROC_NULL at the edges */
    MPI_Cart_shift(cc, 0, 1, &src, &dst);
    int row0 = t_rank / d[1], col = t_rank % d[1];
    CHECK(dst == ((row0 + 1) % d[0]) * d[1] + col);
    CHECK(src == ((row0 - 1 + d[0]) % d[0]) * d[1] + col);
    MPI_Cart_shift(cc, 1, 1, &src, &dst);
    CHECK(dst == (col + 1 < d[1] ? t_rank + 1 : MPI_PROC_NULL));
    CHECK(src == (col > 0 ? t_rank - 1 : MPI_PROC_NULL));
    /* halo exchange along dim 0 works with the computed neighbours */
    int mine = t_rank, got = -1;
    MPI_Cart_shift(cc, 0, 1, &src, &dst);
    MPI_Sendrecv(&mine, 1, MPI_INT, dst, 0, &got, 1, MPI_INT, src, 0, cc,
                 MPI_STATUS_IGNORE);
    CHECK(got == src);
    /* rows: keep dim 1 */
    int keep[2] = { 0, 1 }, n;
    MPI_Cart_sub(cc, keep, &row);
    MPI_Comm_size(row, &n);
    MPI_Comm_rank(row, &r);
    CHECK(n == d[1] && r == col);
    MPI_Cartdim_get(row, &nd);
    CHECK(nd == 1);
    MPI_Cart_map(MPI_COMM_WORLD, 2, d, per, &r);
    CHECK(r == t_rank);
    MPI_Comm_free(&row);
    MPI_Comm_free(&cc);
}

static void graph(void)
{
    /* a ring as a graph: node i connects to i-1 and i+1 */
    int n = t_size, idx[16], edges[32], e = 0, st, nn, ne, cnt, nb[4];
    MPI_Comm g;

    for (int i = 0; i < n; i++) {
        edges[e++] = (i + 1) % n;
        edges[e++] = (i + n - 1) % n;
        idx[i] = e;
    }
    MPI_Graph_create(MPI_COMM_WORLD, n, idx, edges, 0, &g);
    MPI_Topo_test(g, &st);
    CHECK(st == MPI_GRAPH);
    MPI_Graphdims_get(g, &nn, &ne);
    CHECK(nn == n && ne == 2 * n);
    int gi[16], ge[32];
    MPI_Graph_get(g, 16, 32, gi, ge);
    CHECK(gi[n - 1] == 2 * n && ge[0] == 1 % n);
    MPI_Graph_neighbors_count(g, t_rank, &cnt);
    CHECK(cnt == 2);
    MPI_Graph_neighbors(g, t_rank, 4, nb);
    CHECK(nb[0] == (t_rank + 1) % n && nb[1] == (t_rank + n - 1) % n);
    int r;
    MPI_Graph_map(MPI_COMM_WORLD, n, idx, edges, &r);
    CHECK(r == t_rank);
    MPI_Comm d;
    MPI_Comm_dup(g, &d);            /* the topology is copied */
    MPI_Topo_test(d, &st);
    CHECK(st == MPI_GRAPH);
    MPI_Comm_free(&d);
    MPI_Comm_free(&g);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv, "topo");
    dims();
    t_report("dims-create");
    cart();
    t_report("cartesian");
    graph();
    t_report("graph");
    return t_finish();
}
