/* SPDX-License-Identifier: MIT */
/*
 * iotest.h: what iotest.c's modes share with iogarbage.c (one program,
 * tests/yod/iotest.elf).
 */
#ifndef IOTEST_H
#define IOTEST_H

extern int fails;       /* checks failed so far: the exit status */
extern long rank;       /* this rank (lwk_rank()) */

/* "ok WHAT", or "FAIL WHAT: errno" and one more failure. */
void check(int ok, const char *what);

/* iotest garbage: malformed requests to the rank's I/O server (iogarbage.c) */
int do_garbage(void);

#endif
