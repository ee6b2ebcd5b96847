/* SPDX-License-Identifier: MIT */
/*
 * rt_procfiles.c: what the node's /proc and /sys files say (rt_proc.c has
 * their names; rt_cpuinfo.c /proc/cpuinfo).  Each describes this node and
 * this process as the job sees them, in the format Linux gives it
 * (docs/LINUX.md, "The node a program sees"):
 *
 *   CPUs     the node's CPUs are possible and present; those the process
 *            runs on (CPU 0 by default, every CPU in threads mode, its
 *            own in virtual-node mode: pct/cpus.c) are online, the others
 *            offline, as sched_getaffinity says
 *   memory   the program's region, all of it there from load to exit (no
 *            demand paging, no swap), as sysinfo says
 *   itself   its arguments, environment and auxiliary vector as it
 *            started with them; its regions; its limits as getrlimit
 *            gives them; its mounts: yod's files at /, these at /proc and
 *            /sys
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lwk/lwk.h>
#include <lwk/syscall.h>

#include "rt_proc.h"

#define KIB(b)  ((unsigned long)((b) >> 10))
#define PAGE_4K 4096ul
#define UP_4K(x) (((x) + PAGE_4K - 1) & ~(uint64_t)(PAGE_4K - 1))

/* ---- CPUs --------------------------------------------------------------- */

uint64_t lx_ncpus(void)
{
    uint64_t n = lwk_getauxval(AT_LWK_NCPUS, 1);

    return n < 1 ? 1 : n > 64 ? 64 : n;
}

static uint64_t all_cpus(void)
{
    return lx_ncpus() == 64 ? ~0ull : (1ull << lx_ncpus()) - 1;
}

uint64_t lx_cpus(void)
{
    uint64_t m = lwk_getauxval(AT_LWK_CPUS, 1) & all_cpus();

    return m ? m : 1;
}

/* Linux's list format: "0-2,5", then a newline (alone if none). */
static void cpu_list(struct lx_text *t, uint64_t mask)
{
    const char *sep = "";

    for (int c = 0; c < 64; c++) {
        int e = c;

        if (!(mask >> c & 1))
            continue;
        while (e < 63 && (mask >> (e + 1) & 1))
            e++;
        if (e == c)
            lx_say(t, "%s%d", sep, c);
        else
            lx_say(t, "%s%d-%d", sep, c, e);
        sep = ",";
        c = e;
    }
    lx_say(t, "\n");
}

void lx_cpu_possible(struct lx_text *t, long n)
{
    cpu_list(t, all_cpus());
}

void lx_cpu_online(struct lx_text *t, long n)
{
    cpu_list(t, lx_cpus());
}

void lx_cpu_offline(struct lx_text *t, long n)
{
    cpu_list(t, all_cpus() & ~lx_cpus());
}

void lx_cpu_one(struct lx_text *t, long n)
{
    lx_say(t, "%d\n", (int)(lx_cpus() >> n & 1));
}

/* ---- memory and the system ------------------------------------------------ */

static void kb_row(struct lx_text *t, const char *name, unsigned long kib)
{
    lx_say(t, "%-16s%8lu kB\n", name, kib);
}

void lx_meminfo(struct lx_text *t, long n)
{
    static const char *const none[] = { "Buffers:", "Cached:",
        "SwapCached:", "SwapTotal:", "SwapFree:" };
    unsigned long free_kib = KIB(lx_mem_free_bytes());

    kb_row(t, "MemTotal:", KIB(lxrt.hi - lxrt.lo));
    kb_row(t, "MemFree:", free_kib);
    kb_row(t, "MemAvailable:", free_kib);
    for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++)
        kb_row(t, none[i], 0);
}

void lx_version(struct lx_text *t, long n)
{
    lx_say(t, "Linux version %s (%s)\n", LX_RELEASE, LX_VERSION);
}

/* ---- the process ---------------------------------------------------------- */

