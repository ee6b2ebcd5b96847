/* SPDX-License-Identifier: MIT */
/*
 * yod_proto.h: what yod (Linux, libportals) and the PCTs (compute nodes)
 * say to each other, and how an application's stdout/stderr reach yod.
 * Shared by yod (yod/), the PCT (pct/serve.c and the files beside it)
 * and the nodes' C library (libc/yodio.c, libc/yodfile.c).
 *
 * Addresses.  A PCT with no boot-module program serves on Portals pid
 * YOD_PCT_PID (physical, matching NI).  yod is a Linux station on a
 * service nid (LWK_SERVICE_NID_FIRST.., one lock file per nid in the
 * cluster directory) with pid YOD_PID.  Ranks run with Portals pid
 * YOD_APP_PID + i, i the rank's index on its node (0 but in virtual-node
 * mode, where a node runs one rank per CPU: rank r + i on CPU i).
 *
 * Control.  Every request and answer is one struct yod_msg Put to portal
 * YOD_PT_CTL (match bits 0), signed (Authentication, below).  yod -> PCT:
 *   ALLOC job           claim the node; answer OK, or BUSY with the owner
 *                       (only from a station of the service partition:
 *                       kernel command line pct.service=FIRST-LAST,
 *                       which tools/cluster sets; default 1000-1999)
 *   LOAD job rank size  the PCT Gets the program image (match bits
 *                       YOD_MB_IMAGE) and the argv/env block (YOD_MB_ARGS)
 *                       from yod's portal YOD_PT_DATA, loads it; OK or ERR.
 *                       Virtual-node mode (mode YOD_MODE_VN): `local`
 *                       ranks rank..rank+local-1 from the one image, each
 *                       its own process, rank + i on CPU i
 *                       (pct/cpus.c); local is at most the `cpus` the
 *                       node said in its OK to ALLOC and YOD_VN_MAX
 *   START job           run it; the PCT answers OK, and EXIT when it ends
 *   KILL job            end it now (an EXIT follows if it was loaded)
 *   FREE job            give the node back (kills what still runs)
 * PCT -> yod: OK (to ALLOC: `cpus`, the node's CPUs), BUSY (owner in
 * `job2`), ERR (text), EXIT (one per rank, `rank` its rank): reason
 * LWK_STOP_EXIT with the exit status; LWK_STOP_ABORT (the program ended
 * its job: MPI_Abort, abort(), assert) with its status, why in text and
 * in peer the rank whose end made it give up (-1: it gave up by itself);
 * LWK_STOP_FAULT with status 128 + the signal Linux would send (a page
 * fault 139), addr, rip, text "killed: what <symbol+off>", and in peer
 * the rank of this node whose memory it touched after that rank had
 * ended (SMARTMAP, docs/SMP.md; -1: none); 0 killed by a KILL or FREE.
 * After an exit or a fault, `left_job` is 1 if the rank was still in a
 * parallel job (it had not finalized its job NI: MPI_Finalize, NX's
 * exit, ptl_job_fini), so its peers may wait for it.
 * LOAD may ask for a heap and stack size per process (`heap`, `stack`; 0:
 * the PCT's default).
 *
 * Debugging (yod_debug.h): DEBUG requests stop a rank, read its threads'
 * registers and memory, write them, and let it go on (yod -debug, yod
 * -attach, yod's stack summary, core files); STOPPED says a rank
 * stopped.  An EXIT with YOD_EXIT_HELD in `flags` is a fault or abort
 * whose process is kept for yod to read until it says RELEASE.
 *
 * LOAD, START, KILL and FREE are obeyed only from the station that
 * claimed the node for that job (its owner); anything else is refused
 * and logged (a line a second at most, the rest counted).
 *
 * Lost answers.  yod asks again (a new message, the same request) when a
 * request the PCT took has no answer within a second or so, and every
 * request is idempotent for its job: ALLOC of a node the job holds, LOAD
 * of a program loaded, START of a job started (even if its ranks have
 * ended since) are answered OK again, so
 * a lost answer costs a question, never a node that yod and its PCT see
 * differently.  A node yod gives up on is sent FREE all the same.
 *
 * Lease.  yod PINGs every node it holds about once a second, spread over
 * the second (a signed PING from anyone is answered ALIVE with `job2` =
 * the job the node holds, 0 free, and `status` 1 if that job's program
 * is loaded there: so yod learns of a load whose OK was lost; only the
 * owner's PING keeps the lease).
 * A PCT whose owner has sent nothing for YOD_LEASE_MS kills the job and
 * frees the node, so a yod that died (kill -9) does not keep its nodes;
 * a yod that hears no ALIVE from a node for YOD_LEASE_MS calls it down.
 * The PCT times the lease with its own clock (the kernel's calibration
 * holds under a loaded host since kernel/timer.c brackets its readings).
 *
 * Status.  STATUS (from anyone, unsigned; `job` is the asker's tag,
 * echoed) is answered STATE, unsigned: job2 = the job holding the node (0
 * free), rank, size, status = 1 if the program runs, image_len = bytes of
 * memory the program's regions take, args_len = bytes free on the node,
 * addr = the owner's nid, refused = requests the PCT refused or dropped
 * since it started, text = the program's name, local = the job's ranks
 * on the node (rank..rank+local-1), cpus = the node's CPUs, and for each
 * of the first YOD_STATE_CPUS CPUs what it does (cpu_use: YOD_CPU_USE,
 * enum yod_cpu_use, and YOD_CPU_LOCAL, the index on the node of the rank
 * it serves: rank + that index): CPU 0 always runs the PCT besides.  build/bin/showmesh asks every node.
 *
 * Answers never wait.  The PCT sends every answer without waiting for
 * it to arrive, from a few buffers (at most two per asker that is not the
 * owner, and some kept for the owner); with none free an answer to
 * anyone but the owner is dropped and counted, never waited for, and one
 * to the owner waits in a short queue for a buffer (an EXIT has no
 * second chance).  An ALIVE is not sent while another to the same
 * station is on its way.  So an asker that is gone (a
 * program that exits right after STATUS) costs a buffer for a while, not
 * the node its serve loop.
 *
 * The argv/env block: argc strings then envc strings, each NUL-ended.
 * The PCT adds PTL_JOB_RANK=<rank> to the environment, and puts the
 * rank's key (Authentication) in its auxiliary vector (AT_LWK_YOD_KEY0/1,
 * uapi/abi.h), never on the wire.
 *
 * Authentication.  tools/cluster makes a secret for every cluster it
 * boots (16 random bytes as 32 hex digits in the file `secret` of the
 * cluster's directory, readable only by its owner) and gives it to every
 * PCT as the boot module cluster.key (a file, so it is never on a command
 * line `ps` shows).  yod reads the file.  For each job yod picks a random
 * 64-bit nonce; the job's key is yod_job_key(secret, job, nonce), which
 * every PCT derives from the nonce in the message, and each rank's key is
 * yod_rank_key(job key, rank).
 *  - Control messages (every struct yod_msg but STATUS and STATE) carry
 *    the job and nonce they speak for, `seq`, the sender's message
 *    number (it only ever grows: yod counts per run, a PCT since it
 *    started), and `mac` = yod_msg_mac(job key, message, sender,
 *    receiver): SipHash-2-4 of the sender's and receiver's (nid, pid) and
 *    the message with mac 0.  Binding both ends means a message yod sent
 *    to one node cannot be replayed to another.  A PCT drops and counts a
 *    message whose MAC is wrong; it obeys yod's messages for a job only
 *    with a seq above the last it took for that job (PINGs are counted
 *    apart: they may overtake a request a PCT holds while it loads
 *    through the tree; it remembers the last YOD_JOBS_SEEN jobs, so a
 *    recorded ALLOC or PING cannot be replayed after the job ended).  yod takes a PCT's message only from
 *    pid YOD_PCT_PID of one of its nodes, for its job, with a good MAC
 *    and a seq above the last from that node.
 *  - A rank's file requests and output are signed with the rank's key:
 *    yod_file_req.mac (yod_file_mac) and, for output, the match bits
 *    (yod_output_mac); each carries a number that only grows (the
 *    request's seq; for output the top 32 bits of hdr_data).  yod takes
 *    them only from the rank's node, from a pid other than the PCT's (the
 *    first signed one fixes the pid), signed, with a number above the
 *    last; anything else is dropped and counted, and yod says how many at
 *    the end of the job.
 *  - Below all this, the Portals frames themselves: every PCT gives its
 *    kernel, and yod its libportals, yod_transport_key(secret), and every
 *    frame between them is signed with it (portals/PROTOCOL.md 2.3): a
 *    station without the secret cannot reset or acknowledge a link
 *    between them, so it cannot make a rank's output or files go astray.
 * Node programs cannot forge a sender (their kernel stamps nid and pid on
 * every frame, and pid YOD_PCT_PID is the PCT's); a Linux station on the
 * switch can, and the MACs are what stop it.  What is not covered (the
 * payloads of frames a station diverts): the threat model,
 * docs/SECURITY.md.
 *
 * Output.  When LWK_YOD=NID:PID is in a program's environment, libc sends
 * what it writes to fds 1 and 2 as Puts (at most YOD_IO_CHUNK bytes each,
 * ACK requested) to that station's portal YOD_PT_IO, hdr_data = seq << 32
 * | rank << 8 | fd (seq counts the rank's output Puts from 1), match bits
 * = yod_output_mac, from a physical NI of its own pid (PTL_PID in its
 * environment), so a job's logical NI (ptl_job.h) is untouched.  yod
 * answers each Put it takes once it has written the lines the Put's bytes
 * ended: a Put of no bytes to the rank's portal YOD_PT_FILE, match bits
 * YOD_MB_OUT | seq, hdr_data the errno of the write that failed (the
 * protocol's number, below; 0: written).  write returns only after the
 * ACK and the answer, so nothing is lost at exit and a full disk or a
 * closed pipe on yod's side is the rank's error (ENOSPC, EPIPE, EFBIG).
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
 * FREE go from yod to every node, as in the direct path.  A PCT takes
 * FLOAD only from yod (a service station) or a PCT (pid YOD_PCT_PID),
 * for an owner of the service partition, with `src` its sender, and
 * once per job; each PCT signs what it forwards and its GOT.
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
 * working directory (with yod -chroot DIR, inside DIR: every path is
 * resolved as if DIR were /).  A request is a struct yod_file_req Put
 * (ACK requested) from that same physical NI to yod's portal YOD_PT_FILE,
 * only as long as it is used (the header, then the NUL-ended path
 * strings), signed (yod_file_mac).
 * yod answers with a struct yod_file_ans Put to the rank's portal
 * YOD_PT_FILE, match bits YOD_MB_ANS | seq.  Data is never in a request or
 * an answer: for WRITE the rank exposes its buffer (an ME for Gets, match
 * bits YOD_MB_BUF | seq) and yod Gets it, for READ and GETCWD the rank
 * exposes its buffer for Puts and yod Puts the bytes straight into it, in
 * chunks of its own choosing at their offsets, several at once.  One
 * request at a time per rank; the answer comes after the last byte moved.  fds are the rank's:
 * yod maps them to its own (0 is yod's stdin for rank 0, /dev/null for the
 * others; 1 and 2 stay on the output path above).  Open flags and errno
 * travel in this file's numbering (newlib's and Linux's differ): YOD_O_*,
 * and an errno's place in YOD_ERRNO_LIST (1-based, 0 = none).
 *
 * I/O servers (yod -io N; docs/io.md).  A job's files may be served by
 * several servers: yod itself and processes yod starts, each a station of
 * its own on a service nid with pid YOD_IOD_PID, which yod gives the
 * job's key over a private channel (a stream between the two processes,
 * or ssh's, never the wire).  The ranks learn them from
 * LWK_YOD=NID:PID@FIRST-LAST,...: the first is yod (output, and the ranks
 * of its range), each entry serves ranks FIRST..LAST (none if LAST <
 * FIRST); rank r sends its file requests to the entry whose range holds
 * it (yod_io_station), with everything above unchanged (the same
 * signatures, answers and data movement, its buffers exposed to that
 * server alone).  An entry without a range is yod's for every rank.
 *
 * Striped files (yod -pfs DIR; docs/io.md, PFS).  Paths under /pfs are
 * DIR's, on every server: /pfs/NAME is a striped file when DIR/NAME is
 * its metadata (pfs_map.h), else an ordinary file or directory.  OPEN of
 * a new one takes the stripe factor in `off` and the unit in `len` (0:
 * the defaults) and every OPEN of a striped file answers its layout
 * (yod_file_ans.pfs).  Its own server serves every call on it, READ and
 * WRITE included (it splits them by stripe itself); the rank may instead
 * send the pieces of a large transfer, stripe unit by stripe unit, to the
 * servers holding them (stripe i: the i mod N-th station of LWK_YOD) as
 * SREAD and SWRITE, one in flight per server, several servers at once.
 */
