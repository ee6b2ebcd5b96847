/* SPDX-License-Identifier: MIT */
/*
 * showmesh: what every compute node of the cluster is doing.
 *
 *   showmesh [-t MS]
 *
 * Like yod it joins the cluster in $LWK_CLUSTER (default build/cluster)
 * as a Linux station on a free service nid, then sends every node's PCT
 * a STATUS request (yod_proto.h) and waits up to MS milliseconds (default
 * 3000; a PCT busy loading a program answers late) for the answers.  It
 * prints one line per node (free, busy with a job, or down: no answer),
 * one line per node saying what each of its CPUs runs (a rank, a rank's
 * threads, the Portals engine, or nothing), a grid with one letter per
 * job as Cougar's showmesh did, and a summary line that scripts can
 * check:
 *
 *   4 nodes: 3 free, 1 busy (1 job), 0 down
 *
 * Exit status 0 (down nodes are reported, not an error); 1 if there is
 * no cluster; 2 for bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "portals4.h"
#include "cluster.h"
#include "yod_proto.h"

#define MAX_NODES   1024
#define ANS_BUF     (256 * sizeof(struct yod_msg))
#define GRID_ROW    32          /* nodes per grid line */
/* STATUS requests whose answers may be on their way at once: all at once,
   the answers of a few hundred nodes overflow our port on the switch
   (yod/request.c), and come only after their PCTs' retransmissions, or
   not within -t.  One left unanswered for ASK_MS no longer counts. */
#define WINDOW      48
#define ASK_MS      300

struct node {
    unsigned nid;               /* first: nodes[] is sorted by it */
    double asked;               /* ms */
    int answered;
    struct yod_msg st;          /* its STATE answer */
};

static struct node nodes[MAX_NODES];
static int nnodes;
static char ans_buf[ANS_BUF];

static struct {
    ptl_handle_ni_t ni;
    ptl_handle_eq_t eq;
    ptl_handle_md_t md;
    struct yod_msg req;
} P;


/* ---- the cluster (the same files yod reads) -------------------------------- */

static void read_cluster(unsigned *svc_first, unsigned *svc_last)
{
    char line[4096];
    FILE *f = cluster_nodes();

    while (fgets(line, sizeof(line), f) && nnodes < MAX_NODES)
        if (sscanf(line, "%u", &nodes[nnodes].nid) == 1)
            nnodes++;
    fclose(f);
    cluster_sort_nids(nodes, nnodes, sizeof(nodes[0]));
    cluster_env(svc_first, svc_last);
}


/* ---- asking ------------------------------------------------------------------ */

static void open_portals(unsigned nid)
{
    ptl_pt_index_t pt;
    ptl_handle_me_t h;
    ptl_me_t me = { .start = ans_buf, .length = sizeof(ans_buf),
                    .ct_handle = PTL_CT_NONE,
                    .match_id.phys = { PTL_NID_ANY, PTL_PID_ANY },
                    .ignore_bits = ~0ull, .min_free = sizeof(struct yod_msg),
                    .options = PTL_ME_OP_PUT | PTL_ME_MANAGE_LOCAL |
                               PTL_ME_EVENT_UNLINK_DISABLE };
    ptl_md_t md = { .start = &P.req, .length = sizeof(P.req),
                    .ct_handle = PTL_CT_NONE, .eq_handle = PTL_EQ_NONE };

    P.ni = cluster_join(nid, YOD_SHOWMESH_PID, nnodes + 16);
    if (PtlEQAlloc(P.ni, 1024, &P.eq) != PTL_OK ||
        PtlPTAlloc(P.ni, 0, P.eq, YOD_PT_CTL, &pt) != PTL_OK ||
        PtlMEAppend(P.ni, YOD_PT_CTL, &me, PTL_PRIORITY_LIST, NULL, &h)
            != PTL_OK ||
        PtlMDBind(P.ni, &md, &P.md) != PTL_OK)
        die("cannot open Portals on nid %u pid %d", nid, YOD_SHOWMESH_PID);
}

static struct node *node_of(unsigned nid)
{
    return cluster_find_nid(nodes, nnodes, sizeof(nodes[0]), nid);
}

static void ask(struct node *n)
{
    ptl_process_t to = { .phys = { n->nid, YOD_PCT_PID } };

    n->asked = now_ms();
    PtlPut(P.md, 0, sizeof(P.req), PTL_NO_ACK_REQ, to, YOD_PT_CTL, 0, 0,
           NULL, 0);
}

