/* SPDX-License-Identifier: MIT */
/*
 * fileio.c: yod's file server.  The ranks' libc forwards file calls here
 * (protocol: yod_proto.h, "Files"); yod performs them on Linux as itself
 * (the user: the kernel enforces the user's permissions, nothing more),
 * relative to each rank's own working directory, or only inside -chroot
 * DIR (paths.c says where a path leads), and keeps each rank's fd table;
 * the calls answered at once are filecalls.c's, this file moves data.
 * It takes a request only from the rank it names, signed with that
 * rank's key, numbered above the last (auth.c; yod_proto.h).
 *
 * Everything is driven by events from yod's main loop (fileio_event), so
 * output and exit events keep flowing while a large transfer runs: a
 * READ is a chain of read(2) + Put into the rank's buffer, each Put's ACK
 * starting the next chunk; a WRITE a chain of Get from the rank's buffer +
 * write(2).  A read that would block (yod's stdin, a pipe) is parked and
 * retried from fileio_poll, so it never stops the loop either.
 */
#define _GNU_SOURCE             /* O_PATH */
#include <dirent.h>              /* getdents64 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "portals4.h"
#include "fileio.h"
#include "filecalls.h"
#include "yod.h"

#define CHUNK       (1u << 20)  /* bytes per Get or Put of a transfer */
#define REQ_BUF     (16 * sizeof(struct yod_file_req))

struct rank {
    unsigned nid;
    unsigned pid;               /* its Portals pid, from its requests */
    struct sipkey key;          /* its key: its requests are signed */
    uint32_t last_seq;          /* its last request's number */
    struct files files;         /* its fds and working directory */
    struct yod_file_req q;      /* the request being served */
    int busy;                   /* q is being served */
    int parked;                 /* READ waiting for input on its fd */
    int xfd;                    /* our fd of the transfer */
    uint64_t done;              /* bytes moved so far */
    size_t inflight;            /* bytes of the Get or Put under way */
    struct yod_file_ans ans;
    ptl_handle_md_t ans_md;
    char *buf;                  /* CHUNK bytes, bound at first use */
    ptl_handle_md_t buf_md;
};

static struct {
    ptl_handle_ni_t ni;
    ptl_handle_eq_t eq;
    int size;
    struct rank *ranks;
    int nparked;                /* ranks whose READ is parked */
    char req_buf[2][REQ_BUF];
} F;

#define ERRNO_ENTRY(e) e,
static const int errnos[] = { YOD_ERRNO_LIST(ERRNO_ENTRY) };

/* A Linux errno as the protocol's number (EIO if it has none). */
uint32_t fileio_errno_code(int e)
{
    uint32_t eio = 0;

    for (uint32_t i = 0; i < sizeof(errnos) / sizeof(errnos[0]); i++) {
        if (errnos[i] == e)
            return i + 1;
        if (errnos[i] == EIO)
            eio = i + 1;
    }
    return eio;
}

static ptl_process_t app(const struct rank *r)
{
    return (ptl_process_t){ .phys = { r->nid, r->pid } };
}

static struct rank *rank_of_ptr(const void *p)
{
    const char *c = p;

    if (!F.ranks || c < (const char *)F.ranks ||
        c >= (const char *)(F.ranks + F.size))
        return NULL;
    return &F.ranks[(c - (const char *)F.ranks) / sizeof(struct rank)];
}

/* A READ waits for input (on), or no longer (off).  Counted: the loop
   looks for parked reads after every event, and must not walk every
   rank for that (nothing in yod may be quadratic in the ranks). */
static void park(struct rank *r, int on)
{
    F.nparked += on - r->parked;
    r->parked = on;
}

/* ---- answers and the rank's fds ------------------------------------------ */

/* Finish the request: `ret` is the result or -errno. */
static void reply(struct rank *r, long ret)
{
    r->ans.seq = r->q.seq;
    r->ans.err = ret < 0 ? fileio_errno_code((int)-ret) : 0;
    r->ans.ret = ret < 0 ? 0 : ret;
    r->busy = 0;
    park(r, 0);
    if (PtlPut(r->ans_md, 0, sizeof(r->ans), PTL_ACK_REQ, app(r),
               YOD_PT_FILE, YOD_MB_ANS | r->q.seq, 0, &r->ans, 0) != PTL_OK)
        fprintf(stderr, "yod: rank %d: cannot send a file answer\n",
                (int)(r - F.ranks));
}

