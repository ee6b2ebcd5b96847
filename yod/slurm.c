/* SPDX-License-Identifier: MIT */
/*
 * slurm.c: yod on a cluster whose nodes Slurm hands out (slurm.h;
 * docs/slurm.md).
 *
 * `tools/cluster up --slurm` writes DIR/slurm/name, the Slurm
 * ClusterName.  On such a cluster yod runs only inside an allocation of
 * that cluster (sbatch, salloc, srun set SLURM_JOB_ID and
 * SLURM_CLUSTER_NAME) and only on its nodes: the step's under srun
 * (SLURM_STEP_NODELIST), else the job's (SLURM_JOB_NODELIST).  Outside
 * one it refuses and names salloc and sbatch: Slurm decides who gets
 * which node, so two jobs never share one.
 *
 * The lists are Slurm hostlists of the nodes' names, nidNNNNN (the nid
 * in decimal): "nid00003", "nid[00000-00003,00007],nid00010".  The
 * grammar is small and ours (the names are ours), so yod expands it
 * itself rather than run `scontrol show hostnames`; anything else is
 * refused with the list in the message.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "slurm.h"
#include "yod.h"

static struct {
    int on;                     /* the cluster is Slurm's */
    const char *job, *list;     /* SLURM_JOB_ID, the list used */
    unsigned nids[SLURM_NIDS_MAX];
    int n;
} S;

/* One number of a name: decimal digits, at most 10; -1 if none. */
static long long number(const char **p)
{
    long long x = 0;
    int digits = 0;

    while (isdigit((unsigned char)**p) && digits < 11) {
        x = x * 10 + (**p - '0');
        (*p)++;
        digits++;
    }
    return digits && digits <= 10 && x <= 0xffffffffLL ? x : -1;
}

static int add(unsigned *nids, int *n, int max, long long a, long long b)
{
    if (a < 0 || b < a || *n + (b - a + 1) > max)
        return -1;
    for (long long x = a; x <= b; x++)
        nids[(*n)++] = (unsigned)x;
    return 0;
}

/* "0-3,7]": ranges up to the closing bracket. */
static int ranges(const char **p, unsigned *nids, int *n, int max)
{
    for (;;) {
        long long a = number(p), b = a;
        if (**p == '-') {
            (*p)++;
            b = number(p);
        }
        if (add(nids, n, max, a, b) < 0)
            return -1;
        if (**p == ']') {
            (*p)++;
            return 0;
        }
        if (*(*p)++ != ',')
            return -1;
    }
}

int slurm_hostlist(const char *list, unsigned *nids, int max)
{
    const char *p = list;
    int n = 0;

    for (;;) {
        if (strncmp(p, "nid", 3))
            return -1;
        p += 3;
        if (*p == '[') {
            p++;
            if (ranges(&p, nids, &n, max) < 0)
                return -1;
        } else {
            long long a = number(&p);
            if (add(nids, &n, max, a, a) < 0)
                return -1;
        }
        if (!*p)
            return n;
        if (*p++ != ',')
            return -1;
    }
}

/* DIR/slurm/name: the cluster's ClusterName, or NULL: not Slurm's. */
static const char *slurm_name(void)
{
    static char name[128];
    char path[4096];
    FILE *f;

    snprintf(path, sizeof(path), "%s/slurm/name", cluster);
    if (!(f = fopen(path, "r")))
        return NULL;
    if (!fgets(name, sizeof(name), f))
        name[0] = 0;
    fclose(f);
    name[strcspn(name, "\n")] = 0;
    return name;
}

void slurm_allocation(void)
{
    const char *name = slurm_name(), *in = getenv("SLURM_CLUSTER_NAME");
    const char *step = getenv("SLURM_STEP_NODELIST");

    if (!name) {
        o.size = o.size ? o.size : 1;
        return;
    }
    S.on = 1;
    S.job = getenv("SLURM_JOB_ID");
    if (!S.job || !*S.job)
        die("the nodes of the cluster in %s are handed out by Slurm "
            "(cluster %s): run yod inside an allocation, e.g. salloc -N 2 "
            "yod -sz 2 PROG, or in a script given to sbatch -N 2 "
            "(docs/slurm.md)", cluster, name);
    if (!in || strcmp(in, name))
        die("this is Slurm job %s of cluster %s, but the nodes of the "
            "cluster in %s are cluster %s's: set LWK_CLUSTER to the "
            "directory of the cluster the job runs on", S.job,
            in ? in : "(unknown)", cluster, name);
    S.list = step && *step ? step : getenv("SLURM_JOB_NODELIST");
    if (!S.list)
        die("Slurm job %s: SLURM_JOB_NODELIST is not set; run yod in the "
            "job's own environment", S.job);
    S.n = slurm_hostlist(S.list, S.nids, SLURM_NIDS_MAX);
    if (S.n < 0)
        die("Slurm job %s: its node list %s is not this cluster's nodes "
            "(nidNNNNN names, at most %d)", S.job, S.list, SLURM_NIDS_MAX);
    if (!o.size && S.n > MAX_NODES)
        die("%s has %d nodes, more than the %d a job takes: give -n",
            slurm_what(), S.n, MAX_NODES);
    if (!o.size)
        o.size = S.n;   /* mpiexec without -n (options.c) */
}

int slurm_allows(unsigned nid)
{
    if (!S.on)
        return 1;
    for (int i = 0; i < S.n; i++)
        if (S.nids[i] == nid)
            return 1;
    return 0;
}

const char *slurm_what(void)
{
    static char s[256];

    if (!S.on)
        return NULL;
    snprintf(s, sizeof(s), "Slurm job %s's allocation (%s)", S.job,
             S.list);
    return s;
}

int slurm_nodes(void)
{
    return S.on ? S.n : -1;
}
