/* Stopping the node (kernel/panic.c). */
#ifndef PANIC_H
#define PANIC_H

#include "kernel.h"

/* A broken kernel invariant: log, stack trace, stop the node. */
__noreturn void panic(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Stop the node.  In test runs (test= on the command line) QEMU exits
 * through isa-debug-exit with 33 for success, 35 for failure; otherwise
 * the CPU halts.
 */
__noreturn void machine_stop(bool success);

/* Set by main when test= is given: stops exit QEMU instead of halting. */
extern bool machine_exit_on_stop;

#define KASSERT(c) \
    do { if (unlikely(!(c))) panic("assertion failed: %s (%s:%d)", #c, __FILE__, __LINE__); } while (0)

#endif
