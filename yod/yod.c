/* SPDX-License-Identifier: MIT */
/*
 * yod: launch a program on N compute nodes from Linux.
 *
 *   yod [-sz N] [-nodes LIST] [-t SECS] [-label] [-wait] [-keep]
 *       [-heap SIZE] [-stack SIZE] [-env NAME[=VALUE]]... PROG [ARGS...]
 *
 * yod joins the cluster in $LWK_CLUSTER (default build/cluster) as a
 * Linux station on a free service nid, claims N free nodes from the
 * PCTs, sends each the program, starts every rank, prints their output
 * and exits with the job's status.  While it holds nodes it pings them
 * (the lease: yod_proto.h), so a node that stops answering ends the job
 * instead of hanging it.  Protocol: yod_proto.h.
 *
 * The program goes out through a tree of PCTs for jobs of YOD_FANOUT_MIN
 * nodes or more (fan-out: yod sends it to rank 0's node only, which
 * claims the nodes as it goes); smaller jobs, or YOD_FANOUT=0, make yod
 * claim and load every node itself (the direct path, the benchmark's
 * baseline: tests/bench/yod/run); YOD_FANOUT=1 always fans out.
 */
#include <ctype.h>
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
#include "fileio.h"
#include "uapi/abi.h"
#include "cluster.h"
#include "yod_proto.h"

#define MAX_NODES   128
#define IO_BUF      (1u << 20)
#define CTL_BUF     (256 * sizeof(struct yod_msg))
#define ANSWER_MS   10000       /* a PCT answers a request within this */
#define GOT_MS      60000       /* fan-out: a node Gets the whole image */
#define QUIET_MS    60000       /* fan-out: the tree says nothing this long */

struct node {
    unsigned nid;
    int rank;                   /* -1: not in the job */
    struct yod_msg got;         /* its last answer (got.type 0: none) */
    int exited;
    int down;                   /* stopped answering, or lost the job */
    double heard;               /* ms: its last message */
    struct yod_msg exit;
    char line[2][YOD_IO_CHUNK]; /* stdout, stderr: the unfinished line */
    size_t len[2];
    int fan_got;                /* fan-out: 1 has the image, 2 refused */
    char left_out[80];          /* fan-out: busy or silent: not used again */
};

static struct opts {
    int size, label, timeout, wait, keep;
    uint64_t heap, stack;       /* 0: the PCT's default */
    const char *nodes;
    char *env[YOD_WORDS_MAX];   /* -env: NAME=VALUE */
    int nenv;
    char **argv;
} o = { .size = 1 };

static struct node nodes[MAX_NODES];
static int nnodes;
static struct node *job[MAX_NODES];     /* by rank */
static uint32_t jobid;
static unsigned self_nid;
static volatile sig_atomic_t stop_signal;
static int kill_now;            /* a fault or a dead node ends the job */
static char kill_why[128];      /* what to say then ("": said already) */
static int nenv;                /* environment strings in `args` */

/* The variables yod sets for every rank (build_args), and the PCT's. */
static const char *const reserved[] = {
    "PTL_JOB_MAP", "PTL_JOB_SIZE", "PTL_JOB_ID", "PTL_PID", "LWK_YOD",
    "PTL_JOB_RANK",
};
#define YOD_ENV 5               /* the first five: yod's */

static struct {
    ptl_handle_ni_t ni;
    ptl_handle_eq_t eq, ini_eq;
    ptl_handle_md_t md, ping_md;
    struct yod_msg out, ping;
    double pinged;              /* ms: the last round of pings */
    int watch;                  /* the job runs: silent nodes are down */
} P;
static char ctl_buf[2][CTL_BUF], io_buf[2][IO_BUF];
static char *image, args[YOD_ARGS_MAX];
static size_t image_len, args_len;


