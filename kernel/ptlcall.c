/*
 * The `ptl` system call: a process's Portals 4 call, checked, then handed
 * to the portable core (portals/).  The operation list is
 * uapi/ptlcalls.def.
 *
 * What is checked here, before the core sees anything:
 *   - every handle must belong to the caller's own endpoint (the core
 *     would resolve another process's handle just as well);
 *   - every pointer the C call reads or writes through must lie in the
 *     caller's regions; the core is given the kernel's view of it.
 * What the core checks itself, through the host's check hook: the memory
 * an MD or ME describes, a logical map, a swap operand (those reach it as
 * the process's own addresses; the system call runs on its page tables).
 */
#define LOG_PREFIX "portals"
#include "kernel.h"
#include "console.h"
#include "lib.h"
#include "portals.h"
#include "proc.h"

#include "ptl_host.h"

#define MAX_ARGS    16

struct call {
    struct proc *p;
    struct kptl *kp;
    uint64_t a[MAX_ARGS];
    bool bad;                   /* a pointer argument failed its check */
};

/* Handle bits 22..27 name the endpoint (portals/ptl_internal.h). */
static bool own(const struct call *c, uint64_t h)
{
    if (h == PTL_INVALID_HANDLE || h == PTL_EQ_NONE || h == PTL_CT_NONE)
        return true;            /* the core rejects these where they are wrong */
    return h <= UINT32_MAX && ((h >> 22) & 63) == kptl_iface(c->kp);
}

/* Argument i as a pointer to len bytes of the caller's memory (NULL stays
   NULL: the core knows which pointers may be NULL). */
static void *arg_ptr(struct call *c, int i, uint64_t len, bool write)
{
    void *k;

    if (!c->a[i])
        return NULL;
    if (!(k = user_ptr(c->p, c->a[i], len, write)))
        c->bad = true;
    return k;
}

#define IN(i, T)    ((const T *)arg_ptr(c, i, sizeof(T), false))
#define OUT(i, T)   ((T *)arg_ptr(c, i, sizeof(T), true))
#define H(i)        ((ptl_handle_any_t)c->a[i])
#define UPTR(i)     ((void *)c->a[i])       /* the caller's, passed through */
#define ENSURE(x)   do { if (!(x) || c->bad) return PTL_ARG_INVALID; } while (0)

static ptl_process_t PROC(const struct call *c, int i)
{
    ptl_process_t id;

    memcpy(&id, &c->a[i], sizeof(id));
    return id;
}

static ptl_ct_event_t CTEV(const struct call *c, int i)
{
    return (ptl_ct_event_t){ .success = c->a[i], .failure = c->a[i + 1] };
}

/* ---- setup and the network interface -------------------------------------- */

/* A process the PCT bound to a Portals pid (a rank: the pid its job map
   gives it) opens that one; PTL_PID_ANY means it.  Any other is refused,
   and said in the log: PTL_PID_IN_USE if another process here has it (a
   rank asking for another rank's: its frames would reach the wrong
   process), else PTL_ARG_INVALID.  An unbound process (a boot module's)
   may open any pid no other process has or is bound to; PTL_PID_ANY
   gives it its process id, unique on the node. */
static int ni_pid(struct call *c, ptl_pid_t *pid)
{
    uint32_t bound = c->p->ptl_pid;
    struct proc *owner;
    bool taken;

    if (*pid == PTL_PID_ANY && (bound || ptl_lib_pid(c->kp->lib) ==
                                         PTL_PID_ANY))
        *pid = bound ? bound : (ptl_pid_t)c->p->pid;
    if (*pid == PTL_PID_ANY)
        return PTL_OK;
    owner = proc_of_ptl_pid(*pid);
    taken = kptl_pid_taken(*pid, c->kp) || (owner && owner != c->p);
    if (!bound || *pid == bound)
        return taken ? PTL_PID_IN_USE : PTL_OK;
    proc_event(PE_PTL_PID, LOG_PREFIX ": pid %d: PtlNIInit asked for Portals "
               "pid %u, %s; its PCT gave it %u: refused", c->p->pid, *pid,
               taken ? "another process's" : "not its own", bound);
    return taken ? PTL_PID_IN_USE : PTL_ARG_INVALID;
}

