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

#endif
