/* SPDX-License-Identifier: MIT */
/*
 * io_view.c: file views and the data calls of MPI-IO.  A view is a
 * displacement, an etype and a filetype tiled from the displacement on;
 * a rank's data is a stream of bytes that fills the filetype's pieces
 * (dt_pieces) tile after tile.  Positions are in etypes of that stream.
 * Each contiguous run of file bytes is one lseek and one read or write
 * (through yod on the nodes); the memory side is the user's buffer if
 * contiguous, else a packed copy.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "io.h"

/* ---- views ---- */

static int add_piece(void *arg, MPI_Aint off, size_t len)
{
    MPI_File f = arg;
    struct fpiece *n = realloc(f->pieces, ((size_t)f->npieces + 1) *
                                          sizeof(*n));

    if (n == NULL)
        return MPI_ERR_NO_MEM;
    f->pieces = n;
    n[f->npieces] = (struct fpiece){ off, len, f->tile_bytes };
    f->npieces++;
    f->tile_bytes += len;
    return MPI_SUCCESS;
}

void view_clear(MPI_File f)
{
    if (f->etype != MPI_DATATYPE_NULL)
        dt_release(f->etype);
    if (f->ftype != MPI_DATATYPE_NULL)
        dt_release(f->ftype);
    free(f->pieces);
    f->pieces = NULL;
    f->npieces = 0;
    f->tile_bytes = 0;
    f->etype = f->ftype = MPI_DATATYPE_NULL;
}

static int view_set(MPI_File f, MPI_Offset disp, MPI_Datatype et,
                    MPI_Datatype ft)
{
    view_clear(f);
    f->disp = disp;
    f->etype = et;
    f->ftype = ft;
    dt_retain(et);
    dt_retain(ft);
    f->tile_ext = dt_extent(ft);
    f->pos = 0;
    return dt_pieces(ft, 1, add_piece, f);
}

/* Bytes, from the start: what MPI_File_open begins with. */
int view_default(MPI_File f)
{
    return view_set(f, 0, MPI_BYTE, MPI_BYTE);
}

/* Is the filetype all of its extent, so tiles run on into each other? */
static bool dense(const MPI_File f)
{
    return f->npieces == 1 && f->pieces[0].off == 0 &&
           (MPI_Aint)f->pieces[0].len == f->tile_ext;
}

MPI_Offset io_file_byte(MPI_File f, MPI_Offset s, size_t *run)
{
    MPI_Offset tile = s / (MPI_Offset)f->tile_bytes;
    size_t within = (size_t)(s % (MPI_Offset)f->tile_bytes);
    int lo = 0, hi = f->npieces - 1;

    if (dense(f)) {
        *run = SIZE_MAX;
        return f->disp + s;
    }
    while (lo < hi) {               /* the last piece starting <= within */
        int mid = (lo + hi + 1) / 2;
        if (f->pieces[mid].before <= within)
            lo = mid;
        else
            hi = mid - 1;
    }
    *run = f->pieces[lo].len - (within - f->pieces[lo].before);
    return f->disp + tile * f->tile_ext + f->pieces[lo].off +
           (MPI_Offset)(within - f->pieces[lo].before);
}

/* The stream bytes in the file's first size bytes. */
static MPI_Offset data_before(MPI_File f, MPI_Offset size)
{
    MPI_Offset rel = size - f->disp, tiles, rem, n;

    if (rel <= 0)
        return 0;
    if (dense(f))
        return rel;
    tiles = rel / f->tile_ext;
    rem = rel % f->tile_ext;
    n = tiles * (MPI_Offset)f->tile_bytes;
    for (int k = 0; k < f->npieces && f->pieces[k].off < rem; k++) {
        MPI_Offset in = rem - f->pieces[k].off;
        n += in < (MPI_Offset)f->pieces[k].len ? in
                                               : (MPI_Offset)f->pieces[k].len;
    }
    return n;
}

int io_seek_end(MPI_File f, MPI_Offset *pos)
{
    MPI_Offset size, es = (MPI_Offset)f->etype->size;
    int rc = io_size(f, &size);

    if (rc == MPI_SUCCESS)          /* past a partial etype at the end */
        *pos = (data_before(f, size) + es - 1) / es;
    return rc;
}

int MPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype,
                      MPI_Datatype filetype, const char *datarep,
                      MPI_Info info)
{
    int rc = file_check(fh);

    if (rc == MPI_SUCCESS)
        rc = dt_check(etype);
    if (rc == MPI_SUCCESS)
        rc = dt_check(filetype);
    if (rc == MPI_SUCCESS && (etype->size == 0 || filetype->size == 0 ||
                              filetype->size % etype->size != 0))
        rc = MPI_ERR_TYPE;      /* a filetype is made of etypes */
    if (rc == MPI_SUCCESS && disp < 0)
        rc = MPI_ERR_ARG;
    if (rc == MPI_SUCCESS && (datarep == NULL || strcmp(datarep, "native")))
        rc = MPI_ERR_UNSUPPORTED_DATAREP;
    if (rc == MPI_SUCCESS)
        rc = view_set(fh, disp, etype, filetype);
    if (rc == MPI_SUCCESS)      /* both pointers start again at 0 */
        rc = sfp_reset(fh, 0);
    if (rc == MPI_SUCCESS && info != MPI_INFO_NULL)
        rc = MPI_File_set_info(fh, info);
    return file_err(fh, rc, "MPI_File_set_view");
}

int MPI_File_get_view(MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype,
                      MPI_Datatype *filetype, char *datarep)
{
    int rc = file_check(fh);

    if (rc == MPI_SUCCESS && (!disp || !etype || !filetype || !datarep))
        rc = MPI_ERR_ARG;
    if (etype != NULL)                  /* if the call fails */
        *etype = MPI_DATATYPE_NULL;
    if (filetype != NULL)
        *filetype = MPI_DATATYPE_NULL;
    if (rc != MPI_SUCCESS)
        return file_err(fh, rc, "MPI_File_get_view");
    *disp = fh->disp;
    *etype = fh->etype;
    *filetype = fh->ftype;
    dt_retain(*etype);          /* derived ones are the caller's to free */
    dt_retain(*filetype);
    strcpy(datarep, "native");
    return MPI_SUCCESS;
}

/* ---- moving data ---- */

/* Move len stream bytes from stream offset s; *done: how many moved (a
 * read stops at the end of the file). */
