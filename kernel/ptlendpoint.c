/*
 * The Portals endpoints of a node's processes (see portals.c): the table
 * of them, finding a process's, setting one up at its PtlInit (the core's
 * tables in kernel memory, its event queues and counters in the area the
 * process gave) and, when the process ends, flushing what it owes its
 * peers, logging what it did (tests read those lines) and giving its
 * memory back.  Setup and release share the spare tables set aside at
 * boot, so both live here.
 */
#define LOG_PREFIX "portals"
#include "kernel.h"
#include "console.h"
#include "cpu.h"
#include "lib.h"
#include "mem.h"
#include "memlayout.h"
#include "netdev.h"
#include "printf.h"
#include "timer.h"

#include "portals_internal.h"

static struct kptl kptls[NPROC];
/* The endpoints in use, packed: every frame, call and timer visits them,
   and a node usually has one or two (the PCT's, an application's). */
struct kptl *kptl_live[NPROC];
int kptl_nlive;

/* ---- finding a process's lib ---------------------------------------------- */

struct kptl *kptl_of(struct proc *p)
{
    for (int i = 0; i < kptl_nlive; i++)
        if (kptl_live[i]->p == p)
            return kptl_live[i];
    return NULL;
}

unsigned kptl_iface(const struct kptl *kp)
{
    return (unsigned)(kp - kptls);
}

struct kptl *kptl_of_pid(uint32_t pid)
{
    for (int i = 0; i < kptl_nlive; i++)
        if (ptl_lib_pid(kptl_live[i]->lib) == pid)
            return kptl_live[i];
    return NULL;
}

bool kptl_pid_taken(uint32_t pid, const struct kptl *self)
{
    struct kptl *kp = kptl_of_pid(pid);

    return kp && kp != self;
}

struct kptl *kptl_live_nth(int i)
{
    return i < kptl_nlive ? kptl_live[i] : NULL;
}

/* ---- life cycle ----------------------------------------------------------- */

/* Two endpoints' tables are set aside at boot, the PCT's (it serves yod
   over Portals) and one application's: the PCT hands applications all the
   memory there is, and the usual node runs one application.  Without
   this a program that took the whole node could not open Portals. */
#define SPARES          2

static struct { uint64_t pa, len; } spare[SPARES];

static void give_back(uint64_t pa, uint64_t len)
{
    for (int i = 0; i < SPARES; i++)
        if (!spare[i].pa) {
            spare[i].pa = pa, spare[i].len = len;
            return;
        }
    mem_region_free(pa, len);
}

static bool take_spare(uint64_t *pa, uint64_t *len)
{
    for (int i = 0; i < SPARES; i++)
        if (spare[i].pa) {
            *pa = spare[i].pa, *len = spare[i].len;
            spare[i].pa = 0;
            return true;
        }
    return false;
}

static uint64_t lib_mem;                /* bytes per endpoint */

/* The core's tables and the loopback queue: kernel memory, in the OS's
   chunk while it has room. */
static int lib_mem_alloc(uint64_t *pa, uint64_t *len)
{
    *len = lib_mem;             /* may grow to whole chunks */
    return mem_region_alloc(len, true, pa) < 0 ? -ENOMEM : 0;
}

/* At boot (portals_init): endpoints take mem bytes each; set the spares
   aside. */
void kptl_endpoints_init(uint64_t mem)
{
    lib_mem = mem;
    for (int i = 0; i < SPARES; i++)
        if (lib_mem_alloc(&spare[i].pa, &spare[i].len) < 0)
            pr_warn("no memory for Portals tables set aside at boot\n");
}

/* The cluster's transport key, from the PCT, which has the cluster's
   secret: every endpoint opened from now on signs its frames with it
   (PROTOCOL.md 2.3).  Set once, before any endpoint opens, so that no
   endpoint ever changes its mind about what it signs. */
long kptl_set_key(const uint64_t key[2])
{
    if (kptl_params.auth || kptl_nlive)
        return -EBUSY;
    kptl_params.auth_key[0] = key[0];
    kptl_params.auth_key[1] = key[1];
    kptl_params.auth = true;
    pr_info("frames signed with the cluster's transport key\n");
    return 0;
}

