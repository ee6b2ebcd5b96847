/* SPDX-License-Identifier: MIT */
/*
 * ni.c: the network-interface calls on a lib (lib.c): PtlNIInit and
 * PtlNIFini (which drains, and confirms our last ACKs arrived, before it
 * frees), the status registers, the logical map and the identity calls,
 * and the portal table (PtlPTAlloc and the rest).  These are the Portals API an application
 * calls on an NI; lib.c keeps what every call stands on (table memory,
 * pools, handles, locking and time).
 */
#include "ptl_internal.h"

/* ---- network interfaces ---- */

static unsigned ni_index(unsigned options)
{
    return ((options & PTL_NI_NO_MATCHING) ? 2 : 0) |
           ((options & PTL_NI_LOGICAL) ? 1 : 0);
}

static bool ni_options_ok(unsigned o)
{
    bool m = o & PTL_NI_MATCHING, nm = o & PTL_NI_NO_MATCHING;
    bool l = o & PTL_NI_LOGICAL, ph = o & PTL_NI_PHYSICAL;

    return m != nm && l != ph &&
           (o & ~(PTL_NI_MATCHING | PTL_NI_NO_MATCHING | PTL_NI_LOGICAL |
                  PTL_NI_PHYSICAL)) == 0;
}

static void ni_limits(struct ptl_lib *lib, ptl_ni_limits_t *l)
{
    l->max_entries = (int)lib->p.max_entries;
    l->max_unexpected_headers = (int)lib->p.max_uh;
    l->max_mds = (int)lib->p.max_mds;
    l->max_cts = (int)lib->p.max_cts;
    l->max_eqs = (int)lib->p.max_eqs;
    l->max_pt_index = (int)lib->p.max_pt_index;
    l->max_iovecs = 0;
    l->max_list_size = (int)lib->p.max_entries;
    l->max_triggered_ops = (int)lib->p.max_trig;
    l->max_msg_size = UINT32_MAX;
    l->max_atomic_size = PTL_INLINE_MAX;
    l->max_fetch_atomic_size = PTL_INLINE_MAX;
    l->max_waw_ordered_size = PTL_INLINE_MAX;
    l->max_war_ordered_size = PTL_INLINE_MAX;
    l->max_volatile_size = 0;
    l->features = PTL_TOTAL_DATA_ORDERING;
}

/* The desired limits a new NI asked for, where smaller than what the lib
 * has (a field of 0 or less asks for nothing).  What `actual` says is
 * what is enforced, per NI: the table sizes (entries, unexpected headers,
 * MDs, CTs, EQs), portal table indexes and triggered operations against
 * the NI's own counts; the message and atomic sizes are refused above
 * them (initiator.c).  A list is never longer than the NI's entries, so
 * a list size below them lowers them, and neither says more than the
 * other.  The objects themselves come from the lib's pools, which the
 * NIs of a process share (portals/README.md). */
static void ni_desire(ptl_ni_limits_t *l, const ptl_ni_limits_t *d)
{
#define LOWER(f) if (d->f > 0 && d->f < l->f) l->f = d->f
    LOWER(max_entries); LOWER(max_unexpected_headers); LOWER(max_mds);
    LOWER(max_cts); LOWER(max_eqs); LOWER(max_pt_index);
    LOWER(max_list_size); LOWER(max_triggered_ops); LOWER(max_msg_size);
    LOWER(max_atomic_size); LOWER(max_fetch_atomic_size);
    LOWER(max_waw_ordered_size); LOWER(max_war_ordered_size);
#undef LOWER
    if (l->max_list_size < l->max_entries)
        l->max_entries = l->max_list_size;
    l->max_list_size = l->max_entries;
}

