/* SPDX-License-Identifier: MIT */
/*
 * win_shared.c: MPI_Win_allocate_shared and MPI_Win_shared_query
 * (MPI-3.1 11.2.3): a window whose ranks load and store each other's
 * segments directly.  Each segment is also the rank's memory of an
 * ordinary window (win.c), so MPI_Put, MPI_Get, the accumulates and every
 * synchronisation work on it as on any window; the memory model is
 * unified and MPI_Win_sync is a memory barrier (rma_sync.c).
 *
 * Where the memory is.  On a compute node, in the ranks' own memory,
 * which the others reach through SMARTMAP (shm.c).  By default the
 * segments are contiguous, as the standard asks unless the info key
 * alloc_shared_noncontig is "true": the communicator's rank 0 allocates
 * the whole window, segment after segment in rank order, and every other
 * rank's segment (its baseptr, and what MPI_Win_shared_query gives) is
 * that memory through rank 0's slot.  The kernel lets a rank name
 * another's memory through a slot in its Portals calls as it names its
 * own (docs/SMP.md), so such a segment serves as window memory, send and
 * receive buffer like any other.  With alloc_shared_noncontig each rank
 * allocates its own segment.  Ranks that do not share memory (on other
 * nodes, or on a node that did not group them) get MPI_ERR_RMA_SHARED.
 *
 * On Linux: one POSIX shared memory object holds the whole window (rank
 * 0 creates it, the others open it, it is unlinked once all have it
 * mapped), contiguous whatever the info says; a rank that cannot open it
 * (another host) makes the call fail with MPI_ERR_RMA_SHARED everywhere.
 *
 * Every rank learns whether every rank could do its part before anyone
 * goes on: a failure is every rank's, and nothing is left behind.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef __lwk__
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#endif
#include "rma.h"
#include "shm.h"

struct win_shm {
    void *mem;                  /* what this rank allocated, or NULL */
    size_t map_len;             /* Linux: the whole window, mapped */
    void *base[];               /* every rank's segment, as reached here */
};

/* Is `mine` true on every rank of comm? */
static int all_of(bool mine, MPI_Comm comm, bool *all)
{
    int v = mine, and = 0;
    int rc = coll_allreduce(&v, &and, 1, MPI_INT, MPI_LAND, comm);

    *all = and != 0;
    return rc;
}

/* Every rank could (MPI_SUCCESS), or all fail with `why`. */
static int agree(bool ok, int why, MPI_Comm comm)
{
    bool all;
    int rc = all_of(ok, comm, &all);

    return rc != MPI_SUCCESS ? rc : all ? MPI_SUCCESS : why;
}

/* Every rank's size, and the offsets of the segments laid end to end. */
static int sizes_of(MPI_Aint size, MPI_Comm comm, MPI_Aint *off,
                    MPI_Aint *total)
{
    int rc = coll_allgather(&size, 1, MPI_AINT, off, 1, MPI_AINT, comm);

    *total = 0;
    for (int r = 0; rc == MPI_SUCCESS && r < comm->size; r++) {
        MPI_Aint s = off[r];
        off[r] = *total;
        *total += s;
    }
    return rc;
}

#ifdef __lwk__
static bool noncontig(MPI_Info info)
{
    char v[8] = "";
    int flag = 0;

    if (info != MPI_INFO_NULL)
        MPI_Info_get(info, "alloc_shared_noncontig", sizeof(v) - 1, v, &flag);
    return flag && strcmp(v, "true") == 0;
}

/* Can this rank reach every rank of comm? */
static bool reach_all(MPI_Comm comm)
{
    for (int r = 0; r < comm->size; r++)
        if (r != comm->rank && !shm_peer(comm->local->world[r]))
            return false;
    return true;
}

/* One allocation, rank 0's: segment r at its offset, through its slot. */
static int place_contig(struct win_shm *s, const MPI_Aint *off,
                        MPI_Aint total, MPI_Comm comm)
{
    uint64_t base = 0;
    int rc;

    if (comm->rank == 0 && (s->mem = malloc(total ? (size_t)total : 1)))
        base = (uintptr_t)s->mem;
    rc = coll_bcast(&base, 1, MPI_UINT64_T, 0, comm);
    if (rc == MPI_SUCCESS && base == 0)
        rc = MPI_ERR_NO_MEM;
    for (int r = 0; rc == MPI_SUCCESS && r < comm->size; r++)
        s->base[r] = shm_addr(comm->local->world[0],
                              (char *)(uintptr_t)base + off[r]);
    return rc;
}

/* Each rank's own allocation, reached through its slot. */
static int place_apart(struct win_shm *s, MPI_Aint size, MPI_Comm comm)
{
    uint64_t mine = 0, *all = malloc((size_t)comm->size * sizeof(*all));
    int rc;

    if ((s->mem = malloc(size ? (size_t)size : 1)))
        mine = (uintptr_t)s->mem;
    rc = agree(all != NULL && mine != 0, MPI_ERR_NO_MEM, comm);
    if (rc == MPI_SUCCESS)
        rc = coll_allgather(&mine, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T,
                            comm);
    for (int r = 0; rc == MPI_SUCCESS && r < comm->size; r++)
        s->base[r] = shm_addr(comm->local->world[r],
                              (void *)(uintptr_t)all[r]);
    free(all);
    return rc;
}

