/*
 * Serial console on COM1 (16550 UART, 115200 8N1).  Polled output with a
 * bounded wait, so a missing UART cannot hang the node.  The kernel log
 * can go to the framebuffer too, or instead (console= on the command
 * line; kernel/fbcon.c).
 */
#include "kernel.h"
#include "bootinfo.h"
#include "cmdline.h"
#include "console.h"
#include "fbcon.h"
#include "lib.h"
#include "printf.h"
#include "ratelimit.h"
#include "spinlock.h"
#include "timer.h"
#include "x86.h"

#define COM1            0x3F8
#define COM2            0x2F8
#define UART_SCR        7       /* scratch register: probes presence */
#define UART_THR        0       /* transmit holding (DLAB=0) */
#define UART_DLL        0       /* divisor low (DLAB=1) */
#define UART_IER        1       /* interrupt enable (DLAB=0) */
#define UART_DLM        1       /* divisor high (DLAB=1) */
#define UART_FCR        2       /* FIFO control */
#define UART_LCR        3       /* line control */
#define UART_MCR        4       /* modem control */
#define UART_LSR        5       /* line status */
#define LCR_8N1         0x03
#define LCR_DLAB        0x80
#define LSR_THRE        0x20    /* transmit holding register empty */

/* Program output goes to COM2 when there is one, so it stays apart from
   the kernel log (tools/lwkrun shows one and keeps the other). */
static uint16_t user_port = COM1;
/* Lines from different CPUs do not mix: one writer at a time per UART
   (one lock for both: they are written the same way, rarely at once). */
static spinlock_t console_lock;
/* console=: where the kernel log goes.  Until the framebuffer console can
   start (after paging), the log is also kept here and replayed to it. */
static bool to_serial = true;
static char early[8192];
static size_t early_len;
static bool early_done;

static void uart_init(uint16_t port)
{
    outb(port + UART_IER, 0x00);        /* no interrupts: we poll */
    outb(port + UART_LCR, LCR_DLAB);
    outb(port + UART_DLL, 1);           /* 115200 / 1 = 115200 baud */
    outb(port + UART_DLM, 0);
    outb(port + UART_LCR, LCR_8N1);
    outb(port + UART_FCR, 0xC7);        /* enable + clear FIFOs, 14-byte */
    outb(port + UART_MCR, 0x03);        /* DTR, RTS */
}

static bool uart_present(uint16_t port)
{
    outb(port + UART_SCR, 0x5A);
    if (inb(port + UART_SCR) != 0x5A)
        return false;
    outb(port + UART_SCR, 0xA5);
    return inb(port + UART_SCR) == 0xA5;
}

void console_init(void)
{
    uart_init(COM1);
    if (uart_present(COM2)) {
        uart_init(COM2);
        user_port = COM2;
    }
}

static void uart_putc(uint16_t port, char c)
{
    /* ~1 ms at 115200 baud is a few thousand polls; stop waiting after
       that rather than hang on absent hardware. */
    for (int i = 0; i < 100000; i++)
        if (inb(port + UART_LSR) & LSR_THRE)
            break;
    outb(port + UART_THR, (uint8_t)c);
}

static void uart_write(uint16_t port, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\n')
            uart_putc(port, '\r');
        uart_putc(port, s[i]);
    }
}

void console_write(const char *s, size_t n)
{
    spin_lock(&console_lock);
    if (to_serial)
        uart_write(COM1, s, n);
    if (fbcon_active())
        fbcon_write(s, n);
    else if (!early_done && early_len + n <= sizeof(early)) {
        memcpy(early + early_len, s, n);
        early_len += n;
    }
    spin_unlock(&console_lock);
}

/* console=serial (the default), fb, or serial,fb. */
void console_setup(const struct cmdline *cl, const struct bootinfo_fb *fb)
{
    const char *want = cmdline_get(cl, "console"), *why;
    bool both = want && (!strcmp(want, "serial,fb") ||
                         !strcmp(want, "fb,serial"));
    bool serial = !want || both || !strcmp(want, "serial");
    bool use_fb = both || (want && !strcmp(want, "fb"));

    early_done = true;
    if (want && !serial && !use_fb) {
        kprintf("console: console=%s is not serial, fb or serial,fb; "
                "keeping the serial console\n", want);
        return;
    }
    if (!use_fb)
        return;
    spin_lock(&console_lock);
    if (fbcon_init(fb, &why) == 0)
        fbcon_write(early, early_len);      /* the log so far */
    spin_unlock(&console_lock);
    if (!fbcon_active()) {
        kprintf("console: no framebuffer console: %s; keeping the serial "
                "console\n", why);
        return;
    }
    kprintf("console: framebuffer %ux%u, %u bpp at %#lx, %u x %u "
            "characters%s\n", fb->width, fb->height, fb->bpp, fb->addr,
            fb->width / FBCON_GLYPH_W, fb->height / FBCON_GLYPH_H,
            serial ? "; serial too" : "; serial off from here");
    to_serial = serial;
}

/* Program output goes to its UART whatever console= says (launchers read
   it there), and to the screen too when there is one: on a machine with
   no serial port the screen is all there is. */
void console_write_user(const char *s, size_t n)
{
    spin_lock(&console_lock);
    uart_write(user_port, s, n);
    if (fbcon_active())
        fbcon_write(s, n);
    spin_unlock(&console_lock);
}

int kprintf(const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = kvsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    console_write(buf, MIN((size_t)n, sizeof(buf) - 1));
    if ((size_t)n >= sizeof(buf))
        console_write("[...]\n", 6);    /* truncation is visible */
    return n;
}

#define SECOND_NS   1000000000ull

/* Events come from any CPU: events_lock guards the counts (never held
   while printing, which takes console_lock). */
static spinlock_t events_lock;
static struct ratelimit events[PE_KINDS] = {
    [0 ... PE_KINDS - 1] = RATELIMIT_INIT(SECOND_NS),
};
static const char *const event_names[PE_KINDS] = {
    [PE_UNKNOWN_CALL] = "unknown system calls",
    [PE_PCT_ONLY] = "refused PCT-only calls",
    [PE_NO_NIC] = "PtlInit calls without a NIC",
    [PE_WIRE_VERSION] = "frames of another Portals wire version",
    [PE_PTL_PID] = "PtlNIInit calls for a Portals pid not the process's",
};

void proc_event(enum proc_event kind, const char *fmt, ...)
{
    char buf[200];
    uint64_t missed;
    va_list ap;
    int n, line;

    spin_lock(&events_lock);
    line = ratelimit_event(&events[kind], clock_ns(), &missed);
    spin_unlock(&events_lock);
    if (!line)
        return;
    va_start(ap, fmt);
    n = kvsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    n = MIN((size_t)n, sizeof(buf) - 1);
    if (missed)
        kprintf("%.*s (%lu more %s since the last line)\n", n, buf,
                missed, event_names[kind]);
    else
        kprintf("%.*s\n", n, buf);
}

void proc_event_flush(void)
{
    for (int k = 0; k < PE_KINDS; k++) {
        uint64_t missed;
        spin_lock(&events_lock);
        missed = ratelimit_flush(&events[k]);
        spin_unlock(&events_lock);
        if (missed)
            kprintf("kernel: %lu more %s, not logged one by one (at most a "
                    "line a second)\n", missed, event_names[k]);
    }
}
