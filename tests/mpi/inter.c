/* SPDX-License-Identifier: MIT */
/* Intercommunicators: create from two halves of world, remote size and
 * group, point-to-point across, dup, merge (high/low order). */
#include "mpitest.h"

int main(int argc, char **argv)
{
    MPI_Comm half, inter, merged, idup;
    int color, lsize, rsize, flag, r;

    t_init(&argc, &argv, "inter");
    color = t_rank < t_size / 2 ? 0 : 1;        /* low half, high half */
    MPI_Comm_split(MPI_COMM_WORLD, color, t_rank, &half);
    /* leaders: world rank 0 and world rank size/2 */
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, color ? 0 : t_size / 2, 17,
                         &inter);
    MPI_Comm_test_inter(inter, &flag);
    MPI_Comm_size(inter, &lsize);
    MPI_Comm_remote_size(inter, &rsize);
    CHECK(flag);
    CHECK(lsize == (color ? t_size - t_size / 2 : t_size / 2));
    CHECK(rsize == t_size - lsize);
    MPI_Group rg;
    MPI_Comm_remote_group(inter, &rg);
    int zero = 0, w;
    MPI_Group wg;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_translate_ranks(rg, 1, &zero, wg, &w);
    CHECK(w == (color ? 0 : t_size / 2));
    MPI_Group_free(&rg);
    MPI_Group_free(&wg);
    t_report("create-sizes-groups");

    /* rank i of each side exchanges with rank i of the other (if any) */
    MPI_Comm_rank(inter, &r);
    if (r < rsize) {
        int v = t_rank, got = -1;
        MPI_Status st;
        MPI_Sendrecv(&v, 1, MPI_INT, r, 3, &got, 1, MPI_INT, r, 3, inter, &st);
        int peer = color ? r : t_size / 2 + r;
        CHECK(got == peer && st.MPI_SOURCE == r);
    }
    t_report("point-to-point-across");

    MPI_Comm_dup(inter, &idup);
    MPI_Comm_test_inter(idup, &flag);
    CHECK(flag);
    if (r < rsize) {
        int v = 100 + t_rank, got = -1;
        MPI_Sendrecv(&v, 1, MPI_INT, r, 3, &got, 1, MPI_INT, r, 3, idup,
                     MPI_STATUS_IGNORE);
        CHECK(got == 100 + (color ? r : t_size / 2 + r));
    }
    MPI_Comm_free(&idup);
    t_report("dup");

    /* merge with the high half first: its ranks come first */
    MPI_Intercomm_merge(inter, color == 0, &merged);
    MPI_Comm_rank(merged, &r);
    int n;
    MPI_Comm_size(merged, &n);
    CHECK(n == t_size);
    CHECK(r == (color ? t_rank - t_size / 2 : t_rank + (t_size - t_size / 2)));
    int sum = 0;
    MPI_Allreduce(&t_rank, &sum, 1, MPI_INT, MPI_SUM, merged);
    CHECK(sum == t_size * (t_size - 1) / 2);
    MPI_Comm_free(&merged);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
    t_report("merge");
    return t_finish();
}
