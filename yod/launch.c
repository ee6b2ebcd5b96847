/* SPDX-License-Identifier: MIT */
/*
 * launch.c: claim the job's nodes and load the program on them.
 *
 * Small jobs take the direct path: yod claims the nodes one by one
 * (ALLOC) and each node Gets the program from yod (LOAD).  From
 * YOD_FANOUT_MIN nodes on the program goes out through a tree of PCTs
 * (fan-out: yod sends it to rank 0's node only, which claims the nodes as
 * it goes); YOD_FANOUT=0 or 1 forces one path (tests/bench/yod/run
 * compares them).  Protocol: yod_proto.h.
 *
 * Virtual-node mode (-vn) runs one rank per CPU: each node yod claims
 * takes the next ranks, as many as it has CPUs (its OK to ALLOC says),
 * so N ranks take ceil(N/CPUs) nodes, and one LOAD and START per node
 * covers its ranks.  Those jobs take the direct path: the loading tree
 * is over ranks, one per node.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cluster.h"
#include "ioserver.h"
#include "paths.h"
#include "yod.h"

#define GOT_MS      60000       /* fan-out: a node Gets the whole image */
#define QUIET_MS    60000       /* fan-out: the tree says nothing this long */

/* Fan out from this many nodes on.  Measured on TCG nodes (yod/STATUS.md,
   tests/bench/yod/run): the direct path costs about 0.4-0.65 s a node
   (yod serves every node at once, natively), the tree 1.5-4 s a level
   (each hop is between two emulated nodes), so the tree only wins from
   about 16-32 nodes. */
#define YOD_FANOUT_MIN  16

char args[YOD_ARGS_MAX];
size_t args_len;
int nenv;                       /* environment strings in `args` */
/* Virtual-node mode: a node's CPUs after the first, one rank each. */
static struct node vnodes[MAX_RANKS];
static int nvnodes;

/* ---- the argv/env block -------------------------------------------------- */

static int add_string(const char *s)
{
    size_t n = strlen(s) + 1;

    if (args_len + n > sizeof(args))
        return -1;
    memcpy(args + args_len, s, n);
    args_len += n;
    return 0;
}

/* LWK_EXE=PATH: the program as the ranks would name it, for their
   /proc/self/exe (lxrt/rt_proc.c); NULL if they cannot (-chroot DIR and
   the program outside DIR). */
static const char *exe_env(void)
{
    static char s[PATH_MAX + 16];
    static int done;
    char path[PATH_MAX];

    if (!done++ && path_seen(o.argv[0], o.chroot, path, sizeof(path)) == 0)
        snprintf(s, sizeof(s), "LWK_EXE=%s", path);
    return s[0] ? s : NULL;
}

/* argv, then the job's environment (PTL_JOB_RANK is the PCT's, and in
   virtual-node mode PTL_PID), for ranks on nids[0..o.size-1], each with
   Portals pid YOD_APP_PID + its index on its node (locals[r], NULL: 0);
   -1 if it does not fit YOD_ARGS_MAX. */
static int build_args(const unsigned *nids, const int *locals)
{
    char s[64], *map = malloc(16 * o.size + 32), *p = map;
    char yod_env[sizeof("LWK_YOD=") + YOD_IO_SERVERS_MAX * 24];
    int rc = 0;

    if (!map)
        die("out of memory");
    args_len = 0;
    for (char **a = o.argv; *a; a++)
        rc |= add_string(*a);
    p += sprintf(p, "PTL_JOB_MAP=");
    for (int r = 0; r < o.size; r++)
        p += sprintf(p, "%s%u:%d", r ? "," : "", nids[r],
                     YOD_APP_PID + (locals ? locals[r] : 0));
    rc |= add_string(map);
    free(map);
    snprintf(s, sizeof(s), "PTL_JOB_SIZE=%d", o.size);
    rc |= add_string(s);
    snprintf(s, sizeof(s), "PTL_JOB_ID=%u", jobid);
    rc |= add_string(s);
    snprintf(s, sizeof(s), "PTL_PID=%d", YOD_APP_PID);
    rc |= add_string(s);
    snprintf(yod_env, sizeof(yod_env), "LWK_YOD=%s", ioservers_list());
    rc |= add_string(yod_env);
    nenv = 5 + o.nenv;
    if (o.profile_hz) {         /* a program built with mpicc -mpiprof */
        rc |= add_string("LWK_MPIPROF=1");
        nenv++;
    }
    if (exe_env()) {
        rc |= add_string(exe_env());
        nenv++;
    }
    for (int i = 0; i < o.nenv; i++)
        rc |= add_string(o.env[i]);
    return rc;
}

