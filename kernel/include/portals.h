/*
 * Portals in the kernel (portals.c: the host of the portable core, one
 * endpoint per process, with ptlendpoint.c, ptlhost.c and ptlloop.c;
 * ptlcall.c: the system call into it; ptlengine.c: the engine's CPU).
 */
#ifndef PORTALS_H
#define PORTALS_H

#include "kernel.h"
#include "proc.h"

#define KPTL_SHM_EXTENTS    64
#define LOOP_SLOTS          32      /* frames a process has sent itself */

struct ptl_lib;

struct kptl_ext {
    uint64_t off, len;          /* len 0: unused */
};

/* Above the highest number in uapi/ptlcalls.def (ptlcall.c checks). */
#define KPTL_NCALLS     56

struct kptl {
    struct proc *p;             /* owner */
    struct ptl_lib *lib;        /* NULL: slot free */
    uint64_t mem_pa, mem_len;   /* the core's tables and loopback queue */
    uint8_t *shm;               /* the process's shared area, kernel view */
    uint64_t shm_uva, shm_len;
    struct kptl_ext ext[KPTL_SHM_EXTENTS];
    uint8_t *loop;              /* LOOP_SLOTS frames, in the tables' region */
    uint32_t loop_len[LOOP_SLOTS];
    uint32_t loop_head, loop_n;
    uint64_t wake_seq;          /* bumped whenever the process may have news */
    uint64_t bad_copies;
    uint64_t ncalls[KPTL_NCALLS];       /* Portals calls made, by number */
    uint64_t nwaits, nhalts;            /* waits, and those that halted */
    uint64_t ntraps, nring;             /* calls by system call, by ring */
    uint64_t cmd_seen;                  /* the last ring request served */
    /* Frames it sent: to endpoints of this node (the loop queues, never
       the NIC), and to the NIC (other nodes); the node log shows both. */
    uint64_t tx_loop, tx_nic;
    uint64_t waiters;                   /* CPUs halted in its ptl_wait: the
                                           main thread's, its threads' */
    bool rx_news;                       /* frames from the NIC in this batch */
    bool idle_here;                     /* its process sleeps in kptl_idle */
};

/* The engine's CPU (ptlengine.c).  Every entry into the engine (the two
   system calls, the NIC's receive path, the network timer, a process's
   end) runs on that one CPU, which serializes them per NIC without a lock;
   a caller on another CPU forwards its call there (smp_call).  It is CPU
   0 (the NIC's interrupt goes there) unless the PCT moves it with
   node_engine: that CPU then polls the NIC and the processes' command
   rings (message co-processor), and the NIC's interrupt goes to it. */
extern int kptl_engine_cpu;
bool kptl_on_engine(void);
long kptl_engine_set(int cpu);
/* The cluster's transport key (syscall ptl_key): 0, or -EBUSY if set
   already or an endpoint is open. */
long kptl_set_key(const uint64_t key[2]);
/* An AP's idle loop, while it is the engine (its struct cpu says so). */
void kptl_engine_run(void);
/* Forwarders, for callers on another CPU than the engine's. */
long kptl_forward_call(struct proc *p, uint64_t op, uint64_t uargs);
void kptl_wait_elsewhere(struct kptl *kp, uint64_t seen, uint64_t deadline);
/* The PCT idles (quit_quantum): until an interrupt or news from the engine. */
void kptl_sleep(struct proc *p);
/* One command of a process's ring, as its system call would run it. */
long ptl_call(struct proc *p, uint64_t op, uint64_t uargs);
/* The live endpoints, 0 .. n-1; NULL past the end. */
struct kptl *kptl_live_nth(int i);

void portals_init(void);
struct kptl *kptl_of(struct proc *p);
unsigned kptl_iface(const struct kptl *kp);
bool kptl_pid_taken(uint32_t pid, const struct kptl *self);
/* PtlInit: give process p an endpoint, with [shm_uva, +shm_len) of its
   memory for event queues and counters.  0 or -errno; again with the same
   area, 0; with another, -EEXIST (a second copy of the node library in
   the process adopts the first one's area: ptl Area). */
int kptl_setup(struct proc *p, uint64_t shm_uva, uint64_t shm_len,
               struct kptl **out);
void kptl_release(struct proc *p);
/* Wait until the NIC has sent what it holds: frames of other processes
   may point into p's memory (SMARTMAP), which is about to be freed. */
void kptl_tx_drain(struct proc *p);
/* p has a logical NI it never finalized (ptl_lib_in_job). */
bool kptl_in_job(struct proc *p);
/* After a Portals call: deliver frames between this node's endpoints,
   re-arm the network timer. */
void kptl_after_call(void);
/* A process woken by news may have paused the NIC's receive (ptlhost.c,
   kptl_rx): an entry it appends, or its next wait, ends the pause, so
   the frames that waited find the entries it posted for them. */
void kptl_rx_resume(void);
/* Around a Portals call: its frames go to the NIC with one doorbell. */
void kptl_tx_hold(void);
void kptl_tx_release(void);
/* A call's name, for the node log ("?" if there is none). */
const char *ptlcall_name(unsigned op);
uint64_t kptl_shm_uva(const struct kptl *kp, const void *kptr);
/* Wait until kp's wake count is no longer `seen` (kp NULL: until any
   interrupt) or until deadline (clock_ns time). */
void kptl_idle(struct kptl *kp, uint64_t seen, uint64_t deadline);
void kptl_flush(void);

/* The ptl system call (ptlcall.c). */
long ptl_syscall(struct proc *p, uint64_t op, uint64_t uargs);
long ptl_wait_syscall(struct proc *p, uint64_t deadline, uint64_t seen);

#endif
