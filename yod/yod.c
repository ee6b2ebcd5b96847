/* SPDX-License-Identifier: MIT */
/*
 * yod: launch a program on N compute nodes from Linux, as if it ran here.
 *
 *   yod [-sz N] [-nodes LIST] [-t TIME] [-label] [-wait] [-keep]
 *       [-kill-on-error] [-heap SIZE] [-stack SIZE] [-env NAME[=VALUE]]...
 *       [--] PROG [ARGS...]
 *   mpiexec -n N [...] PROG [ARGS...]     (options.c)
 *
 * yod joins the cluster (cluster.c finds it) as a Linux station on a free
 * service nid, claims N free nodes from the PCTs and loads the program on
 * them (launch.c), starts every rank, prints their output and exits with
 * the job's status.  While it holds nodes it pings them (the lease:
 * yod_proto.h), so a node that stops answering ends the job instead of
 * hanging it.  A rank that aborts (MPI_Abort, abort(), assert, NX's fatal
 * errors) ends the job at once.  Protocol: yod_proto.h.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elf.h"
#include "fileio.h"
#include "uapi/abi.h"
#include "cluster.h"
#include "yod.h"

#define IO_BUF      (1u << 20)
#define CTL_BUF     (256 * sizeof(struct yod_msg))
#define ANSWER_MS   10000       /* a PCT answers a request within this */

struct node nodes[MAX_NODES];
int nnodes;
struct node *job[MAX_NODES];
uint32_t jobid;
unsigned self_nid;
volatile int stop_signal;
char *image;
size_t image_len;
ptl_handle_ni_t yod_ni;


static struct {
    ptl_handle_eq_t eq, ini_eq;
    ptl_handle_md_t md, ping_md;
    struct yod_msg out, ping;
    double pinged;              /* ms: the last round of pings */
    int watch;                  /* the job runs: silent nodes are down */
} P;
static char ctl_buf[2][CTL_BUF], io_buf[2][IO_BUF];

/* ---- the program, checked before any node is touched ------------------- */

static void read_program(const char *path)
{
    struct elf_image img;
    const char *why;
    char *packed;
    FILE *f = fopen(path, "rb");
    long n;

    if (!f) {
        fprintf(stderr, "yod: %s: %s\n", path, strerror(errno));
        exit(errno == ENOENT ? ST_NO_FILE : ST_NOT_PROGRAM);
    }
    if (fseek(f, 0, SEEK_END) < 0 || (n = ftell(f)) < 0)
        die("%s: cannot read it: %s", path, strerror(errno));
    rewind(f);
    if (!(image = malloc(n ? n : 1)) || fread(image, 1, n, f) != (size_t)n)
        die("%s: cannot read it", path);
    fclose(f);
    image_len = n;
    if (elf_parse(image, image_len, LWK_APP_BASE, LWK_STACK_TOP, &img,
                  &why) < 0) {
        fprintf(stderr, "yod: %s: cannot run it on a compute node: %.*s; it "
                "is not a Q-Kernel program: build it with lwkcc or mpicc "
                "(lwkcc -o prog prog.c)\n", path, (int)strcspn(why, ";"),
                why);
        exit(ST_NOT_PROGRAM);
    }
    /* Every node fetches the image: only what loads and the function
       names go (a 2.6 MB program with debug information: 87 KiB). */
    n = (long)elf_packed_size(image, image_len, &img);
    if (!(packed = malloc(n)))
        die("%s: no memory for its loadable image", path);
    elf_pack(image, image_len, &img, packed);
    free(image);
    image = packed;
    image_len = n;
}

/* ---- the cluster ------------------------------------------------------------- */

/* Every nid -nodes names must be a node of the cluster (lo..hi). */
static void check_listed(unsigned lo, unsigned hi)
{
    unsigned first, last;
    char want[256];

    nodes_list_span(&first, &last);
    for (unsigned long nid = first; nid <= last; nid++) {
        int found = 0;
        if (!nodes_listed(nid))
            continue;
        for (int i = 0; i < nnodes && !found; i++)
            found = nodes[i].nid == nid;
        if (!found) {
            snprintf(want, sizeof(want), "node %lu is not in the cluster in "
                     "%s (its nids are %u..%u)", nid, cluster, lo, hi);
            bad("-nodes", o.nodes, want);
        }
    }
}