static int move(MPI_File f, bool wr, char *buf, MPI_Offset s, size_t len,
                size_t *done)
{
    *done = 0;
    while (*done < len) {
        size_t run;
        MPI_Offset at = io_file_byte(f, s + (MPI_Offset)*done, &run);
        size_t n = len - *done < run ? len - *done : run;
        ssize_t r;
        if (lseek(f->fd, (off_t)at, SEEK_SET) < 0)
            return io_errno(errno);
        if (wr)
            pvc.file_writes++;
        else
            pvc.file_reads++;
        r = wr ? write(f->fd, buf + *done, n) : read(f->fd, buf + *done, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return io_errno(errno);
        if (r == 0 && !wr)
            break;                  /* end of file */
        *done += (size_t)r;
    }
    return MPI_SUCCESS;
}

int io_access_check(MPI_File f, bool wr, MPI_Offset at, int count,
                    MPI_Datatype dt, const void *buf)
{
    int rc = file_check(f);

    if (rc == MPI_SUCCESS)
        rc = buf_check(buf, count, dt);
    if (rc != MPI_SUCCESS)
        return rc;
    if (dt->size % f->etype->size != 0)
        return MPI_ERR_TYPE;        /* the data is made of etypes */
    if (wr && (f->amode & MPI_MODE_RDONLY))
        return MPI_ERR_READ_ONLY;
    if (!wr && (f->amode & MPI_MODE_WRONLY))
        return MPI_ERR_ACCESS;
    if (at >= 0 && (f->amode & MPI_MODE_SEQUENTIAL))
        return MPI_ERR_UNSUPPORTED_OPERATION;
    return MPI_SUCCESS;
}

/* Read or write count items of dt at etype offset `at` of the view, or
 * at the individual pointer (at < 0, which then moves on). */
int io_access(MPI_File f, bool wr, MPI_Offset at, void *buf,
                       int count, MPI_Datatype dt, MPI_Status *st)
{
    size_t n, done = 0;
    MPI_Aint off;
    char *stream;
    int rc = io_access_check(f, wr, at, count, dt, buf);

    if (rc != MPI_SUCCESS)
        return rc;
    n = (size_t)count * (size_t)dt->size;
    stream = dt_contig(dt, count, &off) ? (char *)buf + off : malloc(n + 1);
    if (stream == NULL)
        return MPI_ERR_NO_MEM;
    if (wr && stream != (char *)buf + off)
        dt_pack(buf, count, dt, stream);
    rc = move(f, wr, stream, (at >= 0 ? at : f->pos) *
                             (MPI_Offset)f->etype->size, n, &done);
    if (!wr && stream != (char *)buf + off)
        dt_unpack(stream, done, buf, count, dt);
    if (stream != (char *)buf + off)
        free(stream);
    if (at < 0)
        f->pos += (MPI_Offset)(done / (size_t)f->etype->size);
    if (st != MPI_STATUS_IGNORE) {
        status_empty(st);
        st->mpi_bytes = done;
        st->MPI_ERROR = rc;
    }
    return rc;
}

#define ACCESS(fh, wr, at, buf, count, dt, st, name) \
    file_err(fh, io_access(fh, wr, at, buf, count, dt, st), name)

int MPI_File_read_at(MPI_File fh, MPI_Offset offset, void *buf, int count,
                     MPI_Datatype dt, MPI_Status *st)
{
    if (offset < 0)
        return file_err(fh, MPI_ERR_ARG, "MPI_File_read_at");
    return ACCESS(fh, false, offset, buf, count, dt, st, "MPI_File_read_at");
}

int MPI_File_write_at(MPI_File fh, MPI_Offset offset, const void *buf,
                      int count, MPI_Datatype dt, MPI_Status *st)
{
    if (offset < 0)
        return file_err(fh, MPI_ERR_ARG, "MPI_File_write_at");
    return ACCESS(fh, true, offset, (void *)buf, count, dt, st,
                  "MPI_File_write_at");
}

int MPI_File_read(MPI_File fh, void *buf, int count, MPI_Datatype dt,
                  MPI_Status *st)
{
    return ACCESS(fh, false, -1, buf, count, dt, st, "MPI_File_read");
}

int MPI_File_write(MPI_File fh, const void *buf, int count, MPI_Datatype dt,
                   MPI_Status *st)
{
    return ACCESS(fh, true, -1, (void *)buf, count, dt, st,
                  "MPI_File_write");
}

/* The collective calls: in two phases where the hints say so
 * (io_coll.c), else each rank moves its own data. */
#define COLLECTIVE(fh, wr, at, buf, count, dt, st, name) \
    file_err(fh, io_collective(fh, wr, at, buf, count, dt, st), name)

int MPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void *buf,
                         int count, MPI_Datatype dt, MPI_Status *st)
{
    if (offset < 0)
        return file_err(fh, MPI_ERR_ARG, "MPI_File_read_at_all");
    return COLLECTIVE(fh, false, offset, buf, count, dt, st,
                      "MPI_File_read_at_all");
}

int MPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void *buf,
                          int count, MPI_Datatype dt, MPI_Status *st)
{
    if (offset < 0)
        return file_err(fh, MPI_ERR_ARG, "MPI_File_write_at_all");
    return COLLECTIVE(fh, true, offset, (void *)buf, count, dt, st,
                      "MPI_File_write_at_all");
}

int MPI_File_read_all(MPI_File fh, void *buf, int count, MPI_Datatype dt,
                      MPI_Status *st)
{
    return COLLECTIVE(fh, false, -1, buf, count, dt, st,
                      "MPI_File_read_all");
}

int MPI_File_write_all(MPI_File fh, const void *buf, int count,
                       MPI_Datatype dt, MPI_Status *st)
{
    return COLLECTIVE(fh, true, -1, (void *)buf, count, dt, st,
                      "MPI_File_write_all");
}

/* A nonblocking call done at the call: the request only reports it. */
int io_done_request(MPI_File fh, int rc, const MPI_Status *st,
                        MPI_Request *req, const char *name)
{
    if (rc == MPI_SUCCESS && req == NULL)
        rc = MPI_ERR_REQUEST;
    if (rc == MPI_SUCCESS && (*req = req_done(fh->comm, st)) == NULL)
        rc = MPI_ERR_NO_MEM;
    if (rc != MPI_SUCCESS && req != NULL)
        *req = MPI_REQUEST_NULL;
    return file_err(fh, rc, name);
}

int MPI_File_iread_at(MPI_File fh, MPI_Offset offset, void *buf, int count,
                      MPI_Datatype dt, MPI_Request *req)
{
    if (offset < 0)
        return io_done_request(fh, MPI_ERR_ARG, NULL, req,
                               "MPI_File_iread_at");
    return io_start(fh, false, offset, buf, count, dt, req,
                    "MPI_File_iread_at");
}

