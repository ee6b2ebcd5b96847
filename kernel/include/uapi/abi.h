/*
 * The user/kernel ABI of a compute-node process (shared by kernel, PCT, libc).
 *
 * Address space of an application (all regions physically contiguous,
 * starting on 2 MB boundaries, present from load to exit; mapped with 2 MB
 * pages where memory comes in whole 2 MB chunks, 4 KiB pages in the rest):
 *
 *   0x0000_0000_0040_0000  text   (ELF PT_LOADs; apps link at 4 MiB with
 *                                  -z max-page-size=0x200000)
 *   next 2 MB boundary     data+bss
 *   chosen by the PCT      heap   (base and size passed in auxv)
 *   chosen by the PCT      stack  (grows down; top passed as the initial rsp)
 *
 * Initial stack at entry (System V x86-64): rsp -> argc, argv[], NULL,
 * envp[], NULL, auxv pairs, AT_NULL.  Besides the usual AT_PAGESZ/AT_ENTRY/
 * AT_PHDR the kernel/PCT pass the LWK entries below.
 */
#ifndef UAPI_ABI_H
#define UAPI_ABI_H

#define LWK_APP_BASE        0x400000UL

/* Q-Kernel system call n (uapi/syscalls.def) is made with rax =
   LWK_SYSCALL_BASE + n; numbers below it are Linux's (docs/LINUX.md). */
#define LWK_SYSCALL_BASE    0x1000
#define LWK_PAGE_SIZE       0x200000UL

/* auxv types; values above the Linux range so nothing confuses them.  The
   kernel (for the PCT) and the PCT (for programs) always pass
   AT_LWK_STACK_SIZE: a program whose auxv has no AT_LWK_* entry was
   started by Linux, not by a PCT (crt0 says so and exits). */
#define AT_NULL             0
#define AT_PHDR             3
#define AT_PHENT            4
#define AT_PHNUM            5
#define AT_PAGESZ           6
#define AT_ENTRY            9
#define AT_LWK_HEAP_BASE    0x1000  /* first byte of the heap region */
#define AT_LWK_HEAP_SIZE    0x1001  /* bytes in the heap region */
#define AT_LWK_STACK_SIZE   0x1002  /* bytes in the stack region */
#define AT_LWK_NID          0x1003  /* this node's id */
#define AT_LWK_RANK         0x1004  /* rank in the job (0 when run alone) */
#define AT_LWK_SIZE         0x1005  /* ranks in the job (1 when run alone) */
#define AT_LWK_YOD_KEY0     0x1006  /* under yod: the rank's key, words 0 */
#define AT_LWK_YOD_KEY1     0x1007  /*   and 1 (yod/yod_proto.h) */
/* A Linux program and its runtime (docs/LINUX.md): the heap region holds
   the program's image and the memory its brk and mmap hand out. */
#define AT_LWK_LINUX_BASE   0x1008  /* first byte of that region */
#define AT_LWK_LINUX_SIZE   0x1009  /* its bytes */
#define AT_LWK_LINUX_BRK    0x100a  /* end of the image: brk starts here */
#define AT_LWK_LINUX_ENTRY  0x100b  /* the program's entry point */
/* The CPUs (docs/LINUX.md, "The node a program sees"): the node has
   CPUs 0 .. AT_LWK_NCPUS-1; the process runs on the ones in the mask
   AT_LWK_CPUS (bit c: CPU c), as its mode gave them (pct/cpus.c). */
#define AT_LWK_NCPUS        0x100c  /* CPUs the node has */
#define AT_LWK_CPUS         0x100d  /* CPUs the process runs on: a mask */


/*
 * Process control (PCT-only calls; see syscalls.def).
 *
 * A process has up to four regions, each physically contiguous and present
 * from creation to destruction: text (read-only, executable), data
 * (data+bss, and the heap too if the PCT puts it there), stack (read-write,
 * with an unmapped 2 MB guard below it so an overflow faults), and heap
 * (read-write, added by proc_heap after the program is loaded, so it can
 * take the memory of the boot module the program came from).  Sizes are
 * 4 KiB multiples; the kernel may round a region up to whole 2 MB chunks
 * when no partial chunk has room, and says so in the sizes it returns.
 * Each region is mapped into the PCT too, at the addresses returned, so
 * the PCT can load it.
 */
#include <stdint.h>