/* Apart only if every rank asked (the key is a hint each rank gives). */
static int place(struct win_shm *s, MPI_Aint size, MPI_Info info,
                 MPI_Comm comm)
{
    MPI_Aint *off = malloc((size_t)comm->size * sizeof(*off)), total;
    int rc = agree(off != NULL, MPI_ERR_NO_MEM, comm);
    bool apart = false;

    if (rc == MPI_SUCCESS)
        rc = agree(reach_all(comm), MPI_ERR_RMA_SHARED, comm);
    if (rc == MPI_SUCCESS)
        rc = all_of(noncontig(info), comm, &apart);
    if (rc == MPI_SUCCESS && apart)
        rc = place_apart(s, size, comm);
    else if (rc == MPI_SUCCESS && (rc = sizes_of(size, comm, off, &total)) ==
             MPI_SUCCESS)
        rc = place_contig(s, off, total, comm);
    free(off);
    return rc;
}

static void unplace(struct win_shm *s)
{
    free(s->mem);
}
#else
/* One POSIX shared memory object, mapped whole in every rank. */
static int place(struct win_shm *s, MPI_Aint size, MPI_Info info,
                 MPI_Comm comm)
{
    static unsigned made;
    MPI_Aint *off = malloc((size_t)comm->size * sizeof(*off)), total = 0;
    char name[64] = "";
    int fd = -1, rc = agree(off != NULL, MPI_ERR_NO_MEM, comm);

    (void)info;
    if (rc == MPI_SUCCESS)
        rc = sizes_of(size, comm, off, &total);
    s->map_len = total ? (size_t)total : 1;
    if (rc == MPI_SUCCESS && comm->rank == 0) {
        snprintf(name, sizeof(name), "/lwk-mpi-%d-%u", (int)getpid(), made++);
        fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
        if (fd >= 0 && ftruncate(fd, (off_t)s->map_len) != 0) {
            close(fd);
            fd = -1;
        }
    }
    if (rc == MPI_SUCCESS)
        rc = coll_bcast(name, sizeof(name), MPI_CHAR, 0, comm);
    if (rc == MPI_SUCCESS && comm->rank != 0 && name[0])
        fd = shm_open(name, O_RDWR, 0);
    if (fd >= 0) {
        s->mem = mmap(NULL, s->map_len, PROT_READ | PROT_WRITE, MAP_SHARED,
                      fd, 0);
        close(fd);
        if (s->mem == MAP_FAILED)
            s->mem = NULL;
    }
    if (rc == MPI_SUCCESS)
        rc = agree(s->mem != NULL, MPI_ERR_RMA_SHARED, comm);
    if (comm->rank == 0 && name[0])
        shm_unlink(name);       /* every rank has it mapped, or failed */
    for (int r = 0; rc == MPI_SUCCESS && r < comm->size; r++)
        s->base[r] = (char *)s->mem + off[r];
    free(off);
    return rc;
}

static void unplace(struct win_shm *s)
{
    if (s->mem)
        munmap(s->mem, s->map_len);
}
#endif

void win_shared_free(MPI_Win w)
{
    struct win_shm *s = w->shm;

    if (s == NULL)
        return;
    unplace(s);
    free(s);
    w->shm = NULL;
}

int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info,
                            MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    struct win_shm *s = NULL;
    int rc = win_args(size, disp_unit, comm, win);

    if (rc == MPI_SUCCESS && baseptr == NULL)
        rc = MPI_ERR_ARG;
    if (rc == MPI_SUCCESS)
        rc = agree((s = calloc(1, sizeof(*s) + (size_t)comm->size *
                                         sizeof(void *))) != NULL,
                   MPI_ERR_NO_MEM, comm);
    if (rc == MPI_SUCCESS)
        rc = place(s, size, info, comm);
    if (rc == MPI_SUCCESS)
        rc = win_make(s->base[comm->rank], size, disp_unit,
                      MPI_WIN_FLAVOR_SHARED, info, comm, win);
    if (rc != MPI_SUCCESS) {
        if (s != NULL)
            unplace(s);
        free(s);
        return mpi_err(comm, rc, "MPI_Win_allocate_shared");
    }
    (*win)->shm = s;
    *(void **)baseptr = s->base[comm->rank];
    return MPI_SUCCESS;
}

/* MPI_PROC_NULL: the lowest rank whose segment is not empty (none: a
   size of 0 and a NULL base). */
int MPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size,
                         int *disp_unit, void *baseptr)
{
    int rc = win_check(win), r = rank;

    if (rc == MPI_SUCCESS && win->flavor != MPI_WIN_FLAVOR_SHARED)
        rc = MPI_ERR_RMA_FLAVOR;
    if (rc == MPI_SUCCESS && rank != MPI_PROC_NULL &&
        (rank < 0 || rank >= win->comm->size))
        rc = MPI_ERR_RANK;
    if (rc == MPI_SUCCESS && (size == NULL || disp_unit == NULL ||
                              baseptr == NULL))
        rc = MPI_ERR_ARG;
    if (rc != MPI_SUCCESS)
        return win_err(win, rc, "MPI_Win_shared_query");
    if (rank == MPI_PROC_NULL)
        for (r = 0; r < win->comm->size && win->sizes[r] == 0; r++)
            ;
    if (r == win->comm->size) {
        *size = 0;
        *disp_unit = 1;
        *(void **)baseptr = NULL;
        return MPI_SUCCESS;
    }
    *size = win->sizes[r];
    *disp_unit = win->units[r];
    *(void **)baseptr = win->shm->base[r];
    return MPI_SUCCESS;
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Win_allocate_shared)
PMPI(MPI_Win_shared_query)