static int c_NIInit(struct call *c)
{
    const ptl_ni_limits_t *want = IN(3, ptl_ni_limits_t);
    ptl_ni_limits_t *got = OUT(4, ptl_ni_limits_t);
    ptl_handle_ni_t *h = OUT(5, ptl_handle_ni_t);
    ptl_pid_t pid = (ptl_pid_t)c->a[2];
    int rc;

    ENSURE(c->a[0] == PTL_IFACE_DEFAULT || c->a[0] == 0);
    if ((rc = ni_pid(c, &pid)) != PTL_OK)
        return rc;
    return PtlNIInit(kptl_iface(c->kp), (unsigned)c->a[1], pid, want, got, h);
}

/* Never waits here: the caller waits (ptl_wait) and calls again. */
static int c_NIFini(struct call *c)
{
    uint64_t *until = OUT(1, uint64_t);

    ENSURE(own(c, H(0)) && until);
    return ptl_ni_fini_step(H(0), until);
}

static int c_NIStatus(struct call *c)
{
    ptl_sr_value_t *v = OUT(2, ptl_sr_value_t);

    ENSURE(own(c, H(0)));
    return PtlNIStatus(H(0), (ptl_sr_index_t)c->a[1], v);
}

static int c_NIHandle(struct call *c)
{
    ptl_handle_ni_t *ni = OUT(1, ptl_handle_ni_t);

    ENSURE(own(c, H(0)));
    return PtlNIHandle(H(0), ni);
}

static int c_SetMap(struct call *c)
{
    ENSURE(own(c, H(0)));
    return PtlSetMap(H(0), c->a[1], UPTR(2));
}

static int c_GetMap(struct call *c)
{
    ptl_size_t *n = OUT(3, ptl_size_t);

    ENSURE(own(c, H(0)));
    return PtlGetMap(H(0), c->a[1], UPTR(2), n);
}

static int c_GetUid(struct call *c)
{
    ptl_uid_t *v = OUT(1, ptl_uid_t);

    ENSURE(own(c, H(0)));
    return PtlGetUid(H(0), v);
}

static int c_GetId(struct call *c)
{
    ptl_process_t *v = OUT(1, ptl_process_t);

    ENSURE(own(c, H(0)));
    return PtlGetId(H(0), v);
}

static int c_GetPhysId(struct call *c)
{
    ptl_process_t *v = OUT(1, ptl_process_t);

    ENSURE(own(c, H(0)));
    return PtlGetPhysId(H(0), v);
}

static int c_GetJid(struct call *c)
{
    ptl_jid_t *v = OUT(1, ptl_jid_t);

    ENSURE(own(c, H(0)));
    return PtlGetJid(H(0), v);
}

/* ---- portal table entries, MDs, list entries ------------------------------- */

static int c_PTAlloc(struct call *c)
{
    ptl_pt_index_t *pt = OUT(4, ptl_pt_index_t);

    ENSURE(own(c, H(0)) && own(c, H(2)));
    return PtlPTAlloc(H(0), (unsigned)c->a[1], H(2), (ptl_pt_index_t)c->a[3],
                      pt);
}

#define PT_CALL(name)                                                   \
    static int c_##name(struct call *c)                                 \
    {                                                                   \
        ENSURE(own(c, H(0)));                                           \
        return Ptl##name(H(0), (ptl_pt_index_t)c->a[1]);                \
    }
PT_CALL(PTFree)
PT_CALL(PTDisable)
PT_CALL(PTEnable)

static int c_MDBind(struct call *c)
{
    const ptl_md_t *md = IN(1, ptl_md_t);
    ptl_handle_md_t *h = OUT(2, ptl_handle_md_t);

    ENSURE(own(c, H(0)));
    return PtlMDBind(H(0), md, h);
}

#define H_CALL(name)                                                    \
    static int c_##name(struct call *c)                                 \
    {                                                                   \
        ENSURE(own(c, H(0)));                                           \
        return Ptl##name(H(0));                                         \
    }
H_CALL(MDRelease)
H_CALL(LEUnlink)
H_CALL(MEUnlink)
H_CALL(StartBundle)
H_CALL(EndBundle)
H_CALL(EQFree)
H_CALL(CTFree)
H_CALL(CTCancelTriggered)