#ifndef YOD_PROTO_H
#define YOD_PROTO_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "siphash.h"

#define YOD_PCT_PID     1       /* the PCT's Portals pid on every node */
#define YOD_PID         2       /* yod's pid on its service nid */
#define YOD_SHOWMESH_PID 3      /* showmesh's: it asks only STATUS, which
                                   needs no key, so its frames are not
                                   signed (portals/PROTOCOL.md 2.3), and
                                   a PCT that knew a yod's signed frames
                                   from the same nid must not take them
                                   for that yod's */
#define YOD_IOD_PID     4       /* an I/O server's, on its own nid */
#define YOD_APP_PID     10      /* rank-local index 0 */
#define YOD_IO_SERVERS_MAX 16   /* I/O servers of a job (yod -io N) */

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
#define YOD_MB_OUT      (2ull << 32)    /* | output seq: an output answer */

#define YOD_IO_CHUNK    4096
#define YOD_ARGS_MAX    8192    /* argv/env block */
#define YOD_WORDS_MAX   32      /* argv words; env strings incl. the PCT's */

enum yod_type {
    YOD_ALLOC = 1, YOD_LOAD, YOD_START, YOD_KILL, YOD_FREE,
    YOD_PING = 6, YOD_STATUS = 7,      /* lease, showmesh */
    YOD_DEBUG = 8,                      /* yod_debug.h */
    YOD_FLOAD = 10, YOD_GOT, YOD_HELLO, /* fan-out loading */
    YOD_OK = 16, YOD_BUSY, YOD_ERR, YOD_EXIT,
    YOD_ALIVE = 20, YOD_STATE = 21,    /* answers to PING, STATUS */
    YOD_LOST = 24,                      /* fan-out: a child did not answer */
    YOD_STOPPED = 25,                   /* yod_debug.h: a rank stopped */
};

