/*
 * panic() and stopping the node.
 */
#define LOG_PREFIX "panic"
#include "kernel.h"
#include "console.h"
#include "panic.h"
#include "power.h"
#include "printf.h"
#include "trap.h"
#include "x86.h"

#define QEMU_DEBUG_EXIT_PORT    0xF4    /* -device isa-debug-exit,iobase=0xf4 */

bool machine_exit_on_stop;
bool machine_reset_on_panic;

__noreturn void machine_stop(bool success)
{
    irq_disable();
    if (machine_exit_on_stop) {
        /* QEMU exits with (value << 1) | 1: 0x10 -> 33, 0x11 -> 35. */
        outb(QEMU_DEBUG_EXIT_PORT, success ? 0x10 : 0x11);
        power_off();            /* still here: no debug-exit device */
    }
    kprintf("qkernel: node stopped\n");
    for (;;)
        halt();
}

__noreturn void panic(const char *fmt, ...)
{
    char buf[200];
    va_list ap;

    irq_disable();
    va_start(ap, fmt);
    kvsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    pr_info("%s\n", buf);
    stacktrace_print(0, read_rbp());
    if (machine_reset_on_panic)
        power_reset();
    machine_stop(false);
}
