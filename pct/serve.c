/*
 * serve.c: the PCT as a server for yod (yod/yod_proto.h).  One job at a
 * time: yod claims the node (ALLOC), sends the program (LOAD: the PCT
 * Gets the image and the argv/env block from yod), starts it (START),
 * and hears back EXIT with the status or the fault.  KILL and FREE end it
 * early.  While the program runs the PCT gives it quanta and looks for
 * requests between them, so a KILL waits at most one quantum.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lwk/syscall.h>
#include <portals4.h>
#include "pct.h"
#include "yod_proto.h"

#define REQ_BUF     (32 * sizeof(struct yod_msg))
#define CHUNK       (32u << 10)        /* image bytes per Get */
#define GET_WAIT_MS 10000

static struct {
    ptl_handle_ni_t ni;
    ptl_handle_eq_t req_eq;            /* requests arriving */
    ptl_handle_eq_t ini_eq;            /* our puts' ACKs, gets' REPLYs */
    ptl_handle_md_t md;                /* over `io` */
    uint64_t heap, stack, nid;
} s;

/* One message out, one chunk in: the MD covers both. */
static struct {
    struct yod_msg out;
    char chunk[CHUNK];
} io;
/* Two request buffers: while a full one waits to be appended again, the
   other takes requests (a request with no buffer would be dropped). */
static char req_buf[2][REQ_BUF] __attribute__((aligned(64)));
static char args[YOD_ARGS_MAX];

static struct {
    uint32_t id;                       /* 0: node free */
    ptl_process_t owner;               /* the yod that claimed it */
    struct job j;
    int started;
} job;

/* Wait for the initiator event of type `want`; 0 if it succeeded. */
static int wait_ini(ptl_event_kind_t want)
{
    ptl_event_t ev;
    unsigned int which;

    for (;;) {
        if (PtlEQPoll(&s.ini_eq, 1, GET_WAIT_MS, &ev, &which) != PTL_OK)
            return -1;
        if (ev.type == want)
            return ev.ni_fail_type == PTL_NI_OK ? 0 : -1;
    }
}

static void send(ptl_process_t to, const struct yod_msg *m)
{
    io.out = *m;
    if (PtlPut(s.md, 0, sizeof(*m), PTL_ACK_REQ, to, YOD_PT_CTL, 0, 0, NULL,
               0) != PTL_OK || wait_ini(PTL_EVENT_ACK) < 0)
        printf("pct: yod at nid %u pid %u does not answer\n", to.phys.nid,
               to.phys.pid);
}

static void answer(ptl_process_t to, uint32_t type, const char *text)
{
    struct yod_msg m = { .type = type, .job = job.id };

    if (text)
        snprintf(m.text, sizeof(m.text), "%s", text);
    send(to, &m);
}

/* `len` bytes of yod's buffer `bits`, from offset `off`, into io.chunk. */
static int get(ptl_match_bits_t bits, uint64_t off, uint64_t len)
{
    if (PtlGet(s.md, offsetof(typeof(io), chunk), len, job.owner,
               YOD_PT_DATA, bits, off, NULL) != PTL_OK)
        return -1;
    return wait_ini(PTL_EVENT_REPLY);
}

/* Split the argv/env block into the job, adding PTL_JOB_RANK. */
static int unpack_args(struct job *j, const struct yod_msg *m)
{
    static char rank_env[32];
    char *p = args, *end = args + m->args_len;

    if (m->argc < 1 || m->argc > PCT_MAX_ARGS ||
        m->envc + 1 > PCT_MAX_ARGS || end[-1] != 0)
        return -1;
    for (uint32_t i = 0; i < m->argc + m->envc; i++) {
        if (p >= end)
            return -1;
        if (i < m->argc)
            j->argv[j->argc++] = p;
        else
            j->envp[j->envc++] = p;
        p += strlen(p) + 1;
    }
    snprintf(rank_env, sizeof(rank_env), "PTL_JOB_RANK=%d", m->rank);
    j->envp[j->envc++] = rank_env;
    j->argv[j->argc] = j->envp[j->envc] = NULL;
    j->name = j->argv[0];
    for (const char *q = j->name; *q; q++)
        if (*q == '/')
            j->name = q + 1;
    return 0;
}

