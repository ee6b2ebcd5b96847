/* SPDX-License-Identifier: MIT */
/* MPI-2/3 communicator calls: MPI_Comm_split_type groups the ranks of one
 * node (here computed from the host name on Linux and the node id on the
 * nodes, or, given "per-node K", from yod's placement in virtual-node
 * mode: ranks K*i .. K*i+K-1 share node i), in key order, MPI_UNDEFINED
 * gets none; MPI_Comm_create_group called by the members only, two groups
 * at once with different tags.  Usage: commx [per-node K] */
#include <stdio.h>
#include <unistd.h>
#include "mpitest.h"

#define NODE 64

static int per_node;            /* ranks per node as yod -vn places them */

/* This rank's node, found without the library's help. */
static void node_of(char *out)
{
    memset(out, 0, NODE);
    if (per_node > 0) {
        snprintf(out, NODE, "node %d", t_rank / per_node);
        return;
    }
#ifdef __lwk__
    int len;
    char p[MPI_MAX_PROCESSOR_NAME];
    MPI_Get_processor_name(p, &len);    /* "nid N": the node itself */
    memcpy(out, p, len < NODE - 1 ? (size_t)len : NODE - 1);
#else
    gethostname(out, NODE - 1);
#endif
}

static void split_type(void)
{
    char mine[NODE], *all = malloc((size_t)t_size * NODE);
    int n = 0, pos = 0, size, rank, world_of_0;
    MPI_Comm node, none;

    node_of(mine);
    MPI_Allgather(mine, NODE, MPI_CHAR, all, NODE, MPI_CHAR, MPI_COMM_WORLD);
    /* key -rank: the new ranks run backwards */
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, -t_rank,
                        MPI_INFO_NULL, &node);
    for (int r = t_size - 1; r >= 0; r--)
        if (memcmp(all + (size_t)r * NODE, mine, NODE) == 0) {
            if (r == t_rank)
                pos = n;
            n++;
        }
    MPI_Comm_size(node, &size);
    MPI_Comm_rank(node, &rank);
    CHECK(size == n && rank == pos);
    /* its rank 0 is the highest world rank on the node */
    world_of_0 = t_rank;
    MPI_Bcast(&world_of_0, 1, MPI_INT, 0, node);
    for (int r = t_size - 1; r >= 0; r--)
        if (memcmp(all + (size_t)r * NODE, mine, NODE) == 0) {
            CHECK(world_of_0 == r);
            break;
        }
    MPI_Comm_free(&node);
    MPI_Comm_split_type(MPI_COMM_WORLD,
                        t_rank % 2 ? MPI_UNDEFINED : MPI_COMM_TYPE_SHARED, 0,
                        MPI_INFO_NULL, &none);
    CHECK((t_rank % 2 == 1) == (none == MPI_COMM_NULL));
    if (none != MPI_COMM_NULL)
        MPI_Comm_free(&none);
    free(all);
}

/* Even ranks make a communicator of themselves while odd ranks do the
 * same, at the same time, with another tag; nobody else takes part. */
static void create_group(void)
{
    MPI_Group world, g;
    MPI_Comm c;
    int par = t_rank % 2, n = 0, ranks[64], size, rank, sum = 0, want = 0;

    for (int r = par; r < t_size; r += 2) {
        ranks[n++] = r;
        want += r;
    }
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, n, ranks, &g);
    MPI_Comm_create_group(MPI_COMM_WORLD, g, 100 + par, &c);
    MPI_Comm_size(c, &size);
    MPI_Comm_rank(c, &rank);
    CHECK(size == n && rank == t_rank / 2);
    MPI_Allreduce(&t_rank, &sum, 1, MPI_INT, MPI_SUM, c);
    CHECK(sum == want);
    /* a point-to-point message inside it stays inside it */
    int to = (rank + 1) % size, from = (rank + size - 1) % size, v = -1;
    MPI_Sendrecv(&t_rank, 1, MPI_INT, to, 0, &v, 1, MPI_INT, from, 0, c,
                 MPI_STATUS_IGNORE);
    CHECK(v == ranks[from]);
    MPI_Comm_free(&c);
    MPI_Group_free(&g);
    /* a group that is not a subgroup of the communicator is refused */
    if (t_size > 1) {
        int other = (t_rank + 1) % t_size;
        MPI_Group_incl(world, 1, &other, &g);
        CHECK(MPI_Comm_create_group(MPI_COMM_SELF, g, 5, &c) ==
              MPI_ERR_GROUP);
        MPI_Group_free(&g);
    }
    MPI_Group_free(&world);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv, "commx");
    if (argc > 2 && strcmp(argv[1], "per-node") == 0)
        per_node = atoi(argv[2]);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    split_type();
    t_report("split-type-shared");
    create_group();
    t_report("create-group");
    return t_finish();
}
