/* SPDX-License-Identifier: MIT */
/*
 * rt.c: the Linux runtime's start and dispatch (docs/LINUX.md).  The PCT
 * started this program with the Linux program already loaded in the heap
 * region and an initial stack made for it (argv, envp, the auxiliary
 * vector static glibc reads, and our AT_LWK_* entries).  We record where
 * things are, tell the kernel where to reflect calls (linux_setup) and
 * jump to the program's entry with that stack; from then on we run only
 * inside lxrt_dispatch.
 */
#include <string.h>
#include <lwk/lwk.h>
#include <lwk/syscall.h>

#include "libc_internal.h"
#include "rt.h"

_Static_assert(LWK_SYS_linux_return == 0x1021, "rt_entry.S's number");

struct lxrt lxrt;

typedef long (*lx_fn)(LX_ARGS);
#define LX_KERNEL(nr, name)
#define LX_ENOSYS(nr, name)
#define LX_RUNTIME(nr, name) [nr] = lx_##name,
static const lx_fn table[] = {
#define LINUX(nr, name, class) LX_##class(nr, name)
#include <lwk/uapi/linux.def>
#undef LINUX
};

struct lwk_lx_frame *lx_call;
static int lock;                /* one call at a time, from any CPU */

static void lock_calls(void)
{
    while (__atomic_exchange_n(&lock, 1, __ATOMIC_ACQUIRE))
        __builtin_ia32_pause();
}

static void unlock_calls(void)
{
    __atomic_store_n(&lock, 0, __ATOMIC_RELEASE);
}

long lxrt_dispatch(struct lwk_lx_frame *f);
long lxrt_dispatch(struct lwk_lx_frame *f)
{
    const long *a = (const long *)f->arg;
    uint64_t nr = f->nr;
    long r;

    /* Any thread's call (f->cpu says which) is served here: files and
       output through yod too, since any thread may use the process's
       Portals endpoint; the lock keeps the channel to yod to one request
       at a time. */
    lock_calls();
    lx_call = f;
    lx_sig_thread(f);
    if (nr == LWK_LX_SIGNALS)
        r = lx_sig_arrived(f);
    else if (nr < sizeof(table) / sizeof(table[0]) && table[nr])
        r = table[nr](a[0], a[1], a[2], a[3], a[4], a[5]);
    else
        r = -LX_ENOSYS;         /* the kernel reflects only RUNTIME calls */
    r = lx_sig_deliver(f, r);   /* a signal's handler may run next */
    unlock_calls();
    return r;
}

/* The other threads' calls go on while this one sleeps: the signal that
   ends the wait is sent by one of them. */
uint64_t lx_sleep(uint64_t ns)
{
    struct lwk_lx_frame *f = lx_call;
    uint64_t sent = 0;

    unlock_calls();
    lwk_sys_linux_sigwait((long)ns, (long)&sent);
    lock_calls();
    lx_call = f;
    return sent;
}

int lx_ok(uint64_t p, uint64_t len)
{
    if (len == 0)
        return 1;
    if (p + len < p)
        return 0;
    return (p >= lxrt.lo && p + len <= lxrt.hi) ||
           (p >= lxrt.stack_lo && p + len <= lxrt.stack_hi);
}

const char *lx_path(long p)
{
    const char *s = (const char *)p;

    for (uint64_t n = 0; n < 4096; n++) {
        if (!lx_ok((uint64_t)p + n, 1))
            return NULL;
        if (s[n] == 0)
            return s;
    }
    return NULL;
}

#define NL_TO_LX(name, v) [name] = v,
static const short nl_to_lx[256] = { LX_ERRNO_LIST(NL_TO_LX) };

long lx_err(long r)
{
    if (r >= 0)
        return r;
    if (-r < 256 && nl_to_lx[-r])
        return -nl_to_lx[-r];
    return -LX_EIO;
}

/* A slice for each CPU the kernel reflects calls from (linux_setup). */
static uint8_t stack[LWK_LXRT_CPUS * LWK_LXRT_STACK_PER_CPU]
    __attribute__((aligned(16)));
void lxrt_entry(void);
__attribute__((noreturn)) void lxrt_jump(uint64_t entry, uint64_t sp);

int main(int argc, char **argv)
{
    uint64_t fs, entry = lwk_getauxval(AT_LWK_LINUX_ENTRY, 0);
    uint64_t ssize = lwk_getauxval(AT_LWK_STACK_SIZE, 0);
    char **e;
    long rc;

    lxrt.lo = lwk_getauxval(AT_LWK_LINUX_BASE, 0);
    lxrt.hi = lxrt.lo + lwk_getauxval(AT_LWK_LINUX_SIZE, 0);
    lxrt.image_end = lwk_getauxval(AT_LWK_LINUX_BRK, 0);
    lxrt.stack_hi = LWK_STACK_TOP;
    lxrt.stack_lo = LWK_STACK_TOP - ssize;
    lxrt.pid = lwk_sys_getpid();
    lxrt.argv = argv;           /* the program's: we start on its stack */
    lxrt.envp = e = argv + argc + 1;
    while (*e)
        e++;
    lxrt.auxv = (const uint64_t *)(e + 1);
    lx_mem_init();
    lx_node_setup();
    __asm__ volatile("movq %%fs:0, %0" : "=r"(fs));    /* our TCB */
    rc = lwk_sys_linux_setup((long)lxrt_entry, (long)(stack + sizeof(stack)),
                             (long)fs);
    if (rc < 0 || !entry || lxrt.hi <= lxrt.lo) {
        static const char msg[] = "lxrt: the PCT did not set up a Linux "
                                  "program (or the kernel refused it)\n";
        lwk_sys_console_write((long)msg, sizeof(msg) - 1, 2);
        return 125;
    }
    lxrt_jump(entry, (uint64_t)(argv - 1));   /* argc is below argv */
}