enum yod_mode {                                 /* pct/cpus.c */
    YOD_MODE_ONE, YOD_MODE_THREADS, YOD_MODE_COPROC,
    YOD_MODE_VN,                /* virtual node: one rank per CPU */
};
#define YOD_VN_MAX      8       /* ranks a node runs in virtual-node mode */

/* What a CPU of a node does (STATE). */
enum yod_cpu_use {
    YOD_CPU_IDLE,               /* halted (CPU 0: the PCT alone) */
    YOD_CPU_RANK,               /* a rank's process (its main thread) */
    YOD_CPU_THREADS,            /* given to a rank for its threads */
    YOD_CPU_ENGINE,             /* the Portals engine (co-processor mode) */
};
#define YOD_STATE_CPUS  64
/* A CPU's byte in STATE: its use, and the index of the rank it serves. */
#define YOD_CPU_BYTE(use, local)    ((uint8_t)((use) | (local) << 3))
#define YOD_CPU_USE(b)              ((b) & 7)
#define YOD_CPU_LOCAL(b)            ((b) >> 3)
_Static_assert(YOD_VN_MAX <= 32, "a rank's index in 5 bits");

#define YOD_PING_MS     1000    /* yod pings the nodes it holds this often */
#define YOD_LEASE_MS    5000    /* silence after which the other side is gone */
#define YOD_JOBS_SEEN   64      /* jobs a PCT remembers (Authentication) */

