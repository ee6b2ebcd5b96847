/* SPDX-License-Identifier: MIT */
/*
 * lib.c: a Portals endpoint ("lib"): table memory carved into fixed pools,
 * handles, network interfaces, portal table entries and identity calls.
 */
#include "ptl_internal.h"

struct ptl_lib *ptl_libs[PTL_MAX_IFACES];

/* The host's memset and memcpy (libc, kernel/lib.c): byte loops here
 * cost the kernel ~3000 instructions to clear each message descriptor,
 * a few microseconds per message under emulation. */
void ptl_memzero(void *p, size_t n)
{
    __builtin_memset(p, 0, n);
}

void ptl_memcopy(void *d, const void *s, size_t n)
{
    __builtin_memcpy(d, s, n);
}

/* ---- pools ---- */

void *ptl_pool_get(struct ptl_pool *pl)
{
    void *obj;

    if (pl->nfree == 0)
        return NULL;
    obj = (uint8_t *)pl->base + pl->free[--pl->nfree] * pl->objsize;
    ptl_memzero(obj, pl->clear);
    return obj;
}

uint32_t ptl_pool_idx(const struct ptl_pool *pl, const void *obj)
{
    return (uint32_t)(((const uint8_t *)obj - (const uint8_t *)pl->base) /
                      pl->objsize);
}

void ptl_pool_put(struct ptl_pool *pl, void *obj)
{
    pl->free[pl->nfree++] = ptl_pool_idx(pl, obj);
}

void *ptl_pool_at(const struct ptl_pool *pl, uint32_t idx)
{
    if (idx >= pl->count)
        return NULL;
    return (uint8_t *)pl->base + (size_t)idx * pl->objsize;
}

/* Bump allocator over the host's block, used only during create. */
struct carve {
    uint8_t *p;
    size_t left, need;
};

static void *carve(struct carve *c, size_t n)
{
    void *r = c->p;

    n = (n + 15) & ~(size_t)15;
    c->need += n;
    if (c->p == NULL || n > c->left)
        return c->p = NULL, NULL;
    c->p += n;
    c->left -= n;
    return r;
}

/* Objects come zeroed up to `clear` bytes; the rest is written before it
   is read (a message's inline data: 512 of its 768 bytes). */
static void pool_carve(struct carve *c, struct ptl_pool *pl, size_t objsize,
                       size_t clear, uint32_t count)
{
    pl->objsize = (objsize + 15) & ~(size_t)15;
    pl->clear = clear;
    pl->count = count;
    pl->base = carve(c, pl->objsize * count);
    pl->free = carve(c, sizeof(uint32_t) * count);
    if (pl->free == NULL)
        return;
    pl->nfree = count;
    for (uint32_t i = 0; i < count; i++)
        pl->free[i] = count - 1 - i;    /* index 0 handed out first */
}

void ptl_lib_params_default(struct ptl_lib_params *p)
{
    ptl_memzero(p, sizeof(*p));
    p->pid = PTL_PID_ANY;
    p->mtu = PTL_MTU_DEFAULT;
    p->max_entries = 4096;
    p->max_uh = 4096;
    p->max_mds = 1024;
    p->max_cts = 256;
    p->max_eqs = 64;
    p->max_pt_index = 63;
    p->max_trig = 1024;
    p->max_msgs = 1024;
    p->max_peers = 256;
    p->window = 64;
    p->rto_ns = 20 * 1000 * 1000ull;
    p->rto_max_ns = 1000 * 1000 * 1000ull;
    p->max_retries = 16;
    p->ack_delay_ns = 20 * 1000;
    p->epoch = 1;
}

static void fill_defaults(struct ptl_lib_params *p)
{
    struct ptl_lib_params d;

    ptl_lib_params_default(&d);
#define DEF(f) if (p->f == 0) p->f = d.f
    DEF(mtu); DEF(max_entries); DEF(max_uh); DEF(max_mds);
    DEF(max_cts);
    DEF(max_eqs); DEF(max_pt_index); DEF(max_trig); DEF(max_msgs);
    DEF(max_peers); DEF(window); DEF(rto_ns); DEF(rto_max_ns);
    DEF(ack_delay_ns);
    DEF(max_retries); DEF(epoch);
#undef DEF
    if (p->window > PTL_MAX_WINDOW)
        p->window = PTL_MAX_WINDOW;
    if (p->mtu > PTL_MTU_MAX)
        p->mtu = PTL_MTU_MAX;
    if (p->mtu < PTL_MTU_MIN)
        p->mtu = PTL_MTU_MIN;
}

