/* SPDX-License-Identifier: MIT */
/*
 * lwkemu: run a compute-node program (built by lwkcc) on the Linux host by
 * emulating the Q-Kernel system calls under ptrace.  Linux loads the static
 * ELF; before the first instruction we map a heap region and put the LWK
 * auxv entries (heap, nid, rank, size) on the initial stack in place of
 * entries the program does not use; then every `syscall` is stopped with
 * PTRACE_SYSEMU and answered here.  This tests crt0, the newlib glue and
 * the sample programs without a node.  It is a test tool, not a simulator:
 * faults just end the run with 128 + signal.
 *
 *   lwkemu [-h heap_MiB] [-r rank] [-s size] [-n nid] prog [args...]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <lwk/syscall.h>
#include <lwk/uapi/abi.h>

#define HEAP_BASE 0x40000000UL  /* 1 GiB: clear of text, data and stack */

static const char *const sys_names[] = {
#define SYSCALL(nr, name, nargs, class) [nr] = #name,
#include <lwk/uapi/syscalls.def>
#undef SYSCALL
};
#define NSYS (long)(sizeof sys_names / sizeof sys_names[0])

struct opts {
    unsigned long heap_size;
    long rank, size, nid;
};

static pid_t child;

static void die(const char *what)
{
    fprintf(stderr, "lwkemu: %s: %s\n", what, strerror(errno));
    if (child > 0)
        kill(child, SIGKILL);
    exit(125);
}

static unsigned long peek(unsigned long addr)
{
    errno = 0;
    unsigned long v = (unsigned long)ptrace(PTRACE_PEEKDATA, child, addr, 0);
    if (errno)
        die("peek");
    return v;
}

static void poke(unsigned long addr, unsigned long v)
{
    if (ptrace(PTRACE_POKEDATA, child, addr, v) < 0)
        die("poke");
}

/* Run one mmap in the child by planting `syscall` at its entry point. */
static void map_heap(struct user_regs_struct *regs, unsigned long size)
{
    struct user_regs_struct r = *regs;
    unsigned long saved = peek(regs->rip);
    int st;

    poke(regs->rip, (saved & ~0xffffUL) | 0x050f);     /* 0f 05: syscall */
    r.rax = SYS_mmap;
    r.rdi = HEAP_BASE;
    r.rsi = size;
    r.rdx = PROT_READ | PROT_WRITE;
    r.r10 = MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE | MAP_NORESERVE;
    r.r8 = (unsigned long)-1;
    r.r9 = 0;
    if (ptrace(PTRACE_SETREGS, child, 0, &r) < 0 ||
        ptrace(PTRACE_SINGLESTEP, child, 0, 0) < 0 ||
        waitpid(child, &st, 0) < 0 ||
        ptrace(PTRACE_GETREGS, child, 0, &r) < 0)
        die("mmap in child");
    if (r.rax != HEAP_BASE) {
        errno = -(long)r.rax;
        die("heap mmap");
    }
    poke(regs->rip, saved);
    if (ptrace(PTRACE_SETREGS, child, 0, regs) < 0)
        die("restore regs");
}

/* Overwrite auxv entries of no use to an LWK program with the LWK ones. */
static void patch_auxv(unsigned long sp, const struct opts *o)
{
    static const unsigned long victims[] = { 11, 12, 13, 14, 17, 23 };
    unsigned long lwk[][2] = {
        { AT_LWK_HEAP_BASE, HEAP_BASE }, { AT_LWK_HEAP_SIZE, o->heap_size },
        { AT_LWK_NID, (unsigned long)o->nid },
        { AT_LWK_RANK, (unsigned long)o->rank },
        { AT_LWK_SIZE, (unsigned long)o->size },
        { AT_LWK_STACK_SIZE, 8UL << 20 },
    };
    unsigned long a = sp + 8 * (peek(sp) + 2);     /* envp */
    size_t next = 0;

    while (peek(a) != 0)
        a += 8;
    for (a += 8; peek(a) != AT_NULL && next < 6; a += 16)
        for (size_t v = 0; v < 6; v++)
            if (peek(a) == victims[v]) {
                poke(a, lwk[next][0]);
                poke(a + 8, lwk[next][1]);
                next++;
                break;
            }
    if (next < 6) {
        fprintf(stderr, "lwkemu: only %zu auxv slots to reuse\n", next);
        kill(child, SIGKILL);
        exit(125);
    }
}

