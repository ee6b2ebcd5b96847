/* SPDX-License-Identifier: MIT */
/*
 * iod.c: an I/O server process (ioserver.h; docs/io.md): yod run again
 * as `yod --io-server` by the yod whose job it serves, with a stream to
 * that yod on fd 3 (or, started on another host through ssh, `yod
 * --io-server-stdio` on its stdin and stdout).  It takes a service nid of
 * its host's own (a lock file, as yod does), joins the cluster's network
 * with the transport key yod gives it, and serves the ranks yod gives it
 * with the same file server as yod's (fileio.c), under the job's key yod
 * gives it, from yod's working directory.  It ends with the job (END), or
 * with yod (its stream's end of file, or the parent-death signal when a
 * local yod is killed).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "cluster.h"
#include "fileio.h"
#include "ioserver.h"
#include "ptl_linux.h"
#include "yod.h"

#define POLL_MS     50          /* the socket is looked at this often */

static unsigned dropped;
static int from, to;            /* the stream to yod */

static void say(const struct iod_msg *m)
{
    const char *p = (const char *)m;

    for (size_t done = 0; done < sizeof(*m);) {
        ssize_t n = write(to, p + done, sizeof(*m) - done);
        if (n <= 0 && errno != EINTR)
            exit(1);            /* yod is gone: so is the job */
        done += n > 0 ? (size_t)n : 0;
    }
}

/* All of `len` bytes from yod, or -1 (end of file: yod is gone). */
static int hear(void *buf, size_t len)
{
    for (size_t done = 0; done < len;) {
        ssize_t n = read(from, (char *)buf + done, len - done);
        if (n <= 0 && (n == 0 || errno != EINTR))
            return -1;
        done += n > 0 ? (size_t)n : 0;
    }
    return 0;
}

static void on_dropped(void)
{
    dropped++;
}

static void on_link_failed(int rank, const char *what)
{
    struct iod_msg m = { .type = IOD_LINK, .rank = rank };

    snprintf(m.text, sizeof(m.text), "%s", what);
    say(&m);
}

static void on_opened(int rank, int fd, const char *path)
{
    struct iod_msg m = { .type = IOD_OPENED, .rank = rank, .fd = fd };

    snprintf(m.text, sizeof(m.text), "%s", path);
    say(&m);
}

static void on_closed(int rank, int fd)
{
    struct iod_msg m = { .type = IOD_CLOSED, .rank = rank, .fd = fd };

    say(&m);
}

/* One message from yod of the given type, waited for. */
static void expect(void *buf, size_t len, uint32_t type)
{
    if (hear(buf, len) < 0 || *(uint32_t *)buf != type)
        exit(1);                /* yod gave up on us */
}

/* Join the network as a station of the service partition. */
static ptl_handle_ni_t join(const struct iod_setup *set, unsigned *nid)
{
    unsigned first = 1000, last = 1999;
    uint64_t k[2] = { set->transport_key.k0, set->transport_key.k1 };
    ptl_handle_ni_t ni;

    cluster = set->cluster;
    cluster_env(&first, &last);
    *nid = cluster_service_nid(first, last);
    ni = cluster_join(*nid, YOD_IOD_PID, MAX_RANKS + 16); /* its ranks */
    if (ptl_linux_auth(0, k) != PTL_OK)
        die("I/O server: cannot sign Portals frames");
    return ni;
}

/* yod's messages while the job runs; 1 once it is over (or yod is). */
static int from_yod(void)
{
    struct pollfd p = { .fd = from, .events = POLLIN };
    struct iod_msg m;

    while (poll(&p, 1, 0) > 0) {
        if (hear(&m, sizeof(m)) < 0)
            return 1;
        if (m.type == IOD_ENDED) {
            fileio_rank_ended(m.rank);
        } else if (m.type == IOD_END) {
            m = (struct iod_msg){ .type = IOD_DONE, .count = dropped };
            say(&m);
            return 1;
        }
    }
    return 0;
}

void iod_main(int in, int out)
{
    static struct iod_setup set;
    static struct iod_map map;
    struct iod_msg m = { .type = IOD_READY };
    struct fileio_job j = { .dropped = on_dropped,
                            .link_failed = on_link_failed,
                            .opened = on_opened, .closed = on_closed };
    ptl_event_t ev;
    unsigned which;

    prctl(PR_SET_PDEATHSIG, SIGKILL);   /* yod killed: so are we (had it
                                           died before, SETUP's recv
                                           meets end of file) */
    signal(SIGINT, SIG_IGN);    /* Ctrl-C is yod's to handle */
    signal(SIGPIPE, SIG_IGN);
    signal(SIGXFSZ, SIG_IGN);   /* past ulimit -f: EFBIG to the rank */
    die_status = ST_CANNOT_RUN;
    from = in;
    to = out;
    if (in == 0) {              /* through ssh: the stream off fds 0 and 1,
                                   which become /dev/null and stderr (a
                                   rank 0 served here reads end of file) */
        int null = open("/dev/null", O_RDONLY);
        if ((from = dup(0)) < 0 || (to = dup(1)) < 0 || null < 0 ||
            dup2(null, 0) < 0 || dup2(2, 1) < 0)
            exit(1);
        close(null);
    }
    expect(&set, sizeof(set), IOD_SETUP);
    if (chdir(set.cwd) < 0)
        die("I/O server %d: cannot work in yod's directory %s: %s (a "
            "server on another host needs the same files: a shared file "
            "system)", set.index, set.cwd, strerror(errno));
    j.ni = join(&set, &m.nid);
    if (PtlEQAlloc(j.ni, 4096, &j.eq) != PTL_OK)
        die("I/O server: cannot allocate an event queue");
    say(&m);
    expect(&map, sizeof(map), IOD_MAP);
    j.size = set.size;
    j.nids = map.nids;
    j.first = map.first;
    j.last = map.last;
    j.job_key = map.job_key;
    j.chroot = set.chroot[0] ? set.chroot : NULL;
    j.pfs = set.pfs[0] ? set.pfs : NULL;
    if (fileio_start(&j) < 0)
        die("I/O server %d: cannot serve the ranks' files: %s", set.index,
            strerror(errno));
    m = (struct iod_msg){ .type = IOD_SERVING };
    say(&m);
    while (!from_yod()) {
        int rc = PtlEQPoll(&j.eq, 1, POLL_MS, &ev, &which);

        fileio_poll();
        if (rc == PTL_OK || rc == PTL_EQ_DROPPED)
            fileio_event(&ev);
    }
    exit(0);                    /* no PtlNIFini: a node that is down would
                                   hold it, and yod waits for our exit */
}
