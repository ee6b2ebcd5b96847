/*
 * Serial console on COM1 (16550 UART, 115200 8N1).  Polled output with a
 * bounded wait, so a missing UART cannot hang the node.
 */
#include "kernel.h"
#include "console.h"
#include "printf.h"
#include "x86.h"

#define COM1            0x3F8
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

void console_init(void)
{
    outb(COM1 + UART_IER, 0x00);        /* no interrupts: we poll */
    outb(COM1 + UART_LCR, LCR_DLAB);
    outb(COM1 + UART_DLL, 1);           /* 115200 / 1 = 115200 baud */
    outb(COM1 + UART_DLM, 0);
    outb(COM1 + UART_LCR, LCR_8N1);
    outb(COM1 + UART_FCR, 0xC7);        /* enable + clear FIFOs, 14-byte */
    outb(COM1 + UART_MCR, 0x03);        /* DTR, RTS */
}

static void uart_putc(char c)
{
    /* ~1 ms at 115200 baud is a few thousand polls; stop waiting after
       that rather than hang on absent hardware. */
    for (int i = 0; i < 100000; i++)
        if (inb(COM1 + UART_LSR) & LSR_THRE)
            break;
    outb(COM1 + UART_THR, (uint8_t)c);
}

void console_write(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\n')
            uart_putc('\r');
        uart_putc(s[i]);
    }
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
