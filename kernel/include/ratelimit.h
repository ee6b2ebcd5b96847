/*
 * At most one log line per interval for a kind of event that a process
 * can cause as often as it likes (a refused system call, a refused
 * request to the PCT); the events in between are counted, and the count
 * is said with the next line or when the source is gone (ratelimit_flush).
 * Pure logic (kernel/ratelimit.c), shared by the kernel and the PCT like
 * elf.c, unit-tested on the host (tests/unit/test_ratelimit.c).
 */
#ifndef RATELIMIT_H
#define RATELIMIT_H

#include <stdint.h>

struct ratelimit {
    uint64_t interval_ns;       /* at most one line per this */
    uint64_t last_ns;           /* when the last line was allowed */
    uint64_t missed;            /* events since then without a line */
    int logged;                 /* a line has been allowed (last_ns valid) */
};

#define RATELIMIT_INIT(ns)  { .interval_ns = (ns) }

/* An event at time `now_ns`: 1 if it gets a line (then *missed is how
   many events since the previous line got none), 0 if it is only
   counted. */
int ratelimit_event(struct ratelimit *rl, uint64_t now_ns, uint64_t *missed);

/* The events counted and not yet said (the count starts again at 0). */
uint64_t ratelimit_flush(struct ratelimit *rl);

#endif
