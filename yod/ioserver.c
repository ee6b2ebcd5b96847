/* SPDX-License-Identifier: MIT */
/*
 * ioserver.c: yod's side of a job's I/O servers (ioserver.h; docs/io.md).
 * yod -io N serves some ranks itself and starts the other servers, each
 * yod run again as `yod --io-server`: a process of its own (its own
 * station, nid and Portals library, its own CPU), with yod's rights and no
 * more, which dies with yod.  On a partition of several hosts each host
 * with nodes for the job gets its own servers, started there through
 * $LWK_RSH (ssh), and serves the ranks of its own nodes, as Blue Gene's
 * I/O nodes served their psets.  Why processes and not threads of yod or
 * daemons of the cluster: docs/io.md.
 *
 * yod tells each its job over a stream (the keys never go on the wire),
 * learns its nid for the ranks' LWK_YOD, and watches it: the stream's
 * end of file is a server that died, and the job ends at once, naming the
 * server and the files it had open for writing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cluster.h"
#include "fileio.h"
#include "ioserver.h"
#include "yod.h"

#define NAMED       8           /* files open for writing kept per server */
#define HOSTS_MAX   YOD_IO_SERVERS_MAX
#define SERVERS_MAX (YOD_IO_SERVERS_MAX * HOSTS_MAX)

/* A host with nodes for the job: "HOSTNAME:DIR" as the partition names
   it ("" for yod's own), and its servers S[first..first+count-1]. */
static struct host {
    char id[PATH_MAX + 64];
    int first, count;
} H[HOSTS_MAX];
static int nhosts;

static struct server {
    pid_t pid;
    int sock;                   /* -1: gone */
    unsigned nid;
    int host;                   /* H[host] */
    int first, last;            /* the ranks it serves */
    int ending;                 /* END sent: its end of file is no death */
    struct iod_msg in;          /* a message coming in */
    size_t got;                 /* its bytes so far */
    struct { int rank, fd; char path[96]; } open[NAMED];
} S[SERVERS_MAX];               /* S[0] is yod */
static int nservers = 1;
static int started;
static char list[SERVERS_MAX * 32];

/* ---- the job's hosts ------------------------------------------------------ */

/* This host as the partition names it (tools/lwkcluster/partition.py). */
static void own_id(char *buf, size_t len)
{
    char name[256], dir[PATH_MAX];

    if (gethostname(name, sizeof(name)) < 0)
        name[0] = 0;
    name[sizeof(name) - 1] = 0;
    if (!realpath(cluster, dir))
        snprintf(dir, sizeof(dir), "%s", cluster);
    snprintf(buf, len, "%s:%s", name, dir);
}

/* Is the partition's "HOST:DIR" this host (id from own_id)? */
static int is_own(const char *host, const char *id)
{
    char dir[PATH_MAX], want[PATH_MAX + 64];
    const char *colon = strchr(host, ':');

    if (!colon)
        return 1;
    if (!realpath(colon + 1, dir))
        return 0;               /* no such directory here: another host */
    snprintf(want, sizeof(want), "%.*s:%s", (int)(colon - host), host, dir);
    return !strcmp(want, id);
}

/* The host of every node yod may use (a partition of several hosts lists
   them; else every node is this host's); hosts in nid order, this host
   first.  A host's index goes in n->got.spare, read back by host_of. */
static int node_host[MAX_NODES];

static void find_hosts(void)
{
    char line[PATH_MAX + 128], host[PATH_MAX + 64], me[PATH_MAX + 64];
    char path[PATH_MAX + 16];
    FILE *f;

    nhosts = 1;                 /* H[0]: yod's own, id "" */
    snprintf(path, sizeof(path), "%s/partition", cluster);
    if (!(f = fopen(path, "r")))
        return;
    own_id(me, sizeof(me));
    while (fgets(line, sizeof(line), f)) {
        unsigned nid;
        int h = 0;

        if (sscanf(line, "%u %s", &nid, host) != 2 || is_own(host, me))
            continue;
        for (h = 1; h < nhosts && strcmp(H[h].id, host); h++)
            ;
        if (h == nhosts && nhosts < HOSTS_MAX)
            snprintf(H[nhosts++].id, sizeof(H[0].id), "%s", host);
        for (int i = 0; i < nnodes; i++)
            if (nodes[i].nid == nid)
                node_host[i] = h < nhosts ? h : 0;
    }
    fclose(f);
}

static int host_of(const struct node *n)
{
    return node_host[leader_of((struct node *)n) - nodes];
}