/* ---- transfers ------------------------------------------------------------- */

static int bind_buffer(struct rank *r)
{
    ptl_md_t md = { .length = CHUNK, .eq_handle = F.eq,
                    .ct_handle = PTL_CT_NONE,
                    .options = PTL_MD_EVENT_SEND_DISABLE };

    if (r->buf)
        return 0;
    if (!(md.start = r->buf = malloc(CHUNK)))
        return -1;
    if (PtlMDBind(F.ni, &md, &r->buf_md) == PTL_OK)
        return 0;
    free(r->buf);
    r->buf = NULL;
    return -1;
}

/* Has `fd` input (or EOF, or an error) to give without blocking? */
static int readable(int fd)
{
    struct pollfd p = { .fd = fd, .events = POLLIN };
    int fl = fcntl(fd, F_GETFL);

    if (fl >= 0 && (fl & O_NONBLOCK))
        return 1;               /* read says EAGAIN itself */
    return poll(&p, 1, 0) != 0;
}

/* The data so far (or the error, if none moved). */
static void finish(struct rank *r, long err)
{
    reply(r, r->done || err == 0 ? (long)r->done : err);
}

/* The next chunk of a READ: read(2) it, Put it at its offset. */
static void read_step(struct rank *r)
{
    size_t want = r->q.len - r->done < CHUNK ? r->q.len - r->done : CHUNK;
    ssize_t n;

    if (!readable(r->xfd)) {
        if (r->done)
            finish(r, 0);       /* what was there; the rest is not yet */
        else
            park(r, 1);         /* fileio_poll tries again */
        return;
    }
    park(r, 0);
    if ((n = read(r->xfd, r->buf, want)) <= 0) {
        finish(r, n < 0 ? -errno : 0);
        return;
    }
    r->inflight = (size_t)n;
    if (PtlPut(r->buf_md, 0, (size_t)n, PTL_ACK_REQ, app(r), YOD_PT_FILE,
               YOD_MB_BUF | r->q.seq, r->done, r, 0) != PTL_OK)
        finish(r, -EIO);
}

/* The next chunk of a WRITE: Get it from the rank; write(2) on REPLY. */
static void write_step(struct rank *r)
{
    size_t want = r->q.len - r->done < CHUNK ? r->q.len - r->done : CHUNK;

    r->inflight = want;
    if (PtlGet(r->buf_md, 0, want, app(r), YOD_PT_FILE,
               YOD_MB_BUF | r->q.seq, r->done, r) != PTL_OK)
        finish(r, -EIO);
}

