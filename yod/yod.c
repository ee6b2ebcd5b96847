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
#include "gdbserver.h"
#include "jobctl.h"
#include "postmortem.h"
#include "profile.h"
#include "stacks.h"
#include "yod_debug.h"
#include "ptl_host.h"
#include "ptl_linux.h"
#include "ioserver.h"
#include "uapi/abi.h"
#include "cluster.h"
#include "slurm.h"
#include "yod.h"

struct node nodes[MAX_NODES];
int nnodes;
struct node *job[MAX_RANKS];
uint32_t jobid;
unsigned self_nid;
volatile int stop_signal;
char *image;
size_t image_len;

/* ---- the program, checked before any node is touched ------------------- */

/* The Linux runtime's packed image (lxrt/, docs/LINUX.md): $LWK_LXRT, or
   next to this yod in the build tree (build/lxrt/) or an installed tree
   (share/lwk/). */
static char *slurp(const char *path, long *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;

    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (*len = ftell(f)) > 0 &&
        (buf = malloc(*len)) && fseek(f, 0, SEEK_SET) == 0 &&
        fread(buf, 1, *len, f) != (size_t)*len) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    return buf;
}

static char *read_runtime(long *len)
{
    static const char *const rel[] = { "../lxrt/lxrt.packed",
                                       "../share/lwk/lxrt.packed" };
    char dir[4096], path[4200];
    ssize_t n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
    char *buf = NULL;

    if (getenv("LWK_LXRT"))
        return slurp(getenv("LWK_LXRT"), len);
    if (n <= 0)
        return NULL;
    dir[n] = 0;
    *strrchr(dir, '/') = 0;
    for (int i = 0; i < 2 && !buf; i++) {
        snprintf(path, sizeof(path), "%s/%s", dir, rel[i]);
        buf = slurp(path, len);
    }
    return buf;
}

/* A Linux program takes its runtime along: image, runtime, trailer. */
static void add_runtime(const char *path)
{
    struct lwk_lxrt_trailer t = { LWK_LXRT_MAGIC, image_len };
    long n;
    char *rt = read_runtime(&n), *all;

    if (!rt)
        die("%s is a Linux program, but the Linux runtime (lxrt.packed) is "
            "not next to yod; set LWK_LXRT to it or run 'make'", path);
    if (!(all = realloc(image, image_len + n + sizeof(t))))
        die("%s: no memory for its image", path);
    memcpy(all + image_len, rt, n);
    memcpy(all + image_len + n, &t, sizeof(t));
    image = all;
    image_len += n + sizeof(t);
    free(rt);
}

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
        fprintf(stderr, "yod: %s: cannot run it on a compute node: %s\n",
                path, why);
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
    if (!img.lwk)
        add_runtime(path);
}

/* ---- the cluster ------------------------------------------------------------- */

