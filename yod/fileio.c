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
 * The same server runs in yod (the ranks of I/O server 0) and in each
 * I/O server process yod starts (iod.c), each for its ranks
 * (ioserver.c); what it reports goes through the hooks of struct
 * fileio_job.
 *
 * Everything is driven by events from the server's loop (fileio_event), so
 * output and exit events keep flowing while a large transfer runs; the
 * data of a request, several chunks on the wire at once, is transfer.c's
 * (fileio_srv.h: the state the two share).
 */
#define _GNU_SOURCE             /* O_PATH */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "portals4.h"
#include "fileio.h"
#include "filecalls.h"
#include "fileio_srv.h"
#include "yod.h"

struct fileio_server fileio;

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

ptl_process_t srv_app(const struct rank *r)
{
    return (ptl_process_t){ .phys = { r->nid, r->pid } };
}

static struct rank *rank_of_ptr(const void *p)
{
    const char *c = p;

    if (!fileio.ranks || c < (const char *)fileio.ranks ||
        c >= (const char *)(fileio.ranks + fileio.job.size))
        return NULL;
    return &fileio.ranks[(c - (const char *)fileio.ranks) / sizeof(struct rank)];
}

/* A READ waits for input (on), or no longer (off).  Counted: the loop
   looks for parked reads after every event, and must not walk every
   rank for that (nothing in yod may be quadratic in the ranks). */
void srv_park(struct rank *r, int on)
{
    fileio.nparked += on - r->parked;
    r->parked = on;
}

int srv_rank_no(const struct rank *r)
{
    return (int)(r - fileio.ranks);
}

/* ---- answers and the rank's fds ------------------------------------------ */

/* Finish the request: `ret` is the result or -errno. */
void srv_reply(struct rank *r, long ret)
{
    r->ans.seq = r->q.seq;
    r->ans.err = ret < 0 ? fileio_errno_code((int)-ret) : 0;
    r->ans.ret = ret < 0 ? 0 : ret;
    r->busy = 0;
    srv_park(r, 0);
    if (PtlPut(r->ans_md, 0, sizeof(r->ans), PTL_ACK_REQ, srv_app(r),
               YOD_PT_FILE, YOD_MB_ANS | r->q.seq, 0, &r->ans, 0) != PTL_OK)
        fprintf(stderr, "yod: rank %d: cannot send a file answer\n",
                srv_rank_no(r));
}

/* ---- requests ---------------------------------------------------------------- */

/* The MD of a rank's answers: at the start for the ranks it serves, at
   the first stripe request for the others. */
static int bind_answer(struct rank *r)
{
    ptl_md_t md = { .start = &r->ans, .length = sizeof(struct yod_file_ans),
                    .eq_handle = fileio.job.eq, .ct_handle = PTL_CT_NONE,
                    .options = PTL_MD_EVENT_SEND_DISABLE |
                               PTL_MD_EVENT_SUCCESS_DISABLE };

    if (r->ans_bound)
        return 0;
    if (PtlMDBind(fileio.job.ni, &md, &r->ans_md) != PTL_OK)
        return -1;
    r->ans_bound = 1;
    return 0;
}

/* The rank the request names sent it (its node, its pid, its key), is
   one this server serves, and it is new; else it is dropped and
   counted. */
static struct rank *sender(const ptl_event_t *ev)
{
    const struct yod_file_req *q = ev->start;
    struct rank *r;

    if (ev->mlength < YOD_FILE_REQ_HDR || ev->mlength > sizeof(r->q) ||
        q->rank < 0 || q->rank >= fileio.job.size)
        return NULL;
    r = &fileio.ranks[q->rank];
    if (!r->served && !(fileio.pfs && (q->op == YOD_F_SREAD ||
                                  q->op == YOD_F_SWRITE)))
        return NULL;            /* the stripes of PFS are everyone's */
    if (!auth_rank_sender(ev, r->nid, &r->pid) || q->seq <= r->last_seq ||
        yod_file_mac(&r->key, q, ev->mlength) != q->mac)
        return NULL;
    r->pid = ev->initiator.phys.pid;    /* YOD_APP_PID unless it chose */
    r->last_seq = q->seq;
    return bind_answer(r) == 0 ? r : NULL;
}

