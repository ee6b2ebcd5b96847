/*
 * The console: a 16550 UART (COM1), and the framebuffer (fbcon.h).  Every kernel log line starts with the
 * subsystem's fixed prefix ("mem: ", "timer: ", ...): define LOG_PREFIX
 * before including this header.  Tests read these lines; keep them stable.
 */
#ifndef CONSOLE_H
#define CONSOLE_H

#include <stddef.h>

void console_init(void);
struct cmdline;
struct bootinfo_fb;
/* console= on the command line: serial (default), fb, serial,fb.  After
   paging_init; the log so far is replayed to the framebuffer. */
void console_setup(const struct cmdline *cl, const struct bootinfo_fb *fb);
void console_write(const char *s, size_t n);
/* A program's console output, fd 1 (stdout: COM2 if present, else COM1)
   or 2 (stderr: COM3, else as stdout); on its own port, byte for byte. */
void console_write_user(int fd, const char *s, size_t n);
/* A program's stdin (COM4, asked for by tools/lwkrun's side): bytes read
   into buf, 0 at the end of input or when there is none, -EIO. */
long console_read_user(char *buf, size_t len);
int kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Lines about events a process can repeat at will: at most one a second
   per kind (ratelimit.h), the rest counted; the count is said with the
   next line of the kind, and by proc_event_flush() when a process ends. */
enum proc_event {
    PE_UNKNOWN_CALL, PE_PCT_ONLY, PE_NO_NIC, PE_WIRE_VERSION, PE_PTL_PID,
    PE_KINDS
};
void proc_event(enum proc_event kind, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void proc_event_flush(void);

#ifndef LOG_PREFIX
#define LOG_PREFIX "kernel"
#endif
#define pr_info(fmt, ...)   kprintf(LOG_PREFIX ": " fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...)   kprintf(LOG_PREFIX ": warning: " fmt, ##__VA_ARGS__)
#define pr_err(fmt, ...)    kprintf(LOG_PREFIX ": error: " fmt, ##__VA_ARGS__)

#endif