/* Fetch the image into a scratch region and the block into `args`. */
static const char *fetch(struct job *j, const struct yod_msg *m)
{
    char *img;

    if (m->image_len == 0)
        return "empty program image";
    if (m->args_len == 0 || m->args_len > sizeof(args))
        return "argument and environment block too big";
    if (get(YOD_MB_ARGS, 0, m->args_len) < 0)
        return "could not get the arguments from yod";
    memcpy(args, io.chunk, m->args_len);
    if (unpack_args(j, m) < 0)
        return "malformed argument block";
    if (!(img = pct_image_buffer(j, m->image_len)))
        return "no memory for the program image";
    for (uint64_t off = 0; off < m->image_len; off += CHUNK) {
        uint64_t n = m->image_len - off < CHUNK ? m->image_len - off : CHUNK;
        if (get(YOD_MB_IMAGE, off, n) < 0)
            return "could not get the program image from yod";
        memcpy(img + off, io.chunk, n);
    }
    return NULL;
}

static void load(const struct yod_msg *m)
{
    struct job *j = &job.j;
    const char *why;

    if (j->pid || j->image) {
        answer(job.owner, YOD_ERR, "a program is loaded already");
        return;
    }
    memset(j, 0, sizeof(*j));
    j->rank = m->rank;
    j->size = m->size;
    if ((why = fetch(j, m))) {
        pct_release_image(j);
        answer(job.owner, YOD_ERR, why);
        return;
    }
    printf("pct: job %u rank %d: %s, %lu bytes\n", job.id, j->rank, j->name,
           (unsigned long)m->image_len);
    if (pct_load(j, s.heap, s.stack, s.nid) < 0) {
        pct_release_image(j);
        pct_drop_symbols(j);
        memset(j, 0, sizeof(*j));
        answer(job.owner, YOD_ERR, "the node cannot load it (see its log)");
        return;
    }
    answer(job.owner, YOD_OK, NULL);
}

/* The program ended (or was ended: killed): tell yod, forget it. */
static void ended(int killed)
{
    struct job *j = &job.j;
    struct yod_msg m = { .type = YOD_EXIT, .job = job.id, .rank = j->rank,
                         .reason = killed ? 0 : j->last.reason,
                         .status = j->last.status };

    if (!killed && j->last.reason == LWK_STOP_FAULT) {
        pct_describe(j, m.text, sizeof(m.text));
        m.addr = j->last.fault_addr;
        m.rip = j->last.fault_rip;
    }
    if (killed)
        snprintf(m.text, sizeof(m.text), "killed by yod");
    pct_drop_symbols(j);
    lwk_sys_proc_destroy(j->pid);
    memset(j, 0, sizeof(*j));
    job.started = 0;
    send(job.owner, &m);
}

static void free_node(void)
{
    if (job.j.pid)
        ended(1);
    pct_release_image(&job.j);
    printf("pct: job %u: node free\n", job.id);
    job.id = 0;
}

static void request(const struct yod_msg *m, ptl_process_t from)
{
    if (m->type == YOD_ALLOC) {
        if (job.id && job.id != m->job) {
            struct yod_msg busy = { .type = YOD_BUSY, .job = m->job,
                                    .job2 = job.id };
            send(from, &busy);
            return;
        }
        job.id = m->job;
        job.owner = from;
        printf("pct: job %u: node claimed by nid %u\n", job.id,
               from.phys.nid);
        answer(from, YOD_OK, NULL);
        return;
    }
    if (!job.id || m->job != job.id) {
        struct yod_msg e = { .type = YOD_ERR, .job = m->job };
        snprintf(e.text, sizeof(e.text), "node not claimed by job %u",
                 m->job);
        send(from, &e);
        return;
    }
    switch (m->type) {
    case YOD_LOAD: load(m); break;
    case YOD_START:
        job.started = job.j.pid != 0;
        answer(from, job.started ? YOD_OK : YOD_ERR,
               job.started ? NULL : "nothing loaded to start");
        break;
    case YOD_KILL:
        if (job.j.pid)
            ended(1);
        break;
    case YOD_FREE: free_node(); break;
    default: answer(from, YOD_ERR, "unknown request");
    }
}