const char *lx_exe(void)
{
    const char *exe = getenv("LWK_EXE");     /* yod's (yod/launch.c) */

    return exe && exe[0] == '/' ? exe : NULL;
}

void lx_auxv(struct lx_text *t, long n)
{
    const uint64_t *a = lxrt.auxv;

    while (a[0] != 0)
        a += 2;
    lx_put(t, lxrt.auxv, (size_t)((const char *)(a + 2) -
                                  (const char *)lxrt.auxv));
}

static void strings(struct lx_text *t, char *const *v)
{
    for (; *v; v++)
        lx_put(t, *v, strlen(*v) + 1);
}

void lx_cmdline(struct lx_text *t, long n)
{
    strings(t, lxrt.argv);
}

void lx_environ(struct lx_text *t, long n)
{
    strings(t, lxrt.envp);
}

/* The program file's name, at most 15 bytes, as Linux keeps it. */
static const char *comm(void)
{
    static char name[16];
    const char *p = lx_exe() ? lx_exe() : lxrt.argv[0] ? lxrt.argv[0] : "";

    snprintf(name, sizeof(name), "%s", strrchr(p, '/') ? strrchr(p, '/') + 1
                                                        : p);
    return name;
}

void lx_comm(struct lx_text *t, long n)
{
    lx_say(t, "%s\n", comm());
}

void lx_limits(struct lx_text *t, long n)
{
    static const char *const what[16][2] = {
        { "Max cpu time", "seconds" }, { "Max file size", "bytes" },
        { "Max data size", "bytes" }, { "Max stack size", "bytes" },
        { "Max core file size", "bytes" }, { "Max resident set", "bytes" },
        { "Max processes", "processes" }, { "Max open files", "files" },
        { "Max locked memory", "bytes" }, { "Max address space", "bytes" },
        { "Max file locks", "locks" }, { "Max pending signals", "signals" },
        { "Max msgqueue size", "bytes" }, { "Max nice priority", "" },
        { "Max realtime priority", "" }, { "Max realtime timeout", "us" },
    };

    lx_say(t, "%-25s %-20s %-20s %-10s\n", "Limit", "Soft Limit",
           "Hard Limit", "Units");
    for (int r = 0; r < 16; r++) {
        struct lx_rlimit l = lx_limit(r);
        uint64_t v[2] = { l.cur, l.max };

        lx_say(t, "%-25s ", what[r][0]);
        for (int i = 0; i < 2; i++) {
            if (v[i] == LX_RLIM_INFINITY)
                lx_say(t, "%-20s ", "unlimited");
            else
                lx_say(t, "%-20lu ", (unsigned long)v[i]);
        }
        lx_say(t, "%-10s\n", what[r][1]);
    }
}

/* ---- its regions ---------------------------------------------------------- */

extern char __etext[], __data_start[];

/* One line of maps: Linux pads the name to column 73. */
static void map(struct lx_text *t, uint64_t lo, uint64_t hi, const char *perm,
                const char *name)
{
    size_t at = t->len;

    lx_say(t, "%08lx-%08lx %s 00000000 00:00 0", (unsigned long)lo,
           (unsigned long)hi, perm);
    if (name) {
        while (t->len - at < 73 && !t->short_of_memory)
            lx_put(t, " ", 1);
        lx_say(t, "%s", name);
    }
    lx_say(t, "\n");
}

/* Every region in the address space, lowest first: the program's image
   and the memory its brk and mmap hand out (one region, all of it there
   and writable), the runtime's text and data (its heap inside), the
   stack (an unmapped guard below it). */
void lx_maps(struct lx_text *t, long n)
{
    uint64_t img = UP_4K(lxrt.image_end);

    map(t, lxrt.lo, img, "rwxp", lx_exe());
    if (img < lxrt.hi)
        map(t, img, lxrt.hi, "rwxp", "[heap]");
    map(t, LXRT_BASE, UP_4K((uint64_t)__etext), "r-xp", "[lxrt]");
    map(t, (uint64_t)__data_start,
        UP_4K(lwk_proc->heap_base + lwk_proc->heap_size), "rw-p", "[lxrt]");
    map(t, lxrt.stack_lo, lxrt.stack_hi, "rw-p", "[stack]");
}

