/* SPDX-License-Identifier: MIT */
/*
 * io.c: MPI-IO over the C library's files: plain POSIX files on Linux;
 * on the compute nodes the same calls, which libc forwards to yod (so a
 * job's files are yod's).  Each rank opens the file itself and moves its
 * own data with lseek + read/write (io_view.c), except that collective
 * calls may go in two phases through aggregator ranks (collective
 * buffering: io_hints.c, io_coll.c) and nonblocking ones are POSIX aio
 * operations (io_async.c).  The view (io_view.c) maps the stream of a
 * rank's data onto file bytes; the data representation is "native" only.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "io.h"
#if defined(__lwk__) && !defined(__linux__)
#include <lwk/pfs.h>
#endif

/* What files get until MPI_File_set_errhandler(MPI_FILE_NULL, ...):
 * the standard's default for files is to return errors. */
static MPI_Errhandler null_errh = MPI_ERRORS_RETURN;

int file_err(MPI_File f, int rc, const char *name)
{
    if (rc == MPI_SUCCESS)
        return rc;
    return mpi_err_handler(f != MPI_FILE_NULL ? f->errh : null_errh, &f, rc,
                           name);
}

/* The error class of a failed libc call. */
int io_errno(int e)
{
    switch (e) {
    case ENOENT: return MPI_ERR_NO_SUCH_FILE;
    case EACCES: case EPERM: return MPI_ERR_ACCESS;
    case EEXIST: return MPI_ERR_FILE_EXISTS;
    case ENOSPC: return MPI_ERR_NO_SPACE;
    case EROFS: return MPI_ERR_READ_ONLY;
#ifdef EDQUOT
    case EDQUOT: return MPI_ERR_QUOTA;
#endif
    case ENAMETOOLONG: case EISDIR: case ENOTDIR: return MPI_ERR_BAD_FILE;
    default: return MPI_ERR_IO;
    }
}

int file_check(MPI_File f)
{
    return f == MPI_FILE_NULL || f->refs <= 0 ? MPI_ERR_FILE : MPI_SUCCESS;
}

/* ---- open, close, delete ---- */

static int amode_check(int amode)
{
    int rw = !!(amode & MPI_MODE_RDONLY) + !!(amode & MPI_MODE_WRONLY) +
             !!(amode & MPI_MODE_RDWR);

    if (rw != 1)
        return MPI_ERR_AMODE;       /* exactly one access mode */
    if ((amode & MPI_MODE_RDONLY) &&
        (amode & (MPI_MODE_CREATE | MPI_MODE_EXCL)))
        return MPI_ERR_AMODE;
    if ((amode & MPI_MODE_RDWR) && (amode & MPI_MODE_SEQUENTIAL))
        return MPI_ERR_AMODE;
    return MPI_SUCCESS;
}

static int posix_flags(int amode, bool first)
{
    int fl = (amode & MPI_MODE_RDONLY) ? O_RDONLY :
             (amode & MPI_MODE_WRONLY) ? O_WRONLY : O_RDWR;

    if (first && (amode & MPI_MODE_CREATE))
        fl |= O_CREAT;
    if (first && (amode & MPI_MODE_EXCL))
        fl |= O_EXCL;
    return fl;
}

/* Rank 0 opens first (it alone creates, so MPI_MODE_EXCL means what it
 * says), then the others; every rank learns whether every rank could.
 * Every rank must give the same amode (MPI_ERR_NOT_SAME). */
/* A hint of `info` as a number (0: absent or not a number). */
static long info_num(MPI_Info info, const char *key)
{
    char v[32];
    int flag = 0;

    if (info == MPI_INFO_NULL ||
        MPI_Info_get(info, key, sizeof(v) - 1, v, &flag) != MPI_SUCCESS ||
        !flag)
        return 0;
    return atol(v) > 0 ? atol(v) : 0;
}

/* The first open, which may create the file: under /pfs with ROMIO's
   hints striping_factor and striping_unit, a striped file of that
   layout (<lwk/pfs.h>; a file that exists keeps its own). */
static int open_first(const char *name, int flags, MPI_Info info)
{
#if defined(__lwk__) && !defined(__linux__)
    long factor = info_num(info, "striping_factor");
    long unit = info_num(info, "striping_unit");

    if ((flags & O_CREAT) && (factor || unit) &&
        strncmp(name, "/pfs/", 5) == 0)
        return lwk_pfs_open(name, flags, 0666, (unsigned)factor,
                            (size_t)unit);
#else
    (void)info_num;
    (void)info;
#endif
    return open(name, flags, 0666);
}

