/*
 * ranks.c: the processes a node runs for the job it serves (serve.c).
 * One rank in modes one, threads and coproc; in virtual-node mode
 * (yod -vn) one per CPU: ranks rank..rank+n-1 of the job, each its own
 * process, address space and Portals endpoint (pid YOD_APP_PID + its
 * index here, which the PCT puts in its PTL_PID), all loaded from the one
 * image yod sent.  Index 0 runs on CPU 0 beside the PCT, in quanta as in
 * the other modes; index i on CPU i, which the PCT gives it at START for
 * its whole life (cpus.c), so nothing else ever runs there.  Each rank's
 * end goes to yod on its own (EXIT with its rank), and yod decides what
 * it means for the job (yod/end.c); the node's part of the job is over
 * when every rank here has ended.
 */
#include <stdio.h>
#include <string.h>
#include <lwk/syscall.h>
#include "serve.h"
#include "yod_debug.h"

/* While only ranks on other CPUs run, the PCT looks at them this often
   (a rank's end kicks CPU 0, but PtlEQPoll sleeps on until its timeout). */
#define WATCH_MS    10

int ranks_live(void)
{
    int n = 0;

    for (int i = 0; i < job.nranks; i++)
        n += job.j[i].pid != 0;
    return n;
}

/* ---- loading ---------------------------------------------------------------- */

/* Rank index i's copy of the first rank (which holds the fetched image
   and the argv/env block), with its own rank, key and PTL_PID. */
static void copy_rank(struct job *j, const struct job *first, int i)
{
    int scratch = first->scratch_pid;

    *j = *first;
    j->rank = first->rank + i;
    j->local = i;
    j->scratch_pid = i ? 0 : scratch;   /* the first gives the image back */
    snprintf(j->rank_env, sizeof(j->rank_env), "PTL_JOB_RANK=%d", j->rank);
    j->ptl_pid = YOD_APP_PID + i;       /* as yod's job map says */
    snprintf(j->pid_env, sizeof(j->pid_env), "PTL_PID=%u", j->ptl_pid);
    for (int e = 0; e < j->envc; e++)
        if (first->envp[e] == first->rank_env)
            j->envp[e] = j->rank_env;
        else if (!strncmp(first->envp[e], "PTL_PID=", 8))
            j->envp[e] = j->pid_env;
    j->yod_key = yod_rank_key(&job.key, j->rank);
}

/* How many ranks LOAD asks for here; 0 (and why in `why`) if too many. */
static int ranks_wanted(const struct yod_msg *m, char *why, size_t len)
{
    struct lwk_node_info ni;
    int n = m->mode == YOD_MODE_VN ? (int)m->local : 1;

    lwk_sys_node_info((long)&ni);
    if (m->mode != YOD_MODE_VN && m->local > 1)
        snprintf(why, len, "%u ranks on one node need virtual-node mode "
                 "(yod -vn)", m->local);
    else if (m->mode == YOD_MODE_VN &&
             (n < 1 || n > pct_vn_max(ni.ncpus)))
        snprintf(why, len, "virtual-node mode: %d ranks asked, this node "
                 "runs 1..%d (one per CPU, at most %d)", n,
                 pct_vn_max(ni.ncpus), YOD_VN_MAX);
    else
        return n;
    return 0;
}

/* The ranks of one job on this node map each other's memory (SMARTMAP,
   docs/SMP.md): rank index i in slot i.  Policy: the ranks of one job,
   and only they.  Without it (the kernel refused) the job still runs;
   its MPI then sends through the loop queues alone. */
_Static_assert(YOD_VN_MAX <= LWK_SMARTMAP_SLOTS, "a slot for every rank");
static void ranks_share(void)
{
    int32_t pids[YOD_VN_MAX];
    long rc;

    if (job.nranks < 2)
        return;
    for (int i = 0; i < job.nranks; i++)
        pids[i] = job.j[i].pid;
    if ((rc = lwk_sys_proc_share((long)pids, job.nranks)) < 0)
        printf("pct: ranks %d-%d: cannot share memory (%ld); they run "
               "without\n", job.j[0].rank, job.j[job.nranks - 1].rank, rc);
    job.shared = rc == 0;
}

/* Load the ranks from the fetched program in job.j[0]; NULL, or why not
   (every rank loaded so far is gone again). */
const char *ranks_load(const struct yod_msg *m)
{
    static char why[160];
    struct job *first = &job.j[0];
    int n = ranks_wanted(m, why, sizeof(why));

    if (!n)
        return why;
    first->mode = m->mode <= YOD_MODE_VN ? (int)m->mode : -1;
    first->profile_hz = m->profile_hz <= LWK_PROF_HZ_MAX ? m->profile_hz : 0;
    first->counters = m->counters != 0;
    for (int i = n - 1; i > 0; i--)
        copy_rank(&job.j[i], first, i);
    copy_rank(first, first, 0);
    for (int i = 0; i < n; i++) {
        struct job *j = &job.j[i];
        /* One rank gives the image back before its heap is added (the
           heap may take that memory); several, after the last loaded. */
        j->image_shared = n > 1;
        j->heap_share = n > 1 ? n - i : 0;
        job.nranks = i + 1;
        if (pct_load(j, m->heap ? m->heap : srv.heap,
                     m->stack ? m->stack : srv.stack, srv.nid) == 0) {
            debug_loaded(j);
            profile_loaded(j);
            continue;
        }
        snprintf(why, sizeof(why), "%s", j->why[0] ? j->why
                 : "the node cannot load it (see its log)");
        j->pid = 0;
        ranks_drop();
        return why;
    }
    pct_release_image(first);
    for (int i = 1; i < n; i++)
        job.j[i].image = NULL;
    ranks_share();
    return NULL;
}

