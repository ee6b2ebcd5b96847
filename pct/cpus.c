/*
 * The PCT's CPU policy: which of the node's CPUs a job's process gets.
 * The kernel only enforces what the PCT grants (proc_cpus); it never
 * moves or time-slices a thread by itself.
 *
 *   one      (default) CPU 0 only; the other CPUs stay halted (Cougar's
 *            "second processor ignored")
 *   threads  every other CPU, one thread each (pthreads, COP); a thread
 *            more than that is refused with EAGAIN
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <lwk/syscall.h>
#include "pct.h"
#include "yod_proto.h"

_Static_assert((int)PCT_MODE_ONE == (int)YOD_MODE_ONE &&
               (int)PCT_MODE_THREADS == (int)YOD_MODE_THREADS, "yod's mode numbers");

static const char *const names[] = {
    [PCT_MODE_ONE] = "one", [PCT_MODE_THREADS] = "threads",
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

/* After the process is created, before it runs. */
void pct_cpus_assign(struct job *j)
{
    struct lwk_node_info ni;
    uint64_t mask;
    long rc;

    if (j->mode != PCT_MODE_THREADS)
        return;
    lwk_sys_node_info((long)&ni);
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