static int c_LEAppend(struct call *c)
{
    const ptl_le_t *le = IN(2, ptl_le_t);
    ptl_handle_le_t *h = OUT(5, ptl_handle_le_t);

    int rc;

    ENSURE(own(c, H(0)));
    rc = PtlLEAppend(H(0), (ptl_pt_index_t)c->a[1], le, (ptl_list_t)c->a[3],
                     UPTR(4), h);
    kptl_rx_resume();
    return rc;
}

static int c_LESearch(struct call *c)
{
    const ptl_le_t *le = IN(2, ptl_le_t);

    ENSURE(own(c, H(0)));
    return PtlLESearch(H(0), (ptl_pt_index_t)c->a[1], le,
                       (ptl_search_op_t)c->a[3], UPTR(4));
}

static int c_MEAppend(struct call *c)
{
    const ptl_me_t *me = IN(2, ptl_me_t);
    ptl_handle_me_t *h = OUT(5, ptl_handle_me_t);

    int rc;

    ENSURE(own(c, H(0)));
    rc = PtlMEAppend(H(0), (ptl_pt_index_t)c->a[1], me, (ptl_list_t)c->a[3],
                     UPTR(4), h);
    kptl_rx_resume();           /* what waited may be for this entry */
    return rc;
}

static int c_MESearch(struct call *c)
{
    const ptl_me_t *me = IN(2, ptl_me_t);

    ENSURE(own(c, H(0)));
    return PtlMESearch(H(0), (ptl_pt_index_t)c->a[1], me,
                       (ptl_search_op_t)c->a[3], UPTR(4));
}

/* ---- data movement ---------------------------------------------------------- */

static int c_Put(struct call *c)
{
    const uint64_t *a = c->a;

    ENSURE(own(c, H(0)));
    return PtlPut(H(0), a[1], a[2], (ptl_ack_req_t)a[3], PROC(c, 4),
                  (ptl_pt_index_t)a[5], a[6], a[7], UPTR(8), a[9]);
}

static int c_Get(struct call *c)
{
    const uint64_t *a = c->a;

    ENSURE(own(c, H(0)));
    return PtlGet(H(0), a[1], a[2], PROC(c, 3), (ptl_pt_index_t)a[4], a[5],
                  a[6], UPTR(7));
}

static int c_Atomic(struct call *c)
{
    const uint64_t *a = c->a;

    ENSURE(own(c, H(0)));
    return PtlAtomic(H(0), a[1], a[2], (ptl_ack_req_t)a[3], PROC(c, 4),
                     (ptl_pt_index_t)a[5], a[6], a[7], UPTR(8), a[9],
                     (ptl_op_t)a[10], (ptl_datatype_t)a[11]);
}

static int c_FetchAtomic(struct call *c)
{
    const uint64_t *a = c->a;

    ENSURE(own(c, H(0)) && own(c, H(2)));
    return PtlFetchAtomic(H(0), a[1], H(2), a[3], a[4], PROC(c, 5),
                          (ptl_pt_index_t)a[6], a[7], a[8], UPTR(9), a[10],
                          (ptl_op_t)a[11], (ptl_datatype_t)a[12]);
}

static int c_Swap(struct call *c)
{
    const uint64_t *a = c->a;

    ENSURE(own(c, H(0)) && own(c, H(2)));
    return PtlSwap(H(0), a[1], H(2), a[3], a[4], PROC(c, 5),
                   (ptl_pt_index_t)a[6], a[7], a[8], UPTR(9), a[10],
                   UPTR(11), (ptl_op_t)a[12], (ptl_datatype_t)a[13]);
}

static int c_AtomicSync(struct call *c)
{
    (void)c;
    return PtlAtomicSync();
}

/* ---- event queues and counters ---------------------------------------------- */

/* The extra result: where the ring or counter is in the caller's memory,
   so its library reads it without a trap. */
static int with_shared_uva(struct call *c, int rc, ptl_handle_any_t *h,
                           uint64_t *uva)
{
    if (rc == PTL_OK)
        *uva = kptl_shm_uva(c->kp, ptl_lib_shared_of(c->kp->lib, *h));
    return rc;
}