#define LWK_STACK_TOP       0x00007FFFFFE00000UL /* stack region ends here */
#define LWK_PCT_WINDOW      0x0000100000000000UL /* app regions in the PCT */
#define LWK_REGION_MAX      (16ULL << 30)        /* bytes in one region */

/*
 * SMARTMAP (proc_share, docs/SMP.md): the processes of one job on a node
 * see each other's memory at fixed places, as on Catamount and Kitten
 * (Brightwell, Hudson and Pedretti, SC'08).  The PCT puts up to
 * LWK_SMARTMAP_SLOTS processes in a group, each in a slot; in every member
 * the top-level page-table entries of slot k are those of the process in
 * it: entry 0 (all of text, data and heap: addresses below 512 GiB)
 * appears at (1 + k) * 512 GiB, entry 255 (the stack) at (1 + SLOTS + k)
 * * 512 GiB.  So a member loads and stores another's memory directly,
 * read-write as the owner may (text read-only), while both live; once a
 * member has ended, its slot is empty in every other and an access there
 * faults.
 */
#define LWK_SMARTMAP_SLOTS  8                   /* as many as yod -vn puts
                                                   on a node (YOD_VN_MAX) */
#define LWK_SMARTMAP_SPAN   (1ULL << 39)        /* one PML4 entry: 512 GiB */
#define LWK_SMARTMAP_STACK  (255ULL << 39)      /* PML4 entry 255: the stack */

/* Where the process in `slot` has its address `va`, in every member of
   its group; 0 if `va` is in neither entry the slot carries. */
static inline uint64_t lwk_smartmap_va(unsigned slot, uint64_t va)
{
    if (slot >= LWK_SMARTMAP_SLOTS)
        return 0;
    if (va < LWK_SMARTMAP_SPAN)
        return (1 + slot) * LWK_SMARTMAP_SPAN + va;
    if (va - LWK_SMARTMAP_STACK < LWK_SMARTMAP_SPAN)
        return (1 + LWK_SMARTMAP_SLOTS + slot) * LWK_SMARTMAP_SPAN +
               (va - LWK_SMARTMAP_STACK);
    return 0;
}

/* The reverse: the slot and the owner's address of SMARTMAP address `a`;
   0 if `a` is in no slot. */
static inline int lwk_smartmap_of(uint64_t a, unsigned *slot, uint64_t *va)
{
    uint64_t e = a / LWK_SMARTMAP_SPAN, off = a % LWK_SMARTMAP_SPAN;

    if (e < 1 || e > 2 * LWK_SMARTMAP_SLOTS)
        return 0;
    *slot = (unsigned)((e - 1) % LWK_SMARTMAP_SLOTS);
    *va = e <= LWK_SMARTMAP_SLOTS ? off : LWK_SMARTMAP_STACK + off;
    return 1;
}

/* What the `smartmap` call tells a process about its group. */
struct lwk_smartmap {
    int32_t self;                   /* its own slot; -1: in no group */
    uint32_t ptl_pid[LWK_SMARTMAP_SLOTS];  /* the Portals pid each slot's
                                       process is bound to (proc_create's
                                       ptl_pid); 0: the slot is empty */
};

/* A Linux program travels to its node (from yod, or as lwkrun's boot
   module) with the runtime (lxrt/, docs/LINUX.md) after it: the
   program's image, the runtime's packed image, then this trailer. */
#define LWK_LXRT_MAGIC      0x5452584c4b574cULL  /* "LWKLXRT" */
struct lwk_lxrt_trailer {
    uint64_t magic;                 /* LWK_LXRT_MAGIC */
    uint64_t offset;                /* where the runtime's image starts */
};

/* The runtime's stack (linux_setup): a slice for each of the first
   LWK_LXRT_CPUS CPUs, where the kernel reflects that CPU's calls. */
#define LWK_LXRT_CPUS           8
#define LWK_LXRT_STACK_PER_CPU  32768

/* A reflected call as the runtime finds it at the top of its CPU's slice
   (kernel/linux.c's struct lx_frame): the call, the program's registers
   (the kernel's trapframe order), %fs base and x87/SSE state (FXSAVE).
   The runtime may rewrite regs and fpu (a signal handler's frame,
   rt_sigreturn); linux_return checks them as a signal return would. */
