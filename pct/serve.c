/*
 * serve.c: the PCT as a server for yod (yod/yod_proto.h).  One job at a
 * time: yod claims the node (ALLOC), sends the program (LOAD: the PCT
 * Gets the image and the argv/env block from yod, fetch.c), starts it
 * (START), and hears back EXIT with the status or the fault.  KILL and
 * FREE end it early.  While the program runs the PCT gives it quanta and
 * looks for requests between them, so a KILL waits at most one quantum.
 * A claimed node is leased: yod PINGs it every second, and an owner
 * silent for YOD_LEASE_MS loses the node (a yod killed by SIGKILL cannot
 * FREE it).  Fan-out loading (FLOAD) is fanout.c's.
 *
 * Who may do what (auth.c checks the keys): STATUS is answered to anyone;
 * every other request must be signed with the key of the job it speaks
 * for; ALLOC must come from a station of the service partition; LOAD,
 * START, KILL, FREE and the lease's PINGs count only from the station
 * that claimed the node for that job, and each only once.  Answers go
 * out through reply.c, which never waits: no asker can hold the loop.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <lwk/syscall.h>
#include "serve.h"
#include "yod_debug.h"

#define REQ_BUF     (32 * sizeof(struct yod_msg))
#define REPLY_RETRY_MS  5

struct server srv;
struct server_io io;
struct served job;
char args[YOD_ARGS_MAX];

/* Two request buffers: while a full one waits to be appended again, the
   other takes requests (a request with no buffer would be dropped). */
static char req_buf[2][REQ_BUF] __attribute__((aligned(64)));

uint64_t now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

int same_station(ptl_process_t a, ptl_process_t b)
{
    return a.phys.nid == b.phys.nid && a.phys.pid == b.phys.pid;
}

/* ---- answers ---------------------------------------------------------------- */

void tell_owner(struct yod_msg *m)
{
    m->job = job.id;
    m->nonce = job.nonce;
    reply_send(job.owner, m, &job.key, 1);
}

/* An answer to request `m` from `to`, signed with its job's key `k`. */
static void answer(const struct yod_msg *m, ptl_process_t to,
                   const struct sipkey *k, uint32_t type, const char *text)
{
    struct yod_msg a = { .type = type, .job = m->job, .nonce = m->nonce,
                         .job2 = job.id, .cpus = srv.ncpus,
                         .asked = m->type };

    if (type == YOD_ALIVE)      /* yod_proto.h, Lease */
        a.status = job.id && m->job == job.id && ranks_live();

    if (text)
        snprintf(a.text, sizeof(a.text), "%s", text);
    reply_send(to, &a, k, job.id && same_station(to, job.owner));
}

/* ---- the job ---------------------------------------------------------------- */

void claim(const struct yod_msg *m, const struct sipkey *k,
           ptl_process_t owner)
{
    if (job.id != m->job)       /* not an ALLOC asked again */
        job.ran = 0;
    job.id = m->job;
    job.nonce = m->nonce;
    job.key = *k;
    job.owner = owner;
    job.heard = job.claimed = now_ms(); /* the lease starts */
    job.pings = 0;
}

void finish_load(struct job *j, const struct yod_msg *m)
{
    struct yod_msg a = { .type = YOD_OK, .asked = m->type };
    const char *why;

    printf("pct: job %u rank %d: %s, %lu bytes\n", job.id, j->rank, j->name,
           (unsigned long)m->image_len);
    if ((why = ranks_load(m))) {
        a.type = YOD_ERR;
        snprintf(a.text, sizeof(a.text), "%s", why);
    }
    tell_owner(&a);
}