/* nodes: "NID MAC ..." per line; env: KEY=VALUE lines for libportals. */
static void read_cluster(unsigned *svc_first, unsigned *svc_last)
{
    unsigned lo = ~0u, hi = 0, all = 0;
    char line[4096];
    FILE *f = cluster_file("nodes");

    while (fgets(line, sizeof(line), f) && nnodes < MAX_NODES) {
        unsigned nid;
        if (sscanf(line, "%u", &nid) != 1)
            continue;
        all++;
        lo = nid < lo ? nid : lo;
        hi = nid > hi ? nid : hi;
        if (nodes_listed(nid))
            nodes[nnodes++] = (struct node){ .nid = nid, .rank = -1 };
    }
    fclose(f);
    if (o.nodes)
        check_listed(lo, hi);
    if (nnodes < o.size)
        die("%d nodes asked, the cluster in %s has %u%s", o.size, cluster,
            all, o.nodes ? "" : "; boot a bigger one (tools/cluster up -n N)");
    cluster_env(svc_first, svc_last);
}

/* ---- Portals ------------------------------------------------------------------ */

void append(ptl_pt_index_t pt, void *buf, size_t len, unsigned opts,
            ptl_match_bits_t bits, size_t min_free)
{
    ptl_me_t me = { .start = buf, .length = len, .ct_handle = PTL_CT_NONE,
                    .match_id.phys = { PTL_NID_ANY, PTL_PID_ANY },
                    .match_bits = bits, .ignore_bits = min_free ? ~0ull : 0,
                    .min_free = min_free, .options = opts };
    ptl_handle_me_t h;

    if (PtlMEAppend(yod_ni, pt, &me, PTL_PRIORITY_LIST, buf, &h) != PTL_OK)
        die("PtlMEAppend on portal %u failed", pt);
}

static void open_portals(unsigned nid)
{
    char s[16];
    ptl_pt_index_t pt;
    ptl_md_t md = { .start = &P.out, .length = sizeof(P.out),
                    .ct_handle = PTL_CT_NONE };

    snprintf(s, sizeof(s), "%u", nid);
    setenv("PTL_NID", s, 1);
    snprintf(s, sizeof(s), "%d", YOD_PID);
    setenv("PTL_PID", s, 1);
    if (PtlInit() != PTL_OK)
        die("cannot join the cluster's network (PTL_IFACE=%s)",
            getenv("PTL_IFACE") ? getenv("PTL_IFACE") : "?");
    if (PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_PHYSICAL,
                  YOD_PID, NULL, NULL, &yod_ni) != PTL_OK ||
        PtlEQAlloc(yod_ni, 4096, &P.eq) != PTL_OK ||
        PtlEQAlloc(yod_ni, 64, &P.ini_eq) != PTL_OK)
        die("cannot open a Portals NI on nid %u pid %d", nid, YOD_PID);
    for (ptl_pt_index_t want = YOD_PT_CTL; want <= YOD_PT_IO; want++)
        if ((want == YOD_PT_CTL || want == YOD_PT_DATA || want == YOD_PT_IO) &&
            PtlPTAlloc(yod_ni, 0, P.eq, want, &pt) != PTL_OK)
            die("cannot allocate portal %u", want);
    for (int i = 0; i < 2; i++) {
        append(YOD_PT_CTL, ctl_buf[i], CTL_BUF,
               PTL_ME_OP_PUT | PTL_ME_MANAGE_LOCAL, 0, sizeof(struct yod_msg));
        append(YOD_PT_IO, io_buf[i], IO_BUF,
               PTL_ME_OP_PUT | PTL_ME_MANAGE_LOCAL, 0, YOD_IO_CHUNK);
    }
    append(YOD_PT_DATA, image, image_len, PTL_ME_OP_GET, YOD_MB_IMAGE, 0);
    append(YOD_PT_DATA, args, sizeof(args), PTL_ME_OP_GET, YOD_MB_ARGS, 0);
    md.eq_handle = P.ini_eq;
    if (PtlMDBind(yod_ni, &md, &P.md) != PTL_OK)
        die("PtlMDBind failed");
    /* Pings are fire and forget: the ALIVE answers are what count. */
    md.start = &P.ping;
    md.length = sizeof(P.ping);
    md.eq_handle = PTL_EQ_NONE;
    if (PtlMDBind(yod_ni, &md, &P.ping_md) != PTL_OK)
        die("PtlMDBind failed");
}

static struct node *node_of(unsigned nid)
{
    for (int i = 0; i < nnodes; i++)
        if (nodes[i].nid == nid)
            return &nodes[i];
    return NULL;
}

