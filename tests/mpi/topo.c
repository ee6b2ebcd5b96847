/* SPDX-License-Identifier: MIT */
/* Topologies: Dims_create, Cartesian create/get/rank/coords/shift/sub/map
 * (periodic and not), graph create/get/neighbors/map, Topo_test; the
 * standard's errors (MPI-3.1 7.5) and corners (no dimensions, coordinates
 * outside a grid); Dims_create's split against the closest one found
 * here by trying every factorisation. */
#include "mpitest.h"

/* The smallest (largest - smallest factor) of n split into k factors
 * f[0] >= ... >= f[k-1], each at most top (every split tried). */
static int best_gap(int n, int k, int top, int first)
{
    int best = -1;

    if (k == 1)
        return n <= top ? (first ? first : n) - n : -1;
    for (int f = top; f >= 1; f--) {
        if (n % f)
            continue;
        int g = best_gap(n / f, k - 1, f, first ? first : f);
        if (g >= 0 && (best < 0 || g < best))
            best = g;
    }
    return best;
}

static void dims_closest(void)
{
    int d[4], rc;

    for (int n = 1; n <= 160; n++)
        for (int k = 1; k <= 4; k++) {
            long prod = 1;
            for (int i = 0; i < 4; i++)
                d[i] = 0;
            CHECK(MPI_Dims_create(n, k, d) == MPI_SUCCESS);
            for (int i = 0; i < k; i++) {
                prod *= d[i];
                CHECK(i == 0 || d[i] <= d[i - 1]);
            }
            CHECK(prod == n);
            CHECK(d[0] - d[k - 1] == best_gap(n, k, n, 0));
        }
    d[0] = d[1] = 0;
    MPI_Dims_create(72, 2, d);
    CHECK(d[0] == 9 && d[1] == 8);      /* not 12 x 6 */
    d[0] = d[1] = 0;                    /* a large prime, at once */
    MPI_Dims_create(2147483647, 2, d);
    CHECK(d[0] == 2147483647 && d[1] == 1);
    /* fixed entries stay; the standard's example (0,3,0) of 6 */
    d[0] = 0, d[1] = 3, d[2] = 0;
    MPI_Dims_create(6, 3, d);
    CHECK(d[0] == 2 && d[1] == 3 && d[2] == 1);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    d[0] = -1, d[1] = 0;
    MPI_Error_class(MPI_Dims_create(6, 2, d), &rc);
    CHECK(rc == MPI_ERR_DIMS);          /* negative entry */
    d[0] = 4, d[1] = 0;
    MPI_Error_class(MPI_Dims_create(6, 2, d), &rc);
    CHECK(rc == MPI_ERR_DIMS);          /* 6 is not a multiple of 4 */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

/* What the standard says a grid does at and past its edges, and with no
 * dimensions at all. */
static void cart_corners(void)
{
    int d[2] = { t_size, 1 }, per[2] = { 0, 5 }, gd[2], gp[2], c[2], r, rc;
    int src, dst, keep[2] = { 0, 0 }, n, nd;
    MPI_Comm cc, sub, zero;

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Cart_create(MPI_COMM_WORLD, 2, d, per, 0, &cc);
    MPI_Comm_set_errhandler(cc, MPI_ERRORS_RETURN);
    MPI_Cart_get(cc, 2, gd, gp, c);
    CHECK(gp[0] == 0 && gp[1] == 1);    /* a logical: true is 1 */
    /* past a non-periodic edge: MPI_PROC_NULL, also by more than 1 */
    MPI_Cart_shift(cc, 0, t_size, &src, &dst);
    CHECK(src == MPI_PROC_NULL && dst == MPI_PROC_NULL);
    MPI_Cart_shift(cc, 0, -1, &src, &dst);
    CHECK(dst == (t_rank > 0 ? t_rank - 1 : MPI_PROC_NULL));
    CHECK(src == (t_rank < t_size - 1 ? t_rank + 1 : MPI_PROC_NULL));
    /* the periodic dimension of 1 wraps onto itself */
    MPI_Cart_shift(cc, 1, 3, &src, &dst);
    CHECK(src == t_rank && dst == t_rank);
    /* coordinates outside a non-periodic dimension are an error; in a
     * periodic one they wrap */
    c[0] = t_size, c[1] = 0;
    MPI_Error_class(MPI_Cart_rank(cc, c, &r), &rc);
    CHECK(rc == MPI_ERR_ARG);
    c[0] = -1;
    MPI_Error_class(MPI_Cart_rank(cc, c, &r), &rc);
    CHECK(rc == MPI_ERR_ARG);
    c[0] = t_rank, c[1] = -7;
    CHECK(MPI_Cart_rank(cc, c, &r) == MPI_SUCCESS && r == t_rank);
    MPI_Error_class(MPI_Cart_coords(cc, t_size, 2, c), &rc);
    CHECK(rc == MPI_ERR_RANK);
    /* nothing kept: each rank alone, with no dimensions */
    MPI_Cart_sub(cc, keep, &sub);
    MPI_Comm_size(sub, &n);
    MPI_Cartdim_get(sub, &nd);
    CHECK(n == 1 && nd == 0);
    MPI_Comm_free(&sub);
    MPI_Comm_free(&cc);
    /* no dimensions: one process (rank 0), the others MPI_COMM_NULL */
    MPI_Cart_create(MPI_COMM_WORLD, 0, NULL, NULL, 0, &zero);
    CHECK((zero != MPI_COMM_NULL) == (t_rank == 0));
    if (zero != MPI_COMM_NULL) {
        MPI_Comm_size(zero, &n);
        MPI_Cartdim_get(zero, &nd);
        CHECK(n == 1 && nd == 0);
        MPI_Comm_free(&zero);
    }
    /* the arguments the standard rules out */
    d[0] = 0;
    MPI_Error_class(MPI_Cart_create(MPI_COMM_WORLD, 1, d, per, 0, &cc), &rc);
    CHECK(rc == MPI_ERR_DIMS && cc == MPI_COMM_NULL);
    d[0] = t_size + 1;
    MPI_Error_class(MPI_Cart_create(MPI_COMM_WORLD, 1, d, per, 0, &cc), &rc);
    CHECK(rc == MPI_ERR_DIMS && cc == MPI_COMM_NULL);
    d[0] = 0;
    MPI_Error_class(MPI_Cart_map(MPI_COMM_WORLD, 1, d, per, &r), &rc);
    CHECK(rc == MPI_ERR_DIMS);
    int idx[2] = { 1, 0 }, edges[1] = { 0 };
    MPI_Error_class(MPI_Graph_create(MPI_COMM_WORLD, 2 < t_size ? 2 : 1, idx,
                                     edges, 0, &cc), &rc);
    CHECK(t_size < 2 || (rc == MPI_ERR_ARG && cc == MPI_COMM_NULL));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

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
    dims_closest();
    t_report("dims-create-closest");
    cart_corners();
    t_report("cartesian-edges-and-errors");
    cart();
    t_report("cartesian");
    graph();
    t_report("graph");
    return t_finish();
}
