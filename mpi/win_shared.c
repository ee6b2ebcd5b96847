/* SPDX-License-Identifier: MIT */
/*
 * win_shared.c: windows whose memory the processes share (MPI-3.1
 * 11.2.3): MPI_Win_allocate_shared and MPI_Win_shared_query.  The
 * segments of all ranks are one block, rank after rank with no gap (the
 * standard's default), that every rank maps; each rank's part is also an
 * ordinary window (win.c), so RMA calls work on it as on any other.
 *
 * Who can share: a communicator of one process, anywhere; on Linux, the
 * processes of one host, through a POSIX shared memory object.  Ranks on
 * the compute nodes do not share memory (yet: a node's ranks in
 * virtual-node mode are separate address spaces), nor do ranks of
 * several hosts: MPI_ERR_RMA_SHARED then, as the standard says.  This
 * file is the one to change when they can.
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
#include "coll.h"

struct shm {
    char *base;                 /* the block, every rank's part in it */
    size_t len;
    bool mapped;                /* munmap (else free) */
    MPI_Aint *off, *size;       /* per rank */
};

static void shm_free(struct shm *m)
{
    if (m == NULL)
        return;
#ifndef __lwk__
    if (m->mapped)
        munmap(m->base, m->len ? m->len : 1);
    else
#endif
        free(m->base);
    free(m->off);
    free(m->size);
    free(m);
}

void win_shared_free(MPI_Win w)
{
    shm_free(w->shm);
    w->shm = NULL;
}

#ifndef __lwk__
/* The processes of one host map one POSIX shared memory object: rank 0
 * makes it, the others open it, and it is unlinked once all have (or
 * one could not).  Every rank learns whether every rank could. */
static int map_shared(MPI_Comm comm, struct shm *m)
{
    static unsigned serial;
    char name[64];
    int fd = -1, ok = 1, all = 0, rc;

    if (comm->rank == 0)
        snprintf(name, sizeof(name), "/lwk-mpi-%ld-%u", (long)getpid(),
                 serial++);
    rc = coll_bcast(name, sizeof(name), MPI_CHAR, 0, comm);
    if (rc == MPI_SUCCESS && comm->rank == 0) {
        fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
        ok = fd >= 0 && ftruncate(fd, (off_t)(m->len ? m->len : 1)) == 0;
    }
    if (rc == MPI_SUCCESS)      /* the object exists before others open */
        rc = coll_bcast(&ok, 1, MPI_INT, 0, comm);
    if (rc == MPI_SUCCESS && ok && comm->rank != 0)
        ok = (fd = shm_open(name, O_RDWR, 0)) >= 0;
    if (rc == MPI_SUCCESS && ok) {
        m->base = mmap(NULL, m->len ? m->len : 1, PROT_READ | PROT_WRITE,
                       MAP_SHARED, fd, 0);
        ok = m->base != MAP_FAILED;
        m->mapped = ok;
        if (!ok)
            m->base = NULL;
    }
    if (fd >= 0)
        close(fd);
    if (rc == MPI_SUCCESS)
        rc = coll_allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, comm);
    if (comm->rank == 0 && fd >= 0)
        shm_unlink(name);
    if (rc == MPI_SUCCESS && !all)
        rc = ERRC_NO_SHARED;
    return rc;
}
#endif

/* The block every rank's part is in: every rank's size, then memory
 * they all share, or ERRC_NO_SHARED (collective). */
static int shared_block(MPI_Comm comm, MPI_Aint size, struct shm **out)
{
    struct shm *m = calloc(1, sizeof(*m));
    int n = comm->size, rc = MPI_SUCCESS;
    bool one = true;

    *out = NULL;
    if (m == NULL || !(m->off = calloc((size_t)n, sizeof(MPI_Aint))) ||
        !(m->size = calloc((size_t)n, sizeof(MPI_Aint))))
        rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS)
        rc = coll_allgather(&size, 1, MPI_AINT, m->size, 1, MPI_AINT, comm);
    for (int i = 0; rc == MPI_SUCCESS && i < n; i++) {
        m->off[i] = (MPI_Aint)m->len;
        m->len += (size_t)m->size[i];
    }
    if (rc == MPI_SUCCESS && n > 1)
        rc = comm_one_node(comm, &one);
    if (rc == MPI_SUCCESS && n == 1 &&
        (m->base = malloc(m->len ? m->len : 1)) == NULL)
        rc = MPI_ERR_NO_MEM;
#ifdef __lwk__
    if (rc == MPI_SUCCESS && n > 1)
        rc = ERRC_NO_SHARED;    /* no two ranks share memory on a node */
#else
    if (rc == MPI_SUCCESS && n > 1)
        rc = one ? map_shared(comm, m) : ERRC_NO_SHARED;
#endif
    if (rc != MPI_SUCCESS) {
        shm_free(m);
        return rc;
    }
    *out = m;
    return MPI_SUCCESS;
}

int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info,
                            MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    int rc = comm_check(comm);
    struct shm *m = NULL;
    char *base = NULL;

    if (win != NULL)
        *win = MPI_WIN_NULL;
    if (rc == MPI_SUCCESS && comm->inter)
        rc = MPI_ERR_COMM;
    if (rc == MPI_SUCCESS && (baseptr == NULL || win == NULL))
        rc = MPI_ERR_ARG;
    if (rc == MPI_SUCCESS && size < 0)
        rc = MPI_ERR_SIZE;
    if (rc == MPI_SUCCESS && disp_unit <= 0)
        rc = MPI_ERR_DISP;
    if (rc == MPI_SUCCESS)
        rc = shared_block(comm, size, &m);
    if (rc == MPI_SUCCESS) {
        base = m->base + m->off[comm->rank];
        rc = win_make(base, size, disp_unit, MPI_WIN_FLAVOR_SHARED, info,
                      comm, win);
    }
    if (rc != MPI_SUCCESS) {
        shm_free(m);
        return mpi_err(comm, rc, "MPI_Win_allocate_shared");
    }
    (*win)->shm = m;
    *(void **)baseptr = base;
    return MPI_SUCCESS;
}

/* Where rank's part is in this process's memory; MPI_PROC_NULL: the
 * first part that has any. */
int MPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size,
                         int *disp_unit, void *baseptr)
{
    int rc = win_check(win);
    struct shm *m;

    if (rc == MPI_SUCCESS && win->shm == NULL)
        rc = MPI_ERR_RMA_FLAVOR;
    if (rc == MPI_SUCCESS && (size == NULL || disp_unit == NULL ||
                              baseptr == NULL))
        rc = MPI_ERR_ARG;
    if (rc == MPI_SUCCESS && rank != MPI_PROC_NULL &&
        (rank < 0 || rank >= win->comm->size))
        rc = MPI_ERR_RANK;
    if (rc != MPI_SUCCESS)
        return win_err(win, rc, "MPI_Win_shared_query");
    m = win->shm;
    if (rank == MPI_PROC_NULL) {
        rank = 0;
        while (rank < win->comm->size - 1 && m->size[rank] == 0)
            rank++;
    }
    *size = m->size[rank];
    *disp_unit = win->units[rank];
    *(void **)baseptr = m->size[rank] ? m->base + m->off[rank] : NULL;
    return MPI_SUCCESS;
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Win_allocate_shared)
PMPI(MPI_Win_shared_query)