static int c_EQAlloc(struct call *c)
{
    ptl_handle_eq_t *h = OUT(2, ptl_handle_eq_t);
    uint64_t *uva = OUT(3, uint64_t);

    ENSURE(own(c, H(0)) && h && uva);
    return with_shared_uva(c, PtlEQAlloc(H(0), c->a[1], h), h, uva);
}

static int c_CTAlloc(struct call *c)
{
    ptl_handle_ct_t *h = OUT(1, ptl_handle_ct_t);
    uint64_t *uva = OUT(2, uint64_t);

    ENSURE(own(c, H(0)) && h && uva);
    return with_shared_uva(c, PtlCTAlloc(H(0), h), h, uva);
}

static int c_CTSet(struct call *c)
{
    ENSURE(own(c, H(0)));
    return PtlCTSet(H(0), CTEV(c, 1));
}

static int c_CTInc(struct call *c)
{
    ENSURE(own(c, H(0)));
    return PtlCTInc(H(0), CTEV(c, 1));
}

/* ---- triggered operations ----------------------------------------------------- */

static int c_TriggeredPut(struct call *c)
{
    const uint64_t *a = c->a;

    ENSURE(own(c, H(0)) && own(c, H(10)));
    return PtlTriggeredPut(H(0), a[1], a[2], (ptl_ack_req_t)a[3], PROC(c, 4),
                           (ptl_pt_index_t)a[5], a[6], a[7], UPTR(8), a[9],
                           H(10), a[11]);
}

static int c_TriggeredGet(struct call *c)
{
    const uint64_t *a = c->a;

    ENSURE(own(c, H(0)) && own(c, H(8)));
    return PtlTriggeredGet(H(0), a[1], a[2], PROC(c, 3), (ptl_pt_index_t)a[4],
                           a[5], a[6], UPTR(7), H(8), a[9]);
}

static int c_TriggeredAtomic(struct call *c)
{
    const uint64_t *a = c->a;

    ENSURE(own(c, H(0)) && own(c, H(12)));
    return PtlTriggeredAtomic(H(0), a[1], a[2], (ptl_ack_req_t)a[3],
                              PROC(c, 4), (ptl_pt_index_t)a[5], a[6], a[7],
                              UPTR(8), a[9], (ptl_op_t)a[10],
                              (ptl_datatype_t)a[11], H(12), a[13]);
}

static int c_TriggeredFetchAtomic(struct call *c)
{
    const uint64_t *a = c->a;

    ENSURE(own(c, H(0)) && own(c, H(2)) && own(c, H(13)));
    return PtlTriggeredFetchAtomic(H(0), a[1], H(2), a[3], a[4], PROC(c, 5),
                                   (ptl_pt_index_t)a[6], a[7], a[8], UPTR(9),
                                   a[10], (ptl_op_t)a[11],
                                   (ptl_datatype_t)a[12], H(13), a[14]);
}

static int c_TriggeredSwap(struct call *c)
{
    const uint64_t *a = c->a;

    ENSURE(own(c, H(0)) && own(c, H(2)) && own(c, H(14)));
    return PtlTriggeredSwap(H(0), a[1], H(2), a[3], a[4], PROC(c, 5),
                            (ptl_pt_index_t)a[6], a[7], a[8], UPTR(9), a[10],
                            UPTR(11), (ptl_op_t)a[12], (ptl_datatype_t)a[13],
                            H(14), a[15]);
}

static int c_TriggeredMEAppend(struct call *c)
{
    const ptl_me_t *me = IN(2, ptl_me_t);
    ptl_handle_me_t *h = OUT(5, ptl_handle_me_t);

    ENSURE(own(c, H(0)) && own(c, H(6)));
    return PtlTriggeredMEAppend(H(0), (ptl_pt_index_t)c->a[1], me,
                                (ptl_list_t)c->a[3], UPTR(4), h, H(6),
                                c->a[7]);
}

static int c_TriggeredLEAppend(struct call *c)
{
    const ptl_le_t *le = IN(2, ptl_le_t);
    ptl_handle_le_t *h = OUT(5, ptl_handle_le_t);

    ENSURE(own(c, H(0)) && own(c, H(6)));
    return PtlTriggeredLEAppend(H(0), (ptl_pt_index_t)c->a[1], le,
                                (ptl_list_t)c->a[3], UPTR(4), h, H(6),
                                c->a[7]);
}