/* ---- the job's output and its end -------------------------------------- */

int ranks_left(void)
{
    int left = 0;

    for (int r = 0; r < o.size; r++)
        left += job[r] && !job[r]->exited;
    return left;
}

/* Writing the job's output failed.  A closed pipe (yod | head) means no
   one reads it: end the job quietly, with SIGPIPE's status as a shell
   shows it.  Anything else (a full disk) is said once, and the status
   will say output was lost. */
static void output_failed(FILE *f)
{
    if (end.out_status)
        return;
    if (errno == EPIPE && f == stdout) {
        end.out_status = 128 + SIGPIPE;
        end.kill_now++;
        return;
    }
    end.out_status = ST_OUTPUT;
    if (f == stdout)
        fprintf(stderr, "yod: cannot write the job's output: %s; the rest "
                "of it is lost\n", strerror(errno));
}

/* A rank's output goes out in whole lines ("[rank] " first with -label),
   so ranks' lines never mix, however the program split its writes. */
static void flush_line(struct node *n, int i)
{
    FILE *f = i ? stderr : stdout;

    if (!n->len[i])
        return;
    if ((o.label && fprintf(f, "[%d] ", n->rank) < 0) ||
        fwrite(n->line[i], 1, n->len[i], f) != n->len[i] || fflush(f) != 0)
        output_failed(f);
    n->len[i] = 0;
}

static void output(const ptl_event_t *ev)
{
    int rank = (int)(ev->hdr_data >> 8), i = (ev->hdr_data & 0xff) == 2;
    struct node *n = rank >= 0 && rank < o.size ? job[rank] : NULL;
    const char *p = ev->start;

    if (!n)
        return;
    for (ptl_size_t k = 0; k < ev->mlength; k++) {
        n->line[i][n->len[i]++] = p[k];
        if (p[k] == '\n' || n->len[i] == sizeof(n->line[i]))
            flush_line(n, i);
    }
}

/* A node of the job is gone: say so at once, and end the job. */
static void lost(struct node *n, const char *what)
{
    n->down = n->exited = 1;
    fprintf(stderr, "yod: node %u (rank %d) %s%s\n", n->nid, n->rank, what,
            ranks_left() && !end.kill_now ? "; killing the job" : "");
    end.kill_now = 1;
}

/* The lease: a PING to every node yod holds each YOD_PING_MS; a node
   silent for YOD_LEASE_MS is down.  If yod itself was stalled (stopped,
   or a slow terminal), the nodes get the benefit of the doubt. */
static void heartbeat(void)
{
    double now = now_ms();

    if (now - P.pinged < YOD_PING_MS)
        return;
    P.ping = (struct yod_msg){ .type = YOD_PING, .job = jobid };
    for (int r = 0; r < o.size && job[r]; r++) {
        struct node *n = job[r];
        ptl_process_t to = { .phys = { n->nid, YOD_PCT_PID } };
        if (n->down)
            continue;
        if (now - P.pinged > 2 * YOD_PING_MS || !P.watch)
            n->heard = now;
        else if (now - n->heard > YOD_LEASE_MS) {
            lost(n, "stopped answering (down?)");
            continue;
        }
        PtlPut(P.ping_md, 0, sizeof(P.ping), PTL_NO_ACK_REQ, to, YOD_PT_CTL,
               0, 0, NULL, 0);
    }
    P.pinged = now;
}

/* A rank ended: an abort, a fault (unless -keep) or, with
   -kill-on-error, a nonzero exit ends the others too (end.c). */
static void rank_ended(struct node *n, const struct yod_msg *m)
{
    flush_line(n, 0);           /* a last line without a newline */
    flush_line(n, 1);
    n->exit = *m;
    n->exited = 1;
    fileio_rank_ended(n->rank);
    if (end_of_rank(n))
        end.kill_now = 1;
}

static void control(const ptl_event_t *ev)
{
    struct node *n = node_of(ev->initiator.phys.nid);
    struct yod_msg m;

    if (!n || ev->mlength != sizeof(m))
        return;
    memcpy(&m, ev->start, sizeof(m));
    if (m.job != jobid)
        return;                 /* an answer to an earlier yod */
    n->heard = now_ms();
    if (m.type == YOD_ALIVE) {
        /* Only once the job runs: while the tree loads, a node not yet
           reached holds no job. */
        if (m.job2 != jobid && P.watch && n->rank >= 0 && !n->down)
            lost(n, "no longer holds the job (its lease ran out?)");
    } else if (m.type == YOD_GOT) {
        n->fan_got = m.status ? 2 : 1;
    } else if (m.type == YOD_LOST) {
        if (m.rank >= 0 && m.rank < o.size && job[m.rank])
            job[m.rank]->got = m;   /* its parent speaks for it */
    } else if (m.type == YOD_EXIT) {
        if (!n->exited)
            rank_ended(n, &m);
    } else {
        n->got = m;
    }
}

