/* SPDX-License-Identifier: MIT */
/*
 * check.h: tiny self-check helpers shared by the sample programs.  Each
 * program counts failed checks, prints "<name>: FAIL <what>" for each and
 * finishes with "<name>: OK" (exit 0) only when none failed.
 */
#ifndef CHECK_H
#define CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failed;

#define CHECK(cond)                                                     \
    do {                                                                \
        if (!(cond)) {                                                  \
            printf("%s: FAIL %s:%d: %s\n", PROG, __FILE__, __LINE__,    \
                   #cond);                                              \
            check_failed++;                                             \
        }                                                               \
    } while (0)

#define CHECK_STR(got, want)                                            \
    do {                                                                \
        const char *g_ = (got), *w_ = (want);                           \
        if (strcmp(g_, w_) != 0) {                                      \
            printf("%s: FAIL %s:%d: got \"%s\" want \"%s\"\n", PROG,    \
                   __FILE__, __LINE__, g_, w_);                         \
            check_failed++;                                             \
        }                                                               \
    } while (0)

static inline int check_done(void)
{
    if (check_failed) {
        printf("%s: FAILED (%d checks)\n", PROG, check_failed);
        return 1;
    }
    printf("%s: OK\n", PROG);
    return 0;
}

#endif
