/* SPDX-License-Identifier: MIT */
/* setjmp: longjmp out of nested calls, values kept, 0 turned into 1. */
#define PROG "setjmp"
#include <setjmp.h>

#include "check.h"

static jmp_buf env;
static int depth;

static void dive(int n)
{
    depth = n;
    if (n == 10)
        longjmp(env, n);
    if (n < 10)     /* always; the test just keeps gcc's recursion check calm */
        dive(n + 1);
}

static void zero(void)
{
    longjmp(env, 0);
}

int main(void)
{
    volatile int visits = 0;
    volatile double kept = 1.5;
    int r;

    r = setjmp(env);
    visits++;
    if (r == 0) {
        kept = 2.5;
        dive(1);
    }
    CHECK(r == 10 && depth == 10);
    CHECK(visits == 2);
    CHECK(kept == 2.5);

    r = setjmp(env);
    if (r == 0)
        zero();
    CHECK(r == 1);
    printf("setjmp: came back from depth %d\n", depth);
    return check_done();
}