static int ni_init_locked(struct ptl_lib *lib, unsigned options,
                          ptl_pid_t pid, const ptl_ni_limits_t *desired,
                          ptl_ni_limits_t *actual, ptl_handle_ni_t *h)
{
    unsigned i = ni_index(options);
    struct ptl_ni *ni = &lib->ni[i];

    if (pid != PTL_PID_ANY && lib->p.pid != PTL_PID_ANY && pid != lib->p.pid)
        return PTL_PID_IN_USE;
    if (pid != PTL_PID_ANY)
        lib->p.pid = pid;
    if (lib->p.pid == PTL_PID_ANY)
        return PTL_ARG_INVALID;
    *h = ptl_handle(PTL_K_NI, lib->slot, i, 0);
    if (!ni->used) {
        struct ptl_pt *pts = ni->pts;
        ptl_memzero(ni, sizeof(*ni));
        ni->pts = pts;
        ni->used = true;
        ni->options = options;
        ni_limits(lib, &ni->limits);
        if (desired != NULL)
            ni_desire(&ni->limits, desired);
    }
    /* Libraries of one process share an NI of a kind (the C library's
     * channel to yod, MPI, the program itself): each PtlNIInit needs its
     * own PtlNIFini, and only the last one tears the NI down. */
    ni->refs++;
    if (actual)
        *actual = ni->limits;
    return PTL_OK;
}

int PtlNIInit(ptl_interface_t iface, unsigned int options, ptl_pid_t pid,
              const ptl_ni_limits_t *desired, ptl_ni_limits_t *actual,
              ptl_handle_ni_t *ni_handle)
{
    struct ptl_lib *lib;
    int rc;

    if (iface == PTL_IFACE_DEFAULT)
        iface = 0;
    lib = ptl_lib_of_iface(iface);
    if (lib == NULL)
        return PTL_NO_INIT;
    if (!ni_options_ok(options) || ni_handle == NULL)
        return PTL_ARG_INVALID;
    ptl_enter(lib);
    rc = ni_init_locked(lib, options, pid, desired, actual, ni_handle);
    ptl_leave(lib);
    return rc;
}

static void ni_free_objects(struct ptl_lib *lib, unsigned nii)
{
    struct ptl_ni *ni = &lib->ni[nii];

    if (ni->map != NULL)
        lib->ops->shared_free(lib->ctx, ni->map,
                              sizeof(*ni->map) * ni->map_size);
    ni->map = NULL;

    for (uint32_t i = 0; i <= lib->p.max_pt_index; i++)
        if (ni->pts[i].used)
            ptl_pt_reset(lib, &ni->pts[i]);
    for (uint32_t i = 0; i < lib->mds.count; i++) {
        struct ptl_md *md = ptl_pool_at(&lib->mds, i);
        if (md->used && md->ni == nii)
            md->used = false, ptl_pool_put(&lib->mds, md);
    }
    for (uint32_t i = 0; i < lib->cts.count; i++) {
        struct ptl_ct *ct = ptl_pool_at(&lib->cts, i);
        if (ct->used && ct->ni == nii) {
            ptl_trig_drop_all(lib, ct);
            lib->ops->shared_free(lib->ctx, ct->val, sizeof(*ct->val));
            ct->used = false, ptl_pool_put(&lib->cts, ct);
        }
    }
    for (uint32_t i = 0; i < lib->eqs.count; i++) {
        struct ptl_eq *eq = ptl_pool_at(&lib->eqs, i);
        if (eq->used && eq->ni == nii) {
            lib->ops->shared_free(lib->ctx, eq->ring, eq->ring_bytes);
            eq->used = false, ptl_pool_put(&lib->eqs, eq);
        }
    }
}

/* PtlNIFini as steps that never wait: the Q-Kernel runs the core inside a
 * system call, which holds the node's only CPU (its PCT could not answer
 * yod for seconds), so it hands the waits back to the process.  Let queued
 * traffic drain (bounded: 10 s) so peers get our last frames; a dead peer
 * stops counting as busy.  The bound is time, not a count of waits: a wait
 * ends early whenever a timer is due.  Then make sure the peers that may
 * resend hold our last ACK: a NOP to each (peer.c), and wait for their
 * link ACKs of it, at most five of the RTOs measured to those peers (a
 * lost NOP is probed and resent meanwhile).  A TIME_WAIT-like linger of
 * five of the longest RTO used to be paid by every process, whatever
 * its peers did: seconds at yod's exit on a loaded host.  If our last
 * ACK was lost, the peer would resend to nobody and declare us
 * unreachable.
 * *until: 0 once the NI is gone, else wait until then and call again. */
