/*
 * prio: print "prio: NAME i" for i in 0..4, yielding the CPU after each
 * line.  Two copies with different priorities on one node must not
 * interleave (the higher one finishes first); with equal priorities they
 * take turns.
 */
#include <sched.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    const char *name = argc > 1 ? argv[1] : "?";

    for (int i = 0; i < 5; i++) {
        printf("prio: %s %d\n", name, i);
        fflush(stdout);
        sched_yield();
    }
    return 0;
}