/* Lay out every table; with c->p == NULL this only measures. */
static void lay_out(struct ptl_lib *lib, struct carve *c)
{
    struct ptl_lib_params *p = &lib->p;

#define WHOLE(T)    sizeof(T), sizeof(T)
    pool_carve(c, &lib->eqs, WHOLE(struct ptl_eq), p->max_eqs);
    pool_carve(c, &lib->cts, WHOLE(struct ptl_ct), p->max_cts);
    pool_carve(c, &lib->mds, WHOLE(struct ptl_md), p->max_mds);
    pool_carve(c, &lib->mes, WHOLE(struct ptl_me), p->max_entries);
    pool_carve(c, &lib->uhs, WHOLE(struct ptl_uh), p->max_uh);
    pool_carve(c, &lib->msgs, sizeof(struct ptl_msg),
               offsetof(struct ptl_msg, inline_data), p->max_msgs);
    pool_carve(c, &lib->peers, WHOLE(struct ptl_peer), p->max_peers);
    pool_carve(c, &lib->trigs, WHOLE(struct ptl_trig), p->max_trig);
#undef WHOLE
    lib->phash_size = p->max_peers;
    lib->phash = carve(c, sizeof(struct ptl_peer *) * lib->phash_size);
    for (unsigned i = 0; i < PTL_NNI; i++)
        lib->ni[i].pts = carve(c, sizeof(struct ptl_pt) *
                                      (p->max_pt_index + 1));
    lib->wins = carve(c, sizeof(struct ptl_txslot) * p->window *
                             p->max_peers);
}

size_t ptl_lib_mem_size(const struct ptl_lib_params *p)
{
    struct ptl_lib tmp;
    struct carve c = { NULL, 0, 0 };

    ptl_memzero(&tmp, sizeof(tmp));
    tmp.p = *p;
    fill_defaults(&tmp.p);
    lay_out(&tmp, &c);
    return c.need + sizeof(struct ptl_lib) + 16;
}

int ptl_lib_create(unsigned iface, const struct ptl_lib_params *p,
                   const struct ptl_host_ops *ops, void *ctx, void *mem,
                   size_t memlen, struct ptl_lib **out)
{
    struct carve c = { mem, memlen, 0 };
    struct ptl_lib *lib;

    if (iface >= PTL_MAX_IFACES || ptl_libs[iface] != NULL || !ops)
        return PTL_ARG_INVALID;
    if (memlen < ptl_lib_mem_size(p))
        return PTL_NO_SPACE;
    ptl_memzero(mem, memlen);
    lib = carve(&c, sizeof(*lib));
    lib->p = *p;
    fill_defaults(&lib->p);
    lib->ops = ops;
    lib->ctx = ctx;
    lib->slot = iface;
    lay_out(lib, &c);
    if (c.p == NULL)
        return PTL_NO_SPACE;
    lib->live = true;
    ptl_libs[iface] = lib;
    *out = lib;
    return PTL_OK;
}

void ptl_lib_destroy(struct ptl_lib *lib)
{
    for (unsigned i = 0; i < lib->eqs.count; i++) {
        struct ptl_eq *eq = ptl_pool_at(&lib->eqs, i);
        if (eq->used)
            lib->ops->shared_free(lib->ctx, eq->ring, eq->ring_bytes);
    }
    for (unsigned i = 0; i < lib->cts.count; i++) {
        struct ptl_ct *ct = ptl_pool_at(&lib->cts, i);
        if (ct->used)
            lib->ops->shared_free(lib->ctx, ct->val, sizeof(*ct->val));
    }
    ptl_libs[lib->slot] = NULL;
    lib->live = false;
}

struct ptl_lib *ptl_lib_of_iface(unsigned iface)
{
    return iface < PTL_MAX_IFACES ? ptl_libs[iface] : NULL;
}

void ptl_lib_get_stats(struct ptl_lib *lib, struct ptl_lib_stats *st)
{
    *st = lib->st;
}

ptl_nid_t ptl_lib_nid(struct ptl_lib *lib) { return lib->p.nid; }
uint64_t ptl_lib_changes(struct ptl_lib *lib) { return lib->changes; }
ptl_pid_t ptl_lib_pid(struct ptl_lib *lib) { return lib->p.pid; }

void *ptl_lib_shared_of(struct ptl_lib *lib, ptl_handle_any_t h)
{
    struct ptl_eq *eq = ptl_eq_get(lib, h, -1);
    struct ptl_ct *ct = ptl_ct_get(lib, h, -1);

    return eq ? (void *)eq->ring : ct ? (void *)ct->val : NULL;
}

/* ---- locking, time ---- */