/* Handle events for up to `ms` milliseconds (at least one poll). */
void pump(int ms)
{
    ptl_event_t ev;
    unsigned which;
    int rc = PtlEQPoll(&P.eq, 1, ms, &ev, &which);

    fileio_poll();
    heartbeat();
    if (rc != PTL_OK && rc != PTL_EQ_DROPPED)
        return;
    if (fileio_event(&ev))
        return;
    if (ev.type == PTL_EVENT_PUT && ev.ni_fail_type == PTL_NI_OK) {
        if (ev.pt_index == YOD_PT_IO)
            output(&ev);
        else if (ev.pt_index == YOD_PT_CTL)
            control(&ev);
    } else if (ev.type == PTL_EVENT_AUTO_UNLINK) {
        /* A full buffer: its events were handled already, so reuse it. */
        if (ev.pt_index == YOD_PT_IO)
            append(YOD_PT_IO, ev.user_ptr, IO_BUF,
                   PTL_ME_OP_PUT | PTL_ME_MANAGE_LOCAL, 0, YOD_IO_CHUNK);
        else
            append(YOD_PT_CTL, ev.user_ptr, CTL_BUF,
                   PTL_ME_OP_PUT | PTL_ME_MANAGE_LOCAL, 0,
                   sizeof(struct yod_msg));
    }
}

static const char *const names[] = {
    [YOD_ALLOC] = "ALLOC", [YOD_LOAD] = "LOAD", [YOD_START] = "START",
    [YOD_KILL] = "KILL", [YOD_FREE] = "FREE", [YOD_FLOAD] = "FLOAD",
};

static const char *name_of(uint32_t type)
{
    return type < sizeof(names) / sizeof(names[0]) && names[type]
           ? names[type] : "request";
}

/* One request to a node's PCT; 0 once the PCT has it, else -1 with what
   happened in n->tried (for "does not answer (...)"). */
int request(struct node *n, uint32_t type, int rank)
{
    static uintptr_t seq;       /* tells this Put's ACK from late ones */
    ptl_process_t to = { .phys = { n->nid, YOD_PCT_PID } };
    ptl_event_t ev;
    unsigned which;
    int rc;

    P.out = (struct yod_msg){ .type = type, .job = jobid, .rank = rank,
                              .size = o.size };
    if (type == YOD_LOAD || type == YOD_FLOAD) {
        P.out.image_len = image_len;
        P.out.args_len = args_len;
        P.out.argc = 0;
        for (char **a = o.argv; *a; a++)
            P.out.argc++;
        P.out.envc = nenv;
        P.out.heap = o.heap;
        P.out.stack = o.stack;
        P.out.mode = o.mode;
        P.out.src = P.out.owner = YOD_STATION(self_nid, YOD_PID);
    }
    n->got.type = 0;
    n->tried[0] = 0;
    if ((rc = PtlPut(P.md, 0, sizeof(P.out), PTL_ACK_REQ, to, YOD_PT_CTL, 0,
                     0, (void *)++seq, 0)) != PTL_OK) {
        snprintf(n->tried, sizeof(n->tried), "yod could not send %s: "
                 "PtlPut %d", name_of(type), rc);
        return -1;
    }
    /* A request that timed out to a dead node is failed by the library
       much later: its ACK event must not answer this one. */
    for (double end = now_ms() + ANSWER_MS; now_ms() < end;) {
        if (PtlEQPoll(&P.ini_eq, 1, 50, &ev, &which) == PTL_OK &&
            ev.type == PTL_EVENT_ACK && ev.user_ptr == (void *)seq) {
            if (ev.ni_fail_type == PTL_NI_OK)
                return 0;
            snprintf(n->tried, sizeof(n->tried), "%s to its PCT (pid %d) "
                     "failed: Portals failure %d (%s)", name_of(type),
                     YOD_PCT_PID, ev.ni_fail_type, ev.ni_fail_type ==
                     PTL_NI_UNDELIVERABLE ? "resent until given up, or no "
                     "process there any more" : "refused");
            return -1;
        }
        pump(0);
    }
    snprintf(n->tried, sizeof(n->tried), "%s to its PCT (pid %d) not "
             "acknowledged in %d s", name_of(type), YOD_PCT_PID,
             ANSWER_MS / 1000);
    return -1;
}

