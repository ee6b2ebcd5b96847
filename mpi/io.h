/* SPDX-License-Identifier: MIT */
/*
 * io.h: what MPI-IO's files share (io.c: files; io_view.c: views and
 * moving data).
 */
#ifndef MPI_IO_H
#define MPI_IO_H

#include "mpi_impl.h"

/* One piece of a view's filetype: where in the tile, how many bytes,
 * and how many data bytes of the tile come before it. */
struct fpiece {
    MPI_Aint off;
    size_t len, before;
};

/* Collective buffering's hints in use (io_hints.c; io_coll.c). */
enum { CB_AUTO, CB_ENABLE, CB_DISABLE };    /* romio_cb_read/_write */
struct io_cb {
    int read, write;
    int nodes;                  /* cb_nodes: aggregators */
    int *aggr;                  /* their ranks in the file's comm */
    int bufsize;                /* cb_buffer_size, bytes per round */
    MPI_Offset unit;            /* striping_unit (0: none) */
};

struct mpi_file_s {
    int refs;
    MPI_Comm comm;              /* a duplicate */
    int fd;
    int amode;
    char *name;
    bool atomic;
    MPI_Errhandler errh;
    MPI_Info info;
    /* the view */
    MPI_Offset disp;
    MPI_Datatype etype, ftype;
    struct fpiece *pieces;
    int npieces;
    size_t tile_bytes;          /* data bytes in one filetype */
    MPI_Aint tile_ext;          /* its extent */
    MPI_Offset pos;             /* individual file pointer, in etypes */
    /* the shared file pointer (io_shared.c): a counter at rank 0 */
    MPI_Win sfp_win;
    MPI_Offset sfp;
    /* a split collective begun and not yet ended (io_split.c) */
    bool split_on;
    const void *split_buf;
    MPI_Status split_st;
    struct io_cb cb;
};

int file_check(MPI_File f);
int file_err(MPI_File f, int rc, const char *name);
int io_errno(int e);
int io_size(MPI_File f, MPI_Offset *size);

/* io_view.c */
int view_default(MPI_File f);
void view_clear(MPI_File f);
/* The individual pointer at the end of the file (MPI_MODE_APPEND). */
int io_seek_end(MPI_File f, MPI_Offset *pos);
/* Where a seek goes (cur: the pointer's place now). */
int io_seek_to(MPI_File f, MPI_Offset offset, int whence, MPI_Offset cur,
               MPI_Offset *to);
/* Read or write count items of dt at etype offset at (< 0: at the
 * individual pointer, which moves on); the status says how much. */
int io_access(MPI_File f, bool wr, MPI_Offset at, void *buf, int count,
              MPI_Datatype dt, MPI_Status *st);
/* The checks of a data call (at >= 0: an explicit offset). */
int io_access_check(MPI_File f, bool wr, MPI_Offset at, int count,
                    MPI_Datatype dt, const void *buf);
/* The file byte holding stream byte s of the view; *run: bytes that
 * follow it in the file before the view skips (SIZE_MAX: none). */
MPI_Offset io_file_byte(MPI_File f, MPI_Offset s, size_t *run);
/* A nonblocking call's request when the call did it all. */
int io_done_request(MPI_File fh, int rc, const MPI_Status *st,
                    MPI_Request *req, const char *name);

/* io_async.c: a nonblocking independent call (at < 0: the individual
 * pointer) started as aio, or done at the call where it cannot be. */
int io_start(MPI_File f, bool wr, MPI_Offset at, void *buf, int count,
             MPI_Datatype dt, MPI_Request *req, const char *name);
/* Every operation on fd finished (before it is closed). */
void io_async_drain(int fd);

/* io_hints.c: the hints from the file's info (collective: MPI_File_open,
 * MPI_File_set_info), their values in use for MPI_File_get_info. */
int io_hints(MPI_File f);
void io_hints_free(MPI_File f);
int io_hints_give(MPI_File f, MPI_Info *info);
/* io_coll.c: a collective access (every rank of the file calls it), in
 * two phases through the aggregators where the hints say so. */
int io_collective(MPI_File f, bool wr, MPI_Offset at, void *buf, int count,
                  MPI_Datatype dt, MPI_Status *st);

/* io_shared.c: the shared file pointer's counter, made at MPI_File_open
 * (every rank), set to pos (collective), given back at MPI_File_close. */
int sfp_open(MPI_File f, MPI_Offset pos);
int sfp_reset(MPI_File f, MPI_Offset pos);
void sfp_close(MPI_File f);
/* The ordered calls' access (collective): the ranks' parts in rank
 * order at the shared pointer. */
int io_ordered(MPI_File f, bool wr, void *buf, int count, MPI_Datatype dt,
               MPI_Status *st);

#endif
