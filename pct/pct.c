/*
 * The PCT's main loop.  The programs to run are the boot modules after
 * the PCT itself, each "path arg..." (modline.c); with none, the PCT
 * serves yod (serve.c, yod/yod_proto.h).  Kernel command-line settings
 * the PCT reads:
 *   pct.heap=SIZE     heap per program (default: all the memory left;
 *                     16M with pct.together)
 *   pct.stack=SIZE    stack per program (default 1M)
 *   pct.quantum=NS    time slice when several programs share the node (10 ms)
 *   pct.together      load all programs at once and schedule them by
 *                     priority (a module word "prio=N"; higher first,
 *                     round robin among equals); default: one after another
 *   pct.halt          stop the node when every program has ended
 *   pct.service=A-B   the service partition's nids: only their stations
 *                     may claim the node (yod_proto.h; default 1000-1999)
 * A module word "mode=M" picks how the program uses the node's CPUs
 * (cpus.c: one, threads, coproc).
 * The boot module cluster.key, if there is one, is the cluster's secret
 * (auth.c), never a program.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lwk/syscall.h>
#include "pct.h"

static struct job jobs[PCT_MAX_JOBS];
static int njobs;
static struct lwk_node_info node;

const char *pct_opt(const char *key)
{
    static char val[128];
    size_t n = strlen(key);

    for (const char *p = node.cmdline; (p = strstr(p, key)); p += n) {
        if ((p != node.cmdline && p[-1] != ' ') ||
            (p[n] != '=' && p[n] != ' ' && p[n] != 0))
            continue;
        if (p[n] != '=')
            return "";
        size_t len = strcspn(p + n + 1, " ");
        if (len >= sizeof(val))
            len = sizeof(val) - 1;
        memcpy(val, p + n + 1, len);
        val[len] = 0;
        return val;
    }
    return NULL;
}

static uint64_t size_opt(const char *key, uint64_t dflt)
{
    const char *v = pct_opt(key);
    char *end;
    uint64_t x;

    if (!v)
        return dflt;
    x = strtoull(v, &end, 0);
    switch (*end) {
    case 'K': case 'k': x <<= 10; break;
    case 'M': case 'm': x <<= 20; break;
    case 'G': case 'g': x <<= 30; break;
    }
    return x;
}

static int is_pct_module(const char *name)
{
    return pct_module_is(name, "pct") || pct_module_is(name, "pct.elf");
}

/* A module line that fills the boot information's room may have been
   cut (the kernel logs it): refused rather than run with lost words. */
static void read_module_line(struct job *j, const char *line, size_t room)
{
    char *copy = strdup(line);

    if (!copy) {
        pct_cannot_run(j, "no memory for its module line");
        return;
    }
    if (pct_parse_module(j, copy) == 0 && strlen(line) >= room - 1)
        pct_cannot_run(j, "its module line fills all %zu bytes the boot "
                       "information holds and may have been cut; give "
                       "fewer or shorter arguments", room - 1);
}

/* The programs are the modules after the PCT's own, which the kernel has
   loaded and given back already (module_map says so: skipped). */
static void find_programs(void)
{
    struct lwk_module m;
    long rc;

    for (int i = 0; njobs < PCT_MAX_JOBS &&
                    (rc = lwk_sys_module_map(i, (long)&m)) != -ENOENT; i++) {
        if (rc < 0)
            continue;           /* released already (our own image) */
        if (is_pct_module(m.name)) {
            lwk_sys_module_release(i);  /* another PCT image: not a program */
            continue;
        }
        if (pct_auth_module(i, &m))
            continue;           /* the cluster's secret, not a program */
        struct job *j = &jobs[njobs++];
        j->module = i;
        j->image = (const void *)m.pct_va;
        j->image_size = m.size;
        read_module_line(j, m.name, sizeof(m.name));
    }
}

/* Run `j` for one quantum (0: until it stops on its own). */
static void run_once(struct job *j, uint64_t quantum)
{
    long rc = lwk_sys_proc_run(j->pid, quantum, (long)&j->last);

    if (rc < 0) {
        printf("pct: pid %d (%s): proc_run failed (%ld)\n", j->pid, j->name,
               rc);
        j->done = 1;
        j->last.reason = LWK_STOP_FAULT;
        return;
    }
    if (pct_ended(&j->last)) {
        j->done = 1;
        pct_report(j);
        pct_drop_symbols(j);
        pct_cpus_release(j);
        lwk_sys_proc_destroy(j->pid);
    }
}

/* Highest priority first; among equals, the one after `last` (round robin). */
static struct job *pick(int last)
{
    struct job *best = NULL;

    for (int k = 1; k <= njobs; k++) {
        struct job *j = &jobs[(last + k) % njobs];
        if (j->pid && !j->done && (!best || j->prio > best->prio))
            best = j;
    }
    return best;
}

static int ok(const struct job *j)
{
    return j->pid && j->last.reason == LWK_STOP_EXIT && j->last.status == 0;
}

int main(void)
{
    uint64_t stack, heap, quantum;
    int all_ok = 1;

    lwk_sys_node_info((long)&node);
    printf("pct: node %lu up, %lu MiB free for programs\n", node.nid,
           node.ram_free >> 20);
    stack = size_opt("pct.stack", 1 << 20);
    heap = size_opt("pct.heap", pct_opt("pct.together") ? (16 << 20)
                                                    : PCT_HEAP_ALL);
    quantum = size_opt("pct.quantum", 10000000);
    pct_auth_setup();
    find_programs();
    if (!njobs) {
        printf("pct: no program to run\n");
        pct_serve(&node, heap, stack, quantum);     /* never returns */
    }
    for (int i = 0; i < njobs; i++) {
        struct job *j = &jobs[i];
        if (j->why[0] || pct_load(j, heap, stack, node.nid) < 0) {
            pct_release_image(j);       /* it will not be tried again */
            pct_drop_symbols(j);
            j->done = 1;
            all_ok = 0;
            continue;
        }
        if (!pct_opt("pct.together"))
            while (!j->done)
                run_once(j, 0);
    }
    struct job *j = NULL;
    while ((j = pick(j ? (int)(j - jobs) : -1)))
        run_once(j, quantum);
    for (int i = 0; i < njobs; i++)
        all_ok &= ok(&jobs[i]);
    printf("pct: all programs ended (%s)\n", all_ok ? "all succeeded" :
           "some failed");
    if (pct_opt("pct.halt"))
        lwk_sys_node_stop(all_ok);
    for (;;)
        lwk_sys_quit_quantum();
}