/* ---- running ---------------------------------------------------------------- */

/* START: the ranks on other CPUs go there and start; 0, or -1 if a CPU
   was not free (nothing started then). */
int ranks_start(void)
{
    for (int i = 1; i < job.nranks; i++)
        if (pct_cpus_place(&job.j[i]) < 0) {
            ranks_kill();
            return -1;
        }
    return 0;
}

/* A page fault in the SMARTMAP slot of a rank of this node that has
   ended is a consequence of that end (its memory is gone), as a rank that
   gives up because a peer is gone says so (lwk_abort_peer): yod then
   names that rank's end as the job's cause.  That rank, or -1. */
static int fault_peer(const struct job *j)
{
    unsigned slot;
    uint64_t va;

    if (!job.shared || j->last.fault_vector != 14 ||
        !lwk_smartmap_of(j->last.fault_addr, &slot, &va) ||
        slot >= (unsigned)job.nranks || job.j[slot].pid)
        return -1;
    return job.j[slot].rank;
}

/* What yod hears of rank j's end (killed: by yod). */
static struct yod_msg exit_msg(struct job *j, int killed)
{
    struct yod_msg m = { .type = YOD_EXIT, .rank = j->rank,
                         .reason = killed ? 0 : j->last.reason,
                         .status = pct_status(&j->last), .peer = -1,
                         .left_job = !killed && j->last.left_job };

    if (!killed && j->last.reason == LWK_STOP_FAULT) {
        pct_describe(j, m.text, sizeof(m.text));
        m.addr = j->last.fault_addr;
        m.rip = j->last.fault_rip;
        m.peer = fault_peer(j);
    }
    if (!killed && j->last.reason == LWK_STOP_ABORT) {
        snprintf(m.text, sizeof(m.text), "%s", j->last.why);
        m.peer = j->last.peer;
    }
    if (killed)
        snprintf(m.text, sizeof(m.text), "killed by yod");
    return m;
}

/* Rank j's process goes. */
static void destroy(struct job *j)
{
    debug_forget(j);
    pct_drop_symbols(j);
    pct_cpus_release(j);
    lwk_sys_proc_destroy(j->pid);
    j->pid = 0;
    if (!ranks_live())
        ranks_drop();
}

/* Rank j has ended (or was ended: killed): tell yod, forget it; or,
   profiled or counted, keep it for yod to read that first. */
static void rank_ended(struct job *j, int killed)
{
    struct yod_msg m;

    if (!killed && (j->prof.bins || j->counters)) {
        debug_keep(j);
        return;
    }
    m = exit_msg(j, killed);
    destroy(j);
    tell_owner(&m);
}

/* Rank j has ended, but its process stays for yod to read (debug.c): yod
   hears of the end now, and RELEASE lets it go. */
void ranks_keep(struct job *j)
{
    struct yod_msg m = exit_msg(j, 0);

    m.flags = YOD_EXIT_HELD;
    tell_owner(&m);
}

void ranks_release(struct job *j)
{
    destroy(j);
}

struct job *ranks_find(int rank)
{
    for (int i = 0; i < job.nranks; i++)
        if (job.j[i].pid && job.j[i].rank == rank)
            return &job.j[i];
    return NULL;
}

/* One look at rank j: a quantum on CPU 0, or (on a CPU of its own) has it
   ended?  1 if it is still running. */
static int run_rank(struct job *j, uint64_t quantum)
{
    if (debug_paused(j))
        return 0;               /* stopped for yod, or kept for it to read */
    if (lwk_sys_proc_run(j->pid, j->local ? 0 : quantum, (long)&j->last) < 0)
        j->last.reason = LWK_STOP_FAULT;
    else if (j->last.reason == LWK_STOP_DEBUG) {
        debug_stopped(j);
        return 0;
    } else if (!pct_ended(&j->last))
        return 1;
    else
        pct_report(j);
    rank_ended(j, 0);
    return 0;
}

/* One turn over the ranks; how long the PCT may then wait for requests:
   0 while CPU 0 has a rank to run, WATCH_MS while only others run. */
int ranks_run(uint64_t quantum)
{
    int on_cpu0 = 0;

    for (int i = 0; i < job.nranks; i++)
        if (job.j[i].pid && run_rank(&job.j[i], quantum) && i == 0)
            on_cpu0 = 1;
    return on_cpu0 || !job.started ? 0 : WATCH_MS;
}

/* KILL, FREE: every rank still here ends, and yod hears each. */
void ranks_kill(void)
{
    for (int i = 0; i < job.nranks; i++)
        if (job.j[i].pid)
            rank_ended(&job.j[i], 1);
}

/* Forget the ranks without telling anyone (the lease ran out; a load
   failed). */
void ranks_drop(void)
{
    for (int i = 0; i < job.nranks; i++) {
        struct job *j = &job.j[i];
        pct_drop_symbols(j);
        if (j->pid) {
            debug_forget(j);
            pct_cpus_release(j);
            lwk_sys_proc_destroy(j->pid);
        }
    }
    pct_release_image(&job.j[0]);
    memset(job.j, 0, YOD_VN_MAX * sizeof(*job.j));
    job.nranks = 0;
    job.started = 0;
    job.shared = 0;
}

/* ---- what showmesh shows ---------------------------------------------------- */

/* Each CPU's use for STATE (yod_proto.h): a rank, a rank's threads, the
   engine; the policy is cpus.c's, so the table follows it. */
void ranks_state(struct yod_msg *a, uint64_t ncpus)
{
    a->cpus = (uint32_t)ncpus;
    for (int i = 0; i < job.nranks; i++) {
        const struct job *j = &job.j[i];
        if (!j->pid || !job.started)
            continue;
        a->local++;
        pct_cpus_uses(j, ncpus, a->cpu);
    }
}
