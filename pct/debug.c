/*
 * debug.c: the PCT's debugging policy (yod/yod_debug.h; the kernel's
 * mechanisms: uapi/abi.h, proc_debug).  Only the job's own yod may debug
 * its ranks: DEBUG requests come through serve.c's checks (signed with
 * the job's key, from the station that claimed the node, each once), and
 * a rank's memory is exposed to that station alone.
 *
 * What this file decides: a rank yod runs is held at a fault or abort
 * (kept, stopped, for yod to read before it goes); an attached rank stops
 * at its traps and yod hears STOPPED; a stopped rank is not run; when yod
 * lets it go, a thread with a stop yod has not heard of yet is told
 * first and nothing runs (two threads at two breakpoints), and a rank
 * given the signal of its fault or abort ends as that fault or abort.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lwk/syscall.h>
#include "serve.h"
#include "yod_debug.h"

#define RFLAGS_TF   0x100

/* Per rank here (its index on the node, as job.j[]). */
static struct rank_dbg {
    int attached;               /* ATTACH: traps stop it, memory writable */
    int stopped;                /* not run until CONT */
    int held;                   /* its end was told (EXIT, HELD): kept */
    uint64_t partial;           /* threads let go while the main thread
                                   stays stopped: their stops are polled */
    uint64_t told;              /* threads whose stop yod has heard */
    int exposed;                /* 1 memory for Gets, 2 for Puts too */
    ptl_handle_me_t me[LWK_NREGIONS];
} rd[YOD_VN_MAX];

static union yod_dbg_buf *dbuf;         /* the debug buffer: one a node */
static struct yod_dbg_info *buf;        /* (as a snapshot) */
static ptl_handle_me_t buf_me;
static uint32_t buf_job;                /* the job it is exposed to */
static struct lwk_dbg_state st;         /* the kernel's answers */
static struct lwk_dbg_regs regs;

static long dbg(int op, const struct job *j, uint64_t arg, void *p)
{
    return lwk_sys_proc_debug(op, j->pid, (long)arg, (long)p);
}

static void answer(const struct job *j, uint32_t type, const char *why)
{
    struct yod_msg a = { .type = type, .rank = j ? j->rank : -1,
                         .asked = YOD_DEBUG };

    if (why)
        snprintf(a.text, sizeof(a.text), "%s", why);
    tell_owner(&a);
}

/* ---- memory for the owner --------------------------------------------- */

static int append(void *start, uint64_t len, int local, int what,
                  int writable, ptl_handle_me_t *h)
{
    ptl_me_t me = { .start = start, .length = len,
                    .ct_handle = PTL_CT_NONE, .uid = PTL_UID_ANY,
                    .match_id = job.owner,
                    .match_bits = yod_dbg_bits(&job.key, local, what),
                    .options = PTL_ME_OP_GET | (writable ? PTL_ME_OP_PUT : 0) |
                               PTL_ME_EVENT_LINK_DISABLE |
                               PTL_ME_EVENT_COMM_DISABLE |
                               PTL_ME_EVENT_UNLINK_DISABLE };

    return PtlMEAppend(srv.ni, YOD_PT_DEBUG, &me, PTL_PRIORITY_LIST, NULL,
                       h) == PTL_OK ? 0 : -1;
}

static void unexpose(struct job *j)
{
    struct rank_dbg *r = &rd[j->local];

    for (int i = 0; r->exposed && i < LWK_NREGIONS; i++)
        if (j->map.size[i])
            PtlMEUnlink(r->me[i]);
    r->exposed = 0;
}

/* The rank's regions, through our window on them, and the node's debug
   buffer: for the owner's Gets (and Puts when `writable`). */
static int expose(struct job *j, int writable)
{
    struct rank_dbg *r = &rd[j->local];

    if (!dbuf && !(dbuf = calloc(1, sizeof(*dbuf))))
        return -1;
    buf = &dbuf->info;
    if (buf_job != job.id) {    /* for this job's owner, under its key */
        if (buf_job)
            PtlMEUnlink(buf_me);
        buf_job = 0;
        if (append(dbuf, sizeof(*dbuf), 0, YOD_DBG_BUF, 1, &buf_me) < 0)
            return -1;
        buf_job = job.id;
    }
    if (r->exposed == 1 + writable)
        return 0;
    unexpose(j);
    for (int i = 0; i < LWK_NREGIONS; i++)
        if (j->map.size[i] &&
            append((void *)j->map.pct_va[i], j->map.size[i], j->local, i,
                   writable, &r->me[i]) < 0) {
            while (i-- > 0)
                if (j->map.size[i])
                    PtlMEUnlink(r->me[i]);
            return -1;
        }
    r->exposed = 1 + writable;
    return 0;
}

