/*
 * The PCT's CPU policy: which of the node's CPUs a job's process gets.
 * The kernel only enforces what the PCT grants (proc_cpus); it never
 * moves or time-slices a thread by itself.
 *
 *   one      (default) CPU 0 only; the other CPUs stay halted (Cougar's
 *            "second processor ignored")
 *   threads  every other CPU, one thread each (pthreads, COP); a thread
 *            more than that is refused with EAGAIN
 *   coproc   CPU 1 runs the node's Portals engine while the job lives
 *            (message co-processor): it polls the NIC and the command
 *            rings, and the program's Portals calls cost CPU 0 no trap
 *   vn       virtual node: one rank per CPU, each its own process; the
 *            rank with index i on the node runs on CPU i for its whole
 *            life (proc_place), index 0 on CPU 0 beside the PCT, which
 *            runs it in quanta as in the other modes.  The Portals engine
 *            stays on CPU 0: the other ranks' calls are forwarded there.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <lwk/syscall.h>
#include "pct.h"
#include "yod_proto.h"

_Static_assert((int)PCT_MODE_ONE == (int)YOD_MODE_ONE &&
               (int)PCT_MODE_THREADS == (int)YOD_MODE_THREADS &&
               (int)PCT_MODE_COPROC == (int)YOD_MODE_COPROC &&
               (int)PCT_MODE_VN == (int)YOD_MODE_VN,
               "yod's mode numbers");

static const char *const names[] = {
    [PCT_MODE_ONE] = "one", [PCT_MODE_THREADS] = "threads",
    [PCT_MODE_COPROC] = "coproc", [PCT_MODE_VN] = "vn",
};

int pct_mode_parse(const char *s)
{
    for (int m = 0; m < (int)(sizeof(names) / sizeof(names[0])); m++)
        if (!strcmp(s, names[m]))
            return m;
    return -1;
}

const char *pct_mode_name(int mode)
{
    return mode >= 0 && mode < (int)(sizeof(names) / sizeof(names[0]))
               ? names[mode] : "?";
}

static void engine_on(struct job *j, const struct lwk_node_info *ni)
{
    long rc;

    if (ni->ncpus < 2) {
        printf("pct: %s: co-processor mode on a node with one CPU: CPU 0 "
               "runs the engine as usual\n", j->name);
        return;
    }
    if ((rc = lwk_sys_node_engine(1)) < 0)
        printf("pct: %s: co-processor mode, but CPU 1 is busy (%ld): CPU 0 "
               "runs the engine as usual\n", j->name, rc);
    else {
        j->cpu_mask = 1ULL << 1;
        printf("pct: %s: co-processor mode, CPU 1 runs the Portals "
               "engine\n", j->name);
    }
}

void pct_cpus_release(struct job *j)
{
    if (j->mode == PCT_MODE_COPROC)
        lwk_sys_node_engine(0);
}

/* After the process is created, before its stack is built: the CPUs it
   gets are in its auxiliary vector (pct_cpus_own). */
void pct_cpus_assign(struct job *j, long pid)
{
    struct lwk_node_info ni;
    uint64_t mask;
    long rc;

    if (j->mode != PCT_MODE_THREADS && j->mode != PCT_MODE_COPROC)
        return;
    lwk_sys_node_info((long)&ni);
    if (j->mode == PCT_MODE_COPROC) {
        engine_on(j, &ni);
        return;
    }
    if (ni.ncpus < 2) {
        printf("pct: %s: threads mode on a node with one CPU: its threads "
               "cannot start (EAGAIN)\n", j->name);
        return;
    }
    mask = (ni.ncpus >= 64 ? ~0ULL : (1ULL << ni.ncpus) - 1) & ~1ULL;
    rc = lwk_sys_proc_cpus(pid, (long)mask);
    if (rc == -EBUSY)
        printf("pct: %s: threads mode, but another job holds the other "
               "CPUs: it has CPU 0 only\n", j->name);
    else if (rc < 0)
        printf("pct: %s: proc_cpus failed (%ld): it has CPU 0 only\n",
               j->name, rc);
    else {
        j->cpu_mask = mask;
        printf("pct: %s: threads mode, CPUs 1-%lu for its threads\n",
               j->name, ni.ncpus - 1);
    }
}

/* The CPUs j's own threads run on: its main thread's (CPU 0, or its own
   in virtual-node mode) and in threads mode those given for its threads;
   never the engine's.  What sched_getaffinity and the node's
   /sys/devices/system/cpu/online say to it (AT_LWK_CPUS). */
uint64_t pct_cpus_own(const struct job *j)
{
    uint64_t own = 1ULL << (j->mode == PCT_MODE_VN ? j->local : 0);

    return j->mode == PCT_MODE_THREADS ? own | j->cpu_mask : own;
}

uint64_t pct_ncpus(void)
{
    struct lwk_node_info ni;

    lwk_sys_node_info((long)&ni);
    return ni.ncpus;
}

/* A process per CPU, and no more than the kernel's process table holds
   beside the PCT and an image being loaded (YOD_VN_MAX). */
int pct_vn_max(uint64_t ncpus)
{
    return ncpus < YOD_VN_MAX ? (int)ncpus : YOD_VN_MAX;
}

int pct_cpus_place(struct job *j)
{
    long rc;

    if (j->mode != PCT_MODE_VN || j->local == 0)
        return 0;               /* CPU 0: proc_run runs it in quanta */
    if ((rc = lwk_sys_proc_place(j->pid, j->local)) < 0) {
        printf("pct: rank %d (%s): CPU %d is not free (%ld)\n", j->rank,
               j->name, j->local, rc);
        return -1;
    }
    printf("pct: rank %d (%s, pid %d) on CPU %d\n", j->rank, j->name,
           j->pid, j->local);
    return 0;
}

void pct_cpus_uses(const struct job *j, uint64_t ncpus, uint8_t *cpu)
{
    int own = j->mode == PCT_MODE_VN ? j->local : 0;

    if ((uint64_t)own < ncpus && own < YOD_STATE_CPUS)
        cpu[own] = YOD_CPU_BYTE(YOD_CPU_RANK, j->local);
    for (int c = 1; c < YOD_STATE_CPUS && (uint64_t)c < ncpus; c++)
        if (j->cpu_mask >> c & 1)
            cpu[c] = YOD_CPU_BYTE(j->mode == PCT_MODE_COPROC
                                  ? YOD_CPU_ENGINE : YOD_CPU_THREADS,
                                  j->local);
}
