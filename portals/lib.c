/* SPDX-License-Identifier: MIT */
/*
 * lib.c: a Portals endpoint ("lib"): table memory carved into fixed pools,
 * its parameters, creation and statistics, handles, locking and time.
 * The calls on its network interfaces and portal table are in ni.c.
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
    /* RFC 6298 (2.1) starts at 1 s too.  At 20 ms, the first frames to
     * 64-128 emulated nodes sharing 2 host CPUs (a job's launch: all of
     * them at once) were nearly all sent again before their ACK could
     * come; each copy woke a node, which delayed the ACKs more, and 128
     * nodes collapsed (docs/PERFORMANCE.md, "Many nodes").  The first
     * ACK gives a sample and the timeout then follows the round trip. */
    p->rto_init_ns = 1000 * 1000 * 1000ull;
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
    DEF(rto_init_ns);
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

void ptl_lib_auth(struct ptl_lib *lib, const uint64_t key[2])
{
    ptl_enter(lib);
    lib->p.auth_key[0] = key[0];
    lib->p.auth_key[1] = key[1];
    lib->p.auth = true;
    ptl_leave(lib);
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
