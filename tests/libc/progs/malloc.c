/* SPDX-License-Identifier: MIT */
/* malloc: many sizes, reuse after free, realloc, calloc and alignment. */
#define PROG "malloc"
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"

#define NPTR 500

static unsigned char *p[NPTR];
static size_t sz[NPTR];

static int pattern_ok(const unsigned char *q, size_t n, unsigned char c)
{
    for (size_t i = 0; i < n; i++)
        if (q[i] != (unsigned char)(c + i))
            return 0;
    return 1;
}

static void fill(unsigned char *q, size_t n, unsigned char c)
{
    for (size_t i = 0; i < n; i++)
        q[i] = (unsigned char)(c + i);
}

int main(void)
{
    unsigned seed = 7;
    int bad = 0;
    void *a;
    int *z;

    /* Sizes from 1 byte to 256 KiB, kept alive together, freed out of order. */
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < NPTR; i++) {
            seed = seed * 1103515245u + 12345u;
            sz[i] = (i % 50 == 0) ? (size_t)1 << (8 + i % 11)
                                  : 1 + (seed >> 16) % 2000;
            p[i] = malloc(sz[i]);
            if (!p[i]) {
                bad++;
                continue;
            }
            fill(p[i], sz[i], (unsigned char)i);
        }
        for (int i = 0; i < NPTR; i++)
            if (p[i] && !pattern_ok(p[i], sz[i], (unsigned char)i))
                bad++;
        for (int i = 0; i < NPTR; i += 2)
            free(p[i]);
        for (int i = 1; i < NPTR; i += 2)
            free(p[i]);
    }
    CHECK(bad == 0);

    /* realloc keeps the contents when growing and shrinking. */
    a = malloc(100);
    fill(a, 100, 3);
    a = realloc(a, 100000);
    CHECK(a && pattern_ok(a, 100, 3));
    a = realloc(a, 10);
    CHECK(a && pattern_ok(a, 10, 3));
    free(a);

    z = calloc(1000, sizeof *z);
    CHECK(z != NULL);
    for (int i = 0; z && i < 1000; i++)
        bad += z[i] != 0;
    CHECK(bad == 0);
    free(z);

    a = memalign(4096, 100);
    CHECK(a && ((uintptr_t)a & 4095) == 0);
    free(a);
    CHECK(posix_memalign(&a, 64, 1000) == 0 && ((uintptr_t)a & 63) == 0);
    free(a);
    a = aligned_alloc(256, 512);
    CHECK(a && ((uintptr_t)a & 255) == 0);
    free(a);
    free(NULL);
    printf("malloc: %d allocations of 1 B .. 256 KiB\n", 3 * NPTR);
    return check_done();
}