/* Every nid -nodes names must be a node of the cluster (lo..hi). */
static void check_listed(unsigned lo, unsigned hi)
{
    unsigned first, last;
    char want[256];

    nodes_list_span(&first, &last);
    for (unsigned long nid = first; nid <= last; nid++) {
        int found;
        if (!nodes_listed(nid))
            continue;
        found = cluster_find_nid(nodes, nnodes, sizeof(nodes[0]), nid) != 0;
        if (!found && nid >= lo && nid <= hi && !slurm_allows(nid)) {
            snprintf(want, sizeof(want), "node %lu is not in %s", nid,
                     slurm_what());
            bad("-nodes", o.nodes, want);
        }
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
    FILE *f = cluster_nodes();

    while (fgets(line, sizeof(line), f) && nnodes < MAX_NODES) {
        unsigned nid;
        if (sscanf(line, "%u", &nid) != 1)
            continue;
        all++;
        lo = nid < lo ? nid : lo;
        hi = nid > hi ? nid : hi;
        if (nodes_listed(nid) && slurm_allows(nid))
            nodes[nnodes++] = (struct node){ .nid = nid, .rank = -1 };
    }
    fclose(f);
    cluster_sort_nids(nodes, nnodes, sizeof(nodes[0]));
    if (o.nodes)
        check_listed(lo, hi);
    if (nnodes < (o.mode == YOD_MODE_VN ? 1 : o.size) && slurm_what())
        die("%d nodes asked, %s has %d%s", o.size, slurm_what(), nnodes,
            o.nodes ? " of those listed" : "; ask for fewer, or allocate "
            "more (salloc -N, sbatch -N)");
    if (nnodes < (o.mode == YOD_MODE_VN ? 1 : o.size))
        die("%d nodes asked, the cluster in %s has %u%s", o.size, cluster,
            all, o.nodes ? "" : "; boot a bigger one (tools/cluster up -n N)");
    cluster_env(svc_first, svc_last);
}

/* ---- the job's output and its end -------------------------------------- */

/* Ranks that ended or were lost while the job ran: counted as they
   go, so the loop's "any left?" is not a walk over every rank. */
static int nended;

int ranks_left(void)
{
    return o.size - nended;
}

static void ended(struct node *n)
{
    nended += !n->exited;
    n->exited = 1;
}

/* A new attempt at the launch (launch.c fan_launch): the ends heard in
   the last one (the ranks it loaded, then freed) are not this one's. */
void ranks_forget_ends(void)
{
    nended = 0;
}

/* Writing the job's output failed (errno says why).  A closed pipe (yod |
   head) means no one reads it: end the job quietly, with SIGPIPE's status
   as a shell shows it.  Anything else (a full disk) is said once, and the
   status will say output was lost.  Either way the rank whose output it
   was hears of it (output). */
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
   so ranks' lines never mix, however the program split its writes.
   0, or the errno of the write that failed. */
static int flush_line(struct node *n, int i)
{
    FILE *f = i ? stderr : stdout;
    int err = 0;

    if (!n->len[i])
        return 0;
    if ((o.label && fprintf(f, "[%d] ", n->rank) < 0) ||
        fwrite(n->line[i], 1, n->len[i], f) != n->len[i] || fflush(f) != 0) {
        err = errno ? errno : EIO;
        output_failed(f);
    }
    n->len[i] = 0;
    return err;
}

/* Output from rank (hdr_data >> 8) & 0xffffff, fd hdr_data & 0xff, only
   if that rank sent it (auth.c).  The rank waits for our answer: whether
   the lines its bytes ended were written (the bytes of a line not yet
   ended wait here for it, as in a pipe's buffer).  When no one reads our
   output any more the job is being killed, as SIGPIPE would end a Linux
   writer: its write does not return. */
void output(const ptl_event_t *ev)
{
    int rank = (int)(ev->hdr_data >> 8 & 0xffffff);
    int i = (ev->hdr_data & 0xff) == 2;
    struct node *n = rank < o.size ? job[rank] : NULL;
    const char *p = ev->start;
    int err = 0, e;

    if (!n) {
        auth_drop(AUTH_OUTPUT);
        return;
    }
    if (!auth_output(ev, n))
        return;
    for (ptl_size_t k = 0; k < ev->mlength; k++) {
        n->line[i][n->len[i]++] = p[k];
        if ((p[k] == '\n' || n->len[i] == sizeof(n->line[i])) &&
            (e = flush_line(n, i)) && !err)
            err = e;
    }
    if (end.out_status != 128 + SIGPIPE)
        answer_output(ev, err ? fileio_errno_code(err) : 0);
}

/* A node of the job is gone (n speaks for its ranks): say so at once,
   and end the job. */
void lost(struct node *n, const char *what)
{
    char ranks[48];
    int last = n->rank + (n->nlocal > 1 ? n->nlocal : 1) - 1;

    for (int r = n->rank; r >= 0 && r <= last && r < o.size; r++) {
        job[r]->down = 1;
        ended(job[r]);
    }
    n->down = 1;
    ended(n);
    if (last > n->rank)
        snprintf(ranks, sizeof(ranks), "ranks %d-%d", n->rank, last);
    else
        snprintf(ranks, sizeof(ranks), "rank %d", n->rank);
    fprintf(stderr, "yod: node %u (%s) %s%s\n", n->nid, ranks, what,
            ranks_left() && !end.kill_now ? "; killing the job" : "");
    end.kill_now = 1;
}

/* yod's link to a live rank gave up (PTL_NI_UNDELIVERABLE): what it
   wrote or asked may be lost, and it waits for an answer that cannot
   come.  The job ends, loudly (status 125), never as a success. */
void link_failed(int rank, const char *what)
{
    struct node *n = job[rank];

    if (end.io_lost)
        return;                 /* the first says it */
    fprintf(stderr, "yod: rank %d (nid %u): %s could not be delivered: its "
            "link to yod failed, its output and files may be incomplete%s\n",
            rank, n->nid, what, ranks_left() && !end.kill_now ?
            "; killing the job" : "");
    end.io_lost = end.kill_now = 1;
}

/* A rank ended: an abort, a fault (unless -keep) or, with
   -kill-on-error, a nonzero exit ends the others too (end.c). */
void rank_ended(struct node *n, const struct yod_msg *m)
{
    flush_line(n, 0);           /* a last line without a newline */
    flush_line(n, 1);
    n->exit = *m;
    ended(n);
    n->held = (m->flags & YOD_EXIT_HELD) != 0;
    gdbserver_ended(n->rank, m);
    fileio_rank_ended(n->rank);
    ioservers_rank_ended(n->rank);
    if (end_of_rank(n))
        end.kill_now = 1;
}

/* ---- the job ----------------------------------------------------------------- */

static void count_dropped(void)
{
    auth_drop(AUTH_FILE);
}

/* File requests from the ranks (fileio.c), served from their start: yod
   is I/O server 0, the others serve their ranks too (ioserver.c). */
static void start_fileio(void)
{
    static unsigned nids[MAX_RANKS];
    struct fileio_job j = { .ni = yod_ni, .eq = yod_eq, .size = o.size,
                            .nids = nids, .job_key = auth_job_key(),
                            .chroot = o.chroot, .pfs = o.pfs,
                            .dropped = count_dropped,
                            .link_failed = link_failed };

    for (int r = 0; r < o.size; r++) {
        nids[r] = job[r]->nid;
        job[r]->rank_key = auth_rank_key(r);
    }
    ioservers_own(&j.first, &j.last);
    if (fileio_start(&j) < 0) {
        free_all();
        die("cannot serve the ranks' files: %s", strerror(errno));
    }
    ioservers_map();
}

static void on_signal(int sig)
{
    stop_signal = sig;
}

/* -debug: those ranks stop before they start, each served to gdb. */
static void debug_start(void)
{
    for (int r = 0; o.debug && r < o.size; r++)
        if (list_has(o.debug, r) && gdbserver_open(r, 0, NULL, 0) < 0) {
            free_all();
            die("rank %d could not be stopped for gdb", r);
        }
}

/* The job is being killed because something went wrong: a rank faulted
   or aborted, the time limit, a signal.  Its stacks are wanted then; not
   when a rank's exit ended it (-kill-on-error, or it left the parallel
   job: yod's line says all there is), nor a lost node (the network is in
   question: the job must end now, not after requests that may not be
   answered), nor when nothing reads its output any more (yod | head). */
static int abnormal_end(void)
{
    int lost = 0, died = 0;

    for (int r = 0; r < o.size; r++) {
        lost |= job[r]->down;
        died |= job[r]->exited && (job[r]->exit.reason == LWK_STOP_FAULT ||
                                   job[r]->exit.reason == LWK_STOP_ABORT);
    }
    if (end.out_status == 128 + SIGPIPE || lost)
        return 0;
    return stop_signal || end.timed_out || died;
}

/* KILL to every node with a rank still running, once each. */
static void kill_all(void)
{
    static struct node *list[MAX_RANKS];
    int k = 0;

    for (int r = 0; r < o.size; r++) {
        struct node *n = leader_of(job[r]);
        if (!job[r]->exited && (!k || list[k - 1] != n))
            list[k++] = n;
    }
    request_all(list, k, YOD_KILL, 0);
}

/* Output until every rank has ended.  KILL the rest on a signal, at the
   time limit (-t), or when the job must end (a rank's end that ends it:
   end.c; a lost node, a closed output pipe). */
static void run(void)
{
    double deadline = o.timeout ? now_ms() + o.timeout * 1e3 : 0;
    double give_up = 0;

    watch_nodes(1);
    while (ranks_left()) {
        pump(100);
        jobctl_poll();
        postmortem_held();
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
        if (abnormal_end())     /* their stacks, before they go */
            stacks_take_live(0);
        kill_all();
        end.killing = 1;
        give_up = now_ms() + ANSWER_MS;    /* then stop waiting */
    }
    /* Over: free_all() comes next, and a node it has freed answers a ping
       still on its way with "no job", which is no fault of the node. */
    watch_nodes(0);
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

/* YOD_TIMING: when each phase ended, and yod's frames (a storm of
   resends or duplicates shows here first). */
static void timing(double t0, double loaded, double started, double ended)
{
    struct ptl_lib_stats st;

    ptl_lib_get_stats(ptl_linux_lib(0), &st);
    fprintf(stderr, "yod: timing: %s, %d ranks: loaded %.0f ms, started "
            "%.0f ms, ended %.0f ms, freed %.0f ms after yod started; "
            "frames sent %lu received %lu, resent %lu (probes %lu), duplicates "
            "%lu\n",
            fan_out() ? "fan-out" : "direct", o.size, loaded - t0,
            started - t0, ended - t0, now_ms() - t0,
            (unsigned long)st.tx_frames, (unsigned long)st.rx_frames,
            (unsigned long)st.rtx_frames, (unsigned long)st.tx_probes,
            (unsigned long)st.rx_dup);
}

int main(int argc, char **argv)
{
    unsigned first = 1000, last = 1999;
    struct sigaction sa = { .sa_handler = on_signal };
    int status;
    double t0 = now_ms(), t_loaded, t_started, t_ended;

    if (argc == 2 && !strcmp(argv[1], "--io-server"))
        iod_main(IOD_FD, IOD_FD);   /* an I/O server of a yod (ioserver.c) */
    if (argc == 2 && !strcmp(argv[1], "--io-server-stdio"))
        iod_main(0, 1);             /* the same on another host (ssh) */
    die_status = ST_CANNOT_RUN;
    parse_args(argc, argv);
    if (o.ask)
        return jobctl_ask(o.ask_job, o.ask);
    read_program(o.argv[0]);
    cluster_find();
    slurm_allocation();
    read_cluster(&first, &last);
    ioservers_count();
    args_fit();
    auth_init();
    self_nid = cluster_service_nid(first, last);
    jobid = (uint32_t)getpid();
    auth_job();
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);   /* a closed pipe is output_failed's */
    signal(SIGXFSZ, SIG_IGN);   /* past ulimit -f: EFBIG, not our end */
    open_portals(self_nid);
    ioservers_start(o.io);
    launch();
    start_fileio();
    jobctl_open();
    debug_start();
    t_loaded = now_ms();
    every_rank(YOD_START, "start");
    t_started = now_ms();
    run();
    ioservers_end();
    t_ended = now_ms();
    gdbserver_close_all();
    jobctl_close();
    status = report();
    stacks_report();
    profile_report();
    free_all();
    auth_report();
    if (getenv("YOD_TIMING"))   /* tests/bench/yod/run */
        timing(t0, t_loaded, t_started, t_ended);
    leave();
    return status;
}
