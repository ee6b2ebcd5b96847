/* SPDX-License-Identifier: MIT */
/*
 * nxtest.h: helpers for the NX test programs (run by tests/nx/run under
 * tools/ptlrun).  A failed check prints node, file, line and the
 * expression and exits 1, which makes ptlrun fail the job.
 */
#ifndef NXTEST_H
#define NXTEST_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nx.h"

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "node %ld: %s:%d: " \
    "check failed: %s\n", mynode(), __FILE__, __LINE__, #c); exit(1); } \
    } while (0)

/* Byte i of a message identified by (src, dst, k). */
static inline unsigned char pat(long src, long dst, long k, long i)
{
    return (unsigned char)(src * 31 + dst * 7 + k * 13 + i + (i >> 8));
}

static inline void fill(unsigned char *b, long n, long src, long dst, long k)
{
    for (long i = 0; i < n; i++)
        b[i] = pat(src, dst, k, i);
}

static inline int same(const unsigned char *b, long n, long src, long dst,
                       long k)
{
    for (long i = 0; i < n; i++)
        if (b[i] != pat(src, dst, k, i))
            return 0;
    return 1;
}

static inline void done(void)
{
    printf("node %ld ok\n", mynode());
}

#endif