static void usage(int status)
{
    fprintf(status ? stderr : stdout,
        "usage: yod [options] PROG [ARGS...]\n"
        "  -sz N          run N ranks, one per node (default 1)\n"
        "  -nodes LIST    only these nids, e.g. 0,2-3 (default: any node)\n"
        "  -t SECS        kill the job after SECS seconds\n"
        "  -label         prefix each output line with [rank]\n"
        "  -wait          if too few nodes are free, wait for them\n"
        "  -keep          a rank that faults does not end the others (by\n"
        "                 default the first fault kills the job)\n"
        "  -heap SIZE     heap per process, e.g. 16M (default: the node's "
        "free memory)\n"
        "  -stack SIZE    stack per process, e.g. 256K (default 1M)\n"
        "  -env NAME=VAL  set NAME in every rank's environment; -env NAME\n"
        "                 passes yod's own value (repeatable; nothing else\n"
        "                 of yod's environment is passed)\n"
        "The cluster is $LWK_CLUSTER (default build/cluster; tools/cluster "
        "up -n N).\n");
    exit(status);
}

/* A bad option value: one line saying what is accepted, status 2. */
static void bad(const char *opt, const char *val, const char *want)
{
    fprintf(stderr, "yod: %s %s: %s\n", opt, val, want);
    exit(2);
}

static int int_arg(const char *opt, const char *val, int lo, int hi,
                   const char *want)
{
    char *end;
    long x = strtol(val, &end, 10);

    if (!*val || *end || x < lo || x > hi)
        bad(opt, val, want);
    return (int)x;
}

/* Bytes, with an optional K, M or G suffix. */
static uint64_t size_arg(const char *opt, const char *val)
{
    const char *want = "give a size in bytes with an optional K, M or G "
                       "suffix, at least 4K (e.g. 64M)";
    char *end;
    unsigned long long x = strtoull(val, &end, 10);
    int shift = 0;

    if (*end == 'K' || *end == 'k')
        shift = 10;
    else if (*end == 'M' || *end == 'm')
        shift = 20;
    else if (*end == 'G' || *end == 'g')
        shift = 30;
    if (end == val || !isdigit((unsigned char)*val) || end[shift ? 1 : 0] ||
        x > (1ull << 40) >> shift || (x << shift) < 4096)
        bad(opt, val, want);
    return (uint64_t)x << shift;
}

/* "0,2-3": nids and ranges, ascending within a range. */
static const char *nodes_arg(const char *val)
{
    const char *p = val;

    for (;;) {
        char *end;
        unsigned long a = strtoul(p, &end, 10), b = a;
        if (end == p || !isdigit((unsigned char)*p))
            break;
        if (*end == '-') {
            p = end + 1;
            b = strtoul(p, &end, 10);
            if (end == p || !isdigit((unsigned char)*p) || b < a)
                break;
        }
        if (!*end)
            return val;
        if (*end != ',')
            break;
        p = end + 1;
    }
    bad("-nodes", val, "give nids and ranges separated by commas, e.g. "
        "0,2-3");
    return NULL;
}

/* NAME=VALUE, or NAME: yod's own value. */
static char *env_arg(const char *val)
{
    size_t n = strcspn(val, "=");
    char *s;

    if (n == 0 || !(isalpha((unsigned char)val[0]) || val[0] == '_'))
        bad("-env", val, "give NAME=VALUE or NAME (a variable yod has)");
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)val[i]) && val[i] != '_')
            bad("-env", val, "a name is letters, digits and _");
    for (size_t i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++)
        if (strlen(reserved[i]) == n && !strncmp(val, reserved[i], n))
            bad("-env", val, "yod sets this variable itself");
    if (o.nenv == YOD_WORDS_MAX - YOD_ENV - 1)
        bad("-env", val, "too many variables (at most 26)");
    if (val[n] == '=')
        return strdup(val);
    if (!getenv(val))
        bad("-env", val, "yod's environment has no such variable; give "
            "NAME=VALUE");
    if (!(s = malloc(n + strlen(getenv(val)) + 2)))
        die("out of memory");
    sprintf(s, "%s=%s", val, getenv(val));
    return s;
}

/* The value after option argv[*i], or a one-line error. */
static const char *value(int argc, char **argv, int *i, const char *want)
{
    if (*i + 1 >= argc)
        bad(argv[*i], "(nothing)", want);
    return argv[++*i];
}