static void load(const struct yod_msg *m)
{
    struct job *j = &job.j[0];
    struct yod_msg e = { .type = YOD_ERR, .asked = YOD_LOAD };
    const char *why;

    if (ranks_live()) {         /* asked again: its OK was lost */
        struct yod_msg a = { .type = YOD_OK, .asked = YOD_LOAD };
        tell_owner(&a);
        return;
    }
    if (j->image) {
        snprintf(e.text, sizeof(e.text), "a program is loaded already");
        tell_owner(&e);
        return;
    }
    memset(j, 0, sizeof(*j));
    j->rank = m->rank;
    j->size = m->size;
    if ((why = fetch(j, m, job.owner))) {
        pct_release_image(j);
        snprintf(e.text, sizeof(e.text), "%s", why);
        tell_owner(&e);
        return;
    }
    finish_load(j, m);
}

static void free_node(void)
{
    ranks_kill();               /* yod hears of each rank still running */
    ranks_drop();
    printf("pct: job %u: node free\n", job.id);
    job.id = 0;
}

/* The owner has been silent too long (gone, or cut off): end the job
   without telling it.  The PCT looks at least once a YOD_PING_MS
   (wait_request); a look that comes much later means the PCT was busy
   (a load through the tree took 7-8 s on 128 nodes at host load 50-90)
   or its node was not run (its QEMU descheduled: the guest's clock runs
   on meanwhile), and yod's PINGs may wait unread at its NIC: the owner
   gets the benefit of the doubt, as yod gives its nodes (yod/control.c). */
static void lease_check(void)
{
    static uint64_t looked;
    uint64_t now = now_ms(), silent;

    if (job.id && looked && now - looked > 2 * YOD_PING_MS &&
        now - job.heard > 2 * YOD_PING_MS) {
        printf("pct: job %u: the PCT had not looked at the lease for %d ms "
               "(busy loading, or its node not run): yod's starts over\n",
               job.id, (int)(now - looked));
        job.heard = now;
    }
    looked = now;
    silent = job.id ? now - job.heard : 0;
    if (silent <= YOD_LEASE_MS)
        return;
    printf("pct: job %u: yod at %u:%u silent %d s (claimed %d ms ago, %u "
           "of its PINGs heard), job killed, node freed\n",
           job.id, job.owner.phys.nid, job.owner.phys.pid,
           (int)(silent / 1000), (int)(now - job.claimed), job.pings);
    ranks_drop();
    free_node();
}

/* ---- requests --------------------------------------------------------------- */

/* STATUS: what showmesh prints for this node; unsigned, to anyone. */
static void status(const struct yod_msg *m, ptl_process_t from)
{
    struct lwk_node_info ni;
    struct yod_msg a = { .type = YOD_STATE, .job = m->job, .job2 = job.id,
                         .rank = job.id ? job.j[0].rank : -1,
                         .size = job.j[0].size, .status = job.started,
                         .addr = job.id ? job.owner.phys.nid : 0,
                         .refused = auth_refused() };

    lwk_sys_node_info((long)&ni);
    a.args_len = ni.ram_free;
    for (int i = 0; i < job.nranks; i++)
        a.image_len += job.j[i].pid ? job.j[i].mem : 0;
    if (ranks_live() && job.j[0].name)
        snprintf(a.text, sizeof(a.text), "%s", job.j[0].name);
    ranks_state(&a, ni.ncpus);
    reply_send(from, &a, NULL, 0);
}

/* Does `m` speak for the job this node serves, from its owner? */
static int from_owner(const struct yod_msg *m, ptl_process_t from)
{
    return job.id && m->job == job.id && m->nonce == job.nonce &&
           same_station(from, job.owner);
}

/* PING: the owner's keeps the lease; any signed one hears whose the node
   is (a yod that lost the node learns it so). */
static void ping(const struct yod_msg *m, ptl_process_t from,
                 const struct sipkey *k)
{
    if (from_owner(m, from)) {
        if (!auth_fresh(m, AUTH_NEXT, 1))
            return;             /* an old PING played again */
        job.heard = now_ms();
        job.pings++;
    }
    if (!reply_on_its_way(from, YOD_ALIVE))     /* one tells as much */
        answer(m, from, k, YOD_ALIVE, NULL);
}

