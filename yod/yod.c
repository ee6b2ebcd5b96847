/* SPDX-License-Identifier: MIT */
/*
 * yod: launch a program on N compute nodes from Linux.
 *
 *   yod [-sz N] [-nodes LIST] [-t SECS] [-label] PROG [ARGS...]
 *
 * yod joins the cluster in $LWK_CLUSTER (default build/cluster) as a
 * Linux station on a free service nid, claims N free nodes from the
 * PCTs, sends each the program, starts every rank, prints their output
 * and exits with the job's status.  Protocol: yod_proto.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "portals4.h"
#include "elf.h"
#include "uapi/abi.h"
#include "yod_proto.h"

#define MAX_NODES   128
#define IO_BUF      (1u << 20)
#define CTL_BUF     (256 * sizeof(struct yod_msg))
#define ANSWER_MS   10000       /* a PCT answers a request within this */

struct node {
    unsigned nid;
    int rank;                   /* -1: not in the job */
    struct yod_msg got;         /* its last answer (got.type 0: none) */
    int exited;
    struct yod_msg exit;
    char line[2][YOD_IO_CHUNK]; /* stdout, stderr: the unfinished line */
    size_t len[2];
};

static struct opts {
    int size, label, timeout;
    const char *nodes;
    char **argv;
} o = { .size = 1 };

static struct node nodes[MAX_NODES];
static int nnodes;
static struct node *job[MAX_NODES];     /* by rank */
static uint32_t jobid;
static const char *cluster;
static volatile sig_atomic_t stop_signal;

static struct {
    ptl_handle_ni_t ni;
    ptl_handle_eq_t eq, ini_eq;
    ptl_handle_md_t md;
    struct yod_msg out;
} P;
static char ctl_buf[2][CTL_BUF], io_buf[2][IO_BUF];
static char *image, args[YOD_ARGS_MAX];
static size_t image_len, args_len;

