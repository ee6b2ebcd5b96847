/* SPDX-License-Identifier: MIT */
/*
 * jobctl.c: a running job's yod takes requests from other commands of
 * its user (jobctl.h).  The socket lives in a directory only that user
 * can enter (checked, not assumed: a directory another user made or can
 * write is refused), so whoever connects is that user: the same trust as
 * the yod itself.  One request a connection, one line:
 *   attach RANK   stop RANK and serve it to gdb (gdbserver.c); the answer
 *                 is "ok PATH" (the socket for `target remote`)
 *   stacks        every rank's stack, grouped (stacks.c), the job going on
 * and the answer "ok ..." or "error WHY", then the connection closes.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "gdbserver.h"
#include "jobctl.h"
#include "stacks.h"
#include "yod.h"

static int lfd = -1;
static char ctl_path[sizeof(((struct sockaddr_un *)0)->sun_path)];

const char *jobctl_dir(void)
{
    static char dir[200];
    const char *run = getenv("XDG_RUNTIME_DIR");
    struct stat st;

    if (dir[0])
        return dir;
    if (run && *run)
        snprintf(dir, sizeof(dir), "%s/lwk", run);
    else
        snprintf(dir, sizeof(dir), "/tmp/lwk-%u", (unsigned)geteuid());
    if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
        fprintf(stderr, "yod: cannot make %s: %s\n", dir, strerror(errno));
        dir[0] = 0;
        return NULL;
    }
    if (lstat(dir, &st) < 0 || !S_ISDIR(st.st_mode) ||
        st.st_uid != geteuid() || (st.st_mode & 077)) {
        fprintf(stderr, "yod: %s is not a directory of yours that only you "
                "can use (mode 0700); remove it or set XDG_RUNTIME_DIR\n",
                dir);
        dir[0] = 0;
        return NULL;
    }
    return dir;
}

static void socket_path(char *path, size_t len, const char *dir,
                        unsigned id)
{
    snprintf(path, len, "%s/yod.%u.ctl", dir, id);
}

void jobctl_open(void)
{
    struct sockaddr_un a = { .sun_family = AF_UNIX };
    const char *dir = jobctl_dir();

    if (!dir)
        return;                 /* said; the job runs without it */
    socket_path(ctl_path, sizeof(ctl_path), dir, jobid);
    memcpy(a.sun_path, ctl_path, sizeof(a.sun_path));
    unlink(ctl_path);
    if ((lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0 ||
        bind(lfd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
        chmod(ctl_path, 0600) < 0 || listen(lfd, 4) < 0) {
        fprintf(stderr, "yod: cannot listen on %s (yod -attach and -stacks "
                "will not reach this job): %s\n", ctl_path, strerror(errno));
        if (lfd >= 0)
            close(lfd);
        lfd = -1;
    }
}

void jobctl_close(void)
{
    if (lfd < 0)
        return;
    close(lfd);
    unlink(ctl_path);
    lfd = -1;
}

static void say(int fd, const char *text)
{
    size_t n = strlen(text);

    while (n) {
        ssize_t k = write(fd, text, n);
        if (k <= 0 && errno != EINTR)
            return;
        if (k > 0) {
            text += k;
            n -= (size_t)k;
        }
    }
}

static void serve(int fd, char *req)
{
    char path[200], *summary;
    int rank;

    if (sscanf(req, "attach %d", &rank) == 1) {
        if (rank < 0 || rank >= o.size || job[rank]->exited)
            say(fd, "error no such rank is running in this job\n");
        else if (gdbserver_open(rank, 1, path, sizeof(path)) < 0)
            say(fd, "error the rank could not be stopped for gdb (see the "
                    "job's yod)\n");
        else {
            say(fd, "ok ");
            say(fd, path);
            say(fd, "\n");
        }
    } else if (!strcmp(req, "stacks")) {
        stacks_take_live(1);
        if ((summary = stacks_summary())) {
            say(fd, "ok ");
            say(fd, summary);
            free(summary);
        } else {
            say(fd, "error no rank's stack could be taken (see the job's "
                    "yod)\n");
        }
    } else {
        say(fd, "error unknown request\n");
    }
}

/* One connection: its line (it has 2 s to send it), answered. */
void jobctl_poll(void)
{
    struct pollfd p = { .fd = lfd, .events = POLLIN };
    struct timeval two = { 2, 0 };
    char req[64];
    ssize_t n;
    int fd;

    if (lfd < 0 || poll(&p, 1, 0) <= 0 || (fd = accept(lfd, NULL, NULL)) < 0)
        return;
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &two, sizeof(two));
    n = read(fd, req, sizeof(req) - 1);
    if (n > 0) {
        req[n] = 0;
        req[strcspn(req, "\n")] = 0;
        serve(fd, req);
    }
    close(fd);
}

int jobctl_ask(unsigned id, const char *request)
{
    struct sockaddr_un a = { .sun_family = AF_UNIX };
    const char *dir = jobctl_dir();
    char buf[4096];
    int fd, first = 1, ok = 0;
    ssize_t n;

    if (!dir)
        return ST_CANNOT_RUN;
    socket_path(a.sun_path, sizeof(a.sun_path), dir, id);
    if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0 ||
        connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
        fprintf(stderr, "yod: job %u: no yod of yours runs it here (%s: "
                "%s); showmesh names the jobs\n", id, a.sun_path,
                strerror(errno));
        return ST_CANNOT_RUN;
    }
    say(fd, request);
    say(fd, "\n");
    while ((n = read(fd, buf, sizeof(buf))) > 0) {
        const char *p = buf;
        if (first) {
            ok = n >= 3 && !strncmp(buf, "ok ", 3);
            p += ok ? 3 : strncmp(buf, "error ", 6) ? 0 : 6;
            if (!ok)
                fputs("yod: ", stderr);
            first = 0;
        }
        fwrite(p, 1, (size_t)(n - (p - buf)), ok ? stdout : stderr);
    }
    close(fd);
    return first ? ST_CANNOT_RUN : ok ? 0 : 1;
}