/* A STATE answer, if it is one to us. */
static void take(const ptl_event_t *ev)
{
    struct node *n;

    if (ev->type != PTL_EVENT_PUT || ev->mlength != sizeof(P.req) ||
        !(n = node_of(ev->initiator.phys.nid)) || n->answered)
        return;
    memcpy(&n->st, ev->start, sizeof(n->st));
    n->answered = n->st.type == YOD_STATE && n->st.job == P.req.job;
}

/* STATUS to every node, WINDOW at a time, then answers until all came
   or `ms`. */
static void ask_all(int ms)
{
    struct node *on_way[WINDOW];
    int next = 0, busy = 0, left = nnodes;

    P.req = (struct yod_msg){ .type = YOD_STATUS, .job = (uint32_t)getpid() };
    for (double end = now_ms() + ms; left && now_ms() < end;) {
        ptl_event_t ev;
        unsigned which;
        while (next < nnodes && busy < WINDOW)
            ask(on_way[busy++] = &nodes[next++]);
        if (PtlEQPoll(&P.eq, 1, 20, &ev, &which) == PTL_OK)
            take(&ev);
        for (int i = 0; i < busy;) {
            struct node *n = on_way[i];
            if (n->answered || now_ms() - n->asked > ASK_MS) {
                left -= n->answered;
                on_way[i] = on_way[--busy];
            } else {
                i++;
            }
        }
    }
}

/* ---- printing ------------------------------------------------------------ */

/* The letter of the job holding `n` in the grid: A, B, ... in order of
   first appearance; jobs[] collects the job ids, and `seen` (a table of
   JOB_SLOTS, open addressing) finds a job's place without a walk over
   the jobs before it. */
static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
#define JOB_SLOTS   (2 * MAX_NODES)

struct jobs {
    uint32_t id[MAX_NODES];
    int n;
    struct { uint32_t job; int at; } seen[JOB_SLOTS];   /* job 0: empty */
};

static char letter(const struct node *n, struct jobs *j)
{
    uint32_t h;

    if (!n->answered)
        return 'x';
    if (!n->st.job2)
        return '.';
    for (h = n->st.job2 * 2654435761u % JOB_SLOTS;
         j->seen[h].job && j->seen[h].job != n->st.job2;
         h = (h + 1) % JOB_SLOTS)
        ;
    if (!j->seen[h].job) {
        j->seen[h].job = n->st.job2;
        j->seen[h].at = j->n;
        j->id[j->n++] = n->st.job2;
    }
    return j->seen[h].at < (int)sizeof(abc) - 1 ? abc[j->seen[h].at] : '#';
}

static void print_table(int ms)
{
    printf("%5s  %-5s %-10s %-7s %9s %9s  %-16s %s\n", "NID", "STATE", "JOB",
           "RANK", "MEM-KIB", "FREE-KIB", "PROGRAM", "YOD");
    for (int i = 0; i < nnodes; i++) {
        const struct node *n = &nodes[i];
        const struct yod_msg *m = &n->st;
        char rank[40] = "-", mem[24] = "-", job[16] = "-", yod[16] = "-";
        if (!n->answered) {
            printf("%5u  %-5s (no answer in %.1f s: down, or busy loading "
                   "a program)\n", n->nid, "down", ms / 1e3);
            continue;
        }
        if (m->job2) {
            snprintf(job, sizeof(job), "%u", m->job2);
            snprintf(yod, sizeof(yod), "%lu", (unsigned long)m->addr);
            if (m->rank >= 0 && m->size > 0 && m->local > 1)
                snprintf(rank, sizeof(rank), "%d-%d/%d", m->rank,
                         m->rank + (int)m->local - 1, m->size);
            else if (m->rank >= 0 && m->size > 0)
                snprintf(rank, sizeof(rank), "%d/%d", m->rank, m->size);
        }
        if (m->image_len)
            snprintf(mem, sizeof(mem), "%lu",
                     (unsigned long)(m->image_len >> 10));
        printf("%5u  %-5s %-10s %-7s %9s %9lu  %-16s %s\n", n->nid,
               m->job2 ? "busy" : "free", job, rank, mem,
               (unsigned long)(m->args_len >> 10),
               m->text[0] ? m->text : m->job2 ? (m->status ? "?" :
                                                 "(claimed)") : "-", yod);
    }
}