static int c_TriggeredMEUnlink(struct call *c)
{
    ENSURE(own(c, H(0)) && own(c, H(1)));
    return PtlTriggeredMEUnlink(H(0), H(1), c->a[2]);
}

static int c_TriggeredLEUnlink(struct call *c)
{
    ENSURE(own(c, H(0)) && own(c, H(1)));
    return PtlTriggeredLEUnlink(H(0), H(1), c->a[2]);
}

static int c_TriggeredCTInc(struct call *c)
{
    ENSURE(own(c, H(0)) && own(c, H(3)));
    return PtlTriggeredCTInc(H(0), CTEV(c, 1), H(3), c->a[4]);
}

static int c_TriggeredCTSet(struct call *c)
{
    ENSURE(own(c, H(0)) && own(c, H(3)));
    return PtlTriggeredCTSet(H(0), CTEV(c, 1), H(3), c->a[4]);
}

/* ---- the table -------------------------------------------------------------- */

/* PtlInit: (shm, len).  The one call made before the endpoint exists. */
static int c_Setup(struct call *c)
{
    int err = kptl_setup(c->p, c->a[0], c->a[1], &c->kp);

    if (err == -ENODEV)
        proc_event(PE_NO_NIC, LOG_PREFIX ": pid %d: PtlInit on a node "
                   "without a NIC", c->p->pid);
    return err;
}

/* Where the area PtlInit gave is: a process can hold two copies of the
   node library (a Linux program's beside its runtime's, docs/LINUX.md),
   and the second must read the event rings and wake count where the
   kernel writes them.  PTL_NO_INIT before any PtlInit (ptl_call). */
static int c_Area(struct call *c)
{
    uint64_t *uva = OUT(0, uint64_t), *len = OUT(1, uint64_t);

    ENSURE(uva && len);
    *uva = c->kp->shm_uva;
    *len = c->kp->shm_len;
    return PTL_OK;
}

static const struct {
    int (*fn)(struct call *c);
    uint8_t nargs;
    const char *name;
} calls[] = {
#define PTLCALL(num, name, nargs) [num] = { c_##name, nargs, #name },
#include "uapi/ptlcalls.def"
#undef PTLCALL
};

_Static_assert(ARRAY_SIZE(calls) <= KPTL_NCALLS, "raise KPTL_NCALLS");

const char *ptlcall_name(unsigned op)
{
    return op < ARRAY_SIZE(calls) && calls[op].name ? calls[op].name : "?";
}

/* The system call: on the engine's CPU, or forwarded there. */
long ptl_syscall(struct proc *p, uint64_t op, uint64_t uargs)
{
    struct kptl *kp;
    long rc;

    if (!kptl_on_engine())
        return kptl_forward_call(p, op, uargs);
    rc = ptl_call(p, op, uargs);
    if ((kp = kptl_of(p)))      /* after: Setup counts too */
        kp->ntraps++;
    return rc;
}

long ptl_call(struct proc *p, uint64_t op, uint64_t uargs)
{
    struct call c = { .p = p };
    int rc;

    if (op >= ARRAY_SIZE(calls) || !calls[op].fn)
        return -ENOSYS;
    if (copy_from_user(p, c.a, uargs, calls[op].nargs * sizeof(uint64_t)) < 0)
        return -EFAULT;
    c.kp = kptl_of(p);
    if (!c.kp && calls[op].fn != c_Setup)
        return PTL_NO_INIT;
    kptl_tx_hold();
    rc = calls[op].fn(&c);
    if (c.kp) {
        c.kp->ncalls[op]++;
        kptl_after_call();
    }
    kptl_tx_release();
    return rc;
}

long ptl_wait_syscall(struct proc *p, uint64_t deadline, uint64_t seen)
{
    struct kptl *kp = kptl_of(p);

    if (!kp)
        return -EINVAL;
    if (kptl_on_engine())
        kptl_idle(kp, seen, deadline);
    else
        kptl_wait_elsewhere(kp, seen, deadline);
    return (long)kp->wake_seq;
}