int kptl_setup(struct proc *p, uint64_t shm_uva, uint64_t shm_len,
               struct kptl **out)
{
    struct kptl *kp = NULL;
    uint64_t pa, len;
    uint8_t *shm;
    int rc;

    if (!kptl_nic)
        return -ENODEV;
    if ((*out = kptl_of(p)))    /* PtlInit again: the area stays the one */
        return (*out)->shm_uva == shm_uva ? 0 : -EEXIST;   /* (ptl Area) */
    /* The caller's own regions only (region_ptr, not user_ptr): the
       kernel writes the area until the endpoint goes, so it must live as
       long as the caller.  Another rank's memory through a SMARTMAP slot
       (or, for the PCT, a process through its window) is freed when that
       process ends, with this endpoint still writing into it. */
    if (shm_len < 4096 || !(shm = region_ptr(p, shm_uva, shm_len, true)))
        return -EFAULT;
    for (int i = 0; i < NPROC && !kp; i++)
        if (!kptls[i].lib)
            kp = &kptls[i];
    if (!kp)
        return -EBUSY;
    if (!take_spare(&pa, &len) && lib_mem_alloc(&pa, &len) < 0) {
        pr_warn("pid %d: no memory left for its Portals tables (%lu KiB)\n",
                p->pid, lib_mem >> 10);
        return -ENOMEM;
    }
    *kp = (struct kptl){ .p = p, .mem_pa = pa, .mem_len = len, .shm = shm,
                         .shm_uva = shm_uva, .shm_len = shm_len,
                         .waiters = 0 };
    /* The loopback queue sits after the core's tables, in the same region. */
    kp->loop = (uint8_t *)phys_to_virt(pa) + len - LOOP_BYTES;
    kp->ext[0] = (struct kptl_ext){ 0, 64 };   /* struct lwk_ptl_head */
    _Static_assert(sizeof(struct lwk_ptl_head) <= 64, "ptl head");
    memset(shm, 0, 64);
    /* The engine polls its command ring when it has a CPU of its own. */
    ((struct lwk_ptl_head *)shm)->engine = kptl_engine_cpu != 0;
    kptl_params.epoch = (uint32_t)clock_ns() | 1;    /* a new incarnation */
    kptl_params.born = realtime_base_ns + clock_ns();   /* later than the
                                                           last one's */
    rc = ptl_lib_create(kptl_iface(kp), &kptl_params, &kptl_host_ops, kp,
                        phys_to_virt(pa), len - LOOP_BYTES, &kp->lib);
    if (rc != PTL_OK) {
        give_back(pa, len);
        kp->lib = NULL;
        pr_warn("pid %d: cannot create a Portals endpoint (%d)\n", p->pid, rc);
        return -ENOMEM;
    }
    kptl_live[kptl_nlive++] = kp;
    *out = kp;
    return 0;
}

/* "pid 2: calls Put 1000, MEAppend 1000, ...; waits 2000 (halted 1990)" */
static void log_calls(struct kptl *kp)
{
    char line[512];
    int n = ksnprintf(line, sizeof(line), "pid %d: calls", kp->p->pid);

    for (unsigned op = 0; op < KPTL_NCALLS; op++)
        if (kp->ncalls[op] && n < (int)sizeof(line))
            n += ksnprintf(line + n, sizeof(line) - n, " %s %lu,",
                          ptlcall_name(op), kp->ncalls[op]);
    pr_info("%s waits %lu (halted %lu); by system call %lu, by the "
            "command ring %lu\n", line, kp->nwaits, kp->nhalts, kp->ntraps,
            kp->nring);
}