struct yod_msg {
    uint32_t type;              /* enum yod_type */
    uint32_t job;               /* job id (yod's choice, never 0) */
    uint32_t job2;              /* BUSY: the owner's job */
    int32_t rank, size;         /* LOAD */
    uint32_t argc, envc;        /* LOAD */
    int32_t status;             /* EXIT: exit, abort or fault status */
    uint32_t reason;            /* EXIT: LWK_STOP_EXIT/_ABORT/_FAULT, 0 killed;
                                   DEBUG: enum yod_dbg_op; STOPPED: why */
    int32_t peer;               /* EXIT after ABORT or FAULT: the rank whose
                                   end caused it (a message to it failed; its
                                   memory was gone), -1 */
    uint32_t mode;              /* LOAD, FLOAD: CPUs (pct/cpus.c): 0 one,
                                   1 threads, 2 coproc, 3 vn */
    uint32_t local;             /* LOAD (vn), STATE: ranks on the node */
    uint32_t cpus;              /* OK to ALLOC, STATE: the node's CPUs */
    uint32_t refused;           /* STATE: requests refused or dropped */
    uint32_t left_job;          /* EXIT: 1 if the rank ended in its parallel
                                   job, not finalized (lwk_run_result) */
    uint32_t flags;             /* EXIT: YOD_EXIT_HELD (yod_debug.h) */
    uint32_t asked;             /* an answer: the type of the request it
                                   answers (OK to LOAD or FLOAD, ...), so
                                   a late answer is never taken for the
                                   next request's; 0: EXIT, unasked */
    uint32_t profile_hz;        /* LOAD, FLOAD: sample the ranks' program
                                   counters at this rate (yod -profile),
                                   kept at their end for yod to read (a
                                   held EXIT); 0: not */
    uint32_t counters;          /* LOAD, FLOAD: 1: count the ranks' cycles
                                   and instructions (yod -counters), kept
                                   at their end as for profile_hz */
    uint64_t image_len, args_len; /* LOAD, FLOAD */
    uint64_t heap, stack;       /* LOAD, FLOAD: sizes, 0 = the node's default */
    union {
        struct { uint64_t addr, rip; };     /* EXIT after a fault; STOPPED */
        struct { uint64_t src, owner; };    /* FLOAD: YOD_STATIONs */
        struct { uint64_t go, step; };      /* DEBUG CONT: CPU masks */
    };
    uint64_t nonce;             /* the job's key is made from job and nonce */
    uint64_t seq;               /* the sender's message number: only grows */
    uint64_t mac;               /* yod_msg_mac; 0 for STATUS and STATE */
    char text[200];             /* ERR and fault descriptions */
    uint8_t cpu[YOD_STATE_CPUS];        /* STATE: YOD_CPU_BYTE per CPU */
};
/* No padding at the end: the MAC covers every byte after `mac`. */
_Static_assert(sizeof(struct yod_msg) == offsetof(struct yod_msg, cpu) +
               YOD_STATE_CPUS, "yod_msg padding");

