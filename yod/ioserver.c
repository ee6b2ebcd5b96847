/* SPDX-License-Identifier: MIT */
/*
 * ioserver.c: yod's side of a job's I/O servers (ioserver.h; docs/io.md).
 * yod -io N serves the ranks of server 0 itself and starts N-1 servers,
 * each yod run again as `yod --io-server` with a socket pair on its fd 3:
 * a process of its own (its own station, nid and Portals library, its
 * own CPU), with yod's rights and no more, which dies with yod.  Why
 * processes and not threads of yod or daemons of the cluster: docs/io.md.
 *
 * yod tells each its job over the socket (the keys never go on the
 * wire), learns its nid for the ranks' LWK_YOD, and watches it: the
 * socket's end of file is a server that died, and the job ends at once,
 * naming the server and the files it had open for writing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cluster.h"
#include "fileio.h"
#include "ioserver.h"
#include "yod.h"

#define NAMED   8               /* files open for writing kept per server */

static struct server {
    pid_t pid;
    int sock;                   /* -1: gone */
    unsigned nid;
    int ending;                 /* END sent: its end of file is no death */
    struct { int rank, fd; char path[96]; } open[NAMED];
} S[YOD_IO_SERVERS_MAX];
static int nservers = 1;        /* server 0 is yod */
static char list[YOD_IO_SERVERS_MAX * 24];

static void send_to(struct server *s, const void *m, size_t len)
{
    if (s->sock >= 0 && send(s->sock, m, len, MSG_NOSIGNAL) != (ssize_t)len)
        fprintf(stderr, "yod: cannot reach I/O server %d: %s\n",
                (int)(s - S), strerror(errno));
}

/* The next message of a server within `ms`: its length, 0 at end of
   file (the server is gone), -1 if none came. */
static ssize_t recv_from(struct server *s, struct iod_msg *m, int ms)
{
    struct pollfd p = { .fd = s->sock, .events = POLLIN };
    ssize_t n;

    if (poll(&p, 1, ms) <= 0)
        return -1;
    n = recv(s->sock, m, sizeof(*m), MSG_DONTWAIT);
    return n < 0 && errno == EAGAIN ? -1 : n < 0 ? 0 : n;
}

/* yod run again as a server: fd 3 the socket, stdin /dev/null (rank 0,
   whose stdin is yod's, is always server 0's).  Between fork and exec
   only async-signal-safe calls: yod has threads (libportals'). */
static void spawn(struct server *s)
{
    char *argv[] = { "yod", "--io-server", NULL };
    extern char **environ;
    int sv[2];

    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
        die("cannot start an I/O server: socketpair: %s", strerror(errno));
    if ((s->pid = fork()) < 0)
        die("cannot start an I/O server: fork: %s", strerror(errno));
    if (s->pid == 0) {
        int null = open("/dev/null", O_RDONLY);

        if (null < 0 || dup2(null, 0) < 0 ||
            (sv[1] == IOD_FD ? fcntl(IOD_FD, F_SETFD, 0)
                             : dup2(sv[1], IOD_FD)) < 0)
            _exit(127);
        execve("/proc/self/exe", argv, environ);
        _exit(127);
    }
    close(sv[1]);
    s->sock = sv[0];
}

/* How a server ended, for a line: "was killed by signal 9". */
static void how_ended(struct server *s, char *buf, size_t len)
{
    int st;

    if (waitpid(s->pid, &st, 0) != s->pid)
        snprintf(buf, len, "is gone");
    else if (WIFSIGNALED(st))
        snprintf(buf, len, "was killed by signal %d (%s)", WTERMSIG(st),
                 strsignal(WTERMSIG(st)));
    else
        snprintf(buf, len, "exited with status %d", WEXITSTATUS(st));
    close(s->sock);
    s->sock = -1;
}

/* -io N, else the cluster's LWK_IO_SERVERS (tools/cluster up --io N,
   in its env file, which cluster_env put in ours), else 1. */
void ioservers_count(void)
{
    const char *site = getenv("LWK_IO_SERVERS");
    char *end;
    long n;

    if (o.io)
        return;
    o.io = 1;
    if (!site || !*site)
        return;
    n = strtol(site, &end, 10);
    if (*end || n < 1 || n > YOD_IO_SERVERS_MAX)
        die("the cluster's LWK_IO_SERVERS=%s (in %s/env) is not a number of "
            "I/O servers, 1..%d; boot it again with tools/cluster up --io N",
            site, cluster, YOD_IO_SERVERS_MAX);
    o.io = (int)n;
}

void ioservers_start(int n)
{
    struct iod_setup set = { .type = IOD_SETUP, .servers = n,
                             .size = o.size,
                             .transport_key = auth_transport_key() };
    struct iod_msg m;
    char how[96];
    size_t len;

    nservers = n;
    snprintf(set.cluster, sizeof(set.cluster), "%s", cluster);
    snprintf(set.chroot, sizeof(set.chroot), "%s", o.chroot ? o.chroot : "");
    for (int i = 1; i < n; i++) {
        spawn(&S[i]);
        set.index = i;
        send_to(&S[i], &set, sizeof(set));
    }
    len = (size_t)snprintf(list, sizeof(list), "%u:%d", self_nid, YOD_PID);
    for (int i = 1; i < n; i++) {
        if (recv_from(&S[i], &m, ANSWER_MS) <= 0 || m.type != IOD_READY) {
            how_ended(&S[i], how, sizeof(how));
            die("I/O server %d (pid %d) did not start: it %s", i,
                (int)S[i].pid, how);
        }
        S[i].nid = m.nid;
        len += (size_t)snprintf(list + len, sizeof(list) - len, ",%u:%d",
                                m.nid, YOD_IOD_PID);
    }
}

