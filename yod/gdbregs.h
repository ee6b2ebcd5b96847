/* SPDX-License-Identifier: MIT */
/*
 * gdbregs.h: a thread's registers as gdb numbers them (the target
 * description yod gives it, GDB_TARGET_XML), from and to the kernel's
 * struct lwk_dbg_regs (general registers and the FXSAVE image).
 */
#ifndef YOD_GDBREGS_H
#define YOD_GDBREGS_H

#include <stddef.h>
#include <stdint.h>

#include "uapi/abi.h"

#define GDB_NREGS       60      /* rax .. gs_base */
#define GDB_G_BYTES     560     /* all of them, as 'g' sends them */

extern const char gdb_target_xml[];

/* Register n's bytes (target order, little-endian) into out: its size,
   or -1 if there is no register n. */
int gdbregs_get(const struct lwk_dbg_regs *r, int n, uint8_t *out);
/* Set register n from len bytes: 0, or -1 (no such register, or not
   len bytes).  Registers a program cannot change (cs, ss, the data
   segment registers, gs_base, orig_rax) take any value and keep theirs. */
int gdbregs_set(struct lwk_dbg_regs *r, int n, const uint8_t *in,
                size_t len);
/* Every register ('g'): GDB_G_BYTES into out; and back ('G'), 0 or -1
   if len is not GDB_G_BYTES. */
size_t gdbregs_all(const struct lwk_dbg_regs *r, uint8_t *out);
int gdbregs_set_all(struct lwk_dbg_regs *r, const uint8_t *in, size_t len);

#endif