int ptl_ni_fini_step(ptl_handle_ni_t h, uint64_t *until)
{
    struct ptl_lib *lib;
    unsigned nii;
    struct ptl_ni *ni = ptl_resolve_ni(h, &lib, &nii);
    uint64_t now;

    if (ni == NULL || until == NULL)
        return PTL_ARG_INVALID;
    ptl_enter(lib);
    now = ptl_now(lib);
    if (ni->fini_give_up == 0)
        ni->fini_give_up = now + 10 * 1000000000ull;
    if (ni->fini_linger == 0 && ptl_lib_sending(lib) &&
        now < ni->fini_give_up) {
        *until = ni->fini_give_up;
        ptl_leave(lib);
        return PTL_OK;
    }
    if (ni->fini_linger == 0) {
        /* The NOPs carry their peers' ACKs; the others' go alone. */
        ni->fini_linger = now + 5 * ptl_peer_confirm_acks(lib) + 1;
        ptl_lib_flush_all(lib);
    }
    if (now < ni->fini_linger && ptl_lib_busy(lib)) {
        *until = ni->fini_linger;
        ptl_leave(lib);
        return PTL_OK;
    }
    /* Every PtlNIFini lets the traffic drain (the process may exit next,
     * and its traffic ends with it); the last one frees the NI. */
    ni->fini_give_up = ni->fini_linger = 0;
    if (--ni->refs == 0) {
        ni_free_objects(lib, nii);
        ni->used = false;
    }
    *until = 0;
    ptl_leave(lib);
    return PTL_OK;
}

int PtlNIFini(ptl_handle_ni_t h)
{
    struct ptl_lib *lib;
    uint64_t until;
    int rc;

    while ((rc = ptl_ni_fini_step(h, &until)) == PTL_OK && until != 0) {
        ptl_resolve_ni(h, &lib, NULL);
        ptl_enter(lib);
        if (ptl_block(lib, until) == PTL_ABORTED) {
            struct ptl_ni *ni = ptl_resolve_ni(h, &lib, NULL);
            if (ni != NULL)     /* PtlAbort: no draining, no lingering */
                ni->fini_give_up = ni->fini_linger = 1;
        }
        ptl_leave(lib);
    }
    return rc;
}

bool ptl_lib_in_job(struct ptl_lib *lib)
{
    for (unsigned i = 0; i < PTL_NNI; i++)
        if (lib->ni[i].used && (lib->ni[i].options & PTL_NI_LOGICAL))
            return true;
    return false;
}

int PtlNIStatus(ptl_handle_ni_t h, ptl_sr_index_t reg, ptl_sr_value_t *v)
{
    struct ptl_lib *lib;

    if (ptl_resolve_ni(h, &lib, NULL) == NULL || v == NULL)
        return PTL_ARG_INVALID;
    switch (reg) {
    case PTL_SR_DROP_COUNT:
        *v = (ptl_sr_value_t)(lib->st.drops + lib->st.rx_bad);
        return PTL_OK;
    case PTL_SR_PERMISSION_VIOLATIONS:
        *v = (ptl_sr_value_t)lib->st.perm_violations;
        return PTL_OK;
    case PTL_SR_OPERATION_VIOLATIONS:
        *v = (ptl_sr_value_t)lib->st.op_violations;
        return PTL_OK;
    default:
        return PTL_ARG_INVALID;
    }
}