/* One read(2) of our stdin into the child's buffer. */
static long do_read(unsigned long buf, unsigned long len)
{
    char tmp[4096];
    ssize_t got = read(0, tmp, len < sizeof tmp ? len : sizeof tmp);
    struct iovec local = { tmp, got > 0 ? (size_t)got : 0 };
    struct iovec remote = { (void *)buf, local.iov_len };

    if (got < 0)
        return -errno;
    if (got && process_vm_writev(child, &local, 1, &remote, 1, 0) != got)
        return -EFAULT;
    return got;
}

static long do_write(FILE *f, unsigned long buf, unsigned long len)
{
    char tmp[4096];
    unsigned long done = 0;

    while (done < len) {
        size_t n = len - done < sizeof tmp ? len - done : sizeof tmp;
        struct iovec local = { tmp, n };
        struct iovec remote = { (void *)(buf + done), n };
        ssize_t got = process_vm_readv(child, &local, 1, &remote, 1, 0);
        if (got <= 0)
            return done ? (long)done : -EFAULT;
        fwrite(tmp, 1, (size_t)got, f);
        done += (unsigned long)got;
    }
    fflush(f);
    return (long)done;
}

/* usage: the CPU time Linux counted for the child and its peak resident
   memory (on a node: its regions, all resident from the start). */
static long do_usage(unsigned long uaddr)
{
    struct lwk_usage u = { 0 };
    struct timespec ts;
    clockid_t cpu;
    char path[64], line[128];
    unsigned long long kib;
    FILE *f;

    if (clock_getcpuclockid(child, &cpu) != 0 || clock_gettime(cpu, &ts) != 0)
        return -EINVAL;
    u.cpu_ns = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
    snprintf(path, sizeof path, "/proc/%d/status", (int)child);
    if ((f = fopen(path, "r"))) {
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "VmHWM: %llu kB", &kib) == 1)
                u.mem_bytes = kib << 10;
        fclose(f);
    }
    struct iovec local = { &u, sizeof u };
    struct iovec remote = { (void *)uaddr, sizeof u };
    return process_vm_writev(child, &local, 1, &remote, 1, 0) == sizeof u
               ? 0 : -EFAULT;
}

/* Answer one system call; returns 1 when the program exited. */
static int emulate(struct user_regs_struct *r, int *status)
{
    long nr = (long)r->orig_rax;
    struct timespec ts;

    switch (nr) {
    case LWK_SYS_exit:
        *status = (int)(r->rdi & 0xff);
        return 1;
    case LWK_SYS_abort:
        fprintf(stderr, "lwkemu: the program aborted: ");
        do_write(stderr, r->rsi, r->rdx < 127 ? r->rdx : 127);
        fputc('\n', stderr);
        *status = (int)(r->rdi & 0xff);
        return 1;
    case LWK_SYS_quit_quantum:
        r->rax = 0;
        break;
    case LWK_SYS_clock_ns:
        if (r->rdi > 1) {
            r->rax = (unsigned long)-EINVAL;
            break;
        }
        clock_gettime(r->rdi ? CLOCK_REALTIME : CLOCK_MONOTONIC, &ts);
        r->rax = (unsigned long)(ts.tv_sec * 1000000000LL + ts.tv_nsec);
        break;
    case LWK_SYS_clock_params:
        /* The host's TSC rate is not ours to give: the libc then makes a
           clock_ns call for every reading, answered above. */
        r->rax = (unsigned long)-ENOSYS;
        break;
    case LWK_SYS_console_write:        /* fd 1 stdout, 2 stderr */
        if (r->rdx != 1 && r->rdx != 2)
            r->rax = (unsigned long)-EBADF;
        else
            r->rax = (unsigned long)do_write(r->rdx == 2 ? stderr : stdout,
                                             r->rdi, r->rsi);
        break;
    case LWK_SYS_console_read:         /* the program's stdin: ours */
        r->rax = (unsigned long)do_read(r->rdi, r->rsi);
        break;
    case LWK_SYS_getpid:
        r->rax = (unsigned long)child;
        break;
    case LWK_SYS_usage:
        r->rax = (unsigned long)do_usage(r->rdi);
        break;
    default:
        nr -= LWK_SYSCALL_BASE;
        fprintf(stderr, "lwkemu: syscall %#lx (%s) not emulated\n",
                (unsigned long)r->orig_rax,
                nr >= 0 && nr < NSYS && sys_names[nr] ? sys_names[nr] : "?");
        r->rax = (unsigned long)-ENOSYS;
    }
    return 0;
}

