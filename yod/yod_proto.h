/* SPDX-License-Identifier: MIT */
/*
 * yod_proto.h: what yod (Linux, libportals) and the PCTs (compute nodes)
 * say to each other, and how an application's stdout/stderr reach yod.
 * Shared by yod/yod.c, pct/serve.c and libc/yodio.c.
 *
 * Addresses.  A PCT with no boot-module program serves on Portals pid
 * YOD_PCT_PID (physical, matching NI).  yod is a Linux station on a
 * service nid (LWK_SERVICE_NID_FIRST.., one lock file per nid in the
 * cluster directory) with pid YOD_PID.  Ranks run with Portals pid
 * YOD_APP_PID (one rank per node today; rank-local index i adds i).
 *
 * Control.  Every request and answer is one struct yod_msg Put to portal
 * YOD_PT_CTL (match bits 0), acknowledged.  yod -> PCT:
 *   ALLOC job           claim the node; answer OK, or BUSY with the owner
 *   LOAD job rank size  the PCT Gets the program image (match bits
 *                       YOD_MB_IMAGE) and the argv/env block (YOD_MB_ARGS)
 *                       from yod's portal YOD_PT_DATA, loads it; OK or ERR
 *   START job           run it; the PCT answers OK, and EXIT when it ends
 *   KILL job            end it now (an EXIT follows if it was loaded)
 *   FREE job            give the node back (kills what still runs)
 * PCT -> yod: OK, BUSY (owner in `job2`), ERR (text), EXIT: reason
 * LWK_STOP_EXIT with the exit status; LWK_STOP_ABORT (the program ended
 * its job: MPI_Abort, abort(), assert) with its status, why in text and
 * in peer the rank whose end made it give up (-1: it gave up by itself);
 * LWK_STOP_FAULT with status 128 + the signal Linux would send (a page
 * fault 139), addr, rip, text "killed: what <symbol+off>"; 0 killed by a
 * KILL or FREE.
 * LOAD may ask for a heap and stack size per process (`heap`, `stack`; 0:
 * the PCT's default).
 *
 * Lease.  yod PINGs every node it holds about once a second (from anyone,
 * PING is answered ALIVE with `job2` = the job the node holds, 0 free).
 * A PCT whose owner has sent nothing for YOD_LEASE_MS kills the job and
 * frees the node, so a yod that died (kill -9) does not keep its nodes;
 * a yod that hears no ALIVE from a node for YOD_LEASE_MS calls it down.
 * The PCT times the lease with its own clock (the kernel's calibration
 * holds under a loaded host since kernel/timer.c brackets its readings).
 *
 * Status.  STATUS (from anyone; `job` is the asker's tag, echoed) is
 * answered STATE: job2 = the job holding the node (0 free), rank, size,
 * status = 1 if the program runs, image_len = bytes of memory the
 * program's regions take, args_len = bytes free on the node, addr = the
 * owner's nid, text = the program's name.  build/bin/showmesh asks every
 * node.
 *
 * The argv/env block: argc strings then envc strings, each NUL-ended.
 * The PCT adds PTL_JOB_RANK=<rank> to the environment.
 *
 * Output.  When LWK_YOD=NID:PID is in a program's environment, libc sends
 * what it writes to fds 1 and 2 as Puts (at most YOD_IO_CHUNK bytes each,
 * acknowledged before write returns, so nothing is lost at exit) to that
 * station's portal YOD_PT_IO, hdr_data = rank << 8 | fd, from a physical
 * NI of its own pid (PTL_PID in its environment), so a job's logical NI
 * (ptl_job.h) is untouched.
 *
 * Fan-out loading (the default; yod with YOD_FANOUT=0 uses ALLOC + LOAD
 * to every node instead).  Nodes form a binomial tree over the ranks
 * (yod_tree_child): rank r's children are r + 2^k for every 2^k > r,
 * largest subtree first.  yod sends one message, to rank 0's PCT:
 *   FLOAD job rank size src owner  claim the node for `job` (if it is
 *                       free) and load like LOAD, but Get the image and
 *                       the block from station `src` (yod or the parent
 *                       PCT, same portal and match bits), and answer to
 *                       station `owner` (yod)
 * The node first tells its parent (src) GOT (status 0: it has the image;
 * else it refused: BUSY, or the Gets failed), then sends FLOAD to each
 * child in turn, exposing the image and block on its own YOD_PT_DATA,
 * and waits for that child's GOT before the next one (one copy at a time
 * leaves each link to one transfer: the tree doubles every step, so the
 * load takes log2 N image times).  A child that refused or never answers
 * is skipped: its parent forwards to that child's children itself, so
 * every node of the job hears from the tree.  Then the node loads its
 * own program and answers yod (owner): OK (loaded), BUSY, or ERR.  For a
 * child that did not take the forward at all the parent tells yod LOST
 * (rank = the child's rank).  yod is rank 0's parent.  START, KILL and
 * FREE go from yod to every node, as in the direct path.
 *   HELLO job           yod -> every node of the job first, not answered:
 *                       a PCT that knew an earlier yod on the same station
 *                       would answer that incarnation, and the new one
 *                       drops such frames (portals/PROTOCOL.md,
 *                       incarnations); any frame from the new yod updates
 *                       the PCT's view.  The direct path never needed it:
 *                       there yod always speaks first.
 *
 * Files (yod/fileio.c, libc/yodfile.c).  libc forwards file calls to yod,
 * which performs them on Linux, as the user, relative to the rank's own
 * working directory.  A request is a struct yod_file_req Put (ACK
 * requested) from that same physical NI to yod's portal YOD_PT_FILE, only
 * as long as it is used (the header, then the NUL-ended path strings).
 * yod answers with a struct yod_file_ans Put to the rank's portal
 * YOD_PT_FILE, match bits YOD_MB_ANS | seq.  Data is never in a request or
 * an answer: for WRITE the rank exposes its buffer (an ME for Gets, match
 * bits YOD_MB_BUF | seq) and yod Gets it, for READ and GETCWD the rank
 * exposes its buffer for Puts and yod Puts the bytes straight into it, in
 * chunks of its own choosing at their offsets.  One request at a time per
 * rank; the answer comes after the last byte moved.  fds are the rank's:
 * yod maps them to its own (0 is yod's stdin for rank 0, /dev/null for the
 * others; 1 and 2 stay on the output path above).  Open flags and errno
 * travel in this file's numbering (newlib's and Linux's differ): YOD_O_*,
 * and an errno's place in YOD_ERRNO_LIST (1-based, 0 = none).
 */