static void alloc(const struct yod_msg *m, ptl_process_t from,
                  const struct sipkey *k)
{
    if (!auth_service(from.phys.nid)) {
        auth_refuse(m, from, "nid %u is not a station of the service "
                    "partition", from.phys.nid);
        answer(m, from, k, YOD_ERR, "ALLOC only from the service partition");
        return;
    }
    if (job.id && !(job.id == m->job && job.nonce == m->nonce &&
                    same_station(from, job.owner))) {
        answer(m, from, k, YOD_BUSY, NULL);
        return;
    }
    if (!auth_fresh(m, AUTH_FIRST, 1)) {
        auth_refuse(m, from, "message %lu is not new (replayed?)",
                    (unsigned long)m->seq);
        return;
    }
    if (!job.id)
        printf("pct: job %u: node claimed by nid %u\n", m->job,
               from.phys.nid);
    claim(m, k, from);
    answer(m, from, k, YOD_OK, NULL);
}

/* LOAD, START, KILL, FREE: from the job's owner only. */
static void control(const struct yod_msg *m, ptl_process_t from,
                    const struct sipkey *k)
{
    char why[80];

    if (!job.id || m->job != job.id || m->nonce != job.nonce) {
        auth_refuse(m, from, "the node is not claimed by that job");
        snprintf(why, sizeof(why), "node not claimed by job %u", m->job);
        answer(m, from, k, YOD_ERR, why);
        return;
    }
    if (!same_station(from, job.owner)) {
        auth_refuse(m, from, "not the station that claimed the node (nid %u "
                    "pid %u)", job.owner.phys.nid, job.owner.phys.pid);
        return;
    }
    if (!auth_fresh(m, AUTH_NEXT, 1)) {
        auth_refuse(m, from, "message %lu is not new (replayed?)",
                    (unsigned long)m->seq);
        return;
    }
    job.heard = now_ms();               /* the lease goes on */
    switch (m->type) {
    case YOD_LOAD: load(m); break;
    case YOD_START:
        if (job.ran)            /* asked again: its OK was lost (the
                                   ranks may have ended since) */
            answer(m, from, k, YOD_OK, NULL);
        else if (!ranks_live())
            answer(m, from, k, YOD_ERR, "nothing loaded to start");
        else if (ranks_start() < 0)
            answer(m, from, k, YOD_ERR, "a CPU for a rank was not free "
                   "(see the node's log)");
        else {
            job.started = job.ran = 1;
            answer(m, from, k, YOD_OK, NULL);
        }
        break;
    case YOD_KILL:
        ranks_kill();
        break;
    case YOD_DEBUG: debug_request(m); break;
    case YOD_FREE: free_node(); break;
    default: answer(m, from, k, YOD_ERR, "unknown request");
    }
}

void request(const struct yod_msg *m, ptl_process_t from)
{
    struct sipkey k;

    if (m->type == YOD_STATUS) {
        status(m, from);
        return;
    }
    if (m->type == YOD_GOT || m->type == YOD_HELLO || m->type >= YOD_OK)
        return;                 /* never answer an answer (or a hello) */
    if (auth_verify(m, from, &k) < 0) {
        auth_refuse(m, from, "not signed with the job's key");
        return;
    }
    if (m->type == YOD_PING)
        ping(m, from, &k);
    else if (m->type == YOD_ALLOC)
        alloc(m, from, &k);
    else if (m->type == YOD_FLOAD)
        fan_load(m, from, &k);
    else
        control(m, from, &k);
}

/* ---- the loop --------------------------------------------------------------- */

