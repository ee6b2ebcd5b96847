/*
 * serve.c: the PCT as a server for yod (yod/yod_proto.h).  One job at a
 * time: yod claims the node (ALLOC), sends the program (LOAD: the PCT
 * Gets the image and the argv/env block from yod), starts it (START),
 * and hears back EXIT with the status or the fault.  KILL and FREE end it
 * early.  While the program runs the PCT gives it quanta and looks for
 * requests between them, so a KILL waits at most one quantum.  A claimed
 * node is leased: yod PINGs it every second, and an owner silent for
 * YOD_LEASE_MS loses the node (a yod killed by SIGKILL cannot FREE it).
 *
 *
 * Fan-out loading (FLOAD, yod_proto.h): the PCT Gets the program from its
 * parent in the tree (yod or another PCT), then exposes it on its own
 * YOD_PT_DATA and hands it on to its children one at a time, before
 * loading its own copy.  The image lies in a scratch process's region,
 * which the PCT may name to Portals through its window (kernel/proc.c
 * window_ptr); the match entry over it is unlinked before that process
 * is destroyed, so no Get can reach the slot's next owner.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <lwk/syscall.h>
#include <portals4.h>
#include "pct.h"
#include "yod_proto.h"

#define REQ_BUF     (32 * sizeof(struct yod_msg))
#define CHUNK       (32u << 10)        /* the argv/env block's buffer */
/* Waits are generous: a node's clock can run several times too fast
   when its TSC was calibrated on a loaded host (kernel/timer.c), and a
   loaded host moves as little as 100 KB/s between two nodes. */
#define IMAGE_CHUNK (256u << 10)       /* image bytes per Get */
#define GET_WAIT_MS 30000
#define PUT_WAIT_MS 10000              /* a control message's ACK */
#define GOT_WAIT_MS 120000             /* a child Gets the whole image */
#define RELEASE_MS  60000              /* a Get given up on ends by then */
#define FAN_MAX     256                /* ranks in a fan-out job */
#define HELD_MAX    8

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

/* Fan-out: what our children Get from us, and requests of our own job
   that arrived while we waited for a child (handled after the load). */
static struct {
    ptl_handle_me_t image, args;
    uint32_t nids[FAN_MAX];            /* by rank, from PTL_JOB_MAP */
    int queue[FAN_MAX];
    struct yod_msg held[HELD_MAX];
    ptl_process_t held_from[HELD_MAX];
    int nheld;
} fan;

static struct {
    uint32_t id;                       /* 0: node free */
    ptl_process_t owner;               /* the yod that claimed it */
    struct job j;
    int started;
    uint64_t heard;                    /* node ms: the owner's last request */
} job;

static uint64_t now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static char ini_why[64];                /* why the last wait_ini failed */

/* Each operation's user_ptr is a new tag, so the event that ends a wait
   is that operation's: never a late one of an operation given up on. */
static void *new_tag(void)
{
    static uintptr_t n;

    return (void *)++n;
}

/* Wait for the initiator event `want` of operation `tag`; 0 if it
   succeeded. */
static int wait_ini(ptl_event_kind_t want, void *tag, int ms)
{
    ptl_event_t ev;
    unsigned int which;
    int rc;

    for (;;) {
        rc = PtlEQPoll(&s.ini_eq, 1, ms, &ev, &which);
        if (rc == PTL_EQ_EMPTY) {
            snprintf(ini_why, sizeof(ini_why), "no answer in %d s",
                     ms / 1000);
            return -1;
        }
        if ((rc != PTL_OK && rc != PTL_EQ_DROPPED) || ev.type != want ||
            ev.user_ptr != tag)
            continue;
        if (ev.ni_fail_type == PTL_NI_OK)
            return 0;
        snprintf(ini_why, sizeof(ini_why), "failure type %d",
                 ev.ni_fail_type);
        return -1;
    }
}