struct lwk_lx_frame {
    uint64_t nr, arg[6];
    uint64_t cpu;                   /* the CPU, so the thread, that made
                                       it; | LWK_LX_FRESH: the first call
                                       of a new thread on that CPU */
    struct {
        uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
        uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
        uint64_t vector, error;
        uint64_t rip, cs, rflags, rsp, ss;
    } regs;
    uint64_t fs, pad;
    uint8_t fpu[512];
};
#define LWK_LX_FRESH    (1ULL << 63)
/* nr of a call the program did not make: signals were sent to this
   thread (linux_kill); arg[0] is the set (bit sig - 1).  The program was
   interrupted, or is leaving a call, with regs as they are. */
#define LWK_LX_SIGNALS  0x10000
/* With LWK_LX_SIGNALS, arg[1]: 0, or the program's call (arg[2], its
   number) was ended by these signals and returns -EINTR (regs.rax);
   Linux makes it again (regs.rip - 2, rax the number) if no handler
   runs (LWK_LX_RESTART), or also after a handler with SA_RESTART
   (LWK_LX_RESTART_ANY): a futex wait without a timeout. */
#define LWK_LX_RESTART          1
#define LWK_LX_RESTART_ANY      2

/* A Linux process's timers that send signals (kernel/linux_timer.c, the
   linux_timer call): LWK_LX_ITIMER_REAL is alarm's and setitimer's
   ITIMER_REAL, the others the runtime's timer_create timers.  Times in
   ns: value until the next expiry (0: disarmed), then every interval
   (0: once).  sig 0 sends nothing (SIGEV_NONE); tid the thread it goes
   to (0: the caller); overrun, read only: the expiries the last signal
   stood for, less one (timer_getoverrun). */
#define LWK_LX_TIMERS       16
#define LWK_LX_ITIMER_REAL  0
struct lwk_lx_timer {
    uint64_t value_ns, interval_ns;
    int32_t sig, tid;
    uint32_t overrun, pad;
};

/* proc_heap flags */
#define LWK_HEAP_EXEC       1   /* executable; may lie below the text */

enum { LWK_REG_TEXT, LWK_REG_DATA, LWK_REG_STACK, LWK_REG_HEAP, LWK_NREGIONS };

struct lwk_proc_desc {
    uint64_t text_va, text_size;    /* text_va 2 MB aligned (LWK_APP_BASE) */
    uint64_t data_va, data_size;    /* data+bss+heap; 2 MB aligned */
    uint64_t stack_size;            /* ends at LWK_STACK_TOP */
    uint64_t ptl_pid;               /* the one Portals pid its PtlNIInit may
                                       open (a rank's, from the job map);
                                       0: any the node has free.  -EBUSY if
                                       another process has it */
};

struct lwk_proc_map {
    uint64_t pct_va[LWK_NREGIONS];  /* where each region appears in the PCT */
    uint64_t app_va[LWK_NREGIONS];  /* and in the process */
    uint64_t size[LWK_NREGIONS];    /* bytes (may exceed what was asked) */
};

enum lwk_stop_reason {
    LWK_STOP_YIELD = 1,             /* quit_quantum */
    LWK_STOP_QUANTUM,               /* the quantum ran out */
    LWK_STOP_EXIT,                  /* exit(status) */
    LWK_STOP_FAULT,                 /* killed by a CPU exception */
    LWK_STOP_ABORT,                 /* abort(status, why): ends its job */
    LWK_STOP_ELSEWHERE,             /* proc_run of a process placed on a
                                       CPU of its own (proc_place): it runs
                                       there and has not ended */
    LWK_STOP_DEBUG,                 /* stopped for its debugger (proc_debug
                                       below): a trap, a held fault or
                                       abort, or LWK_DBG_STOP; it runs again
                                       only after LWK_DBG_CONT */
};

#define LWK_WHY_LEN         200     /* an abort's reason, NUL included */

struct lwk_run_result {
    uint32_t reason;                /* enum lwk_stop_reason */
    int32_t status;                 /* exit status */
    uint32_t fault_vector;          /* CPU exception vector */
    uint32_t fault_error;           /* its error code */
    uint64_t fault_addr;            /* cr2 for page faults */
    uint64_t fault_rip, fault_rsp;
    uint64_t ran_ns;                /* CPU time of this run */
    char why[LWK_WHY_LEN];          /* LWK_STOP_ABORT: the reason given */
    int32_t peer;                   /* LWK_STOP_ABORT: the rank whose end
                                       made this one give up; -1 none */
    uint32_t fault_cpu;             /* the CPU the exception happened on */
    uint32_t left_job;              /* EXIT, FAULT: 1 if it ended while in
                                       a parallel job (a logical Portals
                                       NI not finalized: ptl_lib_in_job) */
    uint32_t reserved;              /* 0: no padding leaves the kernel */
};

