/* SPDX-License-Identifier: MIT */
/*
 * <lwk/pfs.h>: striped parallel files (PFS) for programs run by yod with
 * a PFS (yod -pfs DIR, or the cluster's tools/cluster up --pfs DIR): the
 * ranks see DIR as /pfs, and a file created there is striped round-robin
 * over `factor` stripe files of DIR's storage directories, `unit` bytes
 * at a time, each stripe served by one of the job's I/O servers (stripe
 * i by the i mod N-th of N).  open(2) creates such files with the
 * defaults (factor: the job's I/O servers; unit: 1 MiB); these calls
 * choose, as Lustre's llapi_file_open and llapi_file_get_stripe do.
 * docs/io.md, "Striped files (PFS)".
 */
#ifndef LWK_PFS_H
#define LWK_PFS_H

#include <stddef.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LWK_PFS_FACTOR_MAX  64          /* stripes of a file, 1..this */
#define LWK_PFS_UNIT_MIN    4096u       /* the unit: a multiple of this, */
#define LWK_PFS_UNIT_MAX    (1ul << 30) /* up to this many bytes */

/* open(path, flags | O_CREAT, mode) of a file under /pfs, created with
   `factor` stripes of `unit` bytes if it does not exist yet (0 for
   either: its default).  An existing file keeps the layout it has (with
   O_EXCL: EEXIST).  A file descriptor, or -1 with errno: EINVAL for a
   factor or unit out of range, ENOENT for a path not under /pfs or a job
   without a PFS, else open(2)'s. */
int lwk_pfs_open(const char *path, int flags, mode_t mode, unsigned factor,
                 size_t unit);

/* The layout of a striped file open on `fd`: 0, or -1 with errno EBADF
   (not open) or EINVAL (not a striped file). */
int lwk_pfs_layout(int fd, unsigned *factor, size_t *unit);

#ifdef __cplusplus
}
#endif

#endif