static void parse_args(int argc, char **argv)
{
    int i;

    for (i = 1; i < argc && argv[i][0] == '-'; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help"))
            usage(0);
        else if (!strcmp(a, "-label"))
            o.label = 1;
        else if (!strcmp(a, "-wait"))
            o.wait = 1;
        else if (!strcmp(a, "-keep"))
            o.keep = 1;
        else if (!strcmp(a, "-sz"))
            o.size = int_arg(a, value(argc, argv, &i, "1..128"), 1,
                             MAX_NODES, "give a number of nodes, 1..128");
        else if (!strcmp(a, "-nodes"))
            o.nodes = nodes_arg(value(argc, argv, &i, "e.g. 0,2-3"));
        else if (!strcmp(a, "-t"))
            o.timeout = int_arg(a, value(argc, argv, &i, "seconds"), 1,
                                1000000, "give whole seconds, 1 or more");
        else if (!strcmp(a, "-heap"))
            o.heap = size_arg(a, value(argc, argv, &i, "a size, e.g. 16M"));
        else if (!strcmp(a, "-stack"))
            o.stack = size_arg(a, value(argc, argv, &i, "a size, e.g. 1M"));
        else if (!strcmp(a, "-env"))
            o.env[o.nenv++] = env_arg(value(argc, argv, &i, "NAME=VALUE"));
        else {
            fprintf(stderr, "yod: unknown option %s (yod -h lists them)\n",
                    a);
            exit(2);
        }
    }
    if (i >= argc)
        usage(2);
    if (argc - i > YOD_WORDS_MAX)
        bad(argv[i], "...", "a program takes at most 31 arguments");
    o.argv = argv + i;
}

/* ---- the program, checked before any node is touched ------------------- */