void ptl_enter(struct ptl_lib *lib)
{
    if (lib->ops->lock)
        lib->ops->lock(lib->ctx);
}

void ptl_leave(struct ptl_lib *lib)
{
    if (lib->ops->unlock)
        lib->ops->unlock(lib->ctx);
}

uint64_t ptl_now(struct ptl_lib *lib)
{
    return lib->ops->now_ns(lib->ctx);
}

uint64_t ptl_deadline_ms(struct ptl_lib *lib, ptl_time_t ms)
{
    if (ms == PTL_TIME_FOREVER)
        return UINT64_MAX;
    return ptl_now(lib) + (uint64_t)ms * 1000000ull;
}

/* Called with the lock held; the host's wait runs without it so other
 * threads (and the receive path) can enter the core. */
int ptl_block(struct ptl_lib *lib, uint64_t deadline)
{
    uint64_t d;
    int rc;

    ptl_lib_flush(lib);
    d = ptl_lib_deadline(lib);
    if (d > deadline)
        d = deadline;
    ptl_leave(lib);
    rc = lib->ops->wait(lib->ctx, d);
    ptl_enter(lib);
    ptl_lib_progress(lib);
    return rc;
}

/* Called with the lock held, as ptl_block. */
void ptl_poll(struct ptl_lib *lib)
{
    if (lib->ops->poll != NULL) {
        ptl_leave(lib);
        lib->ops->poll(lib->ctx);
        ptl_enter(lib);
    }
    ptl_lib_progress(lib);
}

/* ---- handles ---- */

static struct ptl_pool *pool_of(struct ptl_lib *lib, unsigned kind)
{
    switch (kind) {
    case PTL_K_EQ: return &lib->eqs;
    case PTL_K_CT: return &lib->cts;
    case PTL_K_MD: return &lib->mds;
    case PTL_K_ME: return &lib->mes;
    default: return NULL;
    }
}

/* Every pooled object starts with "bool used". */
void *ptl_resolve(uint32_t h, unsigned kind, struct ptl_lib **libp)
{
    unsigned slot = (h >> 22) & 63;
    struct ptl_lib *lib = ptl_libs[slot];
    struct ptl_pool *pl;
    bool *obj;

    if ((h >> 28) != kind || lib == NULL || !lib->live)
        return NULL;
    pl = pool_of(lib, kind);
    obj = pl ? ptl_pool_at(pl, h & PTL_H_IDX_MASK) : NULL;
    if (obj == NULL || !*obj)
        return NULL;
    if (!lib->ni[(h >> 20) & 3].used)
        return NULL;
    *libp = lib;
    return obj;
}

struct ptl_ni *ptl_resolve_ni(ptl_handle_ni_t h, struct ptl_lib **libp,
                              unsigned *nii)
{
    unsigned slot = (h >> 22) & 63;
    struct ptl_lib *lib = ptl_libs[slot];
    unsigned i = (h >> 20) & 3;

    if ((h >> 28) != PTL_K_NI || lib == NULL || !lib->live ||
        !lib->ni[i].used)
        return NULL;
    *libp = lib;
    if (nii)
        *nii = i;
    return &lib->ni[i];
}

int PtlHandleIsEqual(ptl_handle_any_t a, ptl_handle_any_t b)
{
    return a == b;
}

int PtlNIHandle(ptl_handle_any_t h, ptl_handle_ni_t *ni)
{
    unsigned kind = h >> 28;

    if (kind < PTL_K_NI || kind > PTL_K_ME || h == PTL_INVALID_HANDLE ||
        ni == NULL)
        return PTL_ARG_INVALID;
    *ni = ptl_handle(PTL_K_NI, (h >> 22) & 63, (h >> 20) & 3, 0);
    return PTL_OK;
}

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
 * has (a field of 0 or less asks for nothing).  The table sizes, portal
 * table indexes and triggered operations are then enforced per NI; the
 * message and atomic sizes are refused above them (initiator.c). */
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
 * ends early whenever a timer is due.  Then linger a few retransmission
 * timeouts (the peers' adaptive ones, not just the initial one): if our
 * last ACK was lost, the peer's retransmission must still find someone to
 * acknowledge it (else it declares us unreachable), like TCP's TIME_WAIT.
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
    if (ni->fini_linger == 0 && ptl_lib_busy(lib) && now < ni->fini_give_up) {
        *until = ni->fini_give_up;
        ptl_leave(lib);
        return PTL_OK;
    }
    if (ni->fini_linger == 0)
        ni->fini_linger = now + 5 * ptl_rel_max_rto(lib);
    if (now < ni->fini_linger) {
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