static void build_job_args(void)
{
    unsigned nids[MAX_RANKS];
    int locals[MAX_RANKS];

    for (int r = 0; r < o.size; r++) {
        nids[r] = job[r]->nid;
        locals[r] = job[r]->local;
    }
    if (build_args(nids, locals) < 0)   /* args_fit said it would */
        die("arguments and environment exceed %d bytes", YOD_ARGS_MAX);
}

/* Before any node is claimed: the block with the longest map the job can
   have (the largest nids) must fit, or nothing is claimed. */
void args_fit(void)
{
    unsigned nids[MAX_RANKS], top = 0;
    int locals[MAX_RANKS];
    size_t words = 0;

    for (int i = 0; i < nnodes; i++)
        top = nodes[i].nid > top ? nodes[i].nid : top;
    for (int r = 0; r < o.size; r++) {
        nids[r] = top;
        locals[r] = YOD_VN_MAX - 1;
    }
    if (build_args(nids, locals) < 0) {
        for (char **a = o.argv; *a; a++)
            words += strlen(*a) + 1;
        fprintf(stderr, "yod: the program's arguments (%zu bytes) and "
                "environment do not fit the %d bytes a node takes; pass "
                "large data in a file\n", words, YOD_ARGS_MAX);
        exit(ST_USAGE);
    }
}

/* ---- the direct path ----------------------------------------------------- */

/* The job's nodes (each once, by its first rank) that are not down,
   busy with another job (with `busy` 0) or silent: how many, in list. */
static int job_nodes(struct node **list, int busy)
{
    int k = 0;

    for (int r = 0; r < o.size; r++)
        if (job[r] && !job[r]->down && !job[r]->leader &&
            (busy || job[r]->got.type != YOD_BUSY))
            list[k++] = job[r];
    return k;
}

void free_all(void)
{
    static struct node *list[MAX_RANKS];

    request_all(list, job_nodes(list, 1), YOD_FREE, 0);
}

/* Claimed node n takes the next ranks from `got`: one, or in
   virtual-node mode one per CPU (its OK said how many); returns the
   ranks taken so far. */
static int take_ranks(struct node *n, int got)
{
    int cpus = o.mode == YOD_MODE_VN ? (int)n->got.cpus : 1;

    cpus = cpus < 1 ? 1 : cpus > YOD_VN_MAX ? YOD_VN_MAX : cpus;
    n->leader = NULL;
    n->local = n->nlocal = 0;
    for (int i = 0; i < cpus && got < o.size; i++) {
        struct node *v = i ? &vnodes[nvnodes++] : n;
        if (i)
            *v = (struct node){ .nid = n->nid, .leader = n, .local = i };
        v->rank = got;
        job[got++] = v;
        n->nlocal++;
    }
    return got;
}

/* What claiming asks for and got: "4 nodes asked, 3 free", or in
   virtual-node mode "8 ranks asked (one per CPU), 6 CPUs free". */
static const char *asked(int got)
{
    static char s[96];

    if (o.mode == YOD_MODE_VN)
        snprintf(s, sizeof(s), "%d ranks asked (one per CPU), %d CPUs free",
                 o.size, got);
    else
        snprintf(s, sizeof(s), "%d nodes asked, %d free", o.size, got);
    return s;
}