/* What the endpoint did, for the node log (tests read it). */
static void log_stats(struct kptl *kp)
{
    struct ptl_lib_stats st;

    ptl_lib_get_stats(kp->lib, &st);
    pr_info("pid %d: frames sent %lu received %lu, retransmitted %lu "
            "(tail-loss probes %lu), duplicates %lu, out of order %lu "
            "(taken beyond a gap %lu), refused (no resources) %lu, bad %lu; "
            "waited for the NIC or loop queue %lu, for a busy peer (RNR) "
            "%lu\n", kp->p->pid, st.tx_frames, st.rx_frames, st.rtx_frames,
            st.tx_probes, st.rx_dup, st.rx_ooo, st.rx_early, st.rx_notready,
            st.rx_bad, st.tx_busy, st.tx_unframed);
    pr_info("pid %d: ACKs carried by other frames %lu; messages dropped "
            "%lu, events lost %lu; NIC lost %lu (net.loss); resets sent "
            "%lu received %lu; refused unsigned, forged or played back %lu\n",
            kp->p->pid, st.acks_carried, st.drops, st.eq_dropped,
            kptl_nic ? kptl_nic->st.rx_dropped : 0, st.tx_resets,
            st.rx_resets, st.rx_forged);
    kptl_log_node_rx();

    /* Virtual-node mode's claim, checked by tests/qemu/suite-vnode: what
       went to endpoints of this node never reached the NIC. */
    pr_info("pid %d: frames to this node's endpoints %lu (kernel copy, not "
            "the NIC), to the NIC %lu\n", kp->p->pid, kp->tx_loop,
            kp->tx_nic);
    log_calls(kp);
    /* Each of these is an emulated device access or a wakeup on a
       virtual machine: what a message costs beyond its own code. */
    if (kptl_nic)
        pr_info("node: NIC frames sent %lu received %lu, interrupts %lu, "
                "transmit kicks %lu, receive kicks %lu; timer interrupts "
                "%lu, timer programmings %lu\n", kptl_nic->st.tx_frames,
                kptl_nic->st.rx_frames, kptl_nic->st.irqs,
                kptl_nic->st.tx_kicks, kptl_nic->st.rx_kicks,
                this_cpu()->timer_stats.irqs, this_cpu()->timer_stats.arms);
}

/* The process is gone: no more frames for it, and none of its memory may
   still be in the device's hands when its regions are reused. */
static void release_here(void *arg)
{
    kptl_release(arg);
}

/* Read from any CPU once p's threads are stopped: nothing changes its
   NIs then. */
bool kptl_in_job(struct proc *p)
{
    struct kptl *kp = kptl_of(p);

    return kp && kp->lib && ptl_lib_in_job(kp->lib);
}

/* On the engine's CPU: wait (100 ms at most) until the NIC has sent
   every frame it holds, so none still points into memory about to be
   freed (sends are zero copy).  `whose` names that memory in the log. */
static void tx_drain(int whose)
{
    uint64_t give_up = clock_ns() + 100000000ULL;

    while (kptl_nic && !netdev_tx_idle(kptl_nic) && clock_ns() < give_up)
        netdev_poll(kptl_nic);
    if (kptl_nic && !netdev_tx_idle(kptl_nic))
        pr_warn("pid %d: NIC still holds its frames after 100 ms\n", whose);
}

static void tx_drain_here(void *arg)
{
    tx_drain(((struct proc *)arg)->pid);
}

/* Another process's sends may point into p's memory (SMARTMAP: a member
   of its group names p's memory as its own, smartmap.c): they must have
   left before p's regions go. */
void kptl_tx_drain(struct proc *p)
{
    if (kptl_on_engine())
        tx_drain(p->pid);
    else
        smp_call(kptl_engine_cpu, tx_drain_here, p);
}

void kptl_release(struct proc *p)
{
    struct kptl *kp = kptl_of(p);

    if (!kp)
        return;
    if (!kptl_on_engine()) {
        smp_call(kptl_engine_cpu, release_here, p);
        return;
    }
    /* What the process owes its peers goes before its endpoint does: the
       link ACK of frames it took (delayed up to ack_delay, to ride in a
       reply) and the Portals ACKs it held for the same reason.  Without
       them a peer whose last frame we accepted resends it to nobody. */
    ptl_lib_flush_all(kp->lib);
    log_stats(kp);
    ptl_lib_destroy(kp->lib);
    kp->lib = NULL;
    for (int i = 0; i < kptl_nlive; i++)
        if (kptl_live[i] == kp)
            kptl_live[i] = kptl_live[--kptl_nlive];
    kptl_loop_drop(kp);                 /* frames to it are lost */
    tx_drain(p->pid);
    give_back(kp->mem_pa, kp->mem_len);
    if (kp->bad_copies)
        pr_warn("pid %d: %lu copies to memory it no longer had\n", p->pid,
                kp->bad_copies);
    *kp = (struct kptl){ 0 };
    kptl_arm_timer();
}