#ifndef YOD_PROTO_H
#define YOD_PROTO_H

#include <stddef.h>
#include <stdint.h>

#define YOD_PCT_PID     1       /* the PCT's Portals pid on every node */
#define YOD_PID         2       /* yod's pid on its service nid */
#define YOD_APP_PID     10      /* rank-local index 0 */

/* A station (nid, pid) in one word, as FLOAD carries src and owner. */
#define YOD_STATION(nid, pid)   ((uint64_t)(nid) << 32 | (uint32_t)(pid))
#define YOD_STATION_NID(s)      ((uint32_t)((s) >> 32))
#define YOD_STATION_PID(s)      ((uint32_t)(s))

#define YOD_PT_CTL      0       /* control messages, both directions */
#define YOD_PT_DATA     1       /* yod: image and argv/env, for Gets */
#define YOD_PT_IO       12      /* yod: program output (PTL_JOB_PT_IO) */
#define YOD_PT_FILE     13      /* yod: file requests; ranks: answers, data */

#define YOD_MB_IMAGE    1ull
#define YOD_MB_ARGS     2ull
#define YOD_MB_ANS      0ull            /* | seq: a file answer */
#define YOD_MB_BUF      (1ull << 32)    /* | seq: the rank's data buffer */

#define YOD_IO_CHUNK    4096
#define YOD_ARGS_MAX    8192    /* argv/env block */
#define YOD_WORDS_MAX   32      /* argv words; env strings incl. the PCT's */

enum yod_type {
    YOD_ALLOC = 1, YOD_LOAD, YOD_START, YOD_KILL, YOD_FREE,
    YOD_PING = 6, YOD_STATUS = 7,      /* lease, showmesh */
    YOD_FLOAD = 10, YOD_GOT, YOD_HELLO, /* fan-out loading */
    YOD_OK = 16, YOD_BUSY, YOD_ERR, YOD_EXIT,
    YOD_ALIVE = 20, YOD_STATE = 21,    /* answers to PING, STATUS */
    YOD_LOST = 24,                      /* fan-out: a child did not answer */
};

enum yod_mode { YOD_MODE_ONE, YOD_MODE_THREADS, YOD_MODE_COPROC }; /* pct/cpus.c */

#define YOD_PING_MS     1000    /* yod pings the nodes it holds this often */
#define YOD_LEASE_MS    5000    /* silence after which the other side is gone */

struct yod_msg {
    uint32_t type;              /* enum yod_type */
    uint32_t job;               /* job id (yod's choice, never 0) */
    uint32_t job2;              /* BUSY: the owner's job */
    int32_t rank, size;         /* LOAD */
    uint32_t argc, envc;        /* LOAD */
    int32_t status;             /* EXIT: exit, abort or fault status */
    uint32_t reason;            /* EXIT: LWK_STOP_EXIT/_ABORT/_FAULT, 0 killed */
    int32_t peer;               /* EXIT after ABORT: the rank whose end made
                                   it give up (a message to it failed), -1 */
    uint32_t mode;              /* LOAD, FLOAD: CPUs (pct/cpus.c): 0 one,
                                   1 threads, 2 coproc */
    uint64_t image_len, args_len; /* LOAD, FLOAD */
    uint64_t heap, stack;       /* LOAD, FLOAD: sizes, 0 = the node's default */
    union {
        struct { uint64_t addr, rip; };     /* EXIT after a fault */
        struct { uint64_t src, owner; };    /* FLOAD: YOD_STATIONs */
    };
    char text[200];             /* ERR and fault descriptions */
};