static void die(const char *fmt, ...)
{
    va_list ap;

    fputs("yod: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}

static double now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void usage(int status)
{
    fprintf(status ? stderr : stdout,
        "usage: yod [-sz N] [-nodes LIST] [-t SECS] [-label] PROG [ARGS...]\n"
        "  -sz N        run N ranks, one per node (default 1)\n"
        "  -nodes LIST  only these nids, e.g. 0,2-3 (default: any node)\n"
        "  -t SECS      kill the job after SECS seconds\n"
        "  -label       prefix each output line with [rank]\n"
        "The cluster is $LWK_CLUSTER (default build/cluster; tools/cluster "
        "up -n N).\n");
    exit(status);
}

static void parse_args(int argc, char **argv)
{
    int i;

    for (i = 1; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
            usage(0);
        else if (!strcmp(argv[i], "-label"))
            o.label = 1;
        else if (!strcmp(argv[i], "-sz") && i + 1 < argc)
            o.size = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-nodes") && i + 1 < argc)
            o.nodes = argv[++i];
        else if (!strcmp(argv[i], "-t") && i + 1 < argc)
            o.timeout = atoi(argv[++i]);
        else {
            fprintf(stderr, "yod: unknown option %s\n", argv[i]);
            usage(2);
        }
    }
    if (i >= argc)
        usage(2);
    if (o.size < 1 || o.size > MAX_NODES)
        die("-sz %d: ask for 1..%d nodes", o.size, MAX_NODES);
    o.argv = argv + i;
}

/* ---- the program, checked before any node is touched ------------------- */

static void read_program(const char *path)
{
    struct elf_image img;
    const char *why;
    FILE *f = fopen(path, "rb");
    long n;

    if (!f)
        die("%s: %s", path, strerror(errno));
    if (fseek(f, 0, SEEK_END) < 0 || (n = ftell(f)) < 0)
        die("%s: cannot read it: %s", path, strerror(errno));
    rewind(f);
    if (!(image = malloc(n ? n : 1)) || fread(image, 1, n, f) != (size_t)n)
        die("%s: cannot read it", path);
    fclose(f);
    image_len = n;
    if (elf_parse(image, image_len, LWK_APP_BASE, LWK_STACK_TOP, &img,
                  &why) < 0)
        die("%s: cannot run it on a compute node: %s", path, why);
}

static void add_string(const char *s)
{
    size_t n = strlen(s) + 1;

    if (args_len + n > sizeof(args))
        die("arguments and environment exceed %d bytes", YOD_ARGS_MAX);
    memcpy(args + args_len, s, n);
    args_len += n;
}

/* argv, then the job's environment (PTL_JOB_RANK is the PCT's). */
static int build_args(unsigned self_nid, uint32_t *envc)
{
    char s[64], *map = malloc(16 * o.size + 32), *p = map;
    int argc = 0;

    for (char **a = o.argv; *a; a++, argc++)
        add_string(*a);
    p += sprintf(p, "PTL_JOB_MAP=");
    for (int r = 0; r < o.size; r++)
        p += sprintf(p, "%s%u:%d", r ? "," : "", job[r]->nid, YOD_APP_PID);
    add_string(map);
    free(map);
    snprintf(s, sizeof(s), "PTL_JOB_SIZE=%d", o.size);
    add_string(s);
    snprintf(s, sizeof(s), "PTL_JOB_ID=%u", jobid);
    add_string(s);
    snprintf(s, sizeof(s), "PTL_PID=%d", YOD_APP_PID);
    add_string(s);
    snprintf(s, sizeof(s), "LWK_YOD=%u:%d", self_nid, YOD_PID);
    add_string(s);
    *envc = 5;
    return argc;
}

/* ---- the cluster ------------------------------------------------------------- */

static FILE *cluster_file(const char *name)
{
    char path[4096];
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", cluster, name);
    if (!(f = fopen(path, "r")))
        die("no cluster in %s (%s: %s); boot one with tools/cluster up -n N "
            "or set LWK_CLUSTER", cluster, path, strerror(errno));
    return f;
}

static int in_list(unsigned nid)
{
    const char *p = o.nodes;

    if (!p)
        return 1;
    while (*p) {
        char *end;
        unsigned a = strtoul(p, &end, 10), b = a;
        if (*end == '-')
            b = strtoul(end + 1, &end, 10);
        if (nid >= a && nid <= b)
            return 1;
        if (*end != ',')
            break;
        p = end + 1;
    }
    return 0;
}

/* nodes: "NID MAC ..." per line; env: KEY=VALUE lines for libportals. */
static void read_cluster(unsigned *svc_first, unsigned *svc_last)
{
    char line[4096];
    FILE *f = cluster_file("nodes");

    while (fgets(line, sizeof(line), f) && nnodes < MAX_NODES) {
        unsigned nid;
        if (sscanf(line, "%u", &nid) == 1 && in_list(nid))
            nodes[nnodes++] = (struct node){ .nid = nid, .rank = -1 };
    }
    fclose(f);
    f = cluster_file("env");
    while (fgets(line, sizeof(line), f)) {
        char *eq = strchr(line, '=');
        line[strcspn(line, "\n")] = 0;
        if (!eq || strncmp(line, "export", 6) == 0)
            continue;
        *eq = 0;
        if (!strcmp(line, "LWK_SERVICE_NID_FIRST"))
            *svc_first = atoi(eq + 1);
        else if (!strcmp(line, "LWK_SERVICE_NID_LAST"))
            *svc_last = atoi(eq + 1);
        else if (!strncmp(line, "PTL_", 4))
            setenv(line, eq + 1, 1);
    }
    fclose(f);
}

/* A service nid no other yod holds: a lock file per nid, kept open. */
static unsigned pick_service_nid(unsigned first, unsigned last)
{
    char path[4096];

    for (unsigned nid = first; nid <= last; nid++) {
        snprintf(path, sizeof(path), "%s/yod-%u.lock", cluster, nid);
        int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0)
            return nid;             /* the lock lasts as long as yod */
        if (fd >= 0)
            close(fd);
    }
    die("no free service nid in %u..%u (%s/yod-*.lock)", first, last,
        cluster);
    return 0;
}

/* ---- Portals ------------------------------------------------------------------ */

static void append(ptl_pt_index_t pt, void *buf, size_t len, unsigned opts,
                   ptl_match_bits_t bits, size_t min_free)
{
    ptl_me_t me = { .start = buf, .length = len, .ct_handle = PTL_CT_NONE,
                    .match_id.phys = { PTL_NID_ANY, PTL_PID_ANY },
                    .match_bits = bits, .ignore_bits = min_free ? ~0ull : 0,
                    .min_free = min_free, .options = opts };
    ptl_handle_me_t h;

    if (PtlMEAppend(P.ni, pt, &me, PTL_PRIORITY_LIST, buf, &h) != PTL_OK)
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
                  YOD_PID, NULL, NULL, &P.ni) != PTL_OK ||
        PtlEQAlloc(P.ni, 4096, &P.eq) != PTL_OK ||
        PtlEQAlloc(P.ni, 64, &P.ini_eq) != PTL_OK)
        die("cannot open a Portals NI on nid %u pid %d", nid, YOD_PID);
    for (ptl_pt_index_t want = YOD_PT_CTL; want <= YOD_PT_IO; want++)
        if ((want == YOD_PT_CTL || want == YOD_PT_DATA || want == YOD_PT_IO) &&
            PtlPTAlloc(P.ni, 0, P.eq, want, &pt) != PTL_OK)
            die("cannot allocate portal %u", want);
    for (int i = 0; i < 2; i++) {
        append(YOD_PT_CTL, ctl_buf[i], CTL_BUF,
               PTL_ME_OP_PUT | PTL_ME_MANAGE_LOCAL, 0, sizeof(struct yod_msg));
        append(YOD_PT_IO, io_buf[i], IO_BUF,
               PTL_ME_OP_PUT | PTL_ME_MANAGE_LOCAL, 0, YOD_IO_CHUNK);
    }
    append(YOD_PT_DATA, image, image_len, PTL_ME_OP_GET, YOD_MB_IMAGE, 0);
    md.eq_handle = P.ini_eq;
    if (PtlMDBind(P.ni, &md, &P.md) != PTL_OK)
        die("PtlMDBind failed");
}

