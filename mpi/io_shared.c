/* SPDX-License-Identifier: MIT */
/*
 * io_shared.c: the shared file pointer (MPI-3.1 13.4.4): one offset, in
 * etypes of the view, that every rank of the file moves.  It lives at
 * rank 0 of the file's communicator in a one-sided window made when the
 * file is opened; a rank takes its part with a fetch-and-add there (a
 * Portals atomic: rank 0's CPU is not involved), so independent
 * MPI_File_read_shared and _write_shared calls get parts that never
 * overlap, in whatever order they come.  The ordered calls give the
 * ranks parts in rank order, one after another; MPI_File_seek_shared
 * sets it (collective).
 */
#include <stdlib.h>
#include "io.h"

/* A window over the counter at rank 0 (nothing at the others), always
 * in a passive epoch: each access is an atomic flushed at once. */
int sfp_open(MPI_File f, MPI_Offset pos)
{
    bool zero = f->comm->rank == 0;
    int rc;

    f->sfp = pos;
    rc = MPI_Win_create(zero ? &f->sfp : NULL,
                        zero ? (MPI_Aint)sizeof(f->sfp) : 0,
                        (int)sizeof(f->sfp), MPI_INFO_NULL, f->comm,
                        &f->sfp_win);
    if (rc == MPI_SUCCESS)
        rc = MPI_Win_set_errhandler(f->sfp_win, MPI_ERRORS_RETURN);
    if (rc == MPI_SUCCESS)
        rc = MPI_Win_lock_all(MPI_MODE_NOCHECK, f->sfp_win);
    return rc;
}

void sfp_close(MPI_File f)
{
    if (f->sfp_win == MPI_WIN_NULL)
        return;
    MPI_Win_unlock_all(f->sfp_win);
    MPI_Win_free(&f->sfp_win);
}

/* The pointer's value before adding n etypes (n 0: just read it). */
static int sfp_fetch_add(MPI_File f, MPI_Offset n, MPI_Offset *old)
{
    int rc = MPI_Fetch_and_op(&n, old, MPI_OFFSET, 0, 0,
                              n ? MPI_SUM : MPI_NO_OP, f->sfp_win);
    return rc ? rc : MPI_Win_flush(0, f->sfp_win);
}

/* Collective: everyone's accesses so far are done, then it is pos. */
int sfp_reset(MPI_File f, MPI_Offset pos)
{
    MPI_Offset old;
    int rc = coll_barrier(f->comm);

    if (rc == MPI_SUCCESS && f->comm->rank == 0)
        rc = MPI_Fetch_and_op(&pos, &old, MPI_OFFSET, 0, 0, MPI_REPLACE,
                              f->sfp_win);
    if (rc == MPI_SUCCESS && f->comm->rank == 0)
        rc = MPI_Win_flush(0, f->sfp_win);
    return rc ? rc : coll_barrier(f->comm);
}

/* The etypes count items of dt hold (a whole number, io_access checks). */
static MPI_Offset etypes(MPI_File f, int count, MPI_Datatype dt)
{
    if (count < 0 || dt_check(dt) != MPI_SUCCESS || f->etype->size == 0)
        return 0;
    return (MPI_Offset)count * dt->size / f->etype->size;
}

static int shared_access(MPI_File f, bool wr, void *buf, int count,
                         MPI_Datatype dt, MPI_Status *st)
{
    MPI_Offset at;
    int rc = file_check(f);

    if (rc == MPI_SUCCESS)
        rc = sfp_fetch_add(f, etypes(f, count, dt), &at);
    return rc ? rc : io_access(f, wr, at, buf, count, dt, st);
}

int MPI_File_read_shared(MPI_File fh, void *buf, int count,
                         MPI_Datatype dt, MPI_Status *st)
{
    return file_err(fh, shared_access(fh, false, buf, count, dt, st),
                    "MPI_File_read_shared");
}

int MPI_File_write_shared(MPI_File fh, const void *buf, int count,
                          MPI_Datatype dt, MPI_Status *st)
{
    return file_err(fh, shared_access(fh, true, (void *)buf, count, dt, st),
                    "MPI_File_write_shared");
}

/* A nonblocking access at the part the shared pointer gives
 * (io_async.c). */