/* The node's answer to the last request, or 0 after ANSWER_MS. */
uint32_t answer(struct node *n)
{
    for (double end = now_ms() + ANSWER_MS; !n->got.type && now_ms() < end;)
        pump(50);
    if (!n->got.type)
        snprintf(n->tried, sizeof(n->tried), "its PCT took %s but sent no "
                 "answer in %d s", name_of(P.out.type), ANSWER_MS / 1000);
    return n->got.type;
}

/* ---- the job ----------------------------------------------------------------- */

/* File requests from the ranks (fileio.c), served from their start. */
static void start_fileio(void)
{
    unsigned nids[MAX_NODES];

    for (int r = 0; r < o.size; r++)
        nids[r] = job[r]->nid;
    if (fileio_start(yod_ni, P.eq, o.size, nids) < 0) {
        free_all();
        die("cannot serve the ranks' files: %s", strerror(errno));
    }
}

static void on_signal(int sig)
{
    stop_signal = sig;
}

/* Output until every rank has ended.  KILL the rest on a signal, at the
   time limit (-t), or when the job must end (a rank's end that ends it:
   end.c; a lost node, a closed output pipe). */
static void run(void)
{
    double deadline = o.timeout ? now_ms() + o.timeout * 1e3 : 0;
    double give_up = 0;

    P.watch = 1;
    while (ranks_left()) {
        pump(100);
        if (give_up) {
            if (now_ms() > give_up)
                break;          /* a node that does not answer */
            continue;
        }
        if (stop_signal) {
            fprintf(stderr, "yod: %s: killing the job\n",
                    strsignal(stop_signal));
        } else if (deadline && now_ms() > deadline) {
            end.timed_out = 1;
            fprintf(stderr, "yod: time limit (%g s) reached: killing the "
                    "job\n", o.timeout);
        } else if (!end.kill_now) {
            continue;
        }
        for (int r = 0; r < o.size; r++)
            if (!job[r]->exited)
                request(job[r], YOD_KILL, r);
        give_up = now_ms() + ANSWER_MS;    /* then stop waiting */
    }
    /* Over: free_all() comes next, and a node it has freed answers a ping
       still on its way with "no job", which is no fault of the node. */
    P.watch = 0;
}

/* PtlNIFini lets our last frames be acknowledged (a node's kernel answers
   for a rank that has exited: portals/PROTOCOL.md, Leaving).  A node that
   is down never will, so then only give the live ones a moment for
   theirs and go.  The nodes are free by now: a second Ctrl-C simply ends
   yod. */
static void leave(void)
{
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    for (int r = 0; r < o.size; r++)
        if (job[r] && job[r]->down) {
            for (double end = now_ms() + 200; now_ms() < end;)
                pump(50);
            return;
        }
    PtlNIFini(yod_ni);
    PtlFini();
}

int main(int argc, char **argv)
{
    unsigned first = 1000, last = 1999;
    struct sigaction sa = { .sa_handler = on_signal };
    int status;
    double t0 = now_ms(), t_loaded, t_started, t_ended;

    die_status = ST_CANNOT_RUN;
    parse_args(argc, argv);
    read_program(o.argv[0]);
    cluster_find();
    read_cluster(&first, &last);
    args_fit();
    self_nid = cluster_service_nid(first, last);
    jobid = (uint32_t)getpid();
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);   /* a closed pipe is output_failed's */
    open_portals(self_nid);
    launch();
    start_fileio();
    t_loaded = now_ms();
    every_rank(YOD_START, "start");
    t_started = now_ms();
    run();
    t_ended = now_ms();
    status = report();
    free_all();
    if (getenv("YOD_TIMING"))   /* tests/bench/yod/run */
        fprintf(stderr, "yod: timing: %s, %d ranks: loaded %.0f ms, started "
                "%.0f ms, ended %.0f ms, freed %.0f ms after yod started\n",
                fan_out() ? "fan-out" : "direct",
                o.size, t_loaded - t0, t_started - t0, t_ended - t0,
                now_ms() - t0);
    leave();
    return status;
}
