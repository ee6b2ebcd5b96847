/* SPDX-License-Identifier: MIT */
/*
 * group.c: process groups, an ordered array of world ranks, and the
 * MPI_Group_* set operations.  A group knows the caller's rank in it.
 */
#include <stdlib.h>
#include <string.h>
#include "mpi_impl.h"

struct mpi_group_s mpi_group_empty_ = {
    .refs = 1, .builtin = true, .size = 0, .myrank = MPI_UNDEFINED,
    .world = NULL,
};

MPI_Group group_new(int size, const int *world)
{
    struct mpi_group_s *g;
    int me = proto_world_rank();

    if (size == 0) {
        return MPI_GROUP_EMPTY;
    }
    if ((g = calloc(1, sizeof(*g))) == NULL ||
        (g->world = malloc((size_t)size * sizeof(int))) == NULL) {
        free(g);
        return NULL;
    }
    g->refs = 1;
    g->size = size;
    g->myrank = MPI_UNDEFINED;
    memcpy(g->world, world, (size_t)size * sizeof(int));
    for (int i = 0; i < size; i++)
        if (world[i] == me)
            g->myrank = i;
    return g;
}

void group_retain(MPI_Group g)
{
    if (!g->builtin)
        g->refs++;
}

void group_release(MPI_Group g)
{
    if (g == NULL || g->builtin || --g->refs > 0)
        return;
    free(g->world);
    free(g);
}

int group_rank_of_world(MPI_Group g, int world)
{
    for (int i = 0; i < g->size; i++)
        if (g->world[i] == world)
            return i;
    return MPI_UNDEFINED;
}

static int gcheck(MPI_Group g)
{
    return (g == MPI_GROUP_NULL || g->refs <= 0) ? MPI_ERR_GROUP
                                                  : MPI_SUCCESS;
}

#define GERR(rc, name) mpi_err(MPI_COMM_WORLD, rc, name)

/* A new group's handle is MPI_GROUP_NULL until the call succeeds. */
#define GROUP_OUT_NULL(out, name)                                      \
    do {                                                               \
        if ((out) == NULL)                                             \
            return GERR(MPI_ERR_ARG, name);                            \
        *(out) = MPI_GROUP_NULL;                                       \
    } while (0)

/* Hand a freshly built list to the caller as a group. */
static int group_out(int n, const int *w, MPI_Group *out, const char *name)
{
    MPI_Group g = group_new(n, w);

    if (g == NULL)
        return GERR(MPI_ERR_INTERN, name);
    *out = g;
    return MPI_SUCCESS;
}

int MPI_Group_size(MPI_Group g, int *size)
{
    if (gcheck(g))
        return GERR(MPI_ERR_GROUP, "MPI_Group_size");
    *size = g->size;
    return MPI_SUCCESS;
}

int MPI_Group_rank(MPI_Group g, int *rank)
{
    if (gcheck(g))
        return GERR(MPI_ERR_GROUP, "MPI_Group_rank");
    *rank = g->myrank;
    return MPI_SUCCESS;
}

int MPI_Group_translate_ranks(MPI_Group g1, int n, const int *r1, MPI_Group g2,
                              int *r2)
{
    if (gcheck(g1) || gcheck(g2))
        return GERR(MPI_ERR_GROUP, "MPI_Group_translate_ranks");
    for (int i = 0; i < n; i++) {
        if (r1[i] == MPI_PROC_NULL) {
            r2[i] = MPI_PROC_NULL;
            continue;
        }
        if (r1[i] < 0 || r1[i] >= g1->size)
            return GERR(MPI_ERR_RANK, "MPI_Group_translate_ranks");
        r2[i] = group_rank_of_world(g2, g1->world[r1[i]]);
    }
    return MPI_SUCCESS;
}

int MPI_Group_compare(MPI_Group g1, MPI_Group g2, int *result)
{
    bool same_order = true;

    if (gcheck(g1) || gcheck(g2))
        return GERR(MPI_ERR_GROUP, "MPI_Group_compare");
    *result = MPI_UNEQUAL;
    if (g1->size != g2->size)
        return MPI_SUCCESS;
    for (int i = 0; i < g1->size; i++) {
        if (group_rank_of_world(g2, g1->world[i]) == MPI_UNDEFINED)
            return MPI_SUCCESS;
        if (g1->world[i] != g2->world[i])
            same_order = false;
    }
    *result = same_order ? MPI_IDENT : MPI_SIMILAR;
    return MPI_SUCCESS;
}

/* Set operations: op 0 union, 1 intersection, 2 difference; the result
 * keeps g1's order, then (union) g2's. */
static int setop(MPI_Group g1, MPI_Group g2, int op, MPI_Group *out,
                 const char *name)
{
    int *w, n = 0, rc;

    GROUP_OUT_NULL(out, name);
    if (gcheck(g1) || gcheck(g2))
        return GERR(MPI_ERR_GROUP, name);
    if ((w = malloc(((size_t)g1->size + (size_t)g2->size + 1) *
                    sizeof(int))) == NULL)
        return GERR(MPI_ERR_INTERN, name);
    for (int i = 0; i < g1->size; i++) {
        bool in2 = group_rank_of_world(g2, g1->world[i]) != MPI_UNDEFINED;
        if (op == 0 || (op == 1 && in2) || (op == 2 && !in2))
            w[n++] = g1->world[i];
    }
    for (int i = 0; op == 0 && i < g2->size; i++)
        if (group_rank_of_world(g1, g2->world[i]) == MPI_UNDEFINED)
            w[n++] = g2->world[i];
    rc = group_out(n, w, out, name);
    free(w);
    return rc;
}