int MPI_File_iwrite_at(MPI_File fh, MPI_Offset offset, const void *buf,
                       int count, MPI_Datatype dt, MPI_Request *req)
{
    if (offset < 0)
        return io_done_request(fh, MPI_ERR_ARG, NULL, req,
                               "MPI_File_iwrite_at");
    return io_start(fh, true, offset, (void *)buf, count, dt, req,
                    "MPI_File_iwrite_at");
}

int MPI_File_iread(MPI_File fh, void *buf, int count, MPI_Datatype dt,
                   MPI_Request *req)
{
    return io_start(fh, false, -1, buf, count, dt, req, "MPI_File_iread");
}

int MPI_File_iwrite(MPI_File fh, const void *buf, int count, MPI_Datatype dt,
                    MPI_Request *req)
{
    return io_start(fh, true, -1, (void *)buf, count, dt, req,
                    "MPI_File_iwrite");
}

/* ---- the individual file pointer ---- */

/* Where a seek of offset etypes from whence goes, cur being the
 * pointer's place now (either pointer's). */
int io_seek_to(MPI_File f, MPI_Offset offset, int whence, MPI_Offset cur,
               MPI_Offset *to)
{
    MPI_Offset base = 0;
    int rc = MPI_SUCCESS;

    if (f->amode & MPI_MODE_SEQUENTIAL)
        return MPI_ERR_UNSUPPORTED_OPERATION;
    if (whence == MPI_SEEK_CUR)
        base = cur;
    else if (whence == MPI_SEEK_END)
        rc = io_seek_end(f, &base);
    else if (whence != MPI_SEEK_SET)
        rc = MPI_ERR_ARG;
    if (rc == MPI_SUCCESS && base + offset < 0)
        rc = MPI_ERR_ARG;           /* before the start of the view */
    if (rc == MPI_SUCCESS)
        *to = base + offset;
    return rc;
}

int MPI_File_seek(MPI_File fh, MPI_Offset offset, int whence)
{
    int rc = file_check(fh);

    if (rc == MPI_SUCCESS)
        rc = io_seek_to(fh, offset, whence, fh->pos, &fh->pos);
    return file_err(fh, rc, "MPI_File_seek");
}

int MPI_File_get_position(MPI_File fh, MPI_Offset *offset)
{
    int rc = file_check(fh);

    if (rc == MPI_SUCCESS && offset == NULL)
        rc = MPI_ERR_ARG;
    if (rc == MPI_SUCCESS)
        *offset = fh->pos;
    return file_err(fh, rc, "MPI_File_get_position");
}

int MPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset,
                             MPI_Offset *disp)
{
    size_t run;
    int rc = file_check(fh);

    if (rc == MPI_SUCCESS && (offset < 0 || disp == NULL))
        rc = MPI_ERR_ARG;
    if (rc == MPI_SUCCESS)
        *disp = io_file_byte(fh, offset * (MPI_Offset)fh->etype->size, &run);
    return file_err(fh, rc, "MPI_File_get_byte_offset");
}

/* "native": as in memory. */
int MPI_File_get_type_extent(MPI_File fh, MPI_Datatype dt, MPI_Aint *extent)
{
    int rc = file_check(fh);

    if (rc == MPI_SUCCESS)
        rc = dt_check_any(dt);
    if (rc == MPI_SUCCESS && extent == NULL)
        rc = MPI_ERR_ARG;
    if (rc == MPI_SUCCESS)
        *extent = dt_extent(dt);
    return file_err(fh, rc, "MPI_File_get_type_extent");
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_File_set_view)
PMPI(MPI_File_get_view)
PMPI(MPI_File_read_at)
PMPI(MPI_File_write_at)
PMPI(MPI_File_read)
PMPI(MPI_File_write)
PMPI(MPI_File_read_at_all)
PMPI(MPI_File_write_at_all)
PMPI(MPI_File_read_all)
PMPI(MPI_File_write_all)
PMPI(MPI_File_iread_at)
PMPI(MPI_File_iwrite_at)
PMPI(MPI_File_iread)
PMPI(MPI_File_iwrite)
PMPI(MPI_File_seek)
PMPI(MPI_File_get_position)
PMPI(MPI_File_get_byte_offset)
PMPI(MPI_File_get_type_extent)
