/* SPDX-License-Identifier: MIT */
/*
 * yod.h: what the parts of yod share.  options.c reads the command line
 * (yod's own and mpiexec's), launch.c claims the nodes and loads the
 * program (directly or through the fan-out tree), control.c speaks to the
 * PCTs (Portals, their messages), request.c sends them requests, auth.c
 * signs and checks, yod.c runs the job (output, the ranks' ends), end.c
 * says how it ended and with which status.
 */
#ifndef YOD_YOD_H
#define YOD_YOD_H

#include <stdint.h>

#include "portals4.h"
#include "yod_proto.h"

/* The PCT's fan-out takes 512 ranks (pct/fanout.c FAN_MAX), and their
   PTL_JOB_MAP fits the argv/env block. */
#define MAX_NODES   512
#define MAX_RANKS   1024        /* virtual-node mode: ranks of all CPUs */
#define ANSWER_MS   10000       /* a PCT answers a request within this */

enum { CORE_FIRST, CORE_ALL, CORE_NONE };       /* -core */

/* yod's exit statuses besides the ranks' own (yod -h, docs/yod.md). */
#define ST_USAGE        2       /* a bad option or value */
#define ST_OUTPUT       74      /* the job's output could not be written */
#define ST_TIME         124     /* the time limit (-t), as timeout(1) */
#define ST_CANNOT_RUN   125     /* no nodes, a load failed, a node lost */
#define ST_NOT_PROGRAM  126     /* not a compute-node program */
#define ST_NO_FILE      127     /* no such program */

/* A node of the job, or in virtual-node mode one CPU of one: each rank
   has its own (job[rank]).  The node's first rank's (its leader: the
   physical node, in nodes[]) speaks for all of them to the node's PCT;
   the others (in vnodes[]) hold their rank's end and output only. */
struct node {
    unsigned nid;               /* first: nodes[] is sorted by it */
    int rank;                   /* -1: not in the job */
    struct node *leader;        /* virtual-node mode, CPU > 0: the node's
                                   first rank; NULL: this is the leader */
    int local;                  /* the rank's index on the node (its CPU) */
    int nlocal;                 /* leader: ranks on the node */
    struct yod_msg got;         /* its last answer (got.type 0: none) */
    int exited;
    int held;                   /* its EXIT said its process is kept
                                   (yod_debug.h): RELEASE it */
    int ended_at;               /* its EXIT was the n-th heard; 0: none */
    int down;                   /* stopped answering, or lost the job */
    double heard;               /* ms: its last message */
    struct yod_msg exit;
    char line[2][YOD_IO_CHUNK]; /* stdout, stderr: the unfinished line */
    size_t len[2];
    int fan_got;                /* fan-out: 1 has the image, 2 refused */
    char left_out[160];         /* fan-out: busy or silent: not used again */
    char tried[120];            /* what the last request that failed got */
    struct yod_msg req;         /* its request on its way (request.c) */
    int req_state;              /* sent, taken, done, failed (request.c) */
    uint32_t req_no;            /* posts of it so far: tells ACKs apart */
    double req_first, req_last; /* ms: asked first; last sent or taken */
    double resend_ms;           /* taken and unanswered this long: again */
    uint64_t seq_in;            /* its PCT's last message number */
    struct sipkey rank_key;     /* its rank's (auth.c) */
    unsigned out_pid;           /* the pid its rank's output comes from */
    uint64_t out_seq;           /* its rank's last output number */
};

struct opts {
    int size;                   /* ranks; 0 until -sz or -nodes says */
    int label, wait, keep, kill_on_error;
    uint32_t mode;              /* YOD_MODE_*: how ranks use a node's CPUs */
    int allow_root;             /* -allow-root, or LWK_ALLOW_ROOT=1 */
    const char *chroot;         /* -chroot DIR: the ranks' files in DIR */
    int io;                     /* -io N: I/O servers; 0 the site's */
    const char *pfs;            /* -pfs DIR, else the site's: served as
                                   /pfs (docs/io.md, PFS); NULL: none */
    double timeout;             /* seconds; 0: none */
    uint64_t heap, stack;       /* 0: the PCT's default */
    const char *nodes;          /* -nodes LIST, or NULL */
    const char *debug;          /* -debug RANKS: stopped for gdb, or NULL */
    int core;                   /* -core: CORE_FIRST, CORE_ALL, CORE_NONE */
    uint32_t profile_hz;        /* -profile[=HZ]: sample rate; 0: none */
    int counters;               /* -counters: cycles, instructions */
    const char *ask;            /* -attach: what to ask job ask_job's yod */
    unsigned ask_job;
    char *env[YOD_WORDS_MAX];   /* -env: NAME=VALUE */
    int nenv;
    char **argv;                /* the program and its arguments */
};

extern struct opts o;
extern struct node nodes[MAX_NODES];
extern int nnodes;
extern struct node *job[MAX_RANKS];     /* by rank */
/* The node that speaks for n's rank (n itself, or its leader). */
static inline struct node *leader_of(struct node *n)
{
    return n->leader ? n->leader : n;
}
extern uint32_t jobid;
extern unsigned self_nid;
extern volatile int stop_signal;        /* SIGINT or SIGTERM came */

/* options.c */
void parse_args(int argc, char **argv);
/* A one-line error about the command line, then exit ST_USAGE. */
__attribute__((noreturn)) void bad(const char *opt, const char *val,
                                   const char *want);

