/* SPDX-License-Identifier: MIT */
/* qsort: sort integers and strings, then bsearch them. */
#define PROG "qsort"
#include <stdlib.h>

#include "check.h"

#define N 10000

static int v[N];

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;

    return (x > y) - (x < y);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int main(void)
{
    const char *words[] = { "portals", "yod", "pct", "cougar", "kernel",
                            "node", "mesh", "rank" };
    size_t nw = sizeof words / sizeof words[0];
    unsigned seed = 12345;
    int sorted = 1, key;

    for (int i = 0; i < N; i++) {
        seed = seed * 1103515245u + 12345u;
        v[i] = (int)(seed >> 8) - (1 << 22);
    }
    key = v[N / 3];
    qsort(v, N, sizeof v[0], cmp_int);
    for (int i = 1; i < N; i++)
        sorted &= v[i - 1] <= v[i];
    CHECK(sorted);
    CHECK(bsearch(&key, v, N, sizeof v[0], cmp_int) != NULL);

    qsort(words, nw, sizeof words[0], cmp_str);
    CHECK_STR(words[0], "cougar");
    CHECK_STR(words[nw - 1], "yod");
    printf("qsort: %d ints, min %d max %d\n", N, v[0], v[N - 1]);
    return check_done();
}