static struct lwk_usage usage(void)
{
    struct lwk_usage u = { 0 };

    lwk_sys_usage((long)&u);
    return u;
}

/* All of a region is there from load to exit: peak, size, high-water mark
   and resident set are one figure, the bytes of the process's regions. */
void lx_status(struct lx_text *t, long n)
{
    unsigned long all = KIB(usage().mem_bytes), m = (unsigned long)lx_umask_now();
    uint64_t cpus = lx_cpus();

    lx_say(t, "Name:\t%s\nUmask:\t0%lu%lu%lu\nState:\tR (running)\n", comm(),
           m >> 6 & 7, m >> 3 & 7, m & 7);
    lx_say(t, "Tgid:\t%ld\nNgid:\t0\nPid:\t%ld\nPPid:\t1\nTracerPid:\t0\n",
           lxrt.pid, lxrt.pid);
    lx_say(t, "Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nFDSize:\t%d\nGroups:\t\n",
           LX_NFD);
    lx_say(t, "VmPeak:\t%8lu kB\nVmSize:\t%8lu kB\n", all, all);
    lx_say(t, "VmHWM:\t%8lu kB\nVmRSS:\t%8lu kB\n", all, all);
    lx_say(t, "VmExe:\t%8lu kB\nVmStk:\t%8lu kB\nVmSwap:\t%8lu kB\n",
           KIB(UP_4K(lxrt.image_end) - lxrt.lo),
           KIB(lxrt.stack_hi - lxrt.stack_lo), 0ul);
    if (lx_ncpus() > 32)
        lx_say(t, "Cpus_allowed:\t%08lx,%08lx\n", (unsigned long)(cpus >> 32),
               (unsigned long)(cpus & 0xffffffff));
    else
        lx_say(t, "Cpus_allowed:\t%lx\n", (unsigned long)cpus);
    lx_say(t, "Cpus_allowed_list:\t");
    cpu_list(t, cpus);
    lx_say(t, "Mems_allowed:\t1\nMems_allowed_list:\t0\n");
}

/* size resident shared text lib data dt, in 4 KiB pages. */
void lx_statm(struct lx_text *t, long n)
{
    unsigned long all = (unsigned long)(usage().mem_bytes / PAGE_4K);
    unsigned long text = (unsigned long)((UP_4K(lxrt.image_end) - lxrt.lo) /
                                         PAGE_4K);

    lx_say(t, "%lu %lu 0 %lu 0 %lu 0\n", all, all, text, all - text);
}

/* ---- mounts: yod's files at /, the node's at /proc and /sys ---------------- */

static const struct {
    const char *what, *at, *type, *opts;
    int dev;                    /* its minor; rt_proc.c's st_dev */
} mounts[] = {
    { "yod", "/", "yod", "rw", 1 },
    { "proc", "/proc", "proc", "ro,nosuid,nodev,noexec", 0x16 },
    { "sysfs", "/sys", "sysfs", "ro,nosuid,nodev,noexec", 0x15 },
};

void lx_mounts(struct lx_text *t, long n)
{
    for (size_t i = lx_yod_files() ? 0 : 1; i < 3; i++)
        lx_say(t, "%s %s %s %s 0 0\n", mounts[i].what, mounts[i].at,
               mounts[i].type, mounts[i].opts);
}

void lx_mountinfo(struct lx_text *t, long n)
{
    for (size_t i = lx_yod_files() ? 0 : 1; i < 3; i++)
        lx_say(t, "%d %d 0:%d / %s %s - %s %s %s\n", (int)i + 1,
               i ? 1 : 0, mounts[i].dev, mounts[i].at, mounts[i].opts,
               mounts[i].type, mounts[i].what, i ? "ro" : "rw");
}
