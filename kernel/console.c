/*
 * Serial console on COM1 (16550 UART, 115200 8N1): the kernel log, every
 * line ending "\r\n" for a terminal, written with a bounded wait so a
 * missing UART cannot hang the node.  The kernel log can go to the
 * framebuffer too, or instead (console= on the command line;
 * kernel/fbcon.c).  A program's stdout and stderr have ports of their own
 * when the machine has them (COM2, COM3), carrying its bytes unchanged,
 * and its stdin may come on COM4, by request (console_read_user).
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
#define COM3            0x3E8
#define COM4            0x2E8
#define UART_RBR        0       /* receive buffer (DLAB=0) */
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
#define LSR_DR          0x01    /* data ready */
#define LSR_THRE        0x20    /* transmit holding register empty */

/* A program's stdout goes to COM2 and its stderr to COM3 when there are
   such ports, so they stay apart from each other and from the kernel log
   (tools/lwkrun passes them on as its own stdout and stderr, and keeps
   the log).  Without them they share the next port down. */
static uint16_t out_port = COM1, err_port = COM1;
/* A program's stdin: COM4 when there is one (0: none, end of file). */
static uint16_t in_port;
static spinlock_t in_lock;          /* one read at a time */
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
        out_port = err_port = COM2;
    }
    if (uart_present(COM3)) {
        uart_init(COM3);
        err_port = COM3;
    }
    if (uart_present(COM4)) {
        uart_init(COM4);
        in_port = COM4;
    }
}

/* The log's port is a terminal: "\n" goes out as "\r\n", and a byte waits
   ~1 ms at most (a few thousand polls at 115200 baud) rather than hang on
   absent hardware.  A program's own port (present: console_init probed
   it) carries its bytes as they are and waits as long as its reader
   takes, as a pipe does: under QEMU, THRE stays clear while the host side
   is behind, and a byte written then would push another out of the
   FIFO. */
static void uart_putc(uint16_t port, char c)
{
    bool log = port == COM1;

    for (int i = 0; !log || i < 100000; i++)
        if (inb(port + UART_LSR) & LSR_THRE)
            break;
    outb(port + UART_THR, (uint8_t)c);
}

static void uart_write(uint16_t port, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\n' && port == COM1)
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
void console_write_user(int fd, const char *s, size_t n)
{
    spin_lock(&console_lock);
    uart_write(fd == 2 ? err_port : out_port, s, n);
    if (fbcon_active())
        fbcon_write(s, n);
    spin_unlock(&console_lock);
}

/*
 * A program's stdin, read on demand as yod reads its own for rank 0: the
 * node asks on COM4 for at most `len` bytes ('R' and the count, 32-bit
 * little endian) and the host side (tools/lwkrun) answers with the count
 * it has and the bytes, 0 at the end of its input.  So nothing is read
 * from the host's stdin that the program does not ask for, and any byte
 * value passes.  A wait lasts as long as the input takes, as a pipe's.
 * Without COM4 there is no input: end of file at once.
 */
static uint8_t uart_getc(uint16_t port)
{
    while (!(inb(port + UART_LSR) & LSR_DR))
        __builtin_ia32_pause();
    return inb(port + UART_RBR);
}

long console_read_user(char *buf, size_t len)
{
    uint8_t ask[5] = { 'R' };
    uint32_t n = 0;

    if (!in_port || !len)
        return 0;
    len = MIN(len, (size_t)UINT32_MAX);
    for (int i = 0; i < 4; i++)
        ask[1 + i] = (uint8_t)(len >> (8 * i));
    spin_lock(&in_lock);
    for (int i = 0; i < 5; i++)
        uart_putc(in_port, (char)ask[i]);
    for (int i = 0; i < 4; i++)
        n |= (uint32_t)uart_getc(in_port) << (8 * i);
    if (n > len) {              /* not the host side's answer: say so */
        in_port = 0;
        spin_unlock(&in_lock);
        kprintf("console: stdin on COM4 answered %u bytes for %zu asked; "
                "no more input\n", n, len);
        return -EIO;
    }
    for (uint32_t i = 0; i < n; i++)
        buf[i] = (char)uart_getc(in_port);
    spin_unlock(&in_lock);
    return n;
}

int kprintf(const char *fmt, ...)
{
    /* the longest lines tests read, an endpoint's Portals calls of every
     * kind (ptlendpoint.c, log_calls), run past 400 bytes */
    char buf[512];
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