/* nodelist.c: lists of nids as "0,2-3" */
const char *nodes_arg(const char *opt, const char *val);   /* checked, or bad() */
int nodes_listed(unsigned nid);         /* in -nodes (1 without it) */
int list_has(const char *list, unsigned x);     /* in "0,2-3" */
int nodes_list_count(void);             /* distinct nids in -nodes */
void nodes_list_span(unsigned *lo, unsigned *hi);

/* end.c: how the job ended, what yod says, its status. */
struct job_end {
    int kill_now;               /* KILL what still runs */
    int killing;                /* the KILLs went: held ranks go with them */
    int timed_out;              /* -t */
    int out_status;             /* output lost: ST_OUTPUT, or 141 (EPIPE) */
    int io_lost;                /* a rank's file I/O lost (link_failed) */
    int heard;                  /* rank ends heard so far */
};
extern struct job_end end;
int end_of_rank(struct node *n);        /* 1 if n's end ends the job */
int report(void);                       /* lines, and the job's status */

/* yod.c: the job: the ranks' output, how they end. */
int ranks_left(void);
void ranks_forget_ends(void);           /* a new launch attempt */
void output(const ptl_event_t *ev);
void rank_ended(struct node *n, const struct yod_msg *m);
void lost(struct node *n, const char *what);    /* a node of the job is gone */
void link_failed(int rank, const char *what);   /* a rank's data is lost */

/* lease.c: which nodes to PING now.  A round pings ranks 0..size-1,
   spread over `period` ms; ping ranks pr->next up to the returned end
   (exclusive), advancing pr->next.  Times in ms, any origin but 0. */
struct ping_round {
    double start;               /* ms: this round began; 0: none yet */
    int next;                   /* the rank to ping next this round */
};
int ping_round_due(struct ping_round *pr, int size, double now, double period);

/* control.c: Portals and what the nodes say. */
void open_portals(unsigned nid);
void append(ptl_pt_index_t pt, void *buf, size_t len, unsigned opts,
            ptl_match_bits_t bits, size_t min_free);
void pump(int ms);
void pump_for(int ms);
void answer_output(const ptl_event_t *ev, uint32_t err);
void watch_nodes(int on);       /* the job runs: a silent node is down */
extern ptl_handle_ni_t yod_ni;
extern ptl_handle_eq_t yod_eq;  /* every event but our requests' ACKs */

/* request.c: requests to the PCTs, WINDOW on their way at once, asked
   again when an answer seems lost.  request_all: `type` to each node of
   list[0..count) (for its rank), until each took it (its Portals ACK)
   or, with until_answer, answered (n->got); after ANSWER_MS a node is
   given up (n->tried says why).  request: one node, until it took it (0;
   -1 given up); request_post: sent, not followed.  ask: one node's answer (0: none).  request_tree: the
   fan-out tree asks n for us (FLOAD).  request_answer: an answer (or a
   parent's LOST) from what the nodes say; 0 if it answers no request
   on its way (a late one).  request_loaded: an ALIVE saying n has the
   job's program, taken as the tree's lost OK (1). */
ptl_handle_eq_t requests_open(void);    /* the EQ of the requests' ACKs */
void request_all(struct node **list, int count, uint32_t type,
                 int until_answer);
int request(struct node *n, uint32_t type);
void request_post(struct node *n, uint32_t type);  /* and not wait */
uint32_t ask(struct node *n, uint32_t type);
uint32_t ask_msg(struct node *n, const struct yod_msg *m); /* DEBUG */
void request_tree(struct node *n);
void request_ack(const ptl_event_t *ev);
int request_answer(struct node *n, const struct yod_msg *m);
int request_loaded(struct node *n, const struct yod_msg *alive);
const char *request_name(uint32_t type);

/* auth.c: the job's key; signing; what the nodes send, checked (1: take
   it; 0: dropped and counted). */
enum auth_kind { AUTH_CONTROL, AUTH_OUTPUT, AUTH_FILE, AUTH_KINDS };
void auth_init(void);                   /* the cluster's secret, or die */
void auth_transport(void);              /* sign yod's Portals frames */
void auth_job(void);                    /* after each new jobid */
void auth_sign(struct yod_msg *m, unsigned nid);
struct sipkey auth_rank_key(int rank);
uint64_t auth_dbg_bits(int local, int what);   /* yod_debug.h's bits */
int auth_pct(const ptl_event_t *ev, const struct yod_msg *m, struct node *n);
int auth_output(const ptl_event_t *ev, struct node *n);
int auth_rank_sender(const ptl_event_t *ev, unsigned nid, unsigned *pid);
int auth_drop(enum auth_kind kind);     /* count it; returns 0 */
void auth_dropped(enum auth_kind kind, unsigned n);  /* an I/O server's */
/* The keys an I/O server gets from yod (ioserver.c), never on the wire. */
struct sipkey auth_transport_key(void);
struct sipkey auth_job_key(void);
void auth_report(void);                 /* what was dropped, if anything */

/* launch.c: claim the nodes and load the program on them. */
void args_fit(void);                    /* before any node is claimed */
void launch(void);
void free_all(void);
void every_rank(uint32_t type, const char *what);
int fan_out(void);
extern char args[YOD_ARGS_MAX];         /* the argv/env block (LOAD) */
extern size_t args_len;
extern char *image;                     /* the packed program */
extern size_t image_len;
extern int nenv;

#endif