static int shared_start(MPI_File f, bool wr, void *buf, int count,
                        MPI_Datatype dt, MPI_Request *req, const char *name)
{
    MPI_Offset at;
    int rc = file_check(f);

    if (rc == MPI_SUCCESS)
        rc = sfp_fetch_add(f, etypes(f, count, dt), &at);
    if (rc != MPI_SUCCESS)
        return io_done_request(f, rc, NULL, req, name);
    return io_start(f, wr, at, buf, count, dt, req, name);
}

int MPI_File_iread_shared(MPI_File fh, void *buf, int count,
                          MPI_Datatype dt, MPI_Request *req)
{
    return shared_start(fh, false, buf, count, dt, req,
                        "MPI_File_iread_shared");
}

int MPI_File_iwrite_shared(MPI_File fh, const void *buf, int count,
                           MPI_Datatype dt, MPI_Request *req)
{
    return shared_start(fh, true, (void *)buf, count, dt, req,
                        "MPI_File_iwrite_shared");
}

/* Collective: the ranks' parts one after another in rank order, from
 * where the pointer is; it ends after them all. */
int io_ordered(MPI_File f, bool wr, void *buf, int count, MPI_Datatype dt,
               MPI_Status *st)
{
    MPI_Offset mine = etypes(f, count, dt), before = 0, total = 0, base = 0;
    int rc = file_check(f);

    if (rc == MPI_SUCCESS)
        rc = coll_allreduce(&mine, &total, 1, MPI_OFFSET, MPI_SUM, f->comm);
    if (rc == MPI_SUCCESS && f->comm->rank > 0)     /* an exclusive scan */
        rc = coll_recv(&before, 1, MPI_OFFSET, f->comm->rank - 1, f->comm);
    before += mine;
    if (rc == MPI_SUCCESS && f->comm->rank < f->comm->size - 1)
        rc = coll_send(&before, 1, MPI_OFFSET, f->comm->rank + 1, f->comm);
    before -= mine;
    if (rc == MPI_SUCCESS && f->comm->rank == 0)
        rc = sfp_fetch_add(f, total, &base);
    if (rc == MPI_SUCCESS)
        rc = coll_bcast(&base, 1, MPI_OFFSET, 0, f->comm);
    return rc ? rc : io_access(f, wr, base + before, buf, count, dt, st);
}

int MPI_File_read_ordered(MPI_File fh, void *buf, int count,
                          MPI_Datatype dt, MPI_Status *st)
{
    return file_err(fh, io_ordered(fh, false, buf, count, dt, st),
                    "MPI_File_read_ordered");
}

int MPI_File_write_ordered(MPI_File fh, const void *buf, int count,
                           MPI_Datatype dt, MPI_Status *st)
{
    return file_err(fh, io_ordered(fh, true, (void *)buf, count, dt,
                                       st), "MPI_File_write_ordered");
}

/* Collective, every rank with the same arguments. */
int MPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence)
{
    MPI_Offset cur = 0, to = 0, args[2] = { offset, whence }, most[2];
    MPI_Offset least[2];
    int rc = file_check(fh);

    if (rc == MPI_SUCCESS)
        rc = coll_allreduce(args, most, 2, MPI_OFFSET, MPI_MAX, fh->comm);
    if (rc == MPI_SUCCESS)
        rc = coll_allreduce(args, least, 2, MPI_OFFSET, MPI_MIN, fh->comm);
    if (rc == MPI_SUCCESS && (most[0] != least[0] || most[1] != least[1]))
        rc = MPI_ERR_NOT_SAME;
    if (rc == MPI_SUCCESS)
        rc = sfp_fetch_add(fh, 0, &cur);
    if (rc == MPI_SUCCESS)
        rc = io_seek_to(fh, offset, whence, cur, &to);
    if (rc == MPI_SUCCESS)          /* (every rank read cur before) */
        rc = sfp_reset(fh, to);
    return file_err(fh, rc, "MPI_File_seek_shared");
}

int MPI_File_get_position_shared(MPI_File fh, MPI_Offset *offset)
{
    int rc = file_check(fh);

    if (rc == MPI_SUCCESS && offset == NULL)
        rc = MPI_ERR_ARG;
    if (rc == MPI_SUCCESS)
        rc = sfp_fetch_add(fh, 0, offset);
    return file_err(fh, rc, "MPI_File_get_position_shared");
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_File_read_shared)
PMPI(MPI_File_write_shared)
PMPI(MPI_File_iread_shared)
PMPI(MPI_File_iwrite_shared)
PMPI(MPI_File_read_ordered)
PMPI(MPI_File_write_ordered)
PMPI(MPI_File_seek_shared)
PMPI(MPI_File_get_position_shared)
