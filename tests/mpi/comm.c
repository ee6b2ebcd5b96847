/* SPDX-License-Identifier: MIT */
/* Groups and communicators: group queries and set operations, translate,
 * compare; dup, create, split (odd/even, reversed keys), free; traffic in
 * a new communicator never matches the old one's. */
#include "mpitest.h"

static void groups(void)
{
    MPI_Group world, evens, odds, u, in, diff, r;
    int n, rank, res, cnt = (t_size + 1) / 2;
    int ev[8], ranks[8], out[8];

    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_size(world, &n);
    MPI_Group_rank(world, &rank);
    CHECK(n == t_size && rank == t_rank);
    for (int i = 0; i < cnt; i++)
        ev[i] = 2 * i;
    MPI_Group_incl(world, cnt, ev, &evens);
    MPI_Group_excl(world, cnt, ev, &odds);
    MPI_Group_size(evens, &n);
    CHECK(n == cnt);
    MPI_Group_rank(evens, &rank);
    CHECK(rank == (t_rank % 2 ? MPI_UNDEFINED : t_rank / 2));
    MPI_Group_union(odds, evens, &u);
    MPI_Group_compare(u, world, &res);
    CHECK(res == (t_size > 2 ? MPI_SIMILAR : (t_size == 1 ? MPI_IDENT : MPI_SIMILAR)));
    MPI_Group_intersection(evens, world, &in);
    MPI_Group_compare(in, evens, &res);
    CHECK(res == MPI_IDENT);
    MPI_Group_difference(world, evens, &diff);
    MPI_Group_compare(diff, odds, &res);
    CHECK(res == MPI_IDENT);
    for (int i = 0; i < t_size; i++)
        ranks[i] = i;
    MPI_Group_translate_ranks(world, t_size, ranks, evens, out);
    for (int i = 0; i < t_size; i++)
        CHECK(out[i] == (i % 2 ? MPI_UNDEFINED : i / 2));
    int range[1][3] = { { t_size - 1, 0, -1 } };     /* reversed */
    MPI_Group_range_incl(world, 1, range, &r);
    MPI_Group_translate_ranks(world, t_size, ranks, r, out);
    for (int i = 0; i < t_size; i++)
        CHECK(out[i] == t_size - 1 - i);
    MPI_Group_free(&r);
    int range2[1][3] = { { 0, t_size - 1, 2 } };
    MPI_Group_range_excl(world, 1, range2, &r);
    MPI_Group_compare(r, odds, &res);
    CHECK(res == MPI_IDENT);
    MPI_Group_free(&r);
    MPI_Group_free(&u);
    MPI_Group_free(&in);
    MPI_Group_free(&diff);
    MPI_Group_free(&evens);
    MPI_Group_free(&odds);
    MPI_Group_free(&world);
    CHECK(world == MPI_GROUP_NULL);
}

static void split(void)
{
    MPI_Comm half, rev;
    int n, r, sum, res;

    /* by parity; within a colour the order is by rank */
    MPI_Comm_split(MPI_COMM_WORLD, t_rank % 2, t_rank, &half);
    MPI_Comm_size(half, &n);
    MPI_Comm_rank(half, &r);
    CHECK(n == (t_size + 1 - t_rank % 2) / 2 && r == t_rank / 2);
    MPI_Allreduce(&t_rank, &sum, 1, MPI_INT, MPI_SUM, half);
    int e = 0;
    for (int k = t_rank % 2; k < t_size; k += 2)
        e += k;
    CHECK(sum == e);
    /* reversed keys reverse the ranks */
    MPI_Comm_split(MPI_COMM_WORLD, 0, -t_rank, &rev);
    MPI_Comm_rank(rev, &r);
    CHECK(r == t_size - 1 - t_rank);
    MPI_Comm_compare(rev, MPI_COMM_WORLD, &res);
    CHECK(res == (t_size == 1 ? MPI_CONGRUENT : MPI_SIMILAR));
    /* MPI_UNDEFINED gives MPI_COMM_NULL */
    MPI_Comm none;
    MPI_Comm_split(MPI_COMM_WORLD, t_rank == 0 ? MPI_UNDEFINED : 1, 0, &none);
    CHECK((t_rank == 0) == (none == MPI_COMM_NULL));
    if (none != MPI_COMM_NULL)
        MPI_Comm_free(&none);
    MPI_Comm_free(&half);
    MPI_Comm_free(&rev);
    CHECK(half == MPI_COMM_NULL);
}

static void dup_create(void)
{
    MPI_Comm d, c;
    MPI_Group world, first;
    int res, v = 0, w = 0, flag;

    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    MPI_Comm_compare(d, MPI_COMM_WORLD, &res);
    CHECK(res == MPI_CONGRUENT);
    MPI_Comm_compare(d, d, &res);
    CHECK(res == MPI_IDENT);
    /* the same tag and source on two communicators stay apart */
    int a = 1, b = 2;
    MPI_Request q[2];
    MPI_Irecv(&v, 1, MPI_INT, t_rank, 0, MPI_COMM_WORLD, &q[0]);
    MPI_Irecv(&w, 1, MPI_INT, t_rank, 0, d, &q[1]);
    MPI_Send(&b, 1, MPI_INT, t_rank, 0, d);
    MPI_Send(&a, 1, MPI_INT, t_rank, 0, MPI_COMM_WORLD);
    MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
    CHECK(v == 1 && w == 2);
    /* collectives on the dup do not interfere with world's */
    int s1 = 0, s2 = 0, one = 1;
    MPI_Allreduce(&one, &s1, 1, MPI_INT, MPI_SUM, d);
    MPI_Allreduce(&t_rank, &s2, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(s1 == t_size && s2 == t_size * (t_size - 1) / 2);
    /* create from the first half of the group */
    int half = (t_size + 1) / 2, ranks[8];
    for (int i = 0; i < half; i++)
        ranks[i] = i;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, half, ranks, &first);
    MPI_Comm_create(MPI_COMM_WORLD, first, &c);
    CHECK((t_rank < half) == (c != MPI_COMM_NULL));
    if (c != MPI_COMM_NULL) {
        int n;
        MPI_Comm_size(c, &n);
        CHECK(n == half);
        MPI_Comm_test_inter(c, &flag);
        CHECK(!flag);
        MPI_Barrier(c);
        MPI_Comm_free(&c);
    }
    MPI_Group_free(&first);
    MPI_Group_free(&world);
    MPI_Comm_free(&d);
    /* many communicators in a row: contexts stay distinct */
    for (int i = 0; i < 50; i++) {
        MPI_Comm_dup(MPI_COMM_WORLD, &d);
        MPI_Barrier(d);
        MPI_Comm_free(&d);
    }
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv, "comm");
    groups();
    t_report("groups");
    split();
    t_report("split");
    dup_create();
    t_report("dup-create-isolation");
    return t_finish();
}
