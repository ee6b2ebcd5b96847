/*
 * serve.h: what the parts of the PCT's server for yod share (serve.c the
 * loop and the requests, fetch.c getting a program, fanout.c the loading
 * tree, reply.c the answers, auth.c who may ask what, ranks.c the
 * processes the job runs here).  Protocol:
 * yod/yod_proto.h.
 */
#ifndef PCT_SERVE_H
#define PCT_SERVE_H

#include <portals4.h>
#include "pct.h"
#include "yod_proto.h"

#define ARGS_CHUNK  (32u << 10)        /* the argv/env block's buffer */

struct server {
    ptl_handle_ni_t ni;
    ptl_handle_eq_t req_eq;            /* requests arriving */
    ptl_handle_eq_t ini_eq;            /* our puts' ACKs, gets' REPLYs */
    ptl_handle_md_t md;                /* over `io` */
    uint64_t heap, stack, nid;
    uint32_t ncpus;                    /* the node's CPUs (OK to ALLOC) */
};
extern struct server srv;

/* One message out (put_ctl), one chunk in (get): the MD covers both. */
extern struct server_io {
    struct yod_msg out;
    char chunk[ARGS_CHUNK];
} io;
extern char args[YOD_ARGS_MAX];

/* The job this node serves (id 0: the node is free). */
extern struct served {
    uint32_t id;
    uint64_t nonce;
    struct sipkey key;                 /* the job's (yod_job_key) */
    ptl_process_t owner;               /* the yod that claimed it */
    struct job *j;                     /* its ranks here, YOD_VN_MAX
                                          (ranks.c; in the PCT's heap) */
    int nranks;                        /* loaded: j[0..nranks-1] */
    int started;
    int shared;                        /* they map each other, j[k] in
                                          SMARTMAP slot k (ranks.c) */
    int ran;                           /* START taken: its ranks here run
                                          or have ended (a START asked
                                          again is answered OK) */
    uint64_t heard;                    /* node ms: the owner's last request */
    uint64_t claimed;                  /* node ms: the claim */
    uint32_t pings;                    /* the owner's PINGs since */
} job;

/* serve.c */
uint64_t now_ms(void);
void request(const struct yod_msg *m, ptl_process_t from);
int append_req(char *buf);
int same_station(ptl_process_t a, ptl_process_t b);
/* Claim the node for the job of `m` (its key `k`), owned by `owner`. */
void claim(const struct yod_msg *m, const struct sipkey *k,
           ptl_process_t owner);
/* Load the fetched program and tell the owner. */
void finish_load(struct job *j, const struct yod_msg *m);
/* An answer about the job this node serves, to its owner. */
void tell_owner(struct yod_msg *m);

/* ranks.c: the job's processes here: one, or one per CPU (virtual-node
   mode).  Load them from the program fetched into j[0] (NULL, or why
   not); place and start them (START; -1: a CPU was not free); one turn
   of running them (returns how long the PCT may wait for requests:
   0 while CPU 0 has a rank to run); how many still live; kill them
   (yod hears each); forget them; STATE's CPU table. */
const char *ranks_load(const struct yod_msg *m);
int ranks_start(void);
int ranks_run(uint64_t quantum);
int ranks_live(void);
void ranks_kill(void);
void ranks_drop(void);
void ranks_state(struct yod_msg *a, uint64_t ncpus);
/* The live rank `rank` here, or NULL; tell yod of j's end but keep its
   process (debug.c: a held end); and let that process go. */
struct job *ranks_find(int rank);
void ranks_keep(struct job *j);
void ranks_release(struct job *j);

/* debug.c: DEBUG requests (yod_debug.h); a rank that stopped
   (LWK_STOP_DEBUG); 1 if rank j must not run now (stopped, kept); a rank
   loaded (its faults and aborts held for yod); one about to go. */
void debug_request(const struct yod_msg *m);
void debug_stopped(struct job *j);
int debug_paused(struct job *j);
void debug_loaded(struct job *j);
/* It has ended; kept (a held end) for yod to read (its profile). */
void debug_keep(struct job *j);
void debug_forget(struct job *j);

/* fetch.c: the image into a scratch region and the argv/env block into
   `args`, from yod or (fan-out) the parent PCT; NULL or why not. */
const char *fetch(struct job *j, const struct yod_msg *m, ptl_process_t from);
/* One message to a station, waiting for its ACK; 0 once it is there. */
int put_ctl(ptl_process_t to, const struct yod_msg *m);

/* fanout.c: FLOAD (k: the job's key, checked). */
void fan_load(const struct yod_msg *m, ptl_process_t from,
              const struct sipkey *k);

/* reply.c: the answers, never waited for.  `m` goes to `to`, signed with
   `k` (NULL: unsigned, STATUS's answer).  `trusted`: to the job's owner
   or its fan-out tree, which may use every buffer and, with none free,
   waits for one; anyone else gets at most two buffers at a time and not
   the last few.  0 if it went (or waits). */
int reply_open(void);
int reply_send(ptl_process_t to, const struct yod_msg *m,
               const struct sipkey *k, int trusted);
/* Is an answer of `type` to `to` still on its way? */
int reply_on_its_way(ptl_process_t to, uint32_t type);
/* Answers to the owner waiting for a buffer (the loop must come back). */
int reply_waiting(void);

/* auth.c: yod_proto.h, Authentication. */
/* The key of the job `m` speaks for, if its MAC holds (0), else -1. */
int auth_verify(const struct yod_msg *m, ptl_process_t from,
                struct sipkey *k);
/* Number and sign `m` for `to` with key `k`. */
void auth_sign(struct yod_msg *m, const struct sipkey *k, ptl_process_t to);
/* Is `m` new from the station that owns (or claims) its job: a message
   number above the last one taken for that job?  `claim`: it may be the
   job's first message here (ALLOC; FLOAD, which must be the first). */
enum { AUTH_NEXT, AUTH_FIRST, AUTH_ONLY_FIRST };
int auth_fresh(const struct yod_msg *m, int how, int from_owner);
int auth_ready(void);                  /* the cluster's secret is here */
int auth_service(uint32_t nid);        /* a service partition nid? */
/* Count a refused request and log it (a line a second at most). */
void auth_refuse(const struct yod_msg *m, ptl_process_t from,
                 const char *why, ...) __attribute__((format(printf, 3, 4)));
uint32_t auth_refused(void);

#endif