/* Tell whoever watches this server which files a rank has open for
   writing (yod names them if the server dies). */
static void note_open(struct rank *r, long fd)
{
    if (fileio.job.opened && r->q.op == YOD_F_OPEN && fd >= 0 &&
        (r->q.flags & YOD_O_ACCMODE) != 0)
        fileio.job.opened(srv_rank_no(r), (int)fd, r->q.path);
    else if (fileio.job.closed && r->q.op == YOD_F_CLOSE && fd == 0)
        fileio.job.closed(srv_rank_no(r), r->q.fd);
}

/* An OPEN of a striped file answers its layout (yod_proto.h, PFS). */
static void answer_layout(struct rank *r, long fd)
{
    struct pfs_file *pf = r->q.op == YOD_F_OPEN && fd >= 0
                          ? files_pfs(&r->files, (int)fd) : NULL;

    if (pf)
        r->ans.pfs = (struct yod_pfs_layout){ pf->id, pf->unit, pf->factor,
                                              (uint32_t)pf->append };
}

static void take_request(const ptl_event_t *ev)
{
    const struct yod_file_req *q = ev->start;
    struct rank *r = sender(ev);
    long rc;

    if (!r) {
        fileio.job.dropped();
        return;
    }
    if (r->ended)
        return;                 /* it ended: a late request */
    if (r->busy) {
        fprintf(stderr, "yod: rank %d sent a file request while one is "
                "served: ignored\n", q->rank);
        return;
    }
    memcpy(&r->q, q, ev->mlength);
    r->busy = 1;
    memset(&r->ans.pfs, 0, sizeof(r->ans.pfs));
    if (!files_request_ok(&r->q, ev->mlength)) {
        srv_reply(r, -EINVAL);
    } else if (r->q.op == YOD_F_READ || r->q.op == YOD_F_WRITE ||
               r->q.op == YOD_F_PREAD || r->q.op == YOD_F_PWRITE ||
               r->q.op == YOD_F_SREAD || r->q.op == YOD_F_SWRITE) {
        xfer_start(r);
    } else if (r->q.op == YOD_F_GETCWD) {
        xfer_getcwd(r);
    } else if (r->q.op == YOD_F_GETDENTS) {
        xfer_getdents(r);
    } else {
        rc = files_call(&r->files, &r->q, &r->ans.st);
        note_open(r, rc);
        answer_layout(r, rc);
        srv_reply(r, rc);
    }
}

static void append_req(char *buf)
{
    ptl_me_t me = { .start = buf, .length = sizeof(fileio.req_buf[0]),
                    .match_id.phys = { PTL_NID_ANY, PTL_PID_ANY },
                    .ignore_bits = ~0ull, .ct_handle = PTL_CT_NONE,
                    .min_free = sizeof(struct yod_file_req),
                    .options = PTL_ME_OP_PUT | PTL_ME_MANAGE_LOCAL };
    ptl_handle_me_t h;

    if (PtlMEAppend(fileio.job.ni, YOD_PT_FILE, &me, PTL_PRIORITY_LIST, buf, &h)
        != PTL_OK)
        fprintf(stderr, "yod: cannot post a buffer for file requests\n");
}

/* ---- what the server's loop calls ------------------------------------------ */

/* fd 0 of a rank: yod's stdin for rank 0, /dev/null (EOF) for the rest. */
static int stdin_for(int rank)
{
    int fd = rank == 0 ? fcntl(0, F_DUPFD_CLOEXEC, 3) : -1;

    return fd >= 0 ? fd : open("/dev/null", O_RDONLY | O_CLOEXEC);
}