/*
 * Debugging (proc_debug, PCT-only; kernel/debug.c).  The kernel has the
 * mechanisms: it stops a process's threads where they are, reads and
 * writes their registers, and, for a process the PCT flagged, turns a
 * breakpoint (int3), a single step (the trap flag) or a fault or abort
 * into a stop the PCT hears (proc_run's LWK_STOP_DEBUG) instead of the
 * end of the process.  Who may debug what is the PCT's (pct/debug.c).
 * Memory needs no call: the PCT has every region in its window.
 *
 * A thread is named by the CPU it runs on: the main thread's is 0, or
 * its CPU in virtual-node mode (lwk_dbg_state.main_cpu).  GETREGS and
 * SETREGS act on a stopped thread.
 *
 *   proc_debug(op, pid, arg, ptr)
 *   LWK_DBG_SET      arg: LWK_DBG_* flags (0: none, as at creation)
 *   LWK_DBG_STOP     stop every thread (each on its CPU, in user mode or
 *                    in the system call it made); returns once they are
 *   LWK_DBG_CONT     arg: CPUs (a mask) whose threads go on; the main
 *                    thread's CPU ends its stop: proc_run runs it again
 *   LWK_DBG_STATE    ptr: struct lwk_dbg_state
 *   LWK_DBG_GETREGS  arg: the thread's CPU; ptr: struct lwk_dbg_regs
 *   LWK_DBG_SETREGS  arg: the thread's CPU; ptr: struct lwk_dbg_regs,
 *                    checked as a signal return is: user selectors, no
 *                    IOPL, interrupts on, user addresses, a valid MXCSR
 *                    (-EINVAL otherwise)
 *   LWK_DBG_PROFILE  arg: samples a second (1..LWK_PROF_HZ_MAX); ptr:
 *                    struct lwk_prof.  From now until it ends, each CPU's
 *                    timer interrupts at that rate and a sample that finds
 *                    one of the process's threads in user mode adds 1 to
 *                    the bin of its program counter (kernel/profile.c)
 *   LWK_DBG_COUNT    arg 1: count its threads' instructions retired and
 *                    core cycles in user mode from now on (kernel/pmu.c),
 *                    -ENODEV if the CPU has no architectural PMU with
 *                    fixed counters (CPUID leaf 0xA; QEMU's TCG has none);
 *                    arg 0: ptr: struct lwk_counts, what its threads that
 *                    have left their CPUs counted
 *   Errors: -ESRCH no such process (or the PCT's), -EINVAL a bad op, CPU
 *   or argument, -EBUSY the thread runs (STOP it first; PROFILE: it is
 *   profiled already), -EFAULT ptr.
 */
enum lwk_dbg_op {
    LWK_DBG_SET = 1, LWK_DBG_STOP, LWK_DBG_CONT, LWK_DBG_STATE,
    LWK_DBG_GETREGS, LWK_DBG_SETREGS, LWK_DBG_PROFILE, LWK_DBG_COUNT,
};

/* What LWK_DBG_COUNT counted: fixed counters 0 and 1 (Intel SDM Vol 3
   20.2.2), user mode only. */
struct lwk_counts {
    uint64_t instructions, cycles;
};

/* A program-counter histogram (LWK_DBG_PROFILE), as profil(3) keeps one:
   text [lo, hi) in bins of 2^shift bytes, each an unsigned 16-bit count
   that stops at 65535, in the process's own memory at `bins` (one region
   holds all (hi - lo + 2^shift - 1) >> shift of them; the process must
   not use it).  A sample outside [lo, hi) (a Linux program's runtime)
   is dropped, as profil(3) drops it. */
struct lwk_prof {
    uint64_t lo, hi;        /* text addresses */
    uint64_t bins;          /* process address of the counts */
    uint32_t shift;         /* log2 of a bin's bytes: 1..16 */
    uint32_t reserved;      /* 0 */
};
#define LWK_PROF_HZ_MAX 10000
#define LWK_DBG_TRAP    1   /* int3 and the trap flag stop it (else fatal) */
#define LWK_DBG_HOLD    2   /* a fault or an abort stops it instead of
                               ending it: the PCT ends it (proc_destroy) */