int append_req(char *buf)
{
    /* Any user's yod (a zero uid would take requests from root only). */
    ptl_me_t me = { .start = buf, .length = REQ_BUF,
                    .match_id.phys = { PTL_NID_ANY, PTL_PID_ANY },
                    .uid = PTL_UID_ANY,
                    .ignore_bits = ~0ull, .ct_handle = PTL_CT_NONE,
                    .min_free = sizeof(struct yod_msg),
                    .options = PTL_ME_OP_PUT | PTL_ME_MANAGE_LOCAL };
    ptl_handle_me_t h;

    return PtlMEAppend(srv.ni, YOD_PT_CTL, &me, PTL_PRIORITY_LIST, buf, &h)
           == PTL_OK ? 0 : -1;
}

/* Wait for a request `ms` (-1: forever on a free node, but on a claimed
   one only until the lease needs a look). */
static int wait_request(ptl_event_t *ev, int ms)
{
    unsigned int which;

    if (ms < 0)
        ms = job.id ? YOD_PING_MS : PTL_TIME_FOREVER;
    if (reply_waiting() && (ms < 0 || ms > REPLY_RETRY_MS))
        ms = REPLY_RETRY_MS;    /* an answer waits for a buffer */
    return PtlEQPoll(&srv.req_eq, 1, ms, ev, &which);
}

/* Handle every request that arrived; wait for one up to `wait` ms first
   (0: not at all; -1: see wait_request). */
static void requests(int wait)
{
    ptl_event_t ev;
    int rc;

    while ((rc = wait ? wait_request(&ev, wait)
                      : PtlEQGet(srv.req_eq, &ev)) == PTL_OK ||
           rc == PTL_EQ_DROPPED) {
        wait = 0;
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

    /* The PCT's heap is small (kernel/proc.c PCT_HEAP): a small area for
       EQ rings. */
    setenv("PTL_SHM_KB", "64", 1);
    if (PtlInit() != PTL_OK ||
        PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_PHYSICAL,
                  YOD_PCT_PID, NULL, NULL, &srv.ni) != PTL_OK ||
        PtlEQAlloc(srv.ni, 64, &srv.req_eq) != PTL_OK ||
        PtlEQAlloc(srv.ni, 16, &srv.ini_eq) != PTL_OK ||
        PtlPTAlloc(srv.ni, 0, srv.req_eq, YOD_PT_CTL, &pt) != PTL_OK ||
        PtlPTAlloc(srv.ni, 0, PTL_EQ_NONE, YOD_PT_DATA, &pt) != PTL_OK ||
        PtlPTAlloc(srv.ni, 0, PTL_EQ_NONE, YOD_PT_DEBUG, &pt) != PTL_OK ||
        append_req(req_buf[0]) < 0 || append_req(req_buf[1]) < 0 ||
        reply_open() < 0)
        return -1;
    md.eq_handle = srv.ini_eq;
    return PtlMDBind(srv.ni, &md, &srv.md) == PTL_OK ? 0 : -1;
}

void pct_serve(const struct lwk_node_info *node, uint64_t heap,
               uint64_t stack, uint64_t quantum)
{
    srv.heap = heap;
    srv.stack = stack;
    srv.nid = node->nid;
    srv.ncpus = (uint32_t)node->ncpus;
    /* In the heap: the PCT's data shares the kernel's 2 MB chunk. */
    if (!(job.j = calloc(YOD_VN_MAX, sizeof(*job.j)))) {
        printf("pct: no memory for the ranks' table: not serving yod\n");
        for (;;)
            lwk_sys_quit_quantum();
    }
    if (open_portals() < 0) {
        printf("pct: no Portals (no network?): not serving yod\n");
        for (;;)
            lwk_sys_quit_quantum();
    }
    if (!auth_ready())
        printf("pct: no cluster key (boot module cluster.key, which "
               "tools/cluster gives): yod's requests will be refused\n");
    printf("pct: serving yod on pid %d\n", YOD_PCT_PID);
    for (int wait = -1;;) {
        requests(job.started ? wait : -1);
        lease_check();
        wait = job.started ? ranks_run(quantum) : -1;
    }
}