static int append_req(char *buf)
{
    ptl_me_t me = { .start = buf, .length = REQ_BUF,
                    .match_id.phys = { PTL_NID_ANY, PTL_PID_ANY },
                    .ignore_bits = ~0ull, .ct_handle = PTL_CT_NONE,
                    .min_free = sizeof(struct yod_msg),
                    .options = PTL_ME_OP_PUT | PTL_ME_MANAGE_LOCAL };
    ptl_handle_me_t h;

    return PtlMEAppend(s.ni, YOD_PT_CTL, &me, PTL_PRIORITY_LIST, buf, &h)
           == PTL_OK ? 0 : -1;
}

/* Handle every request that arrived; wait for one if nothing runs. */
static void requests(int block)
{
    ptl_event_t ev;
    int rc;

    while ((rc = block ? PtlEQWait(s.req_eq, &ev)
                       : PtlEQGet(s.req_eq, &ev)) == PTL_OK ||
           rc == PTL_EQ_DROPPED) {
        block = 0;
        if (ev.type == PTL_EVENT_PUT && ev.ni_fail_type == PTL_NI_OK &&
            ev.mlength == sizeof(struct yod_msg)) {
            struct yod_msg m;
            memcpy(&m, ev.start, sizeof(m));
            request(&m, ev.initiator);
        } else if (ev.type == PTL_EVENT_AUTO_UNLINK) {
            append_req(ev.user_ptr);
        }
    }
}

static int open_portals(void)
{
    ptl_md_t md = { .start = &io, .length = sizeof(io),
                    .ct_handle = PTL_CT_NONE };
    ptl_pt_index_t pt;

    /* The PCT's heap is 256 KiB: a small area for EQ rings. */
    setenv("PTL_SHM_KB", "64", 1);
    if (PtlInit() != PTL_OK ||
        PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_PHYSICAL,
                  YOD_PCT_PID, NULL, NULL, &s.ni) != PTL_OK ||
        PtlEQAlloc(s.ni, 64, &s.req_eq) != PTL_OK ||
        PtlEQAlloc(s.ni, 16, &s.ini_eq) != PTL_OK ||
        PtlPTAlloc(s.ni, 0, s.req_eq, YOD_PT_CTL, &pt) != PTL_OK ||
        append_req(req_buf[0]) < 0 || append_req(req_buf[1]) < 0)
        return -1;
    md.eq_handle = s.ini_eq;
    return PtlMDBind(s.ni, &md, &s.md) == PTL_OK ? 0 : -1;
}

void pct_serve(const struct lwk_node_info *node, uint64_t heap,
               uint64_t stack, uint64_t quantum)
{
    s.heap = heap;
    s.stack = stack;
    s.nid = node->nid;
    if (open_portals() < 0) {
        printf("pct: no Portals (no network?): not serving yod\n");
        for (;;)
            lwk_sys_quit_quantum();
    }
    printf("pct: serving yod on pid %d\n", YOD_PCT_PID);
    for (;;) {
        struct job *j = &job.j;

        requests(!job.started);
        if (!job.started)
            continue;
        if (lwk_sys_proc_run(j->pid, quantum, (long)&j->last) < 0) {
            j->last.reason = LWK_STOP_FAULT;
            ended(0);
            continue;
        }
        if (j->last.reason == LWK_STOP_EXIT ||
            j->last.reason == LWK_STOP_FAULT) {
            pct_report(j);
            ended(0);
        }
    }
}
