/* SPDX-License-Identifier: MIT */
/*
 * ptl_host.h: the only door between the portable Portals core and its host
 * (the Q-Kernel, the Linux library libportals, or a unit test).
 *
 * The core owns no memory, no clock and no device.  A host creates one
 * "lib" per process endpoint (one nid/pid), gives it a block of memory for
 * its fixed-size tables, and from then on:
 *   - feeds it received frames (ptl_lib_rx) and calls ptl_lib_progress()
 *     after each batch and whenever ptl_lib_deadline() has passed;
 *   - implements the hooks below, which the core calls.
 * Every address or length an application passes is checked by ops->check
 * before the core keeps it, and application memory is only ever touched
 * through ops->copy_in/copy_out (the kernel validates and translates there).
 */
#ifndef PTL_HOST_H
#define PTL_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "portals4.h"

struct ptl_whdr;                /* ptl_wire.h */

/* One piece of a frame to transmit.  app != 0 means base is an application
 * address (translate it); otherwise it is core memory. */
struct ptl_iov {
    const void *base;
    size_t len;
    int app;
};

#define PTL_CHECK_BIND  2

struct ptl_host_ops {
    /* Send one Ethernet frame made of niov pieces (the first holds the
     * Ethernet and Portals headers).  The pieces may be reused as soon as
     * this returns.  Return 0, or nonzero if the frame could not be taken
     * now (a full loop queue or ring): the core keeps it, stops sending
     * to that peer and tries again within 100 us (back-pressure: no
     * timeout counts against the peer meanwhile). */
    int (*tx)(void *ctx, const struct ptl_iov *iov, int niov);
    /* Monotonic time in nanoseconds. */
    uint64_t (*now_ns)(void *ctx);
    /* Is [addr, addr+len) application memory the process may access
     * (writable if write & 1)?  Return 0 if so.  With PTL_CHECK_BIND the
     * range is an MD being bound: it may name more than the process has
     * (MPI binds all of memory), so the host need only check that it is
     * inside the process's address space; every operation then checks
     * the bytes it really moves. */
    int (*check)(void *ctx, const void *addr, uint64_t len, int write);
    /* Copy between core memory and application memory. */
    void (*copy_out)(void *ctx, void *app_dst, const void *src, size_t len);
    void (*copy_in)(void *ctx, void *dst, const void *app_src, size_t len);
    /* Optional: a pointer the core may read len bytes of application
     * memory through (to checksum a frame without copying it); NULL hook
     * or NULL result means "use copy_in". */
    const void *(*map_app)(void *ctx, const void *app, size_t len);
    /* Memory the application can read without a trap, for EQ rings and CT
     * counters (in the kernel: the process's Portals event region). */
    void *(*shared_alloc)(void *ctx, size_t len);
    void (*shared_free)(void *ctx, void *p, size_t len);
    /* Block until a frame may have arrived or deadline_ns (absolute,
     * now_ns time base) has passed, feeding frames to the lib.  Called
     * with no core state held.  Return nonzero to abort the wait:
     * PTL_ABORTED after PtlAbort (the waiting call returns it), any other
     * value for an interruption (PTL_INTERRUPTED). */
    int (*wait)(void *ctx, uint64_t deadline_ns);
    /* Optional: take in the frames that already arrived, never blocking
     * (PtlEQGet/PtlCTGet call it, so a program that polls them sees what
     * came).  Called with no core state held.  NULL where frames are taken
     * in anyway (the kernel's interrupt, a progress thread). */
    void (*poll)(void *ctx);
    /* Serialize entry into the core (may be NULL if single-threaded). */
    void (*lock)(void *ctx);
    void (*unlock)(void *ctx);
};

/* Table sizes; zero fields take the defaults in ptl_lib_params_default(). */
struct ptl_lib_params {
    ptl_nid_t nid;
    ptl_pid_t pid;          /* PTL_PID_ANY: the first PtlNIInit picks it */
    ptl_uid_t uid;
    ptl_jid_t jid;
    uint32_t mtu;           /* bytes after the 14-byte Ethernet header */
    uint32_t max_entries, max_uh, max_mds, max_cts, max_eqs;
    uint32_t max_pt_index, max_trig, max_msgs, max_peers;
    uint32_t window;        /* frames in flight per peer (<= 256) */
    uint64_t rto_ns, rto_max_ns;    /* the retransmission timeout's floor
                             * once a peer's round trip is known, and
                             * its ceiling */
    uint64_t rto_init_ns;   /* ... and before: a peer's first frames */
    uint64_t ack_delay_ns;  /* wait this long for data to carry an ACK */
    uint32_t max_retries;   /* then the peer is declared unreachable */
    uint32_t epoch;         /* incarnation; distinct for each start */
    bool auth;              /* the cluster's transport key: sign every
                             * frame with it, and let only frames it
                             * signs change what a peer that signs owns
                             * (PROTOCOL.md 2.3) */
    uint64_t auth_key[2];   /* SipHash key words k0, k1 */
    uint64_t born;          /* this incarnation's start, ns of a realtime
                             * clock: later than any earlier incarnation
                             * of this nid and pid (replays of theirs are
                             * refused) */
    bool no_checksum;       /* fuzzing only: accept frames without csum */
    bool hold_acks;         /* let ACKs wait (ack_delay) for a reply to
                             * carry them: only where timers run while the
                             * process computes (the kernel, the in-memory
                             * test network); a Linux process that sleeps
                             * outside Portals would hold them that long */
};