/* ---- authentication (see the top) ------------------------------------------ */

/* Labels keep the keys derived from one key apart (ASCII, little-endian). */
#define YOD_KDF_JOB     0x4b424f4au     /* "JOBK" */
#define YOD_KDF_RANK    0x4b4e4152u     /* "RANK" */
#define YOD_KDF_PTL     0x4b4c5450u     /* "PTLK" */

/* Two 64-bit SipHash outputs of (label, id, nonce, half) under `k`. */
static inline struct sipkey yod_kdf(const struct sipkey *k, uint32_t label,
                                    uint32_t id, uint64_t nonce)
{
    struct { uint32_t label, id; uint64_t nonce; uint32_t half, zero; } in =
        { label, id, nonce, 0, 0 };
    struct sipkey out;

    out.k0 = siphash24(k, &in, sizeof(in));
    in.half = 1;
    out.k1 = siphash24(k, &in, sizeof(in));
    return out;
}

static inline struct sipkey yod_job_key(const struct sipkey *secret,
                                        uint32_t job, uint64_t nonce)
{
    return yod_kdf(secret, YOD_KDF_JOB, job, nonce);
}

static inline struct sipkey yod_rank_key(const struct sipkey *job_key,
                                         int32_t rank)
{
    return yod_kdf(job_key, YOD_KDF_RANK, (uint32_t)rank, 0);
}

