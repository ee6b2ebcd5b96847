/* Stopping the node (kernel/panic.c). */
#ifndef PANIC_H
#define PANIC_H

#include "kernel.h"

/* A broken kernel invariant: log, stack trace, stop the node. */
__noreturn void panic(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Stop the node.  In test runs (test= on the command line) and when the
 * PCT asks, QEMU exits through isa-debug-exit with 33 for success, 35 for
 * failure; where that port does not exist (a real machine, or QEMU without
 * the device) the machine powers off through ACPI.  Otherwise, and if
 * that fails, the CPU halts.  After a panic with panic=reset on the
 * command line the machine resets instead (a diskless node boots again).
 */
__noreturn void machine_stop(bool success);

/* Set by main when test= is given: stops exit QEMU instead of halting. */
extern bool machine_exit_on_stop;
/* Set by main for panic=reset. */
extern bool machine_reset_on_panic;

#define KASSERT(c) \
    do { if (unlikely(!(c))) panic("assertion failed: %s (%s:%d)", #c, __FILE__, __LINE__); } while (0)

#endif