static int trace(const struct opts *o)
{
    struct user_regs_struct r;
    int st, status = 0;

    if (waitpid(child, &st, 0) < 0 || !WIFSTOPPED(st))
        die("exec");
    if (ptrace(PTRACE_SETOPTIONS, child, 0,
               PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL) < 0 ||
        ptrace(PTRACE_GETREGS, child, 0, &r) < 0)
        die("ptrace setup");
    map_heap(&r, o->heap_size);
    patch_auxv(r.rsp, o);

    for (;;) {
        if (ptrace(PTRACE_SYSEMU, child, 0, 0) < 0 ||
            waitpid(child, &st, 0) < 0)
            die("sysemu");
        if (WIFEXITED(st) || WIFSIGNALED(st)) {
            fprintf(stderr, "lwkemu: program ended outside exit()\n");
            return 125;
        }
        if (WSTOPSIG(st) != (SIGTRAP | 0x80)) {
            ptrace(PTRACE_GETREGS, child, 0, &r);
            fprintf(stderr, "lwkemu: killed by signal %d (%s) at rip %#llx\n",
                    WSTOPSIG(st), strsignal(WSTOPSIG(st)), r.rip);
            kill(child, SIGKILL);
            return 128 + WSTOPSIG(st);
        }
        if (ptrace(PTRACE_GETREGS, child, 0, &r) < 0)
            die("getregs");
        if (emulate(&r, &status)) {
            kill(child, SIGKILL);
            waitpid(child, &st, 0);
            return status;
        }
        if (ptrace(PTRACE_SETREGS, child, 0, &r) < 0)
            die("setregs");
    }
}

int main(int argc, char **argv)
{
    struct opts o = { .heap_size = 64UL << 20, .rank = 0, .size = 1,
                      .nid = 0 };
    int c;

    while ((c = getopt(argc, argv, "+h:r:s:n:")) != -1) {
        switch (c) {
        case 'h': o.heap_size = strtoul(optarg, NULL, 0) << 20; break;
        case 'r': o.rank = strtol(optarg, NULL, 0); break;
        case 's': o.size = strtol(optarg, NULL, 0); break;
        case 'n': o.nid = strtol(optarg, NULL, 0); break;
        default:
            fprintf(stderr, "usage: lwkemu [-h heap_MiB] [-r rank] "
                            "[-s size] [-n nid] prog [args...]\n");
            return 125;
        }
    }
    if (optind >= argc) {
        fprintf(stderr, "lwkemu: no program\n");
        return 125;
    }
    fflush(stdout);
    child = fork();
    if (child < 0)
        die("fork");
    if (child == 0) {
        ptrace(PTRACE_TRACEME, 0, 0, 0);
        execv(argv[optind], argv + optind);
        fprintf(stderr, "lwkemu: %s: %s\n", argv[optind], strerror(errno));
        _exit(125);
    }
    return trace(&o);
}