static int open_all(MPI_File f, const char *name)
{
    int err = MPI_SUCCESS, worst, mode[2] = { f->amode, -f->amode }, most[2];

    if (coll_allreduce(mode, most, 2, MPI_INT, MPI_MAX, f->comm) !=
        MPI_SUCCESS)
        return MPI_ERR_INTERN;
    if (most[0] != f->amode || -most[1] != f->amode)
        return MPI_ERR_NOT_SAME;        /* the same verdict everywhere */
    if (f->comm->rank == 0 &&
        (f->fd = open_first(name, posix_flags(f->amode, true), f->info)) < 0)
        err = io_errno(errno);
    if (coll_bcast(&err, 1, MPI_INT, 0, f->comm) != MPI_SUCCESS)
        return MPI_ERR_INTERN;
    if (err != MPI_SUCCESS)
        return err;                 /* the same error everywhere */
    if (f->comm->rank != 0 &&
        (f->fd = open(name, posix_flags(f->amode, false))) < 0)
        err = io_errno(errno);
    if (coll_allreduce(&err, &worst, 1, MPI_INT, MPI_MAX, f->comm) !=
        MPI_SUCCESS)
        return MPI_ERR_INTERN;
    if (err == MPI_SUCCESS && worst != MPI_SUCCESS) {
        close(f->fd);               /* another rank could not */
        f->fd = -1;
    }
    return err != MPI_SUCCESS ? err : worst;
}

static void file_destroy(MPI_File f)
{
    sfp_close(f);
    if (f->fd >= 0)
        close(f->fd);
    view_clear(f);
    io_hints_free(f);
    if (f->comm != MPI_COMM_NULL)
        MPI_Comm_free(&f->comm);
    errh_release(f->errh);
    info_free(f->info);
    free(f->name);
    f->refs = 0;
    free(f);
}

int MPI_File_open(MPI_Comm comm, const char *name, int amode, MPI_Info info,
                  MPI_File *fh)
{
    MPI_File f;
    int rc = comm_check(comm);

    if (fh != NULL)
        *fh = MPI_FILE_NULL;            /* if the call fails */
    if (rc == MPI_SUCCESS && comm->inter)
        rc = MPI_ERR_COMM;
    if (rc == MPI_SUCCESS && (name == NULL || fh == NULL))
        rc = name == NULL ? MPI_ERR_BAD_FILE : MPI_ERR_ARG;
    if (rc == MPI_SUCCESS)
        rc = amode_check(amode);
    if (rc != MPI_SUCCESS)
        return file_err(MPI_FILE_NULL, rc, "MPI_File_open");
    if ((f = calloc(1, sizeof(*f))) == NULL ||
        (f->name = strdup(name)) == NULL) {
        free(f);
        return file_err(MPI_FILE_NULL, MPI_ERR_NO_MEM, "MPI_File_open");
    }
    f->refs = 1;
    f->fd = -1;
    f->amode = amode;
    f->errh = null_errh;
    errh_retain(f->errh);
    rc = MPI_Comm_dup(comm, &f->comm);
    if (rc == MPI_SUCCESS)
        rc = view_default(f);
    if (rc == MPI_SUCCESS)
        rc = info_copy(info, &f->info);
    if (rc == MPI_SUCCESS)
        rc = open_all(f, name);
    if (rc == MPI_SUCCESS)
        rc = io_hints(f);
    if (rc == MPI_SUCCESS && (amode & MPI_MODE_APPEND))
        rc = io_seek_end(f, &f->pos);   /* pointers start at the end */
    if (rc == MPI_SUCCESS)
        rc = sfp_open(f, f->pos);
    if (rc != MPI_SUCCESS) {
        file_destroy(f);
        return file_err(MPI_FILE_NULL, rc, "MPI_File_open");
    }
    *fh = f;
    return MPI_SUCCESS;
}

