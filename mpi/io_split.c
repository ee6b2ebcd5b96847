/* SPDX-License-Identifier: MIT */
/*
 * io_split.c: the split collective data calls (MPI-3.1 13.4.5: a
 * collective access begun by MPI_File_*_begin and finished by its
 * _end, one at a time per file), the nonblocking collective ones of
 * MPI-3.1 (MPI_File_iread_all, _iwrite_all, _iread_at_all,
 * _iwrite_at_all), and MPI_Register_datarep.
 *
 * As with the blocking collective calls, the access is io_collective's
 * (two phases through aggregators where the hints say so, io_coll.c):
 * a _begin does it, its _end hands over the status, and a nonblocking
 * collective call is done when it returns (its phases need every rank
 * at once).  Data
 * representations: a program may register its own (each name once),
 * but views take "native" only (MPI_File_set_view: any other is
 * MPI_ERR_UNSUPPORTED_DATAREP).
 */
#include <stdlib.h>
#include <string.h>
#include "io.h"

/* ---- split collectives ---- */

/* Begin: do the access (at >= 0: there; -1: the individual pointer;
 * -2: in rank order at the shared one), keep its status for the end. */
static int split_begin(MPI_File f, bool wr, MPI_Offset at, const void *buf,
                       int count, MPI_Datatype dt)
{
    int rc = file_check(f);

    if (rc == MPI_SUCCESS && f->split_on)
        rc = MPI_ERR_OTHER;     /* one split collective at a time */
    if (rc != MPI_SUCCESS)
        return rc;
    if (at == -2)
        rc = io_ordered(f, wr, (void *)buf, count, dt, &f->split_st);
    else
        rc = io_collective(f, wr, at, (void *)buf, count, dt, &f->split_st);
    f->split_st.MPI_ERROR = rc;
    f->split_on = true;
    f->split_buf = buf;
    return rc;
}

static int split_end(MPI_File f, const void *buf, MPI_Status *st)
{
    int rc = file_check(f);

    if (rc == MPI_SUCCESS && (!f->split_on || f->split_buf != buf))
        rc = MPI_ERR_OTHER;     /* no _begin, or another buffer's */
    if (rc != MPI_SUCCESS)
        return rc;
    f->split_on = false;
    if (st != MPI_STATUS_IGNORE)
        *st = f->split_st;
    return f->split_st.MPI_ERROR;
}

#define BEGIN(fh, wr, at, buf, count, dt, name) \
    file_err(fh, split_begin(fh, wr, at, buf, count, dt), name)
#define END(fh, buf, st, name) file_err(fh, split_end(fh, buf, st), name)

int MPI_File_read_at_all_begin(MPI_File fh, MPI_Offset offset, void *buf,
                               int count, MPI_Datatype dt)
{
    if (offset < 0)
        return file_err(fh, MPI_ERR_ARG, "MPI_File_read_at_all_begin");
    return BEGIN(fh, false, offset, buf, count, dt,
                 "MPI_File_read_at_all_begin");
}

int MPI_File_read_at_all_end(MPI_File fh, void *buf, MPI_Status *st)
{
    return END(fh, buf, st, "MPI_File_read_at_all_end");
}

int MPI_File_write_at_all_begin(MPI_File fh, MPI_Offset offset,
                                const void *buf, int count, MPI_Datatype dt)
{
    if (offset < 0)
        return file_err(fh, MPI_ERR_ARG, "MPI_File_write_at_all_begin");
    return BEGIN(fh, true, offset, buf, count, dt,
                 "MPI_File_write_at_all_begin");
}

int MPI_File_write_at_all_end(MPI_File fh, const void *buf, MPI_Status *st)
{
    return END(fh, buf, st, "MPI_File_write_at_all_end");
}

int MPI_File_read_all_begin(MPI_File fh, void *buf, int count,
                            MPI_Datatype dt)
{
    return BEGIN(fh, false, -1, buf, count, dt, "MPI_File_read_all_begin");
}

int MPI_File_read_all_end(MPI_File fh, void *buf, MPI_Status *st)
{
    return END(fh, buf, st, "MPI_File_read_all_end");
}

int MPI_File_write_all_begin(MPI_File fh, const void *buf, int count,
                             MPI_Datatype dt)
{
    return BEGIN(fh, true, -1, buf, count, dt, "MPI_File_write_all_begin");
}

int MPI_File_write_all_end(MPI_File fh, const void *buf, MPI_Status *st)
{
    return END(fh, buf, st, "MPI_File_write_all_end");
}

