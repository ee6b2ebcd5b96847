/* SPDX-License-Identifier: MIT */
/*
 * core.h: a rank's ELF core file, written on the service side from what
 * its node kept (yod_debug.h): `gdb PROG core.JOB.RANK` reads it.
 */
#ifndef YOD_CORE_H
#define YOD_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "yod_debug.h"

/* What a core file is made of: the snapshot (threads, registers, the
   regions), the signal the rank died of, its name and arguments, and
   its memory (read through `read` with `arg`, which gives back the
   bytes read or -1; `used` says which chunks of region i hold
   anything, or NULL: all of it). */
struct core_src {
    const struct yod_dbg_info *info;
    int sig;
    int first_cpu;              /* the thread that died: first (gdb's) */
    const char *name, *args;
    long (*read)(void *arg, uint64_t addr, void *buf, size_t len);
    const struct yod_dbg_used *(*used)(void *arg, int region);
    void *arg;
};

/* Write the core file `path` of at most `limit` bytes (ulimit -c's
   meaning: regions that would pass it are left out, whole); its size
   (its holes included), or -1 with errno. */
long core_write(const char *path, const struct core_src *src,
                uint64_t limit);

#endif