int MPI_File_close(MPI_File *fh)
{
    MPI_File f;
    int rc = fh ? file_check(*fh) : MPI_ERR_FILE;

    if (rc != MPI_SUCCESS)
        return file_err(MPI_FILE_NULL, rc, "MPI_File_close");
    f = *fh;
    sfp_close(f);               /* collective, as closing is */
    io_async_drain(f->fd);
    if (close(f->fd) != 0)
        rc = io_errno(errno);
    f->fd = -1;
    /* everyone has closed before the file goes */
    if (coll_barrier(f->comm) == MPI_SUCCESS && f->comm->rank == 0 &&
        (f->amode & MPI_MODE_DELETE_ON_CLOSE) && unlink(f->name) != 0 &&
        rc == MPI_SUCCESS)
        rc = io_errno(errno);
    file_destroy(f);
    *fh = MPI_FILE_NULL;
    return file_err(MPI_FILE_NULL, rc, "MPI_File_close");
}

int MPI_File_delete(const char *name, MPI_Info info)
{
    (void)info;
    if (name == NULL)
        return file_err(MPI_FILE_NULL, MPI_ERR_BAD_FILE, "MPI_File_delete");
    if (unlink(name) != 0)
        return file_err(MPI_FILE_NULL, io_errno(errno), "MPI_File_delete");
    return MPI_SUCCESS;
}

/* ---- size, sync, mode ---- */

int io_size(MPI_File f, MPI_Offset *size)
{
    struct stat st;

    if (fstat(f->fd, &st) != 0)
        return io_errno(errno);
    *size = (MPI_Offset)st.st_size;
    return MPI_SUCCESS;
}

int MPI_File_get_size(MPI_File fh, MPI_Offset *size)
{
    int rc = file_check(fh);

    if (rc == MPI_SUCCESS && size == NULL)
        rc = MPI_ERR_ARG;
    if (rc == MPI_SUCCESS)
        rc = io_size(fh, size);
    return file_err(fh, rc, "MPI_File_get_size");
}

/* Collective, the same size everywhere: rank 0 changes it, then the
 * others may use it.  grow_only: MPI_File_preallocate. */
static int resize(MPI_File fh, MPI_Offset size, bool grow_only,
                  const char *name)
{
    int rc = file_check(fh);
    MPI_Offset now = 0;

    if (rc == MPI_SUCCESS && size < 0)
        rc = MPI_ERR_ARG;
    if (rc == MPI_SUCCESS && (fh->amode & MPI_MODE_RDONLY))
        rc = MPI_ERR_READ_ONLY;
    if (rc == MPI_SUCCESS && fh->comm->rank == 0 &&
        (rc = io_size(fh, &now)) == MPI_SUCCESS &&
        (!grow_only || size > now) && ftruncate(fh->fd, (off_t)size) != 0)
        rc = io_errno(errno);
    if (fh != MPI_FILE_NULL && fh->refs > 0) {
        int rc2 = coll_bcast(&rc, 1, MPI_INT, 0, fh->comm);
        rc = rc ? rc : rc2;
    }
    return file_err(fh, rc, name);
}

int MPI_File_set_size(MPI_File fh, MPI_Offset size)
{
    return resize(fh, size, false, "MPI_File_set_size");
}

int MPI_File_preallocate(MPI_File fh, MPI_Offset size)
{
    return resize(fh, size, true, "MPI_File_preallocate");
}

int MPI_File_sync(MPI_File fh)
{
    int rc = file_check(fh);

    if (rc == MPI_SUCCESS && fsync(fh->fd) != 0)
        rc = io_errno(errno);
    if (rc == MPI_SUCCESS)          /* written everywhere, for everyone */
        rc = coll_barrier(fh->comm);
    return file_err(fh, rc, "MPI_File_sync");
}

int MPI_File_get_amode(MPI_File fh, int *amode)
{
    int rc = file_check(fh);

    if (rc == MPI_SUCCESS && amode == NULL)
        rc = MPI_ERR_ARG;
    if (rc == MPI_SUCCESS)
        *amode = fh->amode;
    return file_err(fh, rc, "MPI_File_get_amode");
}

int MPI_File_get_group(MPI_File fh, MPI_Group *g)
{
    int rc = file_check(fh);

    if (rc == MPI_SUCCESS && g == NULL)
        rc = MPI_ERR_ARG;
    else if (g != NULL)
        *g = MPI_GROUP_NULL;
    if (rc == MPI_SUCCESS)
        rc = MPI_Comm_group(fh->comm, g);
    return file_err(fh, rc, "MPI_File_get_group");
}