/* ---- file forwarding ------------------------------------------------------ */

#define YOD_PATH_MAX    4096    /* a path with its NUL */

enum yod_file_op {
    YOD_F_OPEN = 1, YOD_F_CLOSE, YOD_F_READ, YOD_F_WRITE, YOD_F_LSEEK,
    YOD_F_FSTAT, YOD_F_STAT, YOD_F_LSTAT, YOD_F_ISATTY, YOD_F_UNLINK,
    YOD_F_LINK, YOD_F_RENAME, YOD_F_MKDIR, YOD_F_RMDIR, YOD_F_GETCWD,
    YOD_F_CHDIR, YOD_F_ACCESS, YOD_F_FTRUNCATE, YOD_F_FSYNC,
};

/* Open flags: the access mode is 0, 1, 2 as everywhere; the rest bits. */
#define YOD_O_ACCMODE   3u
#define YOD_O_APPEND    (1u << 2)
#define YOD_O_CREAT     (1u << 3)
#define YOD_O_TRUNC     (1u << 4)
#define YOD_O_EXCL      (1u << 5)
#define YOD_O_NONBLOCK  (1u << 6)
#define YOD_O_SYNC      (1u << 7)
#define YOD_O_NOFOLLOW  (1u << 8)
#define YOD_O_DIRECTORY (1u << 9)

/* The errno values that can travel; anything else arrives as EIO.  Both
   sides expand this with their own <errno.h> (X is a macro of one name). */
#define YOD_ERRNO_LIST(X) \
    X(EPERM) X(ENOENT) X(ESRCH) X(EINTR) X(EIO) X(ENXIO) X(E2BIG)         \
    X(ENOEXEC) X(EBADF) X(ECHILD) X(EAGAIN) X(ENOMEM) X(EACCES) X(EFAULT) \
    X(EBUSY) X(EEXIST) X(EXDEV) X(ENODEV) X(ENOTDIR) X(EISDIR) \
    X(EINVAL) X(ENFILE) X(EMFILE) X(ENOTTY) X(ETXTBSY) X(EFBIG) X(ENOSPC) \
    X(ESPIPE) X(EROFS) X(EMLINK) X(EPIPE) X(EDOM) X(ERANGE) X(EDEADLK)    \
    X(ENAMETOOLONG) X(ENOLCK) X(ENOSYS) X(ENOTEMPTY) X(ELOOP)             \
    X(EOVERFLOW) X(EDQUOT) X(ESTALE) X(EOPNOTSUPP) X(ENOTSUP) X(EILSEQ)   \
    X(ECANCELED) X(ETIMEDOUT) X(ENOBUFS)

struct yod_file_req {
    uint32_t op;                /* enum yod_file_op */
    uint32_t seq;               /* the rank's request number (match bits) */
    int32_t rank;
    int32_t fd;                 /* the rank's fd */
    uint32_t flags;             /* OPEN: YOD_O_*; ACCESS: R/W/X_OK bits;
                                   LSEEK: whence (SEEK_SET/CUR/END 0/1/2) */
    uint32_t mode;              /* OPEN, MKDIR: permission bits */
    int64_t off;                /* LSEEK, FTRUNCATE */
    uint64_t len;               /* READ, WRITE, GETCWD: the rank's buffer */
    uint32_t path_len;          /* bytes of path, its NUL included */
    uint32_t path2_len;         /* LINK, RENAME: the new name, after it */
    char path[2 * YOD_PATH_MAX];
};
#define YOD_FILE_REQ_HDR offsetof(struct yod_file_req, path)

/* File modes are the traditional octal values on both sides. */
struct yod_stat {
    uint64_t dev, ino, mode, nlink, uid, gid, rdev, size, blksize, blocks;
    int64_t atime, mtime, ctime;
    uint32_t atime_ns, mtime_ns, ctime_ns, pad;
};

struct yod_file_ans {
    uint32_t seq;
    uint32_t err;               /* place in YOD_ERRNO_LIST; 0: success */
    int64_t ret;                /* the result on success */
    struct yod_stat st;         /* FSTAT, STAT, LSTAT */
};

/* Rank r's child after `prev` (-1: its first) in the binomial tree of
   `size` ranks, or -1: r + 1, r + 2, r + 4, ... for the powers of two
   above r (largest subtree first). */
static inline int yod_tree_child(int r, int prev, int size)
{
    long k = 1;

    if (prev >= 0)
        k = 2L * (prev - r);
    else
        while (k <= r)
            k <<= 1;
    return r + k < size ? (int)(r + k) : -1;
}

#endif
