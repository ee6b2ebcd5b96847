/*
 * ratelimit.c: a line per interval for events a process can repeat at
 * will, the rest counted (include/ratelimit.h).  A program that calls a
 * PCT-only system call in a loop would otherwise fill the node's log at
 * the speed of the serial port and slow every other line behind it.
 */
#include "ratelimit.h"

int ratelimit_event(struct ratelimit *rl, uint64_t now_ns, uint64_t *missed)
{
    if (rl->logged && now_ns - rl->last_ns < rl->interval_ns) {
        rl->missed++;
        return 0;
    }
    *missed = rl->missed;
    rl->missed = 0;
    rl->last_ns = now_ns;
    rl->logged = 1;
    return 1;
}

uint64_t ratelimit_flush(struct ratelimit *rl)
{
    uint64_t n = rl->missed;

    rl->missed = 0;
    return n;
}