/* Chunks in flight per transfer: YOD_IO_SLOTS (1 is the old stop and
   wait, for comparison: tests/bench/io), else the default, fewer when
   the server serves so many ranks that their buffers would pass BUF_MAX
   (512 ranks of yod -vn: one chunk each, as before). */
static int slots_wanted(const struct fileio_job *j)
{
    const char *v = getenv("YOD_IO_SLOTS");
    int n = v ? atoi(v) : 0;
    int served = j->pfs ? j->size : j->last - j->first + 1;
    long fit = served > 0 ? (long)(BUF_MAX / CHUNK) / served : SLOTS_MAX;

    if (n >= 1 && n <= SLOTS_MAX)
        return n;
    return fit < 1 ? 1 : fit < FILEIO_SLOTS ? (int)fit : FILEIO_SLOTS;
}

int fileio_start(const struct fileio_job *j)
{
    ptl_pt_index_t pt;
    int rc;

    fileio.job = *j;
    fileio.slots = slots_wanted(j);
    fileio.pfs = j->pfs != NULL;
    if ((rc = paths_confine(j->chroot)) < 0 || (rc = pfs_mount(j->pfs)) < 0) {
        errno = -rc;
        return -1;
    }
    if (!(fileio.ranks = calloc((size_t)j->size, sizeof(*fileio.ranks))) ||
        PtlPTAlloc(j->ni, 0, j->eq, YOD_PT_FILE, &pt) != PTL_OK)
        return -1;
    for (int i = 0; i < j->size; i++) {
        struct rank *r = &fileio.ranks[i];
        r->nid = j->nids[i];
        r->served = j->first <= i && i <= j->last;
        r->key = yod_rank_key(&j->job_key, i);
        r->files.cwd.fd = -1;
        memset(r->files.fd, -1, sizeof(r->files.fd));
        if (!r->served)
            continue;
        r->files.fd[0] = stdin_for(i);
        if ((rc = paths_start(&r->files.cwd)) < 0) {
            errno = -rc;
            return -1;
        }
        if (bind_answer(r) < 0)
            return -1;
    }
    append_req(fileio.req_buf[0]);
    append_req(fileio.req_buf[1]);
    return 0;
}

int fileio_event(const ptl_event_t *ev)
{
    struct rank *r;

    if (!fileio.ranks)
        return 0;
    if (ev->type == PTL_EVENT_ACK || ev->type == PTL_EVENT_REPLY) {
        if (!(r = rank_of_ptr(ev->user_ptr)))
            return 0;
        if (ev->ni_fail_type == PTL_NI_UNDELIVERABLE && !r->ended)
            fileio.job.link_failed(srv_rank_no(r), ev->user_ptr == &r->ans ?
                              "a file answer" : "file data");
        else if (ev->user_ptr == &r->ans && ev->ni_fail_type != PTL_NI_OK &&
                 !r->ended)
            fprintf(stderr, "yod: rank %d: a file answer was not "
                    "delivered\n", srv_rank_no(r));
        if (ev->user_ptr != &r->ans)
            xfer_chunk_done(r, ev->user_ptr, ev);
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
    for (int i = 0; fileio.nparked && fileio.ranks && i < fileio.job.size; i++)
        if (fileio.ranks[i].parked && fileio.ranks[i].files.cwd.fd >= 0)
            xfer_read_fill(&fileio.ranks[i]);
}

void fileio_rank_ended(int rank)
{
    struct rank *r;

    if (!fileio.ranks || rank < 0 || rank >= fileio.job.size || fileio.ranks[rank].ended)
        return;
    r = &fileio.ranks[rank];
    r->ended = 1;
    if (r->busy)
        xfer_end(r);
    files_close(&r->files);
    r->busy = 0;
    srv_park(r, 0);
    if (r->buf && PtlMDRelease(r->buf_md) == PTL_OK) {
        free(r->buf);           /* else a Get or Put still uses it: kept */
        r->buf = NULL;
    }
}