int PtlSetMap(ptl_handle_ni_t h, ptl_size_t n, const ptl_process_t *map)
{
    struct ptl_lib *lib;
    struct ptl_ni *ni = ptl_resolve_ni(h, &lib, NULL);
    size_t bytes = sizeof(*map) * n;

    if (ni == NULL || !(ni->options & PTL_NI_LOGICAL) || n == 0 ||
        n > 1u << 20 || map == NULL)
        return PTL_ARG_INVALID;
    if (ni->map != NULL)
        return PTL_IN_USE;
    if (lib->ops->check(lib->ctx, map, bytes, 0) != 0)
        return PTL_ARG_INVALID;
    ptl_enter(lib);
    /* The map is kept in shared memory so it costs no table space. */
    ni->map = lib->ops->shared_alloc(lib->ctx, bytes);
    if (ni->map == NULL) {
        ptl_leave(lib);
        return PTL_NO_SPACE;
    }
    lib->ops->copy_in(lib->ctx, ni->map, map, bytes);
    ni->map_size = (uint32_t)n;
    ni->my_rank = PTL_RANK_ANY;
    for (uint32_t r = 0; r < n; r++)
        if (ni->map[r].phys.nid == lib->p.nid &&
            ni->map[r].phys.pid == lib->p.pid)
            ni->my_rank = r;
    ptl_leave(lib);
    return PTL_OK;
}

int PtlGetMap(ptl_handle_ni_t h, ptl_size_t n, ptl_process_t *map,
              ptl_size_t *actual)
{
    struct ptl_lib *lib;
    struct ptl_ni *ni = ptl_resolve_ni(h, &lib, NULL);
    size_t k;

    if (ni == NULL || !(ni->options & PTL_NI_LOGICAL) || actual == NULL)
        return PTL_ARG_INVALID;
    if (ni->map == NULL)
        return PTL_NO_SPACE;
    k = n < ni->map_size ? n : ni->map_size;
    if (k && lib->ops->check(lib->ctx, map, sizeof(*map) * k, 1) != 0)
        return PTL_ARG_INVALID;
    lib->ops->copy_out(lib->ctx, map, ni->map, sizeof(*map) * k);
    *actual = ni->map_size;
    return PTL_OK;
}

int PtlGetUid(ptl_handle_ni_t h, ptl_uid_t *uid)
{
    struct ptl_lib *lib;

    if (ptl_resolve_ni(h, &lib, NULL) == NULL || uid == NULL)
        return PTL_ARG_INVALID;
    *uid = lib->p.uid;
    return PTL_OK;
}

int PtlGetJid(ptl_handle_ni_t h, ptl_jid_t *jid)
{
    struct ptl_lib *lib;

    if (ptl_resolve_ni(h, &lib, NULL) == NULL || jid == NULL)
        return PTL_ARG_INVALID;
    *jid = lib->p.jid;
    return PTL_OK;
}

int PtlGetPhysId(ptl_handle_ni_t h, ptl_process_t *id)
{
    struct ptl_lib *lib;

    if (ptl_resolve_ni(h, &lib, NULL) == NULL || id == NULL)
        return PTL_ARG_INVALID;
    id->phys.nid = lib->p.nid;
    id->phys.pid = lib->p.pid;
    return PTL_OK;
}

int PtlGetId(ptl_handle_ni_t h, ptl_process_t *id)
{
    struct ptl_lib *lib;
    struct ptl_ni *ni = ptl_resolve_ni(h, &lib, NULL);

    if (ni == NULL || id == NULL)
        return PTL_ARG_INVALID;
    if (!(ni->options & PTL_NI_LOGICAL))
        return PtlGetPhysId(h, id);
    if (ni->map == NULL)
        return PTL_NO_INIT;
    id->rank = ni->my_rank;
    return PTL_OK;
}

/* ---- portal table ---- */

static struct ptl_pt *pt_lookup(ptl_handle_ni_t h, ptl_pt_index_t i,
                                struct ptl_lib **lib)
{
    struct ptl_ni *ni = ptl_resolve_ni(h, lib, NULL);