/* Each piece goes in one call; atomic mode is accepted and recorded, and
 * promises no more than that. */
int MPI_File_set_atomicity(MPI_File fh, int flag)
{
    int rc = file_check(fh);

    if (rc == MPI_SUCCESS)
        fh->atomic = flag != 0;
    return file_err(fh, rc, "MPI_File_set_atomicity");
}

int MPI_File_get_atomicity(MPI_File fh, int *flag)
{
    int rc = file_check(fh);

    if (rc == MPI_SUCCESS && flag == NULL)
        rc = MPI_ERR_ARG;
    if (rc == MPI_SUCCESS)
        *flag = fh->atomic;
    return file_err(fh, rc, "MPI_File_get_atomicity");
}

int MPI_File_set_info(MPI_File fh, MPI_Info info)
{
    MPI_Info copy = MPI_INFO_NULL;
    int rc = file_check(fh);

    if (rc == MPI_SUCCESS && (rc = info_copy(info, &copy)) == MPI_SUCCESS) {
        info_free(fh->info);
        fh->info = copy;
        rc = io_hints(fh);          /* (collective, as this call is) */
    }
    return file_err(fh, rc, "MPI_File_set_info");
}

int MPI_File_get_info(MPI_File fh, MPI_Info *info)
{
    int rc = file_check(fh);

    if (rc != MPI_SUCCESS && info != NULL)
        *info = MPI_INFO_NULL;
    if (rc == MPI_SUCCESS)
        rc = io_hints_give(fh, info);
    return file_err(fh, rc, "MPI_File_get_info");
}

/* ---- error handlers (MPI_FILE_NULL's is what new files get) ---- */

int MPI_File_create_errhandler(MPI_File_errhandler_function *fn,
                               MPI_Errhandler *eh)
{
    MPI_Errhandler e = fn && eh ? errh_new(ERRH_FILE) : NULL;

    if (eh != NULL)
        *eh = MPI_ERRHANDLER_NULL;      /* if the call fails */
    if (e == NULL)
        return mpi_err(MPI_COMM_WORLD, fn && eh ? MPI_ERR_NO_MEM
                                                : MPI_ERR_ARG,
                       "MPI_File_create_errhandler");
    e->ffn = fn;
    *eh = e;
    return MPI_SUCCESS;
}

int MPI_File_set_errhandler(MPI_File fh, MPI_Errhandler eh)
{
    MPI_Errhandler *slot = fh == MPI_FILE_NULL ? &null_errh : &fh->errh;

    if (fh != MPI_FILE_NULL && fh->refs <= 0)
        return file_err(MPI_FILE_NULL, MPI_ERR_FILE,
                        "MPI_File_set_errhandler");
    if (!errh_fits(eh, ERRH_FILE))
        return file_err(fh, MPI_ERR_ARG, "MPI_File_set_errhandler");
    errh_retain(eh);
    errh_release(*slot);
    *slot = eh;
    return MPI_SUCCESS;
}

int MPI_File_get_errhandler(MPI_File fh, MPI_Errhandler *eh)
{
    if (eh != NULL)
        *eh = MPI_ERRHANDLER_NULL;
    if ((fh != MPI_FILE_NULL && fh->refs <= 0) || eh == NULL)
        return file_err(MPI_FILE_NULL, MPI_ERR_ARG,
                        "MPI_File_get_errhandler");
    *eh = fh == MPI_FILE_NULL ? null_errh : fh->errh;
    errh_retain(*eh);
    return MPI_SUCCESS;
}

int MPI_File_call_errhandler(MPI_File fh, int code)
{
    file_err(fh, code, "MPI_File_call_errhandler");
    return MPI_SUCCESS;
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_File_open)
PMPI(MPI_File_close)
PMPI(MPI_File_delete)
PMPI(MPI_File_get_size)
PMPI(MPI_File_set_size)
PMPI(MPI_File_preallocate)
PMPI(MPI_File_sync)
PMPI(MPI_File_get_amode)
PMPI(MPI_File_get_group)
PMPI(MPI_File_set_atomicity)
PMPI(MPI_File_get_atomicity)
PMPI(MPI_File_set_info)
PMPI(MPI_File_get_info)
PMPI(MPI_File_create_errhandler)
PMPI(MPI_File_set_errhandler)
PMPI(MPI_File_get_errhandler)
PMPI(MPI_File_call_errhandler)
