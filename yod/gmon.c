/* SPDX-License-Identifier: MIT */
/*
 * gmon.c: write a GNU gmon.out (gmon.h).  The layout is binutils'
 * gprof/gmon_out.h, as glibc's gmon writes it: a 20-byte header ("gmon",
 * version 1, 12 spare bytes), then one record: the tag byte 0
 * (GMON_TAG_TIME_HIST), low and high pc (8 bytes each on x86-64), the
 * bin count and the sample rate (4 bytes each), the dimension's name in
 * 15 bytes ("seconds") and its abbreviation ('s'), then the bins, 2
 * bytes each.  Every number in the machine's byte order: gprof reads
 * the file on a machine like the one that profiled.  gprof takes a bin's
 * bytes to be (high - low) / count, so high is low plus whole bins.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "gmon.h"

#define GMON_MAGIC          "gmon"
#define GMON_VERSION        1
#define GMON_TAG_TIME_HIST  0

struct gmon_hdr {
    char cookie[4];
    uint32_t version;
    char spare[12];
};

struct gmon_hist_hdr {
    uint64_t low_pc, high_pc;
    uint32_t hist_size, prof_rate;
    char dimen[15];
    char dimen_abbrev;
} __attribute__((packed));

_Static_assert(sizeof(struct gmon_hdr) == 20, "gmon header");
_Static_assert(sizeof(struct gmon_hist_hdr) == 40, "gmon histogram header");

int gmon_write(FILE *f, const struct gmon_hist *h)
{
    struct gmon_hdr hdr = { .version = GMON_VERSION };
    struct gmon_hist_hdr hh = { .dimen_abbrev = 's' };
    unsigned char tag = GMON_TAG_TIME_HIST;

    if (!h->nbins || h->nbins > UINT32_MAX || h->shift > 32 ||
        h->nbins > (UINT64_MAX - h->lo) >> h->shift) {
        errno = EINVAL;
        return -1;
    }
    memcpy(hdr.cookie, GMON_MAGIC, 4);
    hh.low_pc = h->lo;
    hh.high_pc = h->lo + (h->nbins << h->shift);
    hh.hist_size = (uint32_t)h->nbins;
    hh.prof_rate = h->hz;
    memcpy(hh.dimen, "seconds", 7);
    if (fwrite(&hdr, sizeof(hdr), 1, f) != 1 ||
        fwrite(&tag, 1, 1, f) != 1 || fwrite(&hh, sizeof(hh), 1, f) != 1 ||
        fwrite(h->bins, 2, h->nbins, f) != h->nbins)
        return -1;
    return 0;
}

int gmon_write_file(const char *path, const struct gmon_hist *h)
{
    FILE *f = fopen(path, "w");
    int rc, e;

    if (!f)
        return -1;
    rc = gmon_write(f, h);
    e = errno;
    if (fclose(f) != 0 && rc == 0)
        return -1;
    errno = e;
    return rc;
}