/* Ask nodes in order until o.size ranks have one: how many ranks did.
   If too few, the nodes are given back and `busy` says why the others
   did not. */
static int try_claim(char *busy, size_t size)
{
    int got = 0, nbusy = 0, len = 0;

    busy[0] = 0;
    nvnodes = 0;
    for (int i = 0; i < nnodes && got < o.size; i++) {
        struct node *n = &nodes[i];
        uint32_t a = ask(n, YOD_ALLOC);
        if (a == YOD_OK) {
            got = take_ranks(n, got);
            continue;
        }
        if ((size_t)len < size - 64)
            len += a == YOD_BUSY
                ? snprintf(busy + len, size - len,
                           "%snode %u busy with job %u", nbusy ? ", " : "",
                           n->nid, n->got.job2)
                : snprintf(busy + len, size - len,
                           "%snode %u does not answer: %s",
                           nbusy ? ", " : "", n->nid, n->tried);
        nbusy++;
        if (!a)                 /* it may hold our claim all the same */
            request_post(n, YOD_FREE);
    }
    if (got < o.size) {
        static struct node *list[MAX_RANKS];
        int k = 0;
        for (int r = 0; r < got; r++)
            if (!job[r]->leader)
                list[k++] = job[r];
        request_all(list, k, YOD_FREE, 0);
        for (int r = 0; r < got; r++) {
            job[r]->rank = -1;
            job[r] = NULL;
        }
    }
    return got;
}

/* Sleep a second while waiting for nodes (-wait), serving the network;
   a signal ends yod, which holds nothing then. */
static void wait_a_second(void)
{
    pump_for(1000);
    if (stop_signal)
        exit(128 + stop_signal);
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
            die("%s%s%s%s; wait (yod -wait) or ask for fewer", asked(got),
                busy[0] ? " (" : "", busy, busy[0] ? ")" : "");
        if (!said++)
            fprintf(stderr, "yod: %s (%s); waiting for them (-wait)\n",
                    asked(got), busy);
        wait_a_second();
    }
    if (said)
        fprintf(stderr, "yod: got %d %s after waiting %.0f s\n", o.size,
                o.mode == YOD_MODE_VN ? "CPUs" : "nodes",
                (now_ms() - since) / 1e3);
}

/* A request to every node of the job (the leader of its ranks), all
   answered OK, or the job ends naming the first rank that was not. */
void every_rank(uint32_t type, const char *what)
{
    static struct node *list[MAX_RANKS];

    char why[sizeof(list[0]->tried) + sizeof(list[0]->got.text)];

    request_all(list, job_nodes(list, 1), type, 1);
    for (int r = 0; r < o.size; r++) {
        struct node *n = job[r];
        uint32_t a = n->got.type;
        if (n->leader || a == YOD_OK)
            continue;
        snprintf(why, sizeof(why), "%s", !a ? n->tried
                 : a == YOD_ERR ? n->got.text : request_name(a));
        free_all();             /* it asks anew: say what came first */
        if (!a)
            die("rank %d (nid %u) does not answer (%s): %s", r, n->nid,
                what, why);
        die("rank %d (nid %u): cannot %s: %s", r, n->nid, what, why);
    }
}

/* ---- fan-out loading (yod_proto.h) ------------------------------------- */

/* YOD_FANOUT=0 or 1 in the environment forces the direct path or the
   tree; otherwise the job's size decides. */
int fan_out(void)
{
    const char *f = getenv("YOD_FANOUT");

    if (o.mode == YOD_MODE_VN)
        return 0;

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
        snprintf(n->left_out, sizeof(n->left_out), "does not answer: %s",
                 n->tried[0] ? n->tried : "the load tree did not reach it "
                 "(its parent's PCT got no answer, or none came in 60 s)");
}