/* One message to a station's control portal; 0 once it is there. */
static int put_ctl(ptl_process_t to, const struct yod_msg *m)
{
    void *tag = new_tag();

    io.out = *m;
    if (PtlPut(s.md, 0, sizeof(*m), PTL_ACK_REQ, to, YOD_PT_CTL, 0, 0, tag,
               0) != PTL_OK)
        return -1;
    return wait_ini(PTL_EVENT_ACK, tag, PUT_WAIT_MS);
}

static void send(ptl_process_t to, const struct yod_msg *m)
{
    if (put_ctl(to, m) < 0)
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

/* `len` bytes of `from`'s buffer `bits` (yod's or a parent PCT's), from
   offset `off`, into io.chunk. */
static int get(ptl_process_t from, ptl_match_bits_t bits, uint64_t off,
               uint64_t len)
{
    void *tag = new_tag();

    if (PtlGet(s.md, offsetof(typeof(io), chunk), len, from, YOD_PT_DATA,
               bits, off, tag) != PTL_OK)
        return -1;
    return wait_ini(PTL_EVENT_REPLY, tag, GET_WAIT_MS);
}

/* An MD with a Get still under way (one given up on) cannot go yet: its
   reply would land in whatever process next has the scratch region's
   slot.  Wait until Portals ends that Get (a reply, or the peer declared
   unreachable), taking in events meanwhile. */
static int release_md(ptl_handle_md_t h)
{
    ptl_event_t ev;
    unsigned int which;

    for (int waited = 0; PtlMDRelease(h) != PTL_OK; waited += 1000) {
        if (waited >= RELEASE_MS) {
            printf("pct: a Get into the image buffer never ended: keeping "
                   "its memory for good\n");
            return -1;
        }
        PtlEQPoll(&s.ini_eq, 1, 1000, &ev, &which);
    }
    return 0;
}

/* The whole image from `from`, straight into its buffer (a scratch
   process's region, seen through the window), IMAGE_CHUNK per Get so a
   stalled transfer is noticed after GET_WAIT_MS, not after all of it.
   A chunk that fails is asked for again (a Get can be repeated). */
static int get_image(ptl_process_t from, char *img, uint64_t len)
{
    ptl_md_t md = { .start = img, .length = len, .eq_handle = s.ini_eq,
                    .ct_handle = PTL_CT_NONE };
    ptl_handle_md_t h;
    int rc = 0;

    if ((rc = PtlMDBind(s.ni, &md, &h)) != PTL_OK) {
        snprintf(ini_why, sizeof(ini_why), "PtlMDBind: %d", rc);
        return -1;
    }
    for (uint64_t off = 0; off < len && rc == 0; off += IMAGE_CHUNK) {
        uint64_t n = len - off < IMAGE_CHUNK ? len - off : IMAGE_CHUNK;
        for (int try = 0; try < 3; try++) {
            void *tag = new_tag();
            if ((rc = PtlGet(h, off, n, from, YOD_PT_DATA, YOD_MB_IMAGE, off,
                             tag)) != PTL_OK) {
                snprintf(ini_why, sizeof(ini_why), "PtlGet: %d", rc);
                rc = -1;
                break;
            }
            if ((rc = wait_ini(PTL_EVENT_REPLY, tag, GET_WAIT_MS)) == 0)
                break;
            printf("pct: image bytes %lu.. from nid %u: %s%s\n",
                   (unsigned long)off, from.phys.nid, ini_why,
                   try < 2 ? "; asking again" : "");
        }
    }
    return release_md(h) < 0 ? -2 : rc;
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

/* Fetch the image into a scratch region and the block into `args`, from
   yod or (fan-out) the parent PCT. */
static const char *fetch(struct job *j, const struct yod_msg *m,
                         ptl_process_t from)
{
    static char why[160];
    char *img;
    int rc;

    if (m->image_len == 0)
        return "empty program image";
    if (m->args_len == 0 || m->args_len > sizeof(args))
        return "argument and environment block too big";
    snprintf(why, sizeof(why), "could not get the arguments from nid %u",
             from.phys.nid);
    if (get(from, YOD_MB_ARGS, 0, m->args_len) < 0)
        return why;
    memcpy(args, io.chunk, m->args_len);
    if (unpack_args(j, m) < 0)
        return "malformed argument block";
    if (!(img = pct_image_buffer(j, m->image_len)))
        return "no memory for the program image";
    if ((rc = get_image(from, img, m->image_len)) == 0)
        return NULL;
    if (rc == -2) {             /* never destroy it: see release_md */
        j->scratch_pid = 0;
        j->image = NULL;
    }
    snprintf(why, sizeof(why), "could not get the program image from nid %u "
             "(%s)", from.phys.nid, ini_why);
    printf("pct: %s\n", why);
    return why;
}

/* Load the fetched program and tell yod. */
static void finish_load(struct job *j, const struct yod_msg *m)
{
    printf("pct: job %u rank %d: %s, %lu bytes\n", job.id, j->rank, j->name,
           (unsigned long)m->image_len);
    j->mode = m->mode <= YOD_MODE_COPROC ? (int)m->mode : -1;
    if (pct_load(j, m->heap ? m->heap : s.heap,
                 m->stack ? m->stack : s.stack, s.nid) < 0) {
        char why[sizeof(j->why)];
        snprintf(why, sizeof(why), "%s", j->why[0] ? j->why
                 : "the node cannot load it (see its log)");
        pct_release_image(j);
        pct_drop_symbols(j);
        memset(j, 0, sizeof(*j));
        answer(job.owner, YOD_ERR, why);
        return;
    }
    answer(job.owner, YOD_OK, NULL);
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
    if ((why = fetch(j, m, job.owner))) {
        pct_release_image(j);
        answer(job.owner, YOD_ERR, why);
        return;
    }
    finish_load(j, m);
}

/* The program ended (or was ended: killed): tell yod, forget it. */
static void ended(int killed)
{
    struct job *j = &job.j;
    struct yod_msg m = { .type = YOD_EXIT, .job = job.id, .rank = j->rank,
                         .reason = killed ? 0 : j->last.reason,
                         .status = pct_status(&j->last) };

    if (!killed && j->last.reason == LWK_STOP_FAULT) {
        pct_describe(j, m.text, sizeof(m.text));
        m.addr = j->last.fault_addr;
        m.rip = j->last.fault_rip;
    }
    m.peer = -1;
    if (!killed && j->last.reason == LWK_STOP_ABORT) {
        snprintf(m.text, sizeof(m.text), "%s", j->last.why);
        m.peer = j->last.peer;
    }
    if (killed)
        snprintf(m.text, sizeof(m.text), "killed by yod");
    pct_drop_symbols(j);
    pct_cpus_release(j);
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

/* The owner has been silent too long (gone, or cut off): end the job
   without telling it (a Put to a dead yod would wait for its ACK). */
static void lease_check(void)
{
    struct job *j = &job.j;
    uint64_t silent = job.id ? now_ms() - job.heard : 0;

    if (silent <= YOD_LEASE_MS)
        return;
    printf("pct: job %u: yod at %u:%u silent %d s, job killed, node freed\n",
           job.id, job.owner.phys.nid, job.owner.phys.pid,
           (int)(silent / 1000));
    if (j->pid) {
        pct_drop_symbols(j);
        pct_cpus_release(j);
        lwk_sys_proc_destroy(j->pid);
        memset(j, 0, sizeof(*j));
        job.started = 0;
    }
    free_node();
}

/* STATUS: what showmesh prints for this node. */
static void status(const struct yod_msg *m, ptl_process_t from)
{
    struct lwk_node_info ni;
    struct yod_msg a = { .type = YOD_STATE, .job = m->job, .job2 = job.id,
                         .rank = job.id ? job.j.rank : -1,
                         .size = job.j.size, .status = job.started,
                         .image_len = job.j.pid ? job.j.mem : 0,
                         .addr = job.id ? job.owner.phys.nid : 0 };

    lwk_sys_node_info((long)&ni);
    a.args_len = ni.ram_free;
    if (job.j.pid && job.j.name)
        snprintf(a.text, sizeof(a.text), "%s", job.j.name);
    send(from, &a);
}

/* PING and STATUS come from anyone and need no claim. */
static int ask(const struct yod_msg *m, ptl_process_t from)
{
    if (m->type == YOD_PING) {
        struct yod_msg a = { .type = YOD_ALIVE, .job = m->job,
                             .job2 = job.id };
        send(from, &a);
        return 1;
    }
    if (m->type == YOD_STATUS) {
        status(m, from);
        return 1;
    }
    return 0;
}

static void fan_load(const struct yod_msg *m);

static void request(const struct yod_msg *m, ptl_process_t from)
{
    if (job.id && m->job == job.id && from.phys.nid == job.owner.phys.nid &&
        from.phys.pid == job.owner.phys.pid)
        job.heard = now_ms();           /* the lease goes on */
    if (ask(m, from))
        return;
    if (m->type == YOD_GOT || m->type == YOD_HELLO || m->type >= YOD_OK)
        return;                 /* never answer an answer (or a hello) */
    if (m->type == YOD_FLOAD) {
        fan_load(m);
        return;
    }
    if (m->type == YOD_ALLOC) {
        if (job.id && job.id != m->job) {
            struct yod_msg busy = { .type = YOD_BUSY, .job = m->job,
                                    .job2 = job.id };
            send(from, &busy);
            return;
        }
        job.id = m->job;
        job.owner = from;
        job.heard = now_ms();
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
    /* Any user's yod (a zero uid would take requests from root only). */
    ptl_me_t me = { .start = buf, .length = REQ_BUF,
                    .match_id.phys = { PTL_NID_ANY, PTL_PID_ANY },
                    .uid = PTL_UID_ANY,
                    .ignore_bits = ~0ull, .ct_handle = PTL_CT_NONE,
                    .min_free = sizeof(struct yod_msg),
                    .options = PTL_ME_OP_PUT | PTL_ME_MANAGE_LOCAL };
    ptl_handle_me_t h;

    return PtlMEAppend(s.ni, YOD_PT_CTL, &me, PTL_PRIORITY_LIST, buf, &h)
           == PTL_OK ? 0 : -1;
}

/* Wait for a request: forever on a free node, but on a claimed one only
   until the lease needs a look. */
static int wait_request(ptl_event_t *ev)
{
    unsigned int which;

    return PtlEQPoll(&s.req_eq, 1, job.id ? YOD_PING_MS : PTL_TIME_FOREVER,
                     ev, &which);
}

/* ---- fan-out loading (yod_proto.h) ------------------------------------- */

static ptl_process_t station(uint64_t st)
{
    return (ptl_process_t){ .phys = { YOD_STATION_NID(st),
                                      YOD_STATION_PID(st) } };
}

/* Tell the parent whether we have the image (0) or refused (1). */
static void got(const struct yod_msg *m, int refused)
{
    struct yod_msg g = { .type = YOD_GOT, .job = m->job, .rank = m->rank,
                         .status = refused };

    if (put_ctl(station(m->src), &g) < 0)
        printf("pct: job %u: the parent at nid %u does not answer\n", m->job,
               YOD_STATION_NID(m->src));
}

/* Nodes by rank, from the job's PTL_JOB_MAP ("nid:pid,..."). */
static int job_nids(const struct job *j, int size)
{
    for (int i = 0; i < j->envc; i++) {
        const char *p = j->envp[i];
        int n = 0;
        if (strncmp(p, "PTL_JOB_MAP=", 12))
            continue;
        for (p += 12; n < size && *p; n++) {
            char *end;
            fan.nids[n] = (uint32_t)strtoul(p, &end, 10);
            if (!(p = strchr(end, ',')))
                return n + 1;
            p++;
        }
        return n;
    }
    return 0;
}

static int expose(const struct job *j, uint64_t args_len)
{
    ptl_me_t me = { .ct_handle = PTL_CT_NONE,
                    .match_id.phys = { PTL_NID_ANY, PTL_PID_ANY },
                    .options = PTL_ME_OP_GET | PTL_ME_EVENT_LINK_DISABLE |
                               PTL_ME_EVENT_COMM_DISABLE |
                               PTL_ME_EVENT_UNLINK_DISABLE };

    me.start = (void *)j->image;
    me.length = j->image_size;
    me.match_bits = YOD_MB_IMAGE;
    if (PtlMEAppend(s.ni, YOD_PT_DATA, &me, PTL_PRIORITY_LIST, NULL,
                    &fan.image) != PTL_OK)
        return -1;
    me.start = args;
    me.length = args_len;
    me.match_bits = YOD_MB_ARGS;
    if (PtlMEAppend(s.ni, YOD_PT_DATA, &me, PTL_PRIORITY_LIST, NULL,
                    &fan.args) != PTL_OK) {
        PtlMEUnlink(fan.image);
        return -1;
    }
    return 0;
}

/* A request that came while we waited for a child: the child's GOT is
   the answer; another job's request is answered at once (it cannot
   change ours); one of our own job's waits until the load is done. */
static int waiting_for(int rank, const struct yod_msg *m, ptl_process_t from)
{
    if (m->type == YOD_GOT && m->job == job.id && m->rank == rank)
        return m->status ? 1 : 0;
    if (m->job != job.id || m->type == YOD_PING || m->type == YOD_STATUS)
        request(m, from);       /* yod's lease pings go on meanwhile */
    else if (m->type != YOD_GOT && m->type != YOD_HELLO &&
             fan.nheld < HELD_MAX) {
        fan.held[fan.nheld] = *m;
        fan.held_from[fan.nheld++] = from;
    }
    return -1;
}

/* Child `rank` has the image (0), refused it (1), or never answered (-1). */
static int wait_got(int rank)
{
    ptl_event_t ev;
    unsigned int which;
    int rc;

    while ((rc = PtlEQPoll(&s.req_eq, 1, GOT_WAIT_MS, &ev, &which)) ==
           PTL_OK || rc == PTL_EQ_DROPPED) {
        if (ev.type == PTL_EVENT_AUTO_UNLINK) {
            append_req(ev.user_ptr);
        } else if (ev.type == PTL_EVENT_PUT && ev.ni_fail_type == PTL_NI_OK &&
                   ev.mlength == sizeof(struct yod_msg)) {
            struct yod_msg m;
            memcpy(&m, ev.start, sizeof(m));
            if ((rc = waiting_for(rank, &m, ev.initiator)) >= 0)
                return rc;
        }
    }
    return -1;
}

static int hand_on(const struct yod_msg *m, int rank)
{
    struct yod_msg f = *m;
    ptl_process_t to = { .phys = { fan.nids[rank], YOD_PCT_PID } };
    int rc;

    uint64_t t0 = lwk_sys_clock_ns(0);

    f.rank = rank;
    f.src = YOD_STATION(s.nid, YOD_PCT_PID);
    rc = put_ctl(to, &f) < 0 ? -1 : wait_got(rank);
    printf("pct: job %u rank %d: rank %d (nid %u) %s (%lu ms)\n", job.id,
           m->rank, rank, fan.nids[rank], rc == 0 ? "got the program from us"
           : rc > 0 ? "refused it; its children get it from us"
           : "does not answer; its children get it from us",
           (unsigned long)((lwk_sys_clock_ns(0) - t0) / 1000000));
    return rc;
}

/* Hand the image on to our subtree, a child at a time; a child that
   refused or is silent is replaced by its own children. */
static void forward(const struct job *j, const struct yod_msg *m)
{
    int head = 0, tail = 0;

    for (int c = yod_tree_child(m->rank, -1, m->size); c >= 0;
         c = yod_tree_child(m->rank, c, m->size))
        fan.queue[tail++] = c;
    if (!tail)
        return;
    if (expose(j, m->args_len) < 0) {
        printf("pct: job %u: cannot expose the program to our children\n",
               job.id);
        return;                 /* they never hear: yod names them */
    }
    while (head < tail) {
        int c = fan.queue[head++], rc = hand_on(m, c);
        if (rc < 0) {
            struct yod_msg lost = { .type = YOD_LOST, .job = job.id,
                                    .rank = c };
            snprintf(lost.text, sizeof(lost.text), "does not answer (nid "
                     "%u, forwarding from nid %lu)", fan.nids[c], s.nid);
            send(job.owner, &lost);
        }
        for (int g = rc ? yod_tree_child(c, -1, m->size) : -1; g >= 0;
             g = yod_tree_child(c, g, m->size))
            fan.queue[tail++] = g;
    }
    PtlMEUnlink(fan.args);
    PtlMEUnlink(fan.image);     /* before the scratch process goes */
}

/* FLOAD: claim, get the program from the parent, hand it on, load it. */
static void fan_load(const struct yod_msg *m)
{
    struct job *j = &job.j;
    ptl_process_t owner = station(m->owner);
    const char *why;

    if (job.id && job.id != m->job) {
        struct yod_msg busy = { .type = YOD_BUSY, .job = m->job,
                                .job2 = job.id, .rank = m->rank };
        got(m, 1);
        send(owner, &busy);
        return;
    }
    if (j->pid || j->image || m->size < 1 || m->size > FAN_MAX) {
        struct yod_msg e = { .type = YOD_ERR, .job = m->job };
        snprintf(e.text, sizeof(e.text), j->pid || j->image
                 ? "a program is loaded already"
                 : "fan-out of %d ranks (1..%d)", m->size, FAN_MAX);
        got(m, 1);
        send(owner, &e);
        return;
    }
    job.id = m->job;
    job.owner = owner;
    job.heard = now_ms();               /* the lease starts */
    memset(j, 0, sizeof(*j));
    j->rank = m->rank;
    j->size = m->size;
    if ((why = fetch(j, m, station(m->src))) ||
        (why = job_nids(j, m->size) == m->size ? NULL
               : "no PTL_JOB_MAP with every rank's node")) {
        pct_release_image(j);
        got(m, 1);
        answer(owner, YOD_ERR, why);
        return;
    }
    got(m, 0);
    printf("pct: job %u rank %d: got the program from nid %u pid %u\n",
           job.id, j->rank, YOD_STATION_NID(m->src), YOD_STATION_PID(m->src));
    forward(j, m);
    finish_load(j, m);
    for (int i = 0, n = fan.nheld; i < n; i++)
        request(&fan.held[i], fan.held_from[i]);
    fan.nheld = 0;
}

/* Handle every request that arrived; wait for one if nothing runs. */
static void requests(int block)
{
    ptl_event_t ev;
    int rc;

    while ((rc = block ? wait_request(&ev)
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
        PtlPTAlloc(s.ni, 0, PTL_EQ_NONE, YOD_PT_DATA, &pt) != PTL_OK ||
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
        lease_check();
        if (!job.started)
            continue;
        if (lwk_sys_proc_run(j->pid, quantum, (long)&j->last) < 0) {
            j->last.reason = LWK_STOP_FAULT;
            ended(0);
            continue;
        }
        if (pct_ended(&j->last)) {
            pct_report(j);
            ended(0);
        }
    }
}
