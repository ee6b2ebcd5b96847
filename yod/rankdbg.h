/* SPDX-License-Identifier: MIT */
/*
 * rankdbg.h: yod's side of yod_debug.h: DEBUG requests to the PCT of a
 * rank's node, the rank's memory through the PCT's window (Portals Gets
 * and Puts), and what a snapshot says.  Used by the gdb server, the
 * stack summary and core files.
 */
#ifndef YOD_RANKDBG_H
#define YOD_RANKDBG_H

#include <stddef.h>
#include <stdint.h>

#include "yod_debug.h"

/* A DEBUG request (op, thread `cpu`, CPU masks go and step, signal sig)
   and its answer: 0 (OK), or -1 with why in rankdbg_why(). */
int rankdbg_op(int rank, uint32_t op, uint32_t cpu, uint64_t go,
               uint64_t step, int sig);
/* SNAP into *info: 0, or -1. */
int rankdbg_snap(int rank, struct yod_dbg_info *info);
/* USED: which chunks of `region` hold anything, into *u: 0, or -1. */
int rankdbg_used(int rank, int region, struct yod_dbg_used *u);
/* Thread `cpu` (stopped) takes registers r: 0, or -1. */
int rankdbg_setregs(int rank, uint32_t cpu, const struct lwk_dbg_regs *r);
/* len bytes of the rank's memory at addr (inside one region of `info`)
   into buf, or from buf: the bytes moved (fewer at a region's end), or
   -1 (not in its memory, or the transfer failed). */
long rankdbg_read(int rank, const struct yod_dbg_info *info, uint64_t addr,
                  void *buf, size_t len);
long rankdbg_write(int rank, const struct yod_dbg_info *info, uint64_t addr,
                   const void *buf, size_t len);
const char *rankdbg_why(void);

#endif