/* Write all of `len` bytes (a pipe may take fewer per call). */
static long write_all(int fd, const char *p, size_t len)
{
    size_t done = 0;

    while (done < len) {
        ssize_t n = write(fd, p + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return done ? (long)done : (n < 0 ? -errno : 0);
        done += (size_t)n;
    }
    return (long)done;
}

/* A chunk moved (Put ACKed, or Get REPLY arrived) or failed. */
static void chunk_done(struct rank *r, const ptl_event_t *ev)
{
    long n;

    if (!r->busy || r->files.cwd.fd < 0)
        return;                 /* the rank ended meanwhile */
    if (ev->ni_fail_type != PTL_NI_OK) {
        finish(r, -EIO);        /* the rank's buffer went away */
        return;
    }
    if (r->q.op == YOD_F_GETCWD || r->q.op == YOD_F_GETDENTS) {
        reply(r, (long)r->inflight);
        return;
    }
    if (r->q.op == YOD_F_READ) {
        r->done += r->inflight;
        if (r->done < r->q.len && r->inflight == CHUNK)
            read_step(r);
        else
            finish(r, 0);
        return;
    }
    n = write_all(r->xfd, r->buf, ev->mlength);
    if (n > 0)
        r->done += (uint64_t)n;
    if (n < 0 || (size_t)n < r->inflight || r->done == r->q.len)
        finish(r, n < 0 ? n : 0);
    else
        write_step(r);
}

/* READ or WRITE: check, then the first chunk. */
static void start_transfer(struct rank *r)
{
    if ((r->xfd = files_fd(&r->files, r->q.fd)) < 0) {
        reply(r, -EBADF);
        return;
    }
    if (bind_buffer(r) < 0) {
        reply(r, -ENOMEM);
        return;
    }
    r->done = 0;
    if (r->q.op == YOD_F_READ)
        read_step(r);
    else
        write_step(r);
}

/* The working directory's path, Put into the rank's buffer. */
static void start_getcwd(struct rank *r)
{
    size_t n;
    int rc;

    if (bind_buffer(r) < 0) {
        reply(r, -ENOMEM);
        return;
    }
    if ((rc = path_getcwd(&r->files.cwd, r->buf, CHUNK)) < 0) {
        reply(r, rc);
        return;
    }
    n = strlen(r->buf) + 1;
    if (n > r->q.len) {
        reply(r, -ERANGE);
        return;
    }
    r->inflight = n;
    if (PtlPut(r->buf_md, 0, n, PTL_ACK_REQ, app(r), YOD_PT_FILE,
               YOD_MB_BUF | r->q.seq, 0, r, 0) != PTL_OK)
        reply(r, -EIO);
}

/* The next entries of a directory, Put into the rank's buffer in
   Linux's getdents64 format (yod runs on Linux: the host's own call). */
static void start_getdents(struct rank *r)
{
    int fd = files_fd(&r->files, r->q.fd);
    size_t want = r->q.len < CHUNK ? r->q.len : CHUNK;
    long n;

    if (fd < 0) {
        reply(r, -EBADF);
        return;
    }
    if (bind_buffer(r) < 0) {
        reply(r, -ENOMEM);
        return;
    }
    if ((n = getdents64(fd, r->buf, want)) <= 0) {
        reply(r, n < 0 ? -errno : 0);
        return;
    }
    r->inflight = (size_t)n;
    if (PtlPut(r->buf_md, 0, (size_t)n, PTL_ACK_REQ, app(r), YOD_PT_FILE,
               YOD_MB_BUF | r->q.seq, 0, r, 0) != PTL_OK)
        reply(r, -EIO);
}

/* ---- requests ---------------------------------------------------------------- */

/* The rank the request names sent it (its node, its pid, its key), and
   it is new; else it is dropped and counted. */
static struct rank *sender(const ptl_event_t *ev)
{
    const struct yod_file_req *q = ev->start;
    struct rank *r;

    if (ev->mlength < YOD_FILE_REQ_HDR || ev->mlength > sizeof(r->q) ||
        q->rank < 0 || q->rank >= F.size)
        return NULL;
    r = &F.ranks[q->rank];
    if (!auth_rank_sender(ev, r->nid, &r->pid) || q->seq <= r->last_seq ||
        yod_file_mac(&r->key, q, ev->mlength) != q->mac)
        return NULL;
    r->pid = ev->initiator.phys.pid;    /* YOD_APP_PID unless it chose */
    r->last_seq = q->seq;
    return r;
}

static void take_request(const ptl_event_t *ev)
{
    const struct yod_file_req *q = ev->start;
    struct rank *r = sender(ev);

    if (!r) {
        auth_drop(AUTH_FILE);
        return;
    }
    if (r->files.cwd.fd < 0)
        return;                 /* it ended: a late request */
    if (r->busy) {
        fprintf(stderr, "yod: rank %d sent a file request while one is "
                "served: ignored\n", q->rank);
        return;
    }
    memcpy(&r->q, q, ev->mlength);
    r->busy = 1;
    if (!files_request_ok(&r->q, ev->mlength))
        reply(r, -EINVAL);
    else if (r->q.op == YOD_F_READ || r->q.op == YOD_F_WRITE)
        start_transfer(r);
    else if (r->q.op == YOD_F_GETCWD)
        start_getcwd(r);
    else if (r->q.op == YOD_F_GETDENTS)
        start_getdents(r);
    else
        reply(r, files_call(&r->files, &r->q, &r->ans.st));
}

static void append_req(char *buf)
{
    ptl_me_t me = { .start = buf, .length = REQ_BUF,
                    .match_id.phys = { PTL_NID_ANY, PTL_PID_ANY },
                    .ignore_bits = ~0ull, .ct_handle = PTL_CT_NONE,
                    .min_free = sizeof(struct yod_file_req),
                    .options = PTL_ME_OP_PUT | PTL_ME_MANAGE_LOCAL };
    ptl_handle_me_t h;

    if (PtlMEAppend(F.ni, YOD_PT_FILE, &me, PTL_PRIORITY_LIST, buf, &h)
        != PTL_OK)
        fprintf(stderr, "yod: cannot post a buffer for file requests\n");
}

/* ---- what yod.c calls ---------------------------------------------------------- */

/* fd 0 of a rank: yod's stdin for rank 0, /dev/null (EOF) for the rest. */
static int stdin_for(int rank)
{
    int fd = rank == 0 ? fcntl(0, F_DUPFD_CLOEXEC, 3) : -1;

    return fd >= 0 ? fd : open("/dev/null", O_RDONLY | O_CLOEXEC);
}

int fileio_start(ptl_handle_ni_t ni, ptl_handle_eq_t eq, int size,
                 const unsigned *nids, const char *chroot)
{
    ptl_md_t md = { .length = sizeof(struct yod_file_ans), .eq_handle = eq,
                    .ct_handle = PTL_CT_NONE,
                    .options = PTL_MD_EVENT_SEND_DISABLE |
                               PTL_MD_EVENT_SUCCESS_DISABLE };
    ptl_pt_index_t pt;
    int rc;

    F.ni = ni;
    F.eq = eq;
    F.size = size;
    if ((rc = paths_confine(chroot)) < 0) {
        errno = -rc;
        return -1;
    }
    if (!(F.ranks = calloc((size_t)size, sizeof(*F.ranks))) ||
        PtlPTAlloc(ni, 0, eq, YOD_PT_FILE, &pt) != PTL_OK)
        return -1;
    for (int i = 0; i < size; i++) {
        struct rank *r = &F.ranks[i];
        r->nid = nids[i];
        r->key = auth_rank_key(i);
        memset(r->files.fd, -1, sizeof(r->files.fd));
        r->files.fd[0] = stdin_for(i);
        md.start = &r->ans;
        if ((rc = paths_start(&r->files.cwd)) < 0) {
            errno = -rc;
            return -1;
        }
        if (PtlMDBind(ni, &md, &r->ans_md) != PTL_OK)
            return -1;
    }
    append_req(F.req_buf[0]);
    append_req(F.req_buf[1]);
    return 0;
}

int fileio_event(const ptl_event_t *ev)
{
    struct rank *r;

    if (!F.ranks)
        return 0;
    if (ev->type == PTL_EVENT_ACK || ev->type == PTL_EVENT_REPLY) {
        if (!(r = rank_of_ptr(ev->user_ptr)))
            return 0;
        if (ev->ni_fail_type == PTL_NI_UNDELIVERABLE && r->files.cwd.fd >= 0)
            link_failed((int)(r - F.ranks), ev->user_ptr == &r->ans ?
                        "a file answer" : "file data");
        else if (ev->user_ptr == &r->ans && ev->ni_fail_type != PTL_NI_OK &&
                 r->files.cwd.fd >= 0)
            fprintf(stderr, "yod: rank %d: a file answer was not "
                    "delivered\n", (int)(r - F.ranks));
        if (ev->user_ptr != &r->ans)
            chunk_done(r, ev);
        return 1;
    }
    if (ev->pt_index != YOD_PT_FILE)
        return 0;
    if (ev->type == PTL_EVENT_PUT && ev->ni_fail_type == PTL_NI_OK)
        take_request(ev);
    else if (ev->type == PTL_EVENT_AUTO_UNLINK)
        append_req(ev->user_ptr);   /* its requests were handled already */
    return 1;
}

void fileio_poll(void)
{
    for (int i = 0; F.nparked && i < F.size; i++)
        if (F.ranks[i].parked && F.ranks[i].files.cwd.fd >= 0)
            read_step(&F.ranks[i]);
}

void fileio_rank_ended(int rank)
{
    struct rank *r;

    if (!F.ranks || rank < 0 || rank >= F.size ||
        F.ranks[rank].files.cwd.fd < 0)
        return;
    r = &F.ranks[rank];
    files_close(&r->files);
    r->busy = 0;
    park(r, 0);
}
