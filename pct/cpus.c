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
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <lwk/syscall.h>
#include "pct.h"
#include "yod_proto.h"

_Static_assert((int)PCT_MODE_ONE == (int)YOD_MODE_ONE &&
               (int)PCT_MODE_THREADS == (int)YOD_MODE_THREADS &&
               (int)PCT_MODE_COPROC == (int)YOD_MODE_COPROC,
               "yod's mode numbers");

static const char *const names[] = {
    [PCT_MODE_ONE] = "one", [PCT_MODE_THREADS] = "threads",
    [PCT_MODE_COPROC] = "coproc",
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
    else
        printf("pct: %s: co-processor mode, CPU 1 runs the Portals "
               "engine\n", j->name);
}

void pct_cpus_release(struct job *j)
{
    if (j->mode == PCT_MODE_COPROC)
        lwk_sys_node_engine(0);
}

/* After the process is created, before it runs. */
void pct_cpus_assign(struct job *j)
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
    rc = lwk_sys_proc_cpus(j->pid, (long)mask);
    if (rc == -EBUSY)
        printf("pct: %s: threads mode, but another job holds the other "
               "CPUs: it has CPU 0 only\n", j->name);
    else if (rc < 0)
        printf("pct: %s: proc_cpus failed (%ld): it has CPU 0 only\n",
               j->name, rc);
    else
        printf("pct: %s: threads mode, CPUs 1-%lu for its threads\n",
               j->name, ni.ncpus - 1);
}