#define LWK_DBG_CPUS    64  /* threads a state names (CPUs) */

/* Why a thread stopped. */
enum lwk_dbg_why {
    LWK_DBG_NONE,           /* running, or stopped by none of these */
    LWK_DBG_STOPPED,        /* LWK_DBG_STOP */
    LWK_DBG_TRAPPED,        /* int3 (vector 3) or a single step (vector 1,
                               dr6 says which) */
    LWK_DBG_FAULTED,        /* a CPU exception (LWK_DBG_HOLD) */
    LWK_DBG_ABORTED,        /* abort(status, why) (LWK_DBG_HOLD) */
};

struct lwk_dbg_event {
    uint32_t why;           /* enum lwk_dbg_why */
    uint32_t vector;        /* TRAPPED, FAULTED: the exception */
    uint64_t error;         /* its error code; TRAPPED: dr6 */
    uint64_t addr;          /* page fault: cr2 */
};

struct lwk_dbg_state {
    uint64_t threads;       /* CPUs with a thread of it, the main's too */
    uint64_t stopped;       /* of those, the stopped ones */
    uint32_t main_cpu;      /* the main thread's CPU */
    uint32_t in_job;        /* it is in a parallel job (left_job) */
    uint64_t cpu_ns;        /* its CPU time so far */
    struct lwk_run_result held;     /* the first fault or abort it was
                                       stopped for (reason FAULT, ABORT),
                                       as its end would have said; reason
                                       0: none */
    struct lwk_dbg_event ev[LWK_DBG_CPUS];  /* per thread (CPU) */
};

/* A thread's registers.  fpu is the FXSAVE image (x87, SSE, MXCSR):
   Intel SDM Vol 1 10.5.1; fs_base is its %fs base (thread-local
   storage); gs_base is always 0 (a process cannot set it). */
struct lwk_dbg_regs {
    uint64_t rax, rbx, rcx, rdx, rsi, rdi, rbp, rsp;
    uint64_t r8, r9, r10, r11, r12, r13, r14, r15;
    uint64_t rip, rflags, cs, ss, fs_base, gs_base;
    uint8_t fpu[512] __attribute__((aligned(16)));
};

/* What clock_ns computes, for a process to do it itself from rdtsc:
   monotonic ns = (tsc - boot_tsc) * ns_mult >> 32 (a 128-bit product);
   realtime = monotonic + realtime_base_ns.  Fixed from boot on. */
struct lwk_clock {
    uint64_t boot_tsc, ns_mult, realtime_base_ns;
};

/* What usage returns: the CPU time of the calling process (its runs so
   far and the current one; time in system calls and interrupts taken
   while it runs included, as the kernel does not tell them apart), the
   bytes of its regions, all present from load to exit, and how many of
   those the kernel zeroed for it (memory no earlier job wrote is known
   to be zero and is not zeroed again). */
struct lwk_usage {
    uint64_t cpu_ns, mem_bytes;
    uint64_t zeroed_bytes;
};

struct lwk_node_info {
    uint64_t nid;
    uint64_t tsc_hz;
    uint64_t ram_total, ram_kernel, ram_free;   /* bytes; free for programs */
    uint64_t largest_free;          /* biggest region a program can have */
    char cmdline[512];
    uint64_t ncpus;                 /* CPUs online: 0 .. ncpus-1 */
};

/* The head of the area a process gives Portals at setup (PtlInit), shared
   by kernel/portals.c and portals/lwk/ptl_lwk.c.  `wake` is bumped
   whenever the process may have news.  With `engine` set, a CPU of the
   node polls `cmd` (message co-processor mode): the library posts each
   call there (op and the address of its argument words, then req + 1)
   and spins until `done` equals `req`; `rc` is what the `ptl` system
   call would have returned.  The kernel checks the arguments exactly as
   for the system call. */
struct lwk_ptl_head {
    uint64_t wake;
    uint64_t engine;
    struct {
        uint64_t req, done;
        uint64_t op, args;
        int64_t rc;
    } cmd;
};

/* A boot module; name is its command line ("path args...", up to 1023
   bytes: tools/lwkrun passes a program's arguments there). */
struct lwk_module {
    uint64_t pct_va, size;
    char name[1024];
};

#endif