/* ---- stops -------------------------------------------------------------- */

/* The thread whose stop yod should hear first: one that took a trap, a
   fault or an abort (the main thread first), else any stopped one. */
static int first_stop(uint64_t skip)
{
    int any = -1;

    for (int k = 0; k < 2; k++)
        for (int cpu = 0; cpu < LWK_DBG_CPUS; cpu++) {
            int c = k ? cpu : (int)st.main_cpu;
            uint32_t why = st.ev[c].why;
            if (!(st.stopped >> c & 1) || (skip >> c & 1))
                continue;
            if (why == LWK_DBG_TRAPPED || why == LWK_DBG_FAULTED ||
                why == LWK_DBG_ABORTED)
                return c;
            if (why != LWK_DBG_NONE && any < 0)
                any = c;
        }
    return any;
}

static void tell_stop(struct job *j, int cpu)
{
    const struct lwk_dbg_event *ev = &st.ev[cpu];
    struct yod_msg m = { .type = YOD_STOPPED, .rank = j->rank,
                         .local = (uint32_t)cpu, .reason = ev->why,
                         .status = yod_dbg_signal(ev->why, ev->vector),
                         .addr = ev->addr };

    if (dbg(LWK_DBG_GETREGS, j, (uint64_t)cpu, &regs) == 0)
        m.rip = regs.rip;
    rd[j->local].told |= 1ull << cpu;
    tell_owner(&m);
}

/* Its fault or abort, held, is its end now: yod hears EXIT as it would
   have, the process kept for it to read. */
static void end_held(struct job *j)
{
    j->last = st.held;
    j->last.left_job = st.in_job;
    j->last.ran_ns = st.cpu_ns;
    rd[j->local].held = rd[j->local].stopped = 1;
    expose(j, 0);
    pct_report(j);
    ranks_keep(j);
}

void debug_keep(struct job *j)
{
    rd[j->local].held = rd[j->local].stopped = 1;
    expose(j, 0);
    ranks_keep(j);
}

/* Rank j stopped (proc_run said LWK_STOP_DEBUG, or a polled thread): all
   of it stops, and yod hears why. */
void debug_stopped(struct job *j)
{
    struct rank_dbg *r = &rd[j->local];
    int cpu;

    dbg(LWK_DBG_STOP, j, 0, NULL);
    r->stopped = 1;
    r->partial = 0;
    if (dbg(LWK_DBG_STATE, j, 0, &st) < 0)
        return;
    if (st.held.reason && !r->attached) {
        end_held(j);
        return;
    }
    if ((cpu = first_stop(r->told)) < 0)
        return;                 /* nothing new: yod asked for the stop */
    tell_stop(j, cpu);
}

/* One look at rank j before it is run: 1 if it must not run now. */
int debug_paused(struct job *j)
{
    struct rank_dbg *r = &rd[j->local];

    if (!r->stopped)
        return 0;
    if (r->partial && dbg(LWK_DBG_STATE, j, 0, &st) == 0 &&
        (st.stopped & r->partial & ~r->told))
        debug_stopped(j);
    return 1;
}

/* ---- requests ---------------------------------------------------------- */

static int stop(struct job *j)
{
    struct rank_dbg *r = &rd[j->local];

    if ((!r->stopped || r->partial) && dbg(LWK_DBG_STOP, j, 0, NULL) < 0)
        return -1;
    r->stopped = 1;
    r->partial = 0;
    return 0;
}

static void attach(struct job *j)
{
    struct rank_dbg *r = &rd[j->local];

    if (r->held) {
        answer(j, YOD_ERR, "it has ended (a fault or abort): read its "
               "core file");
        return;
    }
    if (dbg(LWK_DBG_SET, j, LWK_DBG_TRAP | LWK_DBG_HOLD, NULL) < 0 ||
        stop(j) < 0 || expose(j, 1) < 0) {
        answer(j, YOD_ERR, "the node cannot stop it (see its log)");
        return;
    }
    r->attached = 1;
    r->told = 0;
    printf("pct: job %u rank %d: stopped for its debugger\n", job.id,
           j->rank);
    answer(j, YOD_OK, NULL);
}