/* The cluster's Portals transport key (portals/PROTOCOL.md 2.3): each
   PCT gives it to its kernel (ptl_key), yod to its libportals; every
   frame between them is signed with it. */
static inline struct sipkey yod_transport_key(const struct sipkey *secret)
{
    return yod_kdf(secret, YOD_KDF_PTL, 0, 0);
}

/* The MAC of a control message from (fnid, fpid) to (tnid, tpid). */
static inline uint64_t yod_msg_mac(const struct sipkey *k,
                                   const struct yod_msg *m, uint32_t fnid,
                                   uint32_t fpid, uint32_t tnid,
                                   uint32_t tpid)
{
    uint32_t ends[4] = { fnid, fpid, tnid, tpid };
    uint64_t zero = 0;
    struct siphash h;

    siphash_init(&h, k);
    siphash_update(&h, ends, sizeof(ends));
    siphash_update(&h, m, offsetof(struct yod_msg, mac));
    siphash_update(&h, &zero, sizeof(zero));
    siphash_update(&h, m->text, sizeof(*m) - offsetof(struct yod_msg, text));
    return siphash_final(&h);
}

/* The match bits of an output Put: its hdr_data, then its bytes. */
static inline uint64_t yod_output_mac(const struct sipkey *rank_key,
                                      uint64_t hdr_data, const void *data,
                                      size_t len)
{
    struct siphash h;

    siphash_init(&h, rank_key);
    siphash_update(&h, &hdr_data, sizeof(hdr_data));
    siphash_update(&h, data, len);
    return siphash_final(&h);
}


/* ---- file forwarding ------------------------------------------------------ */

#define YOD_PATH_MAX    4096    /* a path with its NUL */

enum yod_file_op {
    YOD_F_OPEN = 1, YOD_F_CLOSE, YOD_F_READ, YOD_F_WRITE, YOD_F_LSEEK,
    YOD_F_FSTAT, YOD_F_STAT, YOD_F_LSTAT, YOD_F_ISATTY, YOD_F_UNLINK,
    YOD_F_LINK, YOD_F_RENAME, YOD_F_MKDIR, YOD_F_RMDIR, YOD_F_GETCWD,
    YOD_F_CHDIR, YOD_F_ACCESS, YOD_F_FTRUNCATE, YOD_F_FSYNC,
    YOD_F_GETDENTS,     /* fd open on a directory, len: the rank's buffer;
                           yod Puts the next whole entries there as Linux's
                           getdents64 gives them (struct linux_dirent64:
                           ino, off, reclen, type, name); the answer is
                           their bytes, 0 at the end (a Linux program's
                           readdir, lxrt/rt_file.c) */
    YOD_F_PREAD, YOD_F_PWRITE,  /* READ and WRITE at offset `off` of the
                                   file (pread(2), pwrite(2)): the fd's
                                   own offset stays (POSIX aio, libc/aio.c) */
    YOD_F_SREAD, YOD_F_SWRITE,  /* a piece of a striped file (PFS, below):
                                   READ and WRITE at offset `off` of stripe
                                   `flags` of the file whose id (16 hex
                                   digits) is the path, its name (for yod's
                                   messages) path2; any server of the job
                                   takes them from any of its ranks */
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
    int64_t off;                /* LSEEK, FTRUNCATE, PREAD, PWRITE */
    uint64_t len;               /* READ, WRITE, PREAD, PWRITE, GETCWD: the
                                   rank's buffer */
    uint32_t path_len;          /* bytes of path, its NUL included */
    uint32_t path2_len;         /* LINK, RENAME: the new name, after it */
    uint64_t mac;               /* yod_file_mac */
    char path[2 * YOD_PATH_MAX];
};
#define YOD_FILE_REQ_HDR offsetof(struct yod_file_req, path)