static struct node *node_of(unsigned nid)
{
    for (int i = 0; i < nnodes; i++)
        if (nodes[i].nid == nid)
            return &nodes[i];
    return NULL;
}

/* A rank's output goes out in whole lines ("[rank] " first with -label),
   so ranks' lines never mix, however the program split its writes. */
static void flush_line(struct node *n, int i)
{
    FILE *f = i ? stderr : stdout;

    if (!n->len[i])
        return;
    if (o.label)
        fprintf(f, "[%d] ", n->rank);
    fwrite(n->line[i], 1, n->len[i], f);
    fflush(f);
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

static void control(const ptl_event_t *ev)
{
    struct node *n = node_of(ev->initiator.phys.nid);
    struct yod_msg m;

    if (!n || ev->mlength != sizeof(m))
        return;
    memcpy(&m, ev->start, sizeof(m));
    if (m.job != jobid)
        return;                 /* an answer to an earlier yod */
    if (m.type == YOD_EXIT) {
        flush_line(n, 0);       /* a last line without a newline */
        flush_line(n, 1);
        n->exit = m;
        n->exited = 1;
    } else {
        n->got = m;
    }
}

/* Handle events for up to `ms` milliseconds (at least one poll). */
static void pump(int ms)
{
    ptl_event_t ev;
    unsigned which;
    int rc = PtlEQPoll(&P.eq, 1, ms, &ev, &which);

    if (rc != PTL_OK && rc != PTL_EQ_DROPPED)
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

/* One request to a node's PCT; 0 once the PCT has it. */
static int send(struct node *n, uint32_t type, int rank)
{
    ptl_process_t to = { .phys = { n->nid, YOD_PCT_PID } };
    ptl_event_t ev;
    unsigned which;

    P.out = (struct yod_msg){ .type = type, .job = jobid, .rank = rank,
                              .size = o.size };
    if (type == YOD_LOAD) {
        P.out.image_len = image_len;
        P.out.args_len = args_len;
        P.out.argc = 0;
        for (char **a = o.argv; *a; a++)
            P.out.argc++;
        P.out.envc = 5;
    }
    n->got.type = 0;
    if (PtlPut(P.md, 0, sizeof(P.out), PTL_ACK_REQ, to, YOD_PT_CTL, 0, 0,
               NULL, 0) != PTL_OK)
        return -1;
    for (double end = now_ms() + ANSWER_MS; now_ms() < end;) {
        if (PtlEQPoll(&P.ini_eq, 1, 50, &ev, &which) == PTL_OK &&
            ev.type == PTL_EVENT_ACK)
            return ev.ni_fail_type == PTL_NI_OK ? 0 : -1;
        pump(0);
    }
    return -1;
}

/* The node's answer to the last request, or 0 after ANSWER_MS. */
static uint32_t answer(struct node *n)
{
    for (double end = now_ms() + ANSWER_MS; !n->got.type && now_ms() < end;)
        pump(50);
    return n->got.type;
}

/* ---- the job ----------------------------------------------------------------- */

static void free_all(void)
{
    for (int r = 0; r < o.size; r++)
        if (job[r])
            send(job[r], YOD_FREE, r);
}

/* Ask nodes in order until o.size said yes. */
static void claim(void)
{
    char busy[1024] = "";
    int got = 0, nbusy = 0, len = 0;

    for (int i = 0; i < nnodes && got < o.size; i++) {
        struct node *n = &nodes[i];
        uint32_t a = send(n, YOD_ALLOC, -1) == 0 ? answer(n) : 0;
        if (a == YOD_OK) {
            n->rank = got;
            job[got++] = n;
            continue;
        }
        if ((size_t)len < sizeof(busy) - 64)
            len += a == YOD_BUSY
                ? snprintf(busy + len, sizeof(busy) - len,
                           "%snode %u busy with job %u", nbusy ? ", " : "",
                           n->nid, n->got.job2)
                : snprintf(busy + len, sizeof(busy) - len,
                           "%snode %u does not answer", nbusy ? ", " : "",
                           n->nid);
        nbusy++;
    }
    if (got == o.size)
        return;
    for (int r = 0; r < got; r++)
        send(job[r], YOD_FREE, r);
    die("%d nodes asked, %d free%s%s%s; wait or ask for fewer", o.size, got,
        nbusy ? " (" : "", busy, nbusy ? ")" : "");
}

static void every_rank(uint32_t type, const char *what)
{
    for (int r = 0; r < o.size; r++)
        if (send(job[r], type, r) < 0) {
            free_all();
            die("rank %d (nid %u) does not answer (%s)", r, job[r]->nid,
                what);
        }
    for (int r = 0; r < o.size; r++) {
        uint32_t a = answer(job[r]);
        if (a != YOD_OK) {
            free_all();
            die("rank %d (nid %u): cannot %s: %s", r, job[r]->nid, what,
                a == YOD_ERR ? job[r]->got.text : "no answer");
        }
    }
}

static void on_signal(int sig)
{
    stop_signal = sig;
}

/* Output until every rank has ended; KILL them all on a signal or -t. */
static void run(void)
{
    double deadline = o.timeout ? now_ms() + o.timeout * 1e3 : 0;
    int killed = 0, left = o.size;

    while (left) {
        pump(100);
        if (killed && now_ms() > deadline)
            break;              /* a node that does not answer */
        left = 0;
        for (int r = 0; r < o.size; r++)
            left += !job[r]->exited;
        if (killed || !(stop_signal || (deadline && now_ms() > deadline)))
            continue;
        fprintf(stderr, "yod: %s: killing the job\n", stop_signal
                ? strsignal(stop_signal) : "time limit reached");
        for (int r = 0; r < o.size; r++)
            if (!job[r]->exited)
                send(job[r], YOD_KILL, r);
        killed = 1;
        deadline = now_ms() + ANSWER_MS;    /* then stop waiting */
    }
}

static int report(void)
{
    int status = 0;

    for (int r = 0; r < o.size; r++) {
        struct node *n = job[r];
        const struct yod_msg *m = &n->exit;
        if (m->reason == LWK_STOP_EXIT && m->status == 0)
            continue;
        if (m->reason == LWK_STOP_EXIT) {
            fprintf(stderr, "yod: rank %d (nid %u) exited with status %d\n",
                    r, n->nid, m->status);
            if (m->status > status)
                status = m->status & 0xff ? m->status & 0xff : 1;
        } else {
            fprintf(stderr, "yod: rank %d (nid %u) %s\n", r, n->nid,
                    m->text[0] ? m->text : "ended without a status");
            status = status ? status : 1;
        }
    }
    return status;
}

int main(int argc, char **argv)
{
    unsigned first = 1000, last = 1999, self;
    uint32_t envc;
    int status;

    parse_args(argc, argv);
    read_program(o.argv[0]);
    cluster = getenv("LWK_CLUSTER") ? getenv("LWK_CLUSTER")
                                    : "build/cluster";
    read_cluster(&first, &last);
    if (nnodes < o.size)
        die("%d nodes asked, the cluster in %s has %d%s", o.size, cluster,
            nnodes, o.nodes ? " in -nodes" : "");
    self = pick_service_nid(first, last);
    jobid = (uint32_t)getpid();
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    open_portals(self);
    claim();
    build_args(self, &envc);
    append(YOD_PT_DATA, args, args_len, PTL_ME_OP_GET, YOD_MB_ARGS, 0);
    every_rank(YOD_LOAD, "load the program");
    every_rank(YOD_START, "start");
    run();
    status = report();
    if (stop_signal)
        status = 128 + stop_signal;     /* as a shell reports it */
    free_all();
    PtlNIFini(P.ni);
    PtlFini();
    return status;
}
