/* SPDX-License-Identifier: MIT */
/*
 * host_internal.h: what the two files of libportals' Linux host share
 * (private to them): host.c opens and closes the interfaces and gives the
 * core its hooks; progress.c holds the process-wide lock, wakes the
 * threads that wait in Portals, takes frames in and runs the progress
 * threads.
 */
#ifndef HOST_INTERNAL_H
#define HOST_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ptl_host.h"
#include "ptl_tp.h"

struct lframe {
    struct lframe *next;
    size_t len;
    uint8_t data[];
};

struct iface {
    bool open;
    struct ptl_tp tp;
    struct ptl_lib *lib;
    void *mem;
    bool virtual_clock;
    uint8_t *rxbuf;             /* touched only with big_lock held */
    uint64_t changes_seen;      /* ptl_lib_changes at the last unlock */
    struct lframe *loop, **loop_tail;   /* frames to ourselves */
    /* The progress thread (pt_on): it sleeps in ppoll on the link and on
     * kick until pt_wake_at; others write kick when it must wake sooner. */
    bool pt_on, pt_stop;
    pthread_t pt;
    int kick;
    uint64_t pt_wake_at;
};

/* host.c owns the interfaces (open and close write them, with the lock
 * held); progress.c reads them with the lock held. */
extern struct iface ptl_lx_ifaces[PTL_MAX_IFACES];
extern unsigned ptl_lx_n_slots;     /* ptl_lx_ifaces[0..n) may be open */

/* progress.c: the monotonic clock in ns; the core's wait and poll hooks
 * (struct ptl_host_ops); a link's progress thread, started if
 * PTL_PROGRESS wants one and stopped at close (both with the lock held). */
uint64_t ptl_lx_mono_ns(void);
int ptl_lx_wait(void *ctx, uint64_t deadline);
void ptl_lx_poll(void *ctx);
int ptl_lx_progress_start(struct iface *f);
void ptl_lx_progress_stop(struct iface *f);

#endif /* HOST_INTERNAL_H */