/* The MAC of a file request of `len` bytes (header and paths): SipHash
   under the rank's key of the header with mac 0, then the paths. */
static inline uint64_t yod_file_mac(const struct sipkey *rank_key,
                                    const struct yod_file_req *q, size_t len)
{
    uint64_t zero = 0;
    struct siphash h;

    siphash_init(&h, rank_key);
    siphash_update(&h, q, offsetof(struct yod_file_req, mac));
    siphash_update(&h, &zero, sizeof(zero));
    siphash_update(&h, q->path, len - YOD_FILE_REQ_HDR);
    return siphash_final(&h);
}

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
    struct yod_pfs_layout {     /* OPEN of a striped file (PFS): its id,
                                   stripe unit (bytes) and factor (stripes);
                                   factor 0: not striped */
        uint64_t id, unit;
        uint32_t factor, append;        /* append: opened O_APPEND */
    } pfs;
};

/* The n-th station (0: yod) of LWK_YOD's list; 0, or -1 if it has fewer. */
static inline int yod_io_nth(const char *list, int n, unsigned *nid,
                             unsigned *pid)
{
    const char *p = list;
    char *end;

    for (int i = 0; p && *p; i++) {
        unsigned long a = strtoul(p, &end, 10), b;

        if (*end != ':')
            return -1;
        b = strtoul(end + 1, &end, 10);
        if (i == n) {
            *nid = (unsigned)a;
            *pid = (unsigned)b;
            return 0;
        }
        while (*end && *end != ',')
            end++;
        p = *end == ',' ? end + 1 : NULL;
    }
    return -1;
}

/* Which of n servers serves rank r of `size` (yod's choice within one
   host): ranks in n even blocks, so a node's ranks (yod -vn) share one. */
static inline int yod_io_server_of(int r, int size, int n)
{
    return (int)((long)r * n / size);
}

/* Rank r's I/O server in LWK_YOD's list (above): the station of the entry
   whose range holds r, else the first (yod).  0, or -1 if `list` does not
   begin with a station. */
static inline int yod_io_station(const char *list, int r, unsigned *nid,
                                 unsigned *pid)
{
    const char *p = list;
    char *end;
    int found = 0;

    *nid = *pid = 0;
    if (!*p)
        return -1;
    for (int first = 1; p && *p; first = 0) {
        unsigned long n = strtoul(p, &end, 10), q;
        long lo = 0, hi = -1;

        if (*end != ':')
            return first ? -1 : 0;
        q = strtoul(end + 1, &end, 10);
        if (*end == '@') {
            lo = strtol(end + 1, &end, 10);
            hi = *end == '-' ? strtol(end + 1, &end, 10) : -1;
        }
        if (first || (!found && lo <= r && r <= hi)) {
            *nid = (unsigned)n;
            *pid = (unsigned)q;
            found = !first || (lo <= r && r <= hi);
        }
        p = *end == ',' ? end + 1 : NULL;
    }
    return 0;
}

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
