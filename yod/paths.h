/* SPDX-License-Identifier: MIT */
/*
 * paths.h: where a rank's paths lead (paths.c), for yod's file server.
 * A rank has a working directory of its own; without -chroot its paths
 * mean what they mean on Linux from there, with -chroot DIR they are
 * resolved inside DIR as if DIR were /.  In both, the host's /proc, /sys
 * and the like, its devices (but null, zero, full, random, urandom) and
 * magic links are ENOENT.  Every call returns a result or -errno.
 */
#ifndef YOD_PATHS_H
#define YOD_PATHS_H

#include <limits.h>
#include <sys/stat.h>
#include <sys/types.h>

struct cwd {
    int fd;                     /* the directory (O_PATH); -1: none */
    char path[PATH_MAX];        /* -chroot: its path inside DIR ("/": DIR) */
};

/* Confine every rank to `dir` (NULL: no confinement); before paths_start. */
int paths_confine(const char *dir);
/* A rank's first directory: yod's own, or DIR. */
int paths_start(struct cwd *c);
void paths_close(struct cwd *c);

int path_open(const struct cwd *c, const char *path, int flags, mode_t mode);
/* The directory `path`'s last name is in, as a new fd (close it), and
   the name to use with it in name[PATH_MAX]: for the calls that act on a
   name itself (unlink, rename, lstat, ...), never where a symlink of that
   name leads. */
int path_parent(const struct cwd *c, const char *path, char *name);
int path_stat(const struct cwd *c, const char *path, struct stat *st,
              int nofollow);
int path_access(const struct cwd *c, const char *path, int mode);
int path_chdir(struct cwd *c, const char *path);
/* The working directory as the rank sees it, into buf. */
int path_getcwd(const struct cwd *c, char *buf, size_t len);
/* A file of the host (the program) by the path a rank would give for it:
   its canonical path, inside `chroot` if not NULL (-ENOENT: outside). */
int path_seen(const char *host_path, const char *chroot, char *out,
              size_t len);

#endif
