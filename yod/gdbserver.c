/* SPDX-License-Identifier: MIT */
/*
 * gdbserver.c: yod as gdb's remote target (gdbserver.h).  Each debugged
 * rank has a unix socket in the user's private directory; gdb connects
 * with `target remote PATH` and yod answers its packets (gdbrsp.c
 * parses them) from the rank's snapshot (threads and registers, taken
 * at each stop: rankdbg.c), its memory (Portals Gets and Puts through
 * the PCT) and DEBUG requests to its PCT (stop, go on, single-step,
 * registers, detach): gdbpackets.c; this file keeps the sessions, their
 * sockets and the rank's stops and end.  gdb's threads are the rank's threads, numbered by
 * CPU + 1.  Breakpoints (Z0) are int3 bytes yod writes; reads of memory
 * show what the program has there (the saved bytes), and the stop at one
 * is reported with the PC back on it (swbreak).  All-stop: a stop of one
 * thread stops them all (the PCT's policy, pct/debug.c).
 *
 * Everything from the socket is untrusted input: a malformed packet is
 * refused (an empty or an error answer), never a reason to stop the rank
 * or yod.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "cluster.h"
#include "gdbserver.h"
#include "gdbsession.h"
#include "jobctl.h"
#include "rankdbg.h"
#include "yod.h"

#define WAIT_MS     5           /* event loop's wait while gdb is there */

static struct session *S[MAX_RANKS];
static int nsessions;
static int busy;                /* in a packet: the loop must not re-enter */

/* ---- the sockets ------------------------------------------------------------- */

void session_close(struct session *s)
{
    if (s->fd >= 0)
        close(s->fd);
    close(s->lfd);
    unlink(s->path);
    S[s->rank] = NULL;
    nsessions--;
    free(s);
}

/* The rank ran and gdb asked to stop it (Ctrl-C): told as SIGINT, unless
   it stopped by itself meanwhile. */
static void interrupt(struct session *s)
{
    struct yod_msg m = { .type = YOD_STOPPED, .rank = s->rank,
                         .reason = LWK_DBG_STOPPED, .status = 2,
                         .local = s->info.main_cpu };

    if (!s->running)
        return;
    if (rankdbg_op(s->rank, YOD_DBG_STOP, 0, 0, 0, 0) < 0) {
        fprintf(stderr, "yod: rank %d: cannot stop it: %s\n", s->rank,
                rankdbg_why());
        return;
    }
    tell_stop(s, s->stop_pending ? &s->stop : &m);
}

/* gdb went away without detaching (killed, or its connection lost): the
   rank must not stay stopped, nor stop later at a breakpoint nobody
   hears of.  Stopped, its breakpoints out, it goes on undebugged. */
static void abandon(struct session *s)
{
    fprintf(stderr, "yod: rank %d: gdb left without detaching; the rank "
            "runs on\n", s->rank);
    if (s->running && rankdbg_op(s->rank, YOD_DBG_STOP, 0, 0, 0, 0) < 0)
        return;
    if (s->running)
        tell_stop(s, s->stop_pending ? &s->stop : &(struct yod_msg){
                  .reason = LWK_DBG_STOPPED, .local = s->info.main_cpu });
    while (s->nbp && bp_remove(s, s->bp[0].addr) == 0)
        ;
    if (write_back(s) == 0)
        rankdbg_op(s->rank, YOD_DBG_DETACH, 0, 0, 0, 0);
}

static void input(struct session *s)
{
    uint8_t buf[4096];
    ssize_t n = read(s->fd, buf, sizeof(buf));
    int rank = s->rank;

    if (n <= 0) {
        if (n < 0 && errno == EINTR)
            return;
        close(s->fd);
        s->fd = -1;             /* nothing more goes to it */
        abandon(s);
        session_close(s);
        return;
    }
    for (ssize_t i = 0; i < n && S[rank] == s; i++) {
        switch (rsp_feed(&s->rd, buf[i])) {
        case RSP_PACKET:
            if (!s->noack)
                send_raw(s, "+", 1);
            if (s->running)     /* only a stop may come while it runs */
                break;
            handle(s, s->rd.buf, s->rd.len);
            break;
        case RSP_BAD:
            send_raw(s, "-", 1);
            break;
        case RSP_NAK:
            send_raw(s, s->sent, s->sent_len);
            break;
        case RSP_INTERRUPT_EV:
            interrupt(s);
            break;
        default:
            break;
        }
    }
}

