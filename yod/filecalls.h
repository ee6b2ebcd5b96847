/* SPDX-License-Identifier: MIT */
/*
 * filecalls.h: the file calls yod answers at once (filecalls.c): open,
 * close, lseek, stat and the calls on names, on a rank's own fds and its
 * working directory.  READ, WRITE and GETCWD move data and are fileio.c's.
 */
#ifndef YOD_FILECALLS_H
#define YOD_FILECALLS_H

#include <stddef.h>

#include "paths.h"
#include "pfs.h"
#include "yod_proto.h"

#define MAX_FDS     64          /* per rank, 0..2 included */

struct files {
    int fd[MAX_FDS];            /* the rank's fd -> ours; -1: not open */
    struct pfs_file *pfs[MAX_FDS];      /* a striped file's (fd: its
                                           metadata), else NULL */
    struct cwd cwd;             /* its working directory; fd -1: it ended */
};

/* Our fd for the rank's `fd`, or -1. */
int files_fd(const struct files *f, int fd);
/* The striped file open on the rank's `fd`, or NULL. */
struct pfs_file *files_pfs(const struct files *f, int fd);
/* Request `q`: its result or -errno; FSTAT, STAT and LSTAT fill *st. */
long files_call(struct files *f, const struct yod_file_req *q,
                struct yod_stat *st);
/* Is `q`, `len` bytes as it arrived, well formed? */
int files_request_ok(const struct yod_file_req *q, size_t len);
/* Close every fd and the working directory (the rank ended). */
void files_close(struct files *f);

#endif