/* SNAP: what yod needs of a stopped rank, in the debug buffer. */
static void snap(struct job *j)
{
    struct rank_dbg *r = &rd[j->local];
    uint32_t n = 0;

    if ((!r->held && stop(j) < 0) || expose(j, r->attached) < 0 ||
        dbg(LWK_DBG_STATE, j, 0, &st) < 0) {
        answer(j, YOD_ERR, "the node cannot stop it (see its log)");
        return;
    }
    memset(buf, 0, sizeof(*buf));
    buf->main_cpu = st.main_cpu;
    buf->threads = st.threads;
    buf->stopped = st.stopped;
    buf->held_reason = st.held.reason;
    buf->alive = st.threads != 0;
    buf->auxv = j->auxv;
    buf->prof = j->prof;
    buf->prof_hz = j->profile_hz;
    buf->counters = j->counters;
    if (j->counters > 0 &&
        dbg(LWK_DBG_COUNT, j, 0, &buf->counts) < 0)
        buf->counters = -1;
    for (int i = 0; i < LWK_NREGIONS; i++) {
        buf->va[i] = j->map.app_va[i];
        buf->size[i] = j->map.size[i];
    }
    for (int k = 0; k < LWK_DBG_CPUS && n < YOD_DBG_THREADS; k++) {
        int cpu = (k + (int)st.main_cpu) % LWK_DBG_CPUS;  /* main first */
        if (!(st.threads >> cpu & 1) ||
            dbg(LWK_DBG_GETREGS, j, (uint64_t)cpu, &buf->regs[n]) < 0)
            continue;
        buf->cpu[n] = (uint32_t)cpu;
        buf->ev[n++] = st.ev[cpu];
    }
    buf->nthreads = n;
    answer(j, YOD_OK, NULL);
}

static int zeros(const uint64_t *w, uint64_t bytes)
{
    for (uint64_t i = 0; i < bytes / 8; i++)
        if (w[i])
            return 0;
    return 1;
}

/* USED: which chunks of region i hold anything (yod_dbg_used). */
static void used(struct job *j, uint32_t i)
{
    struct rank_dbg *r = &rd[j->local];
    struct yod_dbg_used *u;
    uint64_t size, chunk;

    if (i >= LWK_NREGIONS || !(size = j->map.size[i]) || !r->stopped ||
        expose(j, r->attached) < 0) {
        answer(j, YOD_ERR, "no such region, or the rank runs");
        return;
    }
    u = &dbuf->used;
    chunk = (size + YOD_DBG_USED_BITS - 1) / YOD_DBG_USED_BITS;
    chunk = (chunk + 4095) & ~4095ull;
    memset(u, 0, sizeof(*u));
    u->chunk = chunk;
    u->nchunks = (size + chunk - 1) / chunk;
    for (uint64_t k = 0; k < u->nchunks; k++) {
        uint64_t off = k * chunk, n = size - off < chunk ? size - off : chunk;
        if (!zeros((const uint64_t *)(j->map.pct_va[i] + off), n))
            u->bits[k / 8] |= (uint8_t)(1 << (k % 8));
    }
    answer(j, YOD_OK, NULL);
}

static void setregs(struct job *j, uint32_t cpu)
{
    if (!buf || dbg(LWK_DBG_SETREGS, j, cpu, &buf->regs[0]) < 0)
        answer(j, YOD_ERR, "registers refused: the thread is not stopped, "
               "or a value is not one a program may have");
    else
        answer(j, YOD_OK, NULL);
}

/* Set the trap flag of the threads in `step` (they stop after one
   instruction). */
static int single_step(struct job *j, uint64_t step)
{
    for (int cpu = 0; cpu < LWK_DBG_CPUS; cpu++) {
        if (!(step >> cpu & 1))
            continue;
        if (dbg(LWK_DBG_GETREGS, j, (uint64_t)cpu, &regs) < 0)
            return -1;
        regs.rflags |= RFLAGS_TF;
        if (dbg(LWK_DBG_SETREGS, j, (uint64_t)cpu, &regs) < 0)
            return -1;
    }
    return 0;
}