static void accept_gdb(struct session *s)
{
    int fd = accept(s->lfd, NULL, NULL);

    if (fd < 0)
        return;
    if (s->fd >= 0) {           /* one gdb per rank */
        close(fd);
        return;
    }
    s->fd = fd;
    s->noack = 0;
    rsp_reader_init(&s->rd);
    fprintf(stderr, "yod: rank %d: gdb connected\n", s->rank);
}

void gdbserver_poll(void)
{
    if (busy || !nsessions)
        return;
    busy = 1;
    for (int r = 0; r < o.size; r++) {
        struct session *s = S[r];
        struct pollfd p[2];
        if (!s)
            continue;
        if (s->running && s->stop_pending)
            tell_stop(s, &s->stop);
        p[0] = (struct pollfd){ .fd = s->lfd, .events = POLLIN };
        p[1] = (struct pollfd){ .fd = s->fd, .events = POLLIN };
        if (poll(p, s->fd >= 0 ? 2 : 1, 0) <= 0)
            continue;
        if (p[0].revents & POLLIN)
            accept_gdb(s);
        if (s->fd >= 0 && (p[1].revents & (POLLIN | POLLHUP | POLLERR)))
            input(s);
    }
    busy = 0;
}

int gdbserver_wait(int ms)
{
    return nsessions && ms > WAIT_MS ? WAIT_MS : ms;
}

void gdbserver_stopped(const struct yod_msg *m)
{
    struct session *s = m->rank >= 0 && m->rank < o.size ? S[m->rank] : NULL;

    if (!s)
        return;
    s->stop = *m;
    s->stop_pending = 1;
}

void gdbserver_ended(int rank, const struct yod_msg *m)
{
    struct session *s = S[rank];
    char text[8];
    int sig = m->reason == LWK_STOP_ABORT ? 6 : m->status - 128;

    if (!s)
        return;
    if (m->reason == LWK_STOP_EXIT)
        snprintf(text, sizeof(text), "W%02x", m->status & 0xff);
    else
        snprintf(text, sizeof(text), "X%02x", !m->reason ? 9 :
                 sig > 0 && sig < 64 ? sig : 9);
    if (s->running)
        reply(s, text);
    session_close(s);
}

int gdbserver_has(int rank)
{
    return rank >= 0 && rank < MAX_RANKS && S[rank];
}

void gdbserver_close_all(void)
{
    for (int r = 0; r < MAX_RANKS; r++)
        if (S[r])
            session_close(S[r]);
}

static int listen_on(struct session *s)
{
    struct sockaddr_un a = { .sun_family = AF_UNIX };
    const char *dir = jobctl_dir();

    if (!dir)
        return -1;
    snprintf(s->path, sizeof(s->path), "%s/yod.%u.%d", dir, jobid, s->rank);
    memcpy(a.sun_path, s->path, sizeof(a.sun_path));
    unlink(s->path);
    if ((s->lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0 ||
        bind(s->lfd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
        chmod(s->path, 0600) < 0 || listen(s->lfd, 1) < 0) {
        fprintf(stderr, "yod: rank %d: cannot listen on %s: %s\n", s->rank,
                s->path, strerror(errno));
        if (s->lfd >= 0)
            close(s->lfd);
        return -1;
    }
    return 0;
}

int gdbserver_open(int rank, int attached, char *path, size_t len)
{
    struct session *s;

    if (S[rank]) {
        fprintf(stderr, "yod: rank %d is being debugged already (%s)\n",
                rank, S[rank]->path);
        return -1;
    }
    if (!(s = calloc(1, sizeof(*s))))
        return -1;
    s->rank = rank;
    s->fd = -1;
    s->attached = attached;
    if (listen_on(s) < 0) {
        free(s);
        return -1;
    }
    if (rankdbg_op(rank, YOD_DBG_ATTACH, 0, 0, 0, 0) < 0 ||
        rankdbg_snap(rank, &s->info) < 0) {
        fprintf(stderr, "yod: rank %d: cannot stop it for gdb: %s\n", rank,
                rankdbg_why());
        close(s->lfd);
        unlink(s->path);
        free(s);
        return -1;
    }
    s->cpu = (int)s->info.main_cpu;
    snprintf(s->last_stop, sizeof(s->last_stop), "T05thread:%x;", s->cpu + 1);
    S[rank] = s;
    nsessions++;
    if (path)
        snprintf(path, len, "%s", s->path);
    fprintf(stderr, "yod: rank %d stopped %s; in gdb: target remote %s\n",
            rank, attached ? "for gdb" : "at its entry", s->path);
    return 0;
}