int MPI_File_read_ordered_begin(MPI_File fh, void *buf, int count,
                                MPI_Datatype dt)
{
    return BEGIN(fh, false, -2, buf, count, dt,
                 "MPI_File_read_ordered_begin");
}

int MPI_File_read_ordered_end(MPI_File fh, void *buf, MPI_Status *st)
{
    return END(fh, buf, st, "MPI_File_read_ordered_end");
}

int MPI_File_write_ordered_begin(MPI_File fh, const void *buf, int count,
                                 MPI_Datatype dt)
{
    return BEGIN(fh, true, -2, buf, count, dt,
                 "MPI_File_write_ordered_begin");
}

int MPI_File_write_ordered_end(MPI_File fh, const void *buf,
                               MPI_Status *st)
{
    return END(fh, buf, st, "MPI_File_write_ordered_end");
}

/* ---- the nonblocking collective calls ---- */

static int nb_all(MPI_File fh, bool wr, MPI_Offset at, const void *buf,
                  int count, MPI_Datatype dt, MPI_Request *req,
                  const char *name)
{
    MPI_Status st;
    int rc = at < -1 ? MPI_ERR_ARG
                     : io_collective(fh, wr, at, (void *)buf, count, dt, &st);

    return io_done_request(fh, rc, &st, req, name);
}

int MPI_File_iread_all(MPI_File fh, void *buf, int count, MPI_Datatype dt,
                       MPI_Request *req)
{
    return nb_all(fh, false, -1, buf, count, dt, req, "MPI_File_iread_all");
}

int MPI_File_iwrite_all(MPI_File fh, const void *buf, int count,
                        MPI_Datatype dt, MPI_Request *req)
{
    return nb_all(fh, true, -1, buf, count, dt, req, "MPI_File_iwrite_all");
}

int MPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void *buf,
                          int count, MPI_Datatype dt, MPI_Request *req)
{
    return nb_all(fh, false, offset < 0 ? -2 : offset, buf, count, dt, req,
                  "MPI_File_iread_at_all");
}

int MPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset, const void *buf,
                           int count, MPI_Datatype dt, MPI_Request *req)
{
    return nb_all(fh, true, offset < 0 ? -2 : offset, buf, count, dt, req,
                  "MPI_File_iwrite_at_all");
}

/* ---- data representations ---- */

struct datarep {
    struct datarep *next;
    char name[MPI_MAX_DATAREP_STRING];
};
static struct datarep *reps;

int MPI_Register_datarep(const char *datarep,
                         MPI_Datarep_conversion_function *read_fn,
                         MPI_Datarep_conversion_function *write_fn,
                         MPI_Datarep_extent_function *extent_fn,
                         void *extra)
{
    static const char *const predefined[] = { "native", "internal",
                                              "external32" };
    struct datarep *r;

    (void)read_fn, (void)write_fn, (void)extra;
    if (datarep == NULL || extent_fn == NULL ||
        strlen(datarep) >= MPI_MAX_DATAREP_STRING)
        return file_err(MPI_FILE_NULL, MPI_ERR_ARG, "MPI_Register_datarep");
    for (size_t i = 0; i < sizeof(predefined) / sizeof(*predefined); i++)
        if (strcmp(datarep, predefined[i]) == 0)
            return file_err(MPI_FILE_NULL, MPI_ERR_DUP_DATAREP,
                            "MPI_Register_datarep");
    for (r = reps; r != NULL; r = r->next)
        if (strcmp(datarep, r->name) == 0)
            return file_err(MPI_FILE_NULL, MPI_ERR_DUP_DATAREP,
                            "MPI_Register_datarep");
    if ((r = calloc(1, sizeof(*r))) == NULL)
        return file_err(MPI_FILE_NULL, MPI_ERR_NO_MEM,
                        "MPI_Register_datarep");
    strcpy(r->name, datarep);
    r->next = reps;
    reps = r;
    return MPI_SUCCESS;
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_File_read_at_all_begin)
PMPI(MPI_File_read_at_all_end)
PMPI(MPI_File_write_at_all_begin)
PMPI(MPI_File_write_at_all_end)
PMPI(MPI_File_read_all_begin)
PMPI(MPI_File_read_all_end)
PMPI(MPI_File_write_all_begin)
PMPI(MPI_File_write_all_end)
PMPI(MPI_File_read_ordered_begin)
PMPI(MPI_File_read_ordered_end)
PMPI(MPI_File_write_ordered_begin)
PMPI(MPI_File_write_ordered_end)
PMPI(MPI_File_iread_all)
PMPI(MPI_File_iwrite_all)
PMPI(MPI_File_iread_at_all)
PMPI(MPI_File_iwrite_at_all)
PMPI(MPI_Register_datarep)