static void cont(struct job *j, const struct yod_msg *m)
{
    struct rank_dbg *r = &rd[j->local];
    uint64_t go, pending;
    int cpu;

    if (r->held) {
        answer(j, YOD_ERR, "it has ended (a fault or abort)");
        return;
    }
    if (dbg(LWK_DBG_STATE, j, 0, &st) < 0) {
        answer(j, YOD_ERR, "no such process");
        return;
    }
    go = m->go & st.stopped;
    /* A stop yod has not heard of among those to go: heard now, and
       nothing runs (as a debugger expects of an all-stop target). */
    pending = st.stopped & ~r->told & go;
    for (cpu = 0; cpu < LWK_DBG_CPUS; cpu++)
        if ((pending >> cpu & 1) && st.ev[cpu].why != LWK_DBG_STOPPED &&
            st.ev[cpu].why != LWK_DBG_NONE)
            break;
    answer(j, YOD_OK, NULL);
    if (st.held.reason && (m->status || st.held.reason == LWK_STOP_ABORT)) {
        end_held(j);            /* given its signal: it dies of it */
        return;
    }
    if (cpu < LWK_DBG_CPUS) {
        tell_stop(j, cpu);
        return;
    }
    if (st.held.reason)         /* resumed without the signal: it retries */
        dbg(LWK_DBG_SET, j, LWK_DBG_TRAP | LWK_DBG_HOLD, NULL);
    if (single_step(j, m->step & go) < 0) {
        printf("pct: job %u rank %d: cannot single-step it\n", job.id,
               j->rank);
    }
    r->told &= ~go;
    dbg(LWK_DBG_CONT, j, go, NULL);
    r->stopped = !(go >> st.main_cpu & 1);
    r->partial = r->stopped ? go : 0;
    if (!r->attached)
        unexpose(j);            /* a snapshot's: yod has read it */
}

static void detach(struct job *j)
{
    struct rank_dbg *r = &rd[j->local];

    if (!r->attached || r->held) {
        answer(j, r->held ? YOD_ERR : YOD_OK, r->held ? "it has ended" : NULL);
        return;
    }
    dbg(LWK_DBG_SET, j, LWK_DBG_HOLD, NULL);
    dbg(LWK_DBG_CONT, j, ~0ull, NULL);
    r->attached = r->stopped = 0;
    r->partial = r->told = 0;
    unexpose(j);
    printf("pct: job %u rank %d: its debugger left\n", job.id, j->rank);
    answer(j, YOD_OK, NULL);
}

void debug_request(const struct yod_msg *m)
{
    struct job *j = ranks_find(m->rank);

    if (!j) {
        answer(NULL, YOD_ERR, "no such rank on this node");
        return;
    }
    switch (m->reason) {
    case YOD_DBG_ATTACH: attach(j); break;
    case YOD_DBG_STOP:
        if (stop(j) < 0)
            answer(j, YOD_ERR, "the node cannot stop it (see its log)");
        else
            answer(j, YOD_OK, NULL);
        break;
    case YOD_DBG_SNAP: snap(j); break;
    case YOD_DBG_SETREGS: setregs(j, m->local); break;
    case YOD_DBG_USED: used(j, m->local); break;
    case YOD_DBG_CONT: cont(j, m); break;
    case YOD_DBG_DETACH: detach(j); break;
    case YOD_DBG_RELEASE:
        answer(j, YOD_OK, NULL);
        if (rd[j->local].held)
            ranks_release(j);
        break;
    default:
        answer(j, YOD_ERR, "unknown debug request");
    }
}

/* ---- a rank's life ----------------------------------------------------- */

/* Loaded for yod: its faults and aborts are held (yod reads it then). */
void debug_loaded(struct job *j)
{
    memset(&rd[j->local], 0, sizeof(rd[0]));
    dbg(LWK_DBG_SET, j, LWK_DBG_HOLD, NULL);
}

/* It is about to be destroyed: nothing of it stays exposed. */
void debug_forget(struct job *j)
{
    unexpose(j);
    memset(&rd[j->local], 0, sizeof(rd[0]));
}
