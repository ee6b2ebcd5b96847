/* SPDX-License-Identifier: MIT */
/*
 * iod.c: an I/O server process (ioserver.h; docs/io.md): yod run again
 * as `yod --io-server` by the yod whose job it serves, with a socket to
 * that yod on fd 3.  It takes a service nid of its own (a lock file, as
 * yod does), joins the cluster's network with the transport key yod
 * gives it, and serves the ranks yod_io_server_of maps to it with the
 * same file server as yod's (fileio.c), under the job's key yod gives it.
 * It ends with the job (END), or with yod (its socket's end of file, or
 * the parent-death signal when yod is killed).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cluster.h"
#include "fileio.h"
#include "ioserver.h"
#include "ptl_linux.h"
#include "yod.h"

#define POLL_MS     50          /* the socket is looked at this often */

static unsigned dropped;

static void say(const struct iod_msg *m)
{
    if (send(IOD_FD, m, sizeof(*m), MSG_NOSIGNAL) != (ssize_t)sizeof(*m))
        exit(1);                /* yod is gone: so is the job */
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
    ssize_t n = recv(IOD_FD, buf, len, 0);

    if (n < (ssize_t)sizeof(uint32_t) || *(uint32_t *)buf != type)
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
    ni = cluster_join(*nid, YOD_IOD_PID);
    if (ptl_linux_auth(0, k) != PTL_OK)
        die("I/O server: cannot sign Portals frames");
    return ni;
}

/* yod's messages while the job runs; 1 once it is over. */
static int from_yod(void)
{
    struct iod_msg m;
    ssize_t n;

    while ((n = recv(IOD_FD, &m, sizeof(m), MSG_DONTWAIT)) > 0) {
        if (m.type == IOD_ENDED) {
            fileio_rank_ended(m.rank);
        } else if (m.type == IOD_END) {
            m = (struct iod_msg){ .type = IOD_DONE, .count = dropped };
            say(&m);
            return 1;
        }
    }
    return n == 0 || (n < 0 && errno != EAGAIN);
}

void iod_main(void)
{
    static struct iod_setup set;
    static struct iod_map map;
    struct iod_msg m = { .type = IOD_READY };
    struct fileio_job j = { .dropped = on_dropped,
                            .link_failed = on_link_failed,
                            .opened = on_opened, .closed = on_closed };
    ptl_event_t ev;
    unsigned which;

    prctl(PR_SET_PDEATHSIG, SIGKILL);   /* yod killed: so are we */
    if (getppid() == 1)
        exit(1);                /* yod died before that */
    signal(SIGINT, SIG_IGN);    /* Ctrl-C is yod's to handle */
    signal(SIGPIPE, SIG_IGN);
    signal(SIGXFSZ, SIG_IGN);   /* past ulimit -f: EFBIG to the rank */
    die_status = ST_CANNOT_RUN;
    expect(&set, sizeof(set), IOD_SETUP);
    j.ni = join(&set, &m.nid);
    if (PtlEQAlloc(j.ni, 4096, &j.eq) != PTL_OK)
        die("I/O server: cannot allocate an event queue");
    say(&m);
    expect(&map, sizeof(map), IOD_MAP);
    j.size = set.size;
    j.nids = map.nids;
    j.index = set.index;
    j.servers = set.servers;
    j.job_key = map.job_key;
    j.chroot = set.chroot[0] ? set.chroot : NULL;
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
