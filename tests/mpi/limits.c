/* SPDX-License-Identifier: MIT */
/* How many objects live at once, and how many come and go: 1000 windows
 * of each memory flavor at once (twice over), 1000 regions attached to
 * one dynamic window, 10,000 communicators made and freed one at a time
 * by MPI_Comm_dup and as many by MPI_Comm_split (their contexts must be
 * recycled: there are 16384), 3000 of them alive at once, and 1000
 * attribute keys.  The objects are used, not only made: a put through
 * a window and into a region far down the list, a reduction on a
 * communicator among the thousands. */
#include "mpitest.h"

#define NWIN 1000
#define NREG 1000
#define NLOOP 10000
#define NLIVE 3000
#define NKEY 1000

static int right(void) { return (t_rank + 1) % t_size; }
static int left(void) { return (t_rank + t_size - 1) % t_size; }

/* Window i holds 4 ints; every 100th one carries a put to the right. */
static void windows(int flavor)
{
    MPI_Win *w = malloc(NWIN * sizeof(*w));
    int (*mem)[4] = calloc(NWIN, sizeof(*mem)), made = 0;

    for (int round = 0; round < 2; round++) {   /* 2000 made in all */
        for (made = 0; made < NWIN; made++) {
            int rc, *base;
            if (flavor == MPI_WIN_FLAVOR_CREATE) {
                rc = MPI_Win_create(mem[made], sizeof(mem[made]), sizeof(int),
                                    MPI_INFO_NULL, MPI_COMM_WORLD, &w[made]);
                base = mem[made];
            } else {
                rc = MPI_Win_allocate(4 * sizeof(int), sizeof(int),
                                      MPI_INFO_NULL, MPI_COMM_WORLD, &base,
                                      &w[made]);
            }
            if (rc != MPI_SUCCESS)
                break;
            base[0] = -1;
        }
        CHECK(made == NWIN);
        for (int i = 0; i < made; i += 100) {
            int v = 1000 * round + i + t_rank, *base, flag;
            MPI_Win_lock(MPI_LOCK_SHARED, right(), 0, w[i]);
            MPI_Put(&v, 1, MPI_INT, right(), 0, 1, MPI_INT, w[i]);
            MPI_Win_unlock(right(), w[i]);
            MPI_Barrier(MPI_COMM_WORLD);
            MPI_Win_get_attr(w[i], MPI_WIN_BASE, &base, &flag);
            MPI_Win_lock(MPI_LOCK_SHARED, t_rank, 0, w[i]);
            CHECK(flag && base[0] == 1000 * round + i + left());
            MPI_Win_unlock(t_rank, w[i]);
        }
        for (int i = 0; i < made; i++)
            MPI_Win_free(&w[i]);
    }
    free(w);
    free(mem);
}

static void attach(void)
{
    long (*reg)[8] = calloc(NREG, sizeof(*reg));
    MPI_Aint mine[2], *all = malloc(2 * t_size * sizeof(MPI_Aint));
    long v = 7000 + t_rank;
    MPI_Win w;
    int n = 0;

    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
    while (n < NREG && MPI_Win_attach(w, reg[n], sizeof(reg[n])) == 0)
        n++;
    CHECK(n == NREG);
    /* a put into the first region attached and into the last */
    MPI_Get_address(&reg[0][3], &mine[0]);
    MPI_Get_address(&reg[n - 1][5], &mine[1]);
    MPI_Allgather(mine, 2, MPI_AINT, all, 2, MPI_AINT, MPI_COMM_WORLD);
    MPI_Win_lock_all(0, w);
    for (int k = 0; k < 2; k++)
        CHECK(MPI_Put(&v, 1, MPI_LONG, right(), all[2 * right() + k], 1,
                      MPI_LONG, w) == MPI_SUCCESS);
    MPI_Win_unlock_all(w);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(reg[0][3] == 7000 + left() && reg[n - 1][5] == 7000 + left());
    for (int i = 0; i < n; i++)
        CHECK(MPI_Win_detach(w, reg[i]) == MPI_SUCCESS);
    MPI_Win_free(&w);
    free(reg);
    free(all);
}

static void comms_loop(void)
{
    int ok = 0, sum;

    for (int i = 0; i < NLOOP; i++) {
        MPI_Comm c;
        if (MPI_Comm_dup(MPI_COMM_WORLD, &c) != MPI_SUCCESS)
            break;
        ok += MPI_Comm_free(&c) == MPI_SUCCESS;
    }
    CHECK(ok == NLOOP);
    ok = 0;
    for (int i = 0; i < NLOOP; i++) {
        MPI_Comm c;
        if (MPI_Comm_split(MPI_COMM_WORLD, t_rank % 2, -t_rank, &c) != 0)
            break;
        ok += MPI_Comm_free(&c) == MPI_SUCCESS;
    }
    CHECK(ok == NLOOP);
    /* and one at the end still works */
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Allreduce(&t_rank, &sum, 1, MPI_INT, MPI_SUM, c);
    CHECK(sum == t_size * (t_size - 1) / 2);
    MPI_Comm_free(&c);
}

static void comms_live(void)
{
    MPI_Comm *c = malloc(NLIVE * sizeof(*c));
    int made = 0;

    while (made < NLIVE &&
           MPI_Comm_dup(made ? c[made - 1] : MPI_COMM_WORLD, &c[made]) == 0)
        made++;
    CHECK(made == NLIVE);
    for (int i = 0; i < made; i += 499) {   /* each its own context */
        int sum = 0, mine = t_rank + i;
        MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, c[i]);
        CHECK(sum == t_size * (t_size - 1) / 2 + t_size * i);
    }
    for (int i = made - 1; i >= 0; i--)
        MPI_Comm_free(&c[i]);
    free(c);
}

static void keys(void)
{
    int *k = malloc(NKEY * sizeof(int)), made = 0, val[NKEY], *got, flag;

    while (made < NKEY && MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN,
                                                 MPI_COMM_NULL_DELETE_FN,
                                                 &k[made], NULL) == 0)
        made++;
    CHECK(made == NKEY);
    for (int i = 0; i < made; i++) {
        val[i] = i;
        MPI_Comm_set_attr(MPI_COMM_SELF, k[i], &val[i]);
    }
    for (int i = 0; i < made; i += 97) {
        MPI_Comm_get_attr(MPI_COMM_SELF, k[i], &got, &flag);
        CHECK(flag && *got == i);
    }
    for (int i = 0; i < made; i++) {
        MPI_Comm_delete_attr(MPI_COMM_SELF, k[i]);
        MPI_Comm_free_keyval(&k[i]);
    }
    free(k);
}

static void create_windows(void) { windows(MPI_WIN_FLAVOR_CREATE); }
static void allocate_windows(void) { windows(MPI_WIN_FLAVOR_ALLOCATE); }

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        void (*fn)(void);
    } parts[] = { { "1000-windows-created", create_windows },
                  { "1000-windows-allocated", allocate_windows },
                  { "1000-regions-attached", attach },
                  { "10000-comms-dup-and-split", comms_loop },
                  { "3000-comms-live", comms_live },
                  { "1000-keyvals", keys } };

    t_init(&argc, &argv, "limits");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
        parts[i].fn();
        t_report(parts[i].name);
    }
    return t_finish();
}
