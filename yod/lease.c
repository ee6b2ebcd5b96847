/* SPDX-License-Identifier: MIT */
/*
 * lease.c: the pace of yod's lease PINGs (yod_proto.h, "Lease").  Every
 * node yod holds is pinged once a round of YOD_PING_MS, the nodes spread
 * over the round: all at once, the ALIVEs of hundreds of nodes overflow
 * yod's port on the switch.  yod looks whenever it polls (control.c
 * pump), which on a loaded host may be a few hundred milliseconds late.
 * A late look finishes the round before the next begins: starting afresh
 * instead would skip the nodes at the end of the list, round after round,
 * until their PCTs' leases ran out (YOD_LEASE_MS).
 */
#include "yod.h"

int ping_round_due(struct ping_round *pr, int size, double now, double period)
{
    int due;

    if (pr->start == 0 || (pr->next >= size && now - pr->start >= period)) {
        pr->start = now;
        pr->next = 0;
    }
    due = (int)(size * (now - pr->start) / period) + 1;
    return due < size ? due : size;
}