/* ---- starting the servers ------------------------------------------------- */

static void send_to(struct server *s, const void *m, size_t len)
{
    if (s->sock >= 0 && send(s->sock, m, len, MSG_NOSIGNAL) != (ssize_t)len)
        fprintf(stderr, "yod: cannot reach I/O server %d: %s\n",
                (int)(s - S), strerror(errno));
}

/* The next message of a server within `ms`: 1 with it in s->in, 0 at end
   of file (the server is gone), -1 if none came whole. */
static int recv_from(struct server *s, int ms)
{
    struct pollfd p = { .fd = s->sock, .events = POLLIN };
    double end = now_ms() + ms;
    ssize_t n;

    for (;;) {
        n = recv(s->sock, (char *)&s->in + s->got, sizeof(s->in) - s->got,
                 MSG_DONTWAIT);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
            return 0;
        if (n > 0 && (s->got += (size_t)n) == sizeof(s->in)) {
            s->got = 0;
            return 1;
        }
        if (n < 0 && (ms <= 0 || now_ms() > end ||
                      poll(&p, 1, (int)(end - now_ms()) + 1) < 0))
            return -1;
    }
}

/* yod run again as a server, its stream on `fd` (0 and 1 for `--io-
   server-stdio`, 3 for `--io-server`), stdin /dev/null otherwise (rank 0,
   whose stdin is yod's, is always yod's).  Between fork and exec only
   async-signal-safe calls: yod has threads (libportals'). */
static void exec_server(int fd, const char *host, const char *self)
{
    extern char **environ;
    char cmd[PATH_MAX + 32];
    int null = open("/dev/null", O_RDONLY);

    if (!host) {
        char *argv[] = { "yod", "--io-server", NULL };
        if (null < 0 || dup2(null, 0) < 0 || (fd == IOD_FD
            ? fcntl(IOD_FD, F_SETFD, 0) : dup2(fd, IOD_FD)) < 0)
            _exit(127);
        execve("/proc/self/exe", argv, environ);
    } else {
        /* the same yod on the other host (a shared install), through
           $LWK_RSH, which the shell splits into words as partition.py */
        char *argv[] = { "sh", "-c", "exec ${LWK_RSH:-ssh -o BatchMode=yes} "
                         "\"$0\" \"$1\"", (char *)host, cmd, NULL };
        char *p = cmd;

        for (const char *c = "'"; *c; c++)
            *p++ = *c;
        for (const char *c = self; *c && p < cmd + PATH_MAX; c++)
            *p++ = *c == '\'' ? '_' : *c;
        for (const char *c = "' --io-server-stdio"; *c; c++)
            *p++ = *c;
        *p = 0;
        if (dup2(fd, 0) < 0 || dup2(fd, 1) < 0)
            _exit(127);
        execve("/bin/sh", argv, environ);
    }
    _exit(127);
}

/* Start server s on host h ("" or NULL: here). */
static void spawn(struct server *s, const char *host)
{
    static char self[PATH_MAX];
    char hostname[PATH_MAX + 64];
    int sv[2];

    if (!self[0] && readlink("/proc/self/exe", self, sizeof(self) - 1) < 0)
        die("cannot start an I/O server: where is yod? %s", strerror(errno));
    if (host && host[0]) {          /* "HOST:DIR": the host's name */
        snprintf(hostname, sizeof(hostname), "%.*s",
                 (int)strcspn(host, ":"), host);
        host = hostname;
    } else {
        host = NULL;
    }
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
        die("cannot start an I/O server: socketpair: %s", strerror(errno));
    if ((s->pid = fork()) < 0)
        die("cannot start an I/O server: fork: %s", strerror(errno));
    if (s->pid == 0)
        exec_server(sv[1], host, self);
    close(sv[1]);
    s->sock = sv[0];
}

/* How a server ended, for a line: "was killed by signal 9". */
static void how_ended(struct server *s, char *buf, size_t len)
{
    int st;

    close(s->sock);             /* an ssh in between ends with its stream */
    s->sock = -1;
    if (waitpid(s->pid, &st, 0) != s->pid)
        snprintf(buf, len, "is gone");
    else if (WIFSIGNALED(st))
        snprintf(buf, len, "was killed by signal %d (%s)", WTERMSIG(st),
                 strsignal(WTERMSIG(st)));
    else
        snprintf(buf, len, "exited with status %d", WEXITSTATUS(st));
}

/* -pfs DIR, else the cluster's LWK_PFS (tools/cluster up --pfs DIR):
   a directory every server can write, by its absolute path (the servers
   work on the same files: docs/io.md). */