int MPI_Group_union(MPI_Group g1, MPI_Group g2, MPI_Group *out)
{
    return setop(g1, g2, 0, out, "MPI_Group_union");
}

int MPI_Group_intersection(MPI_Group g1, MPI_Group g2, MPI_Group *out)
{
    return setop(g1, g2, 1, out, "MPI_Group_intersection");
}

int MPI_Group_difference(MPI_Group g1, MPI_Group g2, MPI_Group *out)
{
    return setop(g1, g2, 2, out, "MPI_Group_difference");
}

/* ranks must be valid and distinct. */
static int check_ranks(MPI_Group g, int n, const int *ranks, bool *seen)
{
    if (n < 0 || n > g->size)
        return MPI_ERR_ARG;
    for (int i = 0; i < n; i++) {
        if (ranks[i] < 0 || ranks[i] >= g->size || seen[ranks[i]])
            return MPI_ERR_RANK;
        seen[ranks[i]] = true;
    }
    return MPI_SUCCESS;
}

/* incl keeps the listed ranks in list order; excl the others in order. */
static int inclexcl(MPI_Group g, int n, const int *ranks, bool incl,
                    MPI_Group *out, const char *name)
{
    bool *seen;
    int *w, k = 0, rc;

    GROUP_OUT_NULL(out, name);
    if (gcheck(g))
        return GERR(MPI_ERR_GROUP, name);
    seen = calloc((size_t)g->size + 1, sizeof(bool));
    w = malloc(((size_t)g->size + 1) * sizeof(int));
    rc = (seen && w) ? check_ranks(g, n, ranks, seen) : MPI_ERR_INTERN;
    if (rc == MPI_SUCCESS) {
        if (incl)
            for (int i = 0; i < n; i++)
                w[k++] = g->world[ranks[i]];
        else
            for (int i = 0; i < g->size; i++)
                if (!seen[i])
                    w[k++] = g->world[i];
        rc = group_out(k, w, out, name);
    } else {
        rc = GERR(rc, name);
    }
    free(seen);
    free(w);
    return rc;
}

int MPI_Group_incl(MPI_Group g, int n, const int *ranks, MPI_Group *out)
{
    return inclexcl(g, n, ranks, true, out, "MPI_Group_incl");
}

int MPI_Group_excl(MPI_Group g, int n, const int *ranks, MPI_Group *out)
{
    return inclexcl(g, n, ranks, false, out, "MPI_Group_excl");
}

/* Expand (first, last, stride) triplets into a rank list. */
static int expand_ranges(MPI_Group g, int n, int r[][3], int **list, int *cnt)
{
    int total = 0, *l;

    for (int i = 0; i < n; i++) {
        if (r[i][2] == 0)
            return MPI_ERR_ARG;
        int m = (r[i][1] - r[i][0]) / r[i][2];
        if (m < 0)
            return MPI_ERR_ARG;
        total += m + 1;
    }
    if (total > g->size)
        return MPI_ERR_RANK;
    if ((l = malloc(((size_t)total + 1) * sizeof(int))) == NULL)
        return MPI_ERR_INTERN;
    total = 0;
    for (int i = 0; i < n; i++) {
        int m = (r[i][1] - r[i][0]) / r[i][2];
        for (int j = 0; j <= m; j++)
            l[total++] = r[i][0] + j * r[i][2];
    }
    *list = l;
    *cnt = total;
    return MPI_SUCCESS;
}

static int range(MPI_Group g, int n, int r[][3], bool incl, MPI_Group *out,
                 const char *name)
{
    int *list = NULL, cnt = 0, rc;

    GROUP_OUT_NULL(out, name);
    if (gcheck(g))
        return GERR(MPI_ERR_GROUP, name);
    if ((rc = expand_ranges(g, n, r, &list, &cnt)) != MPI_SUCCESS)
        return GERR(rc, name);
    rc = inclexcl(g, cnt, list, incl, out, name);
    free(list);
    return rc;
}

int MPI_Group_range_incl(MPI_Group g, int n, int r[][3], MPI_Group *out)
{
    return range(g, n, r, true, out, "MPI_Group_range_incl");
}

int MPI_Group_range_excl(MPI_Group g, int n, int r[][3], MPI_Group *out)
{
    return range(g, n, r, false, out, "MPI_Group_range_excl");
}

int MPI_Group_free(MPI_Group *g)
{
    if (g == NULL || gcheck(*g))
        return GERR(MPI_ERR_GROUP, "MPI_Group_free");
    group_release(*g);
    *g = MPI_GROUP_NULL;
    return MPI_SUCCESS;
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Group_size)
PMPI(MPI_Group_rank)
PMPI(MPI_Group_translate_ranks)
PMPI(MPI_Group_compare)
PMPI(MPI_Group_union)
PMPI(MPI_Group_intersection)
PMPI(MPI_Group_difference)
PMPI(MPI_Group_incl)
PMPI(MPI_Group_excl)
PMPI(MPI_Group_range_incl)
PMPI(MPI_Group_range_excl)
PMPI(MPI_Group_free)