struct ptl_lib;

/* Counters a host or test can read (also PtlNIStatus drop count). */
struct ptl_lib_stats {
    uint64_t tx_frames, rx_frames, rtx_frames, acks_sent;
    uint64_t tx_probes;     /* of rtx_frames: tail-loss probes */
    uint64_t acks_carried;  /* Portals ACKs that rode in another frame */
    uint64_t rx_bad;        /* failed to parse: checksum, length, version */
    uint64_t rx_dup, rx_ooo, rx_notready, rx_misaddressed;
    uint64_t rx_early;      /* taken beyond a gap, landed at their offset */
    uint64_t rx_version;    /* refused: another wire version */
    uint64_t tx_interleaved;    /* one-frame messages sent inside larger
                                 * ones to the same peer */
    uint64_t tx_resets, rx_resets;  /* "that incarnation is gone" */
    uint64_t rx_forged;     /* refused: a wrong MAC, a frame without one
                             * from a peer that signs, or an incarnation
                             * older than the one known (a replay) */
    uint64_t tx_busy;       /* frames the host could not take (its loop
                             * queue or ring full): sent again soon */
    uint64_t tx_unframed;   /* RNRs: frames taken back, to go again after
                             * the responses the refusing peer waits for */
    uint64_t drops;         /* messages dropped at the target */
    uint64_t perm_violations, op_violations;
    uint64_t eq_dropped;
};

void ptl_lib_params_default(struct ptl_lib_params *p);
/* Bytes of table memory ptl_lib_create needs for these params. */
size_t ptl_lib_mem_size(const struct ptl_lib_params *p);
/* Create a lib in mem (ptl_lib_mem_size bytes, 16-byte aligned) and bind it
 * to interface number iface (0..PTL_MAX_IFACES-1).  Returns PTL_OK. */
int ptl_lib_create(unsigned iface, const struct ptl_lib_params *p,
                   const struct ptl_host_ops *ops, void *ctx, void *mem,
                   size_t memlen, struct ptl_lib **out);
/* Tear down; the host then frees mem. */
void ptl_lib_destroy(struct ptl_lib *lib);
/* Sign this lib's frames from now on (a host that learns the cluster's
 * transport key after creating it: the PCT gives the kernel the key). */
void ptl_lib_auth(struct ptl_lib *lib, const uint64_t key[2]);
struct ptl_lib *ptl_lib_of_iface(unsigned iface);
/* A received frame (Ethernet header included).  Safe on any bytes. */
void ptl_lib_rx(struct ptl_lib *lib, const void *frame, size_t len);
/* The same for a frame the host already parsed to find its lib
 * (ptl_wire_parse with skip_csum: h and payload are that parse's); the
 * checksum is checked here. */
void ptl_lib_rx_parsed(struct ptl_lib *lib, const void *frame, size_t len,
                       const struct ptl_whdr *h, const uint8_t *payload);
/* Timers, delayed ACKs, queued transmissions. */
void ptl_lib_progress(struct ptl_lib *lib);
/* Earliest time ptl_lib_progress has work to do (UINT64_MAX: none). */
uint64_t ptl_lib_deadline(struct ptl_lib *lib);
/* The process is about to wait: send the ACKs held for a reply to carry
 * (rel.c hold_ack) and the link ACKs owed but those of frames that
 * carried only a Portals ACK; otherwise they wait for ack_delay.  True if
 * any went. */
bool ptl_lib_flush(struct ptl_lib *lib);
/* The process is going: everything owed goes now, or a peer would resend
 * its last frames to nobody. */
bool ptl_lib_flush_all(struct ptl_lib *lib);
/* True while frames are unacknowledged or queued, or link ACKs owed. */
bool ptl_lib_busy(struct ptl_lib *lib);
/* True while a logical NI is initialized (a PtlNIInit without its
 * PtlNIFini): a process that ends so leaves a parallel job (ptl_job.h)
 * without finalizing, and its peers may wait for it (ni.c). */
bool ptl_lib_in_job(struct ptl_lib *lib);
/* PtlNIFini without waiting inside (ni.c): PTL_OK with *until 0 when the
 * NI is gone; with *until set, wait until then (or news) and call again. */
int ptl_ni_fini_step(ptl_handle_ni_t h, uint64_t *until);
void ptl_lib_get_stats(struct ptl_lib *lib, struct ptl_lib_stats *st);
/* Grows whenever an event is posted or a counting event changes: a host
 * with several threads wakes its waiters when it moved (read it locked). */
uint64_t ptl_lib_changes(struct ptl_lib *lib);
ptl_nid_t ptl_lib_nid(struct ptl_lib *lib);
ptl_pid_t ptl_lib_pid(struct ptl_lib *lib);
/* Where an EQ's ring or a CT's counter sits in shared memory (what
 * shared_alloc gave), or NULL if h is no live EQ or CT of lib. */
void *ptl_lib_shared_of(struct ptl_lib *lib, ptl_handle_any_t h);

#define PTL_MAX_IFACES 64

#endif /* PTL_HOST_H */