const char *ioservers_list(void)
{
    static char longest[sizeof(list)];

    if (list[0])
        return list;
    /* args_fit, before any server is up: the longest list there can be */
    for (int i = 0, len = 0; i < o.io; i++)
        len += snprintf(longest + len, sizeof(longest) - len, "%s99999:%d",
                        i ? "," : "", i ? YOD_IOD_PID : YOD_PID);
    return longest;
}

void ioservers_map(void)
{
    static struct iod_map map = { .type = IOD_MAP };
    struct iod_msg m;
    char how[96];

    map.job_key = auth_job_key();
    for (int r = 0; r < o.size; r++)
        map.nids[r] = job[r]->nid;
    for (int i = 1; i < nservers; i++)
        send_to(&S[i], &map, sizeof(map));
    for (int i = 1; i < nservers; i++)
        if (recv_from(&S[i], &m, ANSWER_MS) <= 0 || m.type != IOD_SERVING) {
            how_ended(&S[i], how, sizeof(how));
            free_all();
            die("I/O server %d (nid %u) cannot serve the job: it %s", i,
                S[i].nid, how);
        }
}

/* ---- what a server says while the job runs ---------------------------- */

static void opened(struct server *s, const struct iod_msg *m)
{
    for (int k = 0; k < NAMED; k++)
        if (!s->open[k].path[0]) {
            s->open[k].rank = m->rank;
            s->open[k].fd = m->fd;
            snprintf(s->open[k].path, sizeof(s->open[k].path), "%.*s",
                     (int)sizeof(s->open[k].path) - 1, m->text);
            return;
        }
}

static void closed(struct server *s, int rank, int fd)
{
    for (int k = 0; k < NAMED; k++)
        if (s->open[k].path[0] && s->open[k].rank == rank &&
            (fd < 0 || s->open[k].fd == fd))
            s->open[k].path[0] = 0;
}

/* "big.0 (rank 2), out (rank 3)": what it had open for writing. */
static void open_names(struct server *s, char *buf, size_t len)
{
    size_t n = 0;

    buf[0] = 0;
    for (int k = 0; k < NAMED && n < len; k++)
        if (s->open[k].path[0])
            n += (size_t)snprintf(buf + n, len - n, "%s%s (rank %d)",
                                  n ? ", " : "", s->open[k].path,
                                  s->open[k].rank);
}

/* The server is gone while the job runs: nothing it was asked since can
   be trusted to be done, and its ranks wait for answers that cannot
   come.  yod says which server and which files, and ends the job. */
static void died(struct server *s)
{
    int i = (int)(s - S), first = -1, last = -1;
    char how[96], files[400], ranks[40];

    how_ended(s, how, sizeof(how));
    for (int r = 0; r < o.size; r++)
        if (yod_io_server_of(r, o.size, nservers) == i) {
            first = first < 0 ? r : first;
            last = r;
        }
    open_names(s, files, sizeof(files));
    if (first == last)
        snprintf(ranks, sizeof(ranks), "rank %d", first);
    else
        snprintf(ranks, sizeof(ranks), "ranks %d-%d", first, last);
    fprintf(stderr, "yod: I/O server %d (nid %u, pid %d) %s while serving "
            "%s; %s%s%s%s\n", i, s->nid, (int)s->pid, how, ranks,
            files[0] ? "files open for writing there: " : "",
            files[0] ? files : "no file open for writing there",
            files[0] ? " (what it had not acknowledged may be lost)" : "",
            ranks_left() && !end.kill_now ? "; killing the job" : "");
    end.io_lost = end.kill_now = 1;
}

void ioservers_poll(void)
{
    struct iod_msg m;
    ssize_t n;

    for (int i = 1; i < nservers; i++) {
        struct server *s = &S[i];

        while (s->sock >= 0 && !s->ending &&
               (n = recv_from(s, &m, 0)) != -1) {
            if (n == 0)
                died(s);
            else if (m.type == IOD_OPENED)
                opened(s, &m);
            else if (m.type == IOD_CLOSED)
                closed(s, m.rank, m.fd);
            else if (m.type == IOD_LINK)
                link_failed(m.rank, m.text);
        }
    }
}

void ioservers_rank_ended(int rank)
{
    struct iod_msg m = { .type = IOD_ENDED, .rank = rank };
    struct server *s = &S[yod_io_server_of(rank, o.size, nservers)];

    if (s == S)
        return;                 /* yod's own: fileio_rank_ended */
    closed(s, rank, -1);
    send_to(s, &m, sizeof(m));
}

void ioservers_end(void)
{
    struct iod_msg m = { .type = IOD_END };
    char how[96];

    ioservers_poll();           /* a server that died at the very end */
    for (int i = 1; i < nservers; i++)
        if (S[i].sock >= 0) {
            send_to(&S[i], &m, sizeof(m));
            S[i].ending = 1;
        }
    for (int i = 1; i < nservers; i++) {
        ssize_t n;

        if (S[i].sock < 0)
            continue;
        while ((n = recv_from(&S[i], &m, ANSWER_MS)) > 0 &&
               m.type != IOD_DONE)
            ;                   /* OPENED and such, too late to matter */
        if (n > 0)
            auth_dropped(AUTH_FILE, m.count);
        else
            kill(S[i].pid, SIGKILL);        /* it does not answer */
        how_ended(&S[i], how, sizeof(how));
    }
}