/* The first o.size nodes not left out become ranks 0..; 0 if too few. */
static int pick_nodes(void)
{
    int got = 0;

    ranks_forget_ends();
    for (int i = 0; i < nnodes; i++) {
        nodes[i].rank = -1;
        nodes[i].nlocal = 1;
        nodes[i].got.type = 0;
        nodes[i].fan_got = 0;
        nodes[i].exited = 0;
        if (!nodes[i].left_out[0] && got < o.size) {
            nodes[i].rank = got;
            job[got++] = &nodes[i];
            request_tree(&nodes[i]);
        }
    }
    return got == o.size;
}

/* One HELLO to every node of the job before the tree starts, none waited
   for: each PCT then answers this yod, not an earlier one on the same
   station (yod_proto.h).  Frames point into `hello`, one signed message
   per node, which stays put until the next attempt (seconds later). */
static void hello_all(void)
{
    static struct yod_msg hello[MAX_NODES];
    static ptl_handle_md_t md;
    ptl_md_t d = { .start = hello, .length = sizeof(hello),
                   .eq_handle = PTL_EQ_NONE, .ct_handle = PTL_CT_NONE };

    if (!md && PtlMDBind(yod_ni, &d, &md) != PTL_OK)
        die("PtlMDBind failed");
    for (int r = 0; r < o.size; r++) {
        ptl_process_t to = { .phys = { job[r]->nid, YOD_PCT_PID } };
        hello[r] = (struct yod_msg){ .type = YOD_HELLO };
        auth_sign(&hello[r], job[r]->nid);
        PtlPut(md, (ptl_size_t)r * sizeof(hello[0]), sizeof(hello[0]),
               PTL_NO_ACK_REQ, to, YOD_PT_CTL, 0, 0, NULL, 0);
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
        if (request(n, YOD_FLOAD) == 0)
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
        pump_for(100);          /* then count: not at every event */
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

/* Too few nodes are left for the tree: give up, or with -wait ask them
   all again a second later. */
static void too_few(int *said)
{
    char list[1024];
    int nleft = 0;

    for (int i = 0; i < nnodes; i++)
        nleft += nodes[i].left_out[0] != 0;
    left_out_list(list, sizeof(list));
    if (!o.wait)
        die("%d nodes asked, %d free%s; wait (yod -wait) or ask for fewer",
            o.size, nnodes - nleft, list);
    if (!(*said)++)
        fprintf(stderr, "yod: %d nodes asked, %d free%s; waiting for them "
                "(-wait)\n", o.size, nnodes - nleft, list);
    wait_a_second();
    for (int i = 0; i < nnodes; i++)
        nodes[i].left_out[0] = 0;
}

/* After an attempt of the tree: FREE to every node of it not busy with
   another job (those it reached are claimed, even if their OK was
   lost). */
static void free_claimed(void)
{
    static struct node *list[MAX_RANKS];

    request_all(list, job_nodes(list, 0), YOD_FREE, 0);
}

/* Claim and load through the tree.  Busy or silent nodes are left out
   and the job is tried again on others while there are enough; a node
   that cannot load the program ends the job. */
static void fan_launch(void)
{
    int said = 0;

    for (uint32_t attempt = 0;; attempt++) {
        int bad = -1, nleft = 0;
        /* A new job id each time: what the nodes of the last attempt
           still say (the EXIT of a loaded rank we freed) is not this
           attempt's.  Pids stay below 2^22, so ids stay unique. */
        jobid = (uint32_t)getpid() | attempt << 22;
        auth_job();
        if (!pick_nodes()) {
            too_few(&said);
            continue;
        }
        build_job_args();
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
        free_claimed();                 /* all we may have claimed */
        if (bad >= 0)
            die("rank %d (nid %u): cannot load the program: %s", bad,
                job[bad]->nid, job[bad]->got.text);
    }
}

void launch(void)
{
    if (fan_out()) {
        fan_launch();
        return;
    }
    claim();
    build_job_args();
    every_rank(YOD_LOAD, "load the program");
}