/* "rank 3", "threads of rank 3", "Portals engine", "idle" */
static const char *cpu_use(const struct yod_msg *m, int c, char *buf,
                           size_t len)
{
    int rank = m->rank + YOD_CPU_LOCAL(m->cpu[c]);

    switch (YOD_CPU_USE(m->cpu[c])) {
    case YOD_CPU_RANK:
        snprintf(buf, len, "rank %d", rank);
        break;
    case YOD_CPU_THREADS:
        snprintf(buf, len, "threads of rank %d", rank);
        break;
    case YOD_CPU_ENGINE:
        snprintf(buf, len, "Portals engine");
        break;
    default:
        snprintf(buf, len, "idle");
    }
    return buf;
}

/* Per node, what each CPU runs (the PCT's STATE table, yod_proto.h):
   "    0  2    cpu0 rank 0 | cpu1 rank 1" */
static void print_cpus(void)
{
    char what[40];

    printf("\n%5s  %-4s %s\n", "NID", "CPUS", "WHAT EACH CPU RUNS (CPU 0 "
           "runs the PCT too)");
    for (int i = 0; i < nnodes; i++) {
        const struct yod_msg *m = &nodes[i].st;
        int shown = m->cpus < YOD_STATE_CPUS ? (int)m->cpus : YOD_STATE_CPUS;
        if (!nodes[i].answered)
            continue;
        printf("%5u  %-4u", nodes[i].nid, m->cpus);
        for (int c = 0; c < shown; c++)
            printf("%s cpu%d %s", c ? " |" : "", c,
                   cpu_use(m, c, what, sizeof(what)));
        if (shown < (int)m->cpus)
            printf(" | cpus %d-%u not shown", shown, m->cpus - 1);
        printf("\n");
    }
}

/* Cougar's picture: one character per node, GRID_ROW to a line. */
static void print_grid(void)
{
    static struct jobs jobs;

    for (int i = 0; i < nnodes; i++) {
        if (i % GRID_ROW == 0)
            printf("\n%5u  ", nodes[i].nid);
        putchar(letter(&nodes[i], &jobs));
    }
    printf("\n       . free  x down");
    for (int k = 0; k < jobs.n; k++)
        printf("  %c job %u", k < (int)sizeof(abc) - 1 ? abc[k] : '#',
               jobs.id[k]);
    printf("\n");
}

static void print_summary(void)
{
    static struct jobs jobs;
    int nfree = 0, nbusy = 0, ndown = 0;

    for (int i = 0; i < nnodes; i++) {
        const struct node *n = &nodes[i];
        if (!n->answered)
            ndown++;
        else if (!n->st.job2)
            nfree++;
        else {
            nbusy++;
            letter(n, &jobs);
        }
    }
    printf("%d nodes: %d free, %d busy (%d job%s), %d down\n", nnodes, nfree,
           nbusy, jobs.n, jobs.n == 1 ? "" : "s", ndown);
}

/* PtlNIFini waits (up to 10 s) until every peer has acknowledged our
   frames; a node that is down never will, so then only give the live
   ones a moment (our ACKs of their answers) and go. */
static void leave(void)
{
    ptl_event_t ev;
    unsigned which;

    for (int i = 0; i < nnodes; i++)
        if (!nodes[i].answered) {
            for (double end = now_ms() + 200; now_ms() < end;)
                PtlEQPoll(&P.eq, 1, 50, &ev, &which);
            return;
        }
    PtlNIFini(P.ni);
    PtlFini();
}

int main(int argc, char **argv)
{
    unsigned first = 1000, last = 1999;
    int ms = 3000;

    for (int i = 1; i < argc; i++) {
        char *end;
        if (!strcmp(argv[i], "-t") && i + 1 < argc) {
            ms = (int)strtol(argv[++i], &end, 10);
            if (*end || ms < 1 || ms > 600000) {
                fprintf(stderr, "showmesh: -t %s: give milliseconds, "
                        "1..600000\n", argv[i]);
                return 2;
            }
        } else {
            fprintf(stderr, "usage: showmesh [-t MS]  (wait MS ms for the "
                    "nodes' answers, default 3000; cluster: $LWK_CLUSTER)\n");
            return strcmp(argv[i], "-h") ? 2 : 0;
        }
    }
    cluster_find();
    read_cluster(&first, &last);
    if (!nnodes)
        die("the cluster in %s has no nodes", cluster);
    open_portals(cluster_service_nid(first, last));
    ask_all(ms);
    print_table(ms);
    print_cpus();
    print_grid();
    print_summary();
    leave();
    return 0;
}