    if (ni == NULL || i > (*lib)->p.max_pt_index || !ni->pts[i].used)
        return NULL;
    return &ni->pts[i];
}

static int pt_alloc_locked(struct ptl_lib *lib, struct ptl_ni *ni,
                           unsigned nii, unsigned options,
                           ptl_handle_eq_t eqh, ptl_pt_index_t req,
                           ptl_pt_index_t *out)
{
    struct ptl_eq *eq = NULL;
    uint32_t i = req;

    if ((eqh != PTL_EQ_NONE && (eq = ptl_eq_get(lib, eqh, nii)) == NULL) ||
        (options & ~(unsigned)PTL_PT_ALLOC_OPTIONS_MASK))
        return PTL_ARG_INVALID;
    if ((options & PTL_PT_FLOWCTRL) && eq == NULL)
        return PTL_PT_EQ_NEEDED;
    if (req == PTL_PT_ANY) {
        for (i = 0; i <= (uint32_t)ni->limits.max_pt_index &&
                    ni->pts[i].used; i++)
            ;
        if (i > (uint32_t)ni->limits.max_pt_index)
            return PTL_PT_FULL;
    } else if (req > (uint32_t)ni->limits.max_pt_index) {
        return PTL_ARG_INVALID;
    } else if (ni->pts[i].used) {
        return PTL_PT_IN_USE;
    }
    ptl_memzero(&ni->pts[i], sizeof(ni->pts[i]));
    ni->pts[i].used = true;
    ni->pts[i].enabled = !(options & PTL_PT_ALLOC_DISABLED);
    ni->pts[i].options = options;
    ni->pts[i].eq = eq;
    *out = i;
    return PTL_OK;
}

int PtlPTAlloc(ptl_handle_ni_t h, unsigned int options, ptl_handle_eq_t eq,
               ptl_pt_index_t req, ptl_pt_index_t *out)
{
    struct ptl_lib *lib;
    unsigned nii;
    struct ptl_ni *ni = ptl_resolve_ni(h, &lib, &nii);
    int rc;

    if (ni == NULL || out == NULL)
        return PTL_ARG_INVALID;
    ptl_enter(lib);
    rc = pt_alloc_locked(lib, ni, nii, options, eq, req, out);
    ptl_leave(lib);
    return rc;
}

int PtlPTFree(ptl_handle_ni_t h, ptl_pt_index_t i)
{
    struct ptl_lib *lib;
    struct ptl_pt *pt = pt_lookup(h, i, &lib);

    if (pt == NULL)
        return PTL_ARG_INVALID;
    if (pt->prio || pt->over)
        return PTL_PT_IN_USE;
    ptl_enter(lib);
    ptl_pt_reset(lib, pt);
    ptl_leave(lib);
    return PTL_OK;
}

static int pt_set_enabled(ptl_handle_ni_t h, ptl_pt_index_t i, bool on)
{
    struct ptl_lib *lib;
    struct ptl_pt *pt = pt_lookup(h, i, &lib);

    if (pt == NULL)
        return PTL_ARG_INVALID;
    ptl_enter(lib);
    pt->enabled = on;
    ptl_leave(lib);
    return PTL_OK;
}

int PtlPTDisable(ptl_handle_ni_t h, ptl_pt_index_t i)
{
    return pt_set_enabled(h, i, false);
}

int PtlPTEnable(ptl_handle_ni_t h, ptl_pt_index_t i)
{
    return pt_set_enabled(h, i, true);
}

int PtlStartBundle(ptl_handle_ni_t h)
{
    struct ptl_lib *lib;
    return ptl_resolve_ni(h, &lib, NULL) ? PTL_OK : PTL_ARG_INVALID;
}

int PtlEndBundle(ptl_handle_ni_t h)
{
    return PtlStartBundle(h);
}

/* Operations complete in order at the target, so there is nothing to
 * wait for beyond what the ACK/REPLY events already tell. */
int PtlAtomicSync(void)
{
    return PTL_OK;
}