static void read_program(const char *path)
{
    struct elf_image img;
    const char *why;
    char *packed;
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
        die("%s: cannot run it on a compute node: %.*s; it is not a "
            "Q-Kernel program: build it with lwkcc (build/bin/lwkcc -o prog "
            "prog.c)", path, (int)strcspn(why, ";"), why);
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

static void add_string(const char *s)
{
    size_t n = strlen(s) + 1;

    if (args_len + n > sizeof(args))
        die("arguments and environment exceed %d bytes", YOD_ARGS_MAX);
    memcpy(args + args_len, s, n);
    args_len += n;
}

/* argv, then the job's environment (PTL_JOB_RANK is the PCT's). */
static int build_args(uint32_t *envc)
{
    char s[64], *map = malloc(16 * o.size + 32), *p = map;
    int argc = 0;

    args_len = 0;
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
    for (int i = 0; i < o.nenv; i++)
        add_string(o.env[i]);
    *envc = nenv = YOD_ENV + o.nenv;
    return argc;
}

/* ---- the cluster ------------------------------------------------------------- */

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
    cluster_env(svc_first, svc_last);
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
    /* Pings are fire and forget: the ALIVE answers are what count. */
    md.start = &P.ping;
    md.length = sizeof(P.ping);
    md.eq_handle = PTL_EQ_NONE;
    if (PtlMDBind(P.ni, &md, &P.ping_md) != PTL_OK)
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

/* A node of the job is gone: say so once, and end the job. */
static void lost(struct node *n, const char *what)
{
    fprintf(stderr, "yod: node %u (rank %d) %s; job killed\n", n->nid,
            n->rank, what);
    n->down = n->exited = 1;
    kill_now = 1;
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
        flush_line(n, 0);       /* a last line without a newline */
        flush_line(n, 1);
        n->exit = m;
        n->exited = 1;
        fileio_rank_ended(n->rank);
        if (m.reason == LWK_STOP_FAULT && !o.keep && !kill_now++)
            snprintf(kill_why, sizeof(kill_why), "rank %d (nid %u) faulted: "
                     "killing the job (yod -keep lets the others run on)",
                     n->rank, n->nid);
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

/* One request to a node's PCT; 0 once the PCT has it. */
static int send(struct node *n, uint32_t type, int rank)
{
    static uintptr_t seq;       /* tells this Put's ACK from late ones */
    ptl_process_t to = { .phys = { n->nid, YOD_PCT_PID } };
    ptl_event_t ev;
    unsigned which;

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
        P.out.src = P.out.owner = YOD_STATION(self_nid, YOD_PID);
    }
    n->got.type = 0;
    if (PtlPut(P.md, 0, sizeof(P.out), PTL_ACK_REQ, to, YOD_PT_CTL, 0, 0,
               (void *)++seq, 0) != PTL_OK)
        return -1;
    /* A request that timed out to a dead node is failed by the library
       much later: its ACK event must not answer this one. */
    for (double end = now_ms() + ANSWER_MS; now_ms() < end;) {
        if (PtlEQPoll(&P.ini_eq, 1, 50, &ev, &which) == PTL_OK &&
            ev.type == PTL_EVENT_ACK && ev.user_ptr == (void *)seq)
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
        if (job[r] && !job[r]->down)
            send(job[r], YOD_FREE, r);
}

/* Ask nodes in order until o.size said yes: how many did.  If too few,
   they are given back and `busy` says why the others did not. */
static int try_claim(char *busy, size_t size)
{
    int got = 0, nbusy = 0, len = 0;

    busy[0] = 0;
    for (int i = 0; i < nnodes && got < o.size; i++) {
        struct node *n = &nodes[i];
        uint32_t a = send(n, YOD_ALLOC, -1) == 0 ? answer(n) : 0;
        if (a == YOD_OK) {
            n->rank = got;
            job[got++] = n;
            continue;
        }
        if ((size_t)len < size - 64)
            len += a == YOD_BUSY
                ? snprintf(busy + len, size - len,
                           "%snode %u busy with job %u", nbusy ? ", " : "",
                           n->nid, n->got.job2)
                : snprintf(busy + len, size - len,
                           "%snode %u does not answer", nbusy ? ", " : "",
                           n->nid);
        nbusy++;
    }
    if (got < o.size)
        for (int r = 0; r < got; r++) {
            send(job[r], YOD_FREE, r);
            job[r]->rank = -1;
            job[r] = NULL;
        }
    return got;
}

/* Claim o.size nodes; with -wait, try again every second, holding none
   meanwhile (two waiting yods must not each hold half of what the other
   needs). */
static void claim(void)
{
    char busy[1024];
    double since = now_ms();
    int got, said = 0;

    while ((got = try_claim(busy, sizeof(busy))) < o.size) {
        if (!o.wait)
            die("%d nodes asked, %d free%s%s%s; wait (yod -wait) or ask "
                "for fewer", o.size, got, busy[0] ? " (" : "", busy,
                busy[0] ? ")" : "");
        if (!said++)
            fprintf(stderr, "yod: %d nodes asked, %d free (%s); waiting for "
                    "them (-wait)\n", o.size, got, busy);
        for (double end = now_ms() + 1000; now_ms() < end && !stop_signal;)
            pump(100);
        if (stop_signal)
            exit(128 + stop_signal);
    }
    if (said)
        fprintf(stderr, "yod: got %d nodes after waiting %.0f s\n", o.size,
                (now_ms() - since) / 1e3);
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

/* File requests from the ranks (fileio.c), served from their start. */
static void start_fileio(void)
{
    unsigned nids[MAX_NODES];

    for (int r = 0; r < o.size; r++)
        nids[r] = job[r]->nid;
    if (fileio_start(P.ni, P.eq, o.size, nids) < 0) {
        free_all();
        die("cannot serve the ranks' files: %s", strerror(errno));
    }
}

/* ---- fan-out loading (yod_proto.h) ------------------------------------- */

/* Fan out from this many nodes on.  Measured on TCG nodes (yod/STATUS.md,
   tests/bench/yod/run): the direct path costs about 0.4-0.65 s a node
   (yod serves every node at once, natively), the tree 1.5-4 s a level
   (each hop is between two emulated nodes), so the tree only wins from
   about 16-32 nodes. */
#define YOD_FANOUT_MIN  16

/* YOD_FANOUT=0 or 1 in the environment forces the direct path or the
   tree; otherwise the job's size decides. */
static int fan_out(void)
{
    const char *f = getenv("YOD_FANOUT");

    if (f && *f)
        return strcmp(f, "0") != 0;
    return o.size >= YOD_FANOUT_MIN;
}

/* A node that refused or is silent: it is not asked again by this yod. */
static void leave_out(struct node *n)
{
    if (n->got.type == YOD_BUSY)
        snprintf(n->left_out, sizeof(n->left_out), "busy with job %u",
                 n->got.job2);
    else
        snprintf(n->left_out, sizeof(n->left_out), "does not answer");
}

/* The first o.size nodes not left out become ranks 0..; 0 if too few. */
static int pick_nodes(void)
{
    int got = 0;

    for (int i = 0; i < nnodes; i++) {
        nodes[i].rank = -1;
        nodes[i].got.type = 0;
        nodes[i].fan_got = 0;
        nodes[i].exited = 0;
        if (!nodes[i].left_out[0] && got < o.size) {
            nodes[i].rank = got;
            job[got++] = &nodes[i];
        }
    }
    return got == o.size;
}

/* One HELLO to every node of the job before the tree starts, none waited
   for: each PCT then answers this yod, not an earlier one on the same
   station (yod_proto.h).  Frames point into `hello`, which stays put. */
static void hello_all(void)
{
    static struct yod_msg hello;
    static ptl_handle_md_t md;
    ptl_md_t d = { .start = &hello, .length = sizeof(hello),
                   .eq_handle = PTL_EQ_NONE, .ct_handle = PTL_CT_NONE };

    hello = (struct yod_msg){ .type = YOD_HELLO, .job = jobid };
    if (!md && PtlMDBind(P.ni, &d, &md) != PTL_OK)
        die("PtlMDBind failed");
    for (int r = 0; r < o.size; r++) {
        ptl_process_t to = { .phys = { job[r]->nid, YOD_PCT_PID } };
        PtlPut(md, 0, sizeof(hello), PTL_NO_ACK_REQ, to, YOD_PT_CTL, 0, 0,
               NULL, 0);
    }
}

/* yod is rank 0's parent: it hands the program to rank 0 and, if that
   node refuses or is silent, to rank 0's children, as a PCT does. */
static void fan_root(void)
{
    int queue[MAX_NODES], head = 0, tail = 0;

    queue[tail++] = 0;
    while (head < tail) {
        int c = queue[head++], rc = -1;
        struct node *n = job[c];
        if (send(n, YOD_FLOAD, c) == 0)
            for (double end = now_ms() + GOT_MS; now_ms() < end && rc < 0;) {
                pump(50);
                rc = n->fan_got ? n->fan_got - 1 : -1;
            }
        if (rc < 0 && !n->got.type)
            n->got.type = YOD_LOST;
        for (int g = rc ? yod_tree_child(c, -1, o.size) : -1; g >= 0;
             g = yod_tree_child(c, g, o.size))
            queue[tail++] = g;
    }
}

/* Every rank's answer: OK (loaded), BUSY, ERR or LOST; silent ranks get
   QUIET_MS after the last answer before they count as LOST. */
static void fan_answers(void)
{
    double last = now_ms();
    int done = 0;

    while (done < o.size && now_ms() - last < QUIET_MS) {
        int now = 0;
        pump(100);
        for (int r = 0; r < o.size; r++)
            now += job[r]->got.type != 0;
        if (now > done)
            last = now_ms();
        done = now;
    }
    for (int r = 0; r < o.size; r++)
        if (!job[r]->got.type)
            job[r]->got.type = YOD_LOST;
}

/* "(node 1 busy with job 7, node 3 does not answer)" */
static void left_out_list(char *buf, size_t size)
{
    size_t len = 0;

    buf[0] = 0;
    for (int i = 0; i < nnodes && len < size - 64; i++)
        if (nodes[i].left_out[0])
            len += snprintf(buf + len, size - len, "%snode %u %s",
                            len ? ", " : " (", nodes[i].nid,
                            nodes[i].left_out);
    if (len)
        snprintf(buf + len, size - len, ")");
}

/* Claim and load through the tree.  Busy or silent nodes are left out
   and the job is tried again on others while there are enough; a node
   that cannot load the program ends the job. */
static void fan_launch(void)
{
    char list[1024];
    uint32_t envc;
    int said = 0;

    for (uint32_t attempt = 0;; attempt++) {
        int bad = -1, nleft = 0;
        /* A new job id each time: what the nodes of the last attempt
           still say (the EXIT of a loaded rank we freed) is not this
           attempt's.  Pids stay below 2^22, so ids stay unique. */
        jobid = (uint32_t)getpid() | attempt << 22;
        if (!pick_nodes()) {
            for (int i = 0; i < nnodes; i++)
                nleft += nodes[i].left_out[0] != 0;
            left_out_list(list, sizeof(list));
            if (!o.wait)
                die("%d nodes asked, %d free%s; wait (yod -wait) or ask for "
                    "fewer", o.size, nnodes - nleft, list);
            if (!said++)
                fprintf(stderr, "yod: %d nodes asked, %d free%s; waiting for "
                        "them (-wait)\n", o.size, nnodes - nleft, list);
            for (double end = now_ms() + 1000; now_ms() < end && !stop_signal;)
                pump(100);
            if (stop_signal)
                exit(128 + stop_signal);
            for (int i = 0; i < nnodes; i++)    /* ask them all again */
                nodes[i].left_out[0] = 0;
            continue;
        }
        build_args(&envc);
        hello_all();
        fan_root();
        fan_answers();
        for (int r = 0; r < o.size; r++) {
            struct node *n = job[r];
            if (n->got.type == YOD_OK)
                continue;
            if (n->got.type == YOD_ERR && bad < 0)
                bad = r;
            else if (n->got.type != YOD_ERR)
                leave_out(n);
            nleft++;
        }
        if (!nleft)
            return;
        for (int r = 0; r < o.size; r++)     /* all we may have claimed */
            if (job[r]->got.type != YOD_BUSY)
                send(job[r], YOD_FREE, r);
        if (bad >= 0)
            die("rank %d (nid %u): cannot load the program: %s", bad,
                job[bad]->nid, job[bad]->got.text);
    }
}

static void on_signal(int sig)
{
    stop_signal = sig;
}

static int ranks_left(void)
{
    int left = 0;

    for (int r = 0; r < o.size; r++)
        left += !job[r]->exited;
    return left;
}

/* Output until every rank has ended.  KILL the rest on a signal, at the
   time limit (-t), on the first fault (unless -keep) or when a node has
   gone down. */
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
        if (stop_signal)
            fprintf(stderr, "yod: %s: killing the job\n",
                    strsignal(stop_signal));
        else if (deadline && now_ms() > deadline)
            fprintf(stderr, "yod: time limit reached: killing the job\n");
        else if (!kill_now)
            continue;
        else if (kill_why[0])
            fprintf(stderr, "yod: %s\n", kill_why);
        for (int r = 0; r < o.size; r++)
            if (!job[r]->exited)
                send(job[r], YOD_KILL, r);
        give_up = now_ms() + ANSWER_MS;    /* then stop waiting */
    }
    /* Over: free_all() comes next, and a node it has freed answers a ping
       still on its way with "no job", which is no fault of the node. */
    P.watch = 0;
}

static int report(void)
{
    int status = 0;

    for (int r = 0; r < o.size; r++) {
        struct node *n = job[r];
        const struct yod_msg *m = &n->exit;
        if (n->down) {
            status = status ? status : 1;   /* lost() said why */
            continue;
        }
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

/* PtlNIFini waits (up to 10 s) until every peer has acknowledged our
   last frames; a node that is down never will, so then only give the
   live ones a moment for theirs and go. */
static void leave(void)
{
    for (int r = 0; r < o.size; r++)
        if (job[r] && job[r]->down) {
            for (double end = now_ms() + 200; now_ms() < end;)
                pump(50);
            return;
        }
    PtlNIFini(P.ni);
    PtlFini();
}

int main(int argc, char **argv)
{
    unsigned first = 1000, last = 1999, self;
    uint32_t envc;
    int status;
    double t0 = now_ms(), t_loaded, t_started, t_ended;

    parse_args(argc, argv);
    read_program(o.argv[0]);
    cluster_find();
    read_cluster(&first, &last);
    if (nnodes < o.size)
        die("%d nodes asked, the cluster in %s has %d%s", o.size, cluster,
            nnodes, o.nodes ? " in -nodes" : "");
    self = self_nid = cluster_service_nid(first, last);
    jobid = (uint32_t)getpid();
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    open_portals(self);
    append(YOD_PT_DATA, args, sizeof(args), PTL_ME_OP_GET, YOD_MB_ARGS, 0);
    if (fan_out()) {
        fan_launch();
    } else {
        claim();
        build_args(&envc);
        every_rank(YOD_LOAD, "load the program");
    }
    start_fileio();
    t_loaded = now_ms();
    every_rank(YOD_START, "start");
    t_started = now_ms();
    run();
    t_ended = now_ms();
    status = report();
    if (stop_signal)
        status = 128 + stop_signal;     /* as a shell reports it */
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
