/* SPDX-License-Identifier: MIT */
/*
 * pfs.h: striped parallel files on an I/O server (pfs.c; docs/io.md,
 * PFS).  With yod -pfs DIR the ranks' paths under /pfs are DIR's: a
 * striped file there is a metadata file (its name) and F stripe files
 * (pfs_map.h).  Every call returns a result or -errno.
 */
#ifndef YOD_PFS_H
#define YOD_PFS_H

#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "pfs_map.h"
#include "yod_proto.h"

/* A striped file a rank has open (its fd's, beside the metadata's). */
struct pfs_file {
    uint64_t id, unit;
    uint32_t factor;
    int append;                 /* O_APPEND: every write at the end */
    int sfd[PFS_FACTOR_MAX];    /* its stripes, opened at first use; -1 */
};

/* Serve DIR as /pfs (NULL: no PFS); before the ranks' first request. */
int pfs_mount(const char *dir);
/* Is `path` under /pfs on a server with a PFS? */
int pfs_named(const char *path);

/* The calls on /pfs paths (the rank's fd table of filecalls.c): OPEN
   (the metadata's fd in *fd_out, *pf the striped file or NULL),
   STAT, LSTAT, UNLINK, RMDIR, MKDIR, LINK, RENAME, ACCESS, CHDIR. */
long pfs_open(const struct yod_file_req *q, int *fd_out,
              struct pfs_file **pf);
long pfs_path_call(const struct yod_file_req *q, struct stat *st);

/* On an open striped file: its logical size; pread and pwrite at a
   logical offset (holes read as zeros, nothing past the end); ftruncate,
   fsync, close. */
long pfs_size(struct pfs_file *pf, uint64_t *size);
void pfs_stat_fix(const struct pfs_file *pf, struct stat *st); /* fstat's */
ssize_t pfs_pread(struct pfs_file *pf, void *buf, size_t len, uint64_t off);
ssize_t pfs_pwrite(struct pfs_file *pf, const void *buf, size_t len,
                   uint64_t off);
long pfs_ftruncate(struct pfs_file *pf, uint64_t size);
long pfs_fsync(struct pfs_file *pf);
void pfs_close(struct pfs_file *pf);

/* Directory entries of `fd` as getdents64 gave them, `len` bytes: if
   fd is DIR itself, without the store of stripes (.pfs); the bytes
   left. */
size_t pfs_hide_store(int fd, void *buf, size_t len);

/* Stripe `i` of the file whose id is `hex` (SREAD, SWRITE), opened for
   writing (wr) or reading: an fd to close. */
int pfs_stripe_open(const char *hex, uint32_t i, int wr);

#endif