static void pfs_dir(void)
{
    const char *dir = o.pfs ? o.pfs : getenv("LWK_PFS");
    struct stat st;
    char *real;

    if (!dir || !*dir) {
        o.pfs = NULL;
        return;
    }
    errno = 0;
    if (!(real = realpath(dir, NULL)) || stat(real, &st) < 0 ||
        !S_ISDIR(st.st_mode) || access(real, W_OK | X_OK) < 0) {
        const char *why = errno ? strerror(errno) : "not a directory";
        if (o.pfs) {
            fprintf(stderr, "yod: -pfs %s: %s; give a directory the I/O "
                    "servers may write\n", dir, why);
            exit(2);
        }
        die("the cluster's LWK_PFS=%s (in %s/env): %s; boot it again with "
            "tools/cluster up --pfs DIR", dir, cluster, why);
    }
    o.pfs = real;
}

/* -io N, else the cluster's LWK_IO_SERVERS (tools/cluster up --io N,
   in its env file, which cluster_env put in ours), else 1; never more
   than the ranks (a server with no rank would serve nothing).  Only when
   one of them says so do the other hosts of a partition get servers of
   their own: by default yod alone serves every rank, as it always did,
   and needs no remote shell. */
void ioservers_count(void)
{
    const char *site = getenv("LWK_IO_SERVERS");
    int asked = o.io || (site && *site);
    char *end;
    long n;

    if (!o.io && site && *site) {
        n = strtol(site, &end, 10);
        if (*end || n < 1 || n > YOD_IO_SERVERS_MAX)
            die("the cluster's LWK_IO_SERVERS=%s (in %s/env) is not a "
                "number of I/O servers, 1..%d; boot it again with "
                "tools/cluster up --io N", site, cluster,
                YOD_IO_SERVERS_MAX);
        o.io = (int)n;
    }
    if (!o.io)
        o.io = 1;
    pfs_dir();
    if (o.io > o.size)
        o.io = o.size;
    nhosts = 1;
    if (asked)
        find_hosts();
}

/* N servers for each host (yod one of its own host's), each told its
   job; READY from every one of them. */
void ioservers_start(int n)
{
    static struct iod_setup set = { .type = IOD_SETUP };
    char how[96], me[PATH_MAX + 64];
    const char *dir;

    own_id(me, sizeof(me));
    started = 1;
    set.size = o.size;
    set.transport_key = auth_transport_key();
    if (!getcwd(set.cwd, sizeof(set.cwd)))
        die("cannot start the I/O servers: getcwd: %s", strerror(errno));
    snprintf(set.chroot, sizeof(set.chroot), "%s", o.chroot ? o.chroot : "");
    snprintf(set.pfs, sizeof(set.pfs), "%s", o.pfs ? o.pfs : "");
    for (int h = 0; h < nhosts; h++) {
        H[h].first = h ? nservers : 0;
        H[h].count = n;
        for (int k = h ? 0 : 1; k < n && nservers < SERVERS_MAX; k++) {
            struct server *s = &S[nservers];
            s->host = h;
            spawn(s, H[h].id);
            dir = h ? strchr(H[h].id, ':') + 1 : strchr(me, ':') + 1;
            snprintf(set.cluster, sizeof(set.cluster), "%s", dir);
            set.index = nservers++;
            send_to(s, &set, sizeof(set));
        }
    }
    for (int i = 1; i < nservers; i++) {
        if (recv_from(&S[i], ANSWER_MS * 3) != 1 ||
            S[i].in.type != IOD_READY) {
            how_ended(&S[i], how, sizeof(how));
            die("I/O server %d (pid %d%s%s) did not start: it %s%s", i,
                (int)S[i].pid, S[i].host ? ", on " : "",
                S[i].host ? H[S[i].host].id : "", how, S[i].host ?
                " (started through $LWK_RSH, default ssh -o BatchMode=yes, "
                "with the same yod there)" : "");
        }
        S[i].nid = S[i].in.nid;
    }
}

/* ---- which server serves which ranks -------------------------------------- */

/* Each host's ranks (those on its nodes) in even blocks over its servers
   (yod_io_server_of); ranks on a host without servers are yod's. */
