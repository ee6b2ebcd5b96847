/* SPDX-License-Identifier: MIT */
/*
 * gmon.h: a program-counter histogram as a GNU gmon.out file, the file
 * `gprof PROG gmon.out` reads (binutils' gmon_out.h: the header, then a
 * GMON_TAG_TIME_HIST record; no call graph, which only -pg code makes).
 */
#ifndef YOD_GMON_H
#define YOD_GMON_H

#include <stdint.h>
#include <stdio.h>

/* Bins of 2^shift bytes from lo, each a count of samples taken at hz. */
struct gmon_hist {
    uint64_t lo;
    uint32_t shift;
    uint32_t hz;
    uint64_t nbins;
    const uint16_t *bins;
};

/* The file's bytes: 0, or -1 (errno set: a write failed, or EINVAL for
   a histogram gmon cannot say: no bins, more than 2^32-1 of them, or
   text past the top of the address space). */
int gmon_write(FILE *f, const struct gmon_hist *h);
/* The same into the file at path (made or emptied, mode 0666 & ~umask). */
int gmon_write_file(const char *path, const struct gmon_hist *h);

#endif