static void assign(void)
{
    for (int i = 0; i < nservers; i++) {
        S[i].first = 0;
        S[i].last = -1;
    }
    for (int h = 0; h < nhosts; h++) {
        int first = -1, last = -1;

        for (int r = 0; r < o.size && job[r]; r++)
            if (host_of(job[r]) == h) {
                first = first < 0 ? r : first;
                last = r;       /* nids in order: a host's ranks are one run */
            }
        for (int k = 0; first >= 0 && k < H[h].count; k++) {
            struct server *s = &S[H[h].first + k];
            for (int r = first; r <= last; r++)
                if (yod_io_server_of(r - first, last - first + 1,
                                     H[h].count) == k) {
                    s->first = s->last >= s->first ? s->first : r;
                    s->last = r;
                }
        }
    }
}

const char *ioservers_list(void)
{
    size_t len = 0;

    if (!started) {
        /* args_fit, before any server is up: the longest list there can
           be (every host's servers) */
        for (int i = 0; i < o.io * nhosts && len < sizeof(list); i++)
            len += (size_t)snprintf(list + len, sizeof(list) - len,
                                    "%s99999:%d@511-511", i ? "," : "",
                                    YOD_IOD_PID);
        return list;
    }
    assign();
    if (nservers == 1) {        /* yod alone: NID:PID, every rank's */
        snprintf(list, sizeof(list), "%u:%d", self_nid, YOD_PID);
        return list;
    }
    for (int i = 0; i < nservers; i++)
        len += (size_t)snprintf(list + len, sizeof(list) - len,
                                "%s%u:%d@%d-%d", i ? "," : "",
                                i ? S[i].nid : self_nid,
                                i ? YOD_IOD_PID : YOD_PID, S[i].first,
                                S[i].last);
    return list;
}

void ioservers_own(int *first, int *last)
{
    assign();
    *first = S[0].first;
    *last = S[0].last;
}

void ioservers_map(void)
{
    static struct iod_map map = { .type = IOD_MAP };
    char how[96];

    assign();
    map.job_key = auth_job_key();
    for (int r = 0; r < o.size; r++)
        map.nids[r] = job[r]->nid;
    for (int i = 1; i < nservers; i++) {
        map.first = S[i].first;
        map.last = S[i].last;
        send_to(&S[i], &map, sizeof(map));
    }
    for (int i = 1; i < nservers; i++)
        if (recv_from(&S[i], ANSWER_MS) != 1 || S[i].in.type != IOD_SERVING) {
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
    char how[96], files[400], ranks[40];

    how_ended(s, how, sizeof(how));
    open_names(s, files, sizeof(files));
    if (s->last < s->first)
        snprintf(ranks, sizeof(ranks), "no rank");
    else if (s->first == s->last)
        snprintf(ranks, sizeof(ranks), "rank %d", s->first);
    else
        snprintf(ranks, sizeof(ranks), "ranks %d-%d", s->first, s->last);
    fprintf(stderr, "yod: I/O server %d (nid %u, pid %d) %s while serving "
            "%s; %s%s%s%s\n", (int)(s - S), s->nid, (int)s->pid, how, ranks,
            files[0] ? "files open for writing there: " : "",
            files[0] ? files : "no file open for writing there",
            files[0] ? " (what it had not acknowledged may be lost)" : "",
            ranks_left() && !end.kill_now ? "; killing the job" : "");
    end.io_lost = end.kill_now = 1;
}

void ioservers_poll(void)
{
    int rc;

    for (int i = 1; i < nservers; i++) {
        struct server *s = &S[i];

        while (s->sock >= 0 && !s->ending && (rc = recv_from(s, 0)) != -1) {
            if (rc == 0)
                died(s);
            else if (s->in.type == IOD_OPENED)
                opened(s, &s->in);
            else if (s->in.type == IOD_CLOSED)
                closed(s, s->in.rank, s->in.fd);
            else if (s->in.type == IOD_LINK)
                link_failed(s->in.rank, s->in.text);
        }
    }
}

void ioservers_rank_ended(int rank)
{
    struct iod_msg m = { .type = IOD_ENDED, .rank = rank };

    for (int i = 1; i < nservers; i++)
        if (S[i].first <= rank && rank <= S[i].last) {
            closed(&S[i], rank, -1);
            send_to(&S[i], &m, sizeof(m));
        }
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
        int rc;

        if (S[i].sock < 0)
            continue;
        while ((rc = recv_from(&S[i], ANSWER_MS)) == 1 &&
               S[i].in.type != IOD_DONE)
            ;                   /* OPENED and such, too late to matter */
        if (rc == 1)
            auth_dropped(AUTH_FILE, S[i].in.count);
        else
            kill(S[i].pid, SIGKILL);        /* it does not answer */
        how_ended(&S[i], how, sizeof(how));
    }
}
