/* SPDX-License-Identifier: MIT */
/*
 * ct.c: counting events and the triggered operations hung off them (and
 * the triggered appends and unlinks of list entries).  A
 * counter's value lives in host shared memory so the application can read
 * it without a trap; triggers fire when success reaches their threshold.
 */
#include "ptl_internal.h"

struct ptl_ct *ptl_ct_get(struct ptl_lib *lib, ptl_handle_ct_t h, int ni)
{
    struct ptl_lib *owner;
    struct ptl_ct *ct = ptl_resolve(h, PTL_K_CT, &owner);

    if (ct == NULL || owner != lib || (ni >= 0 && ct->ni != ni))
        return NULL;
    return ct;
}

void ptl_ct_add(struct ptl_lib *lib, struct ptl_ct *ct, uint64_t ok,
                uint64_t fail)
{
    if (ct == NULL)
        return;
    __atomic_store_n(&ct->val->success, ct->val->success + ok,
                     __ATOMIC_RELEASE);
    __atomic_store_n(&ct->val->failure, ct->val->failure + fail,
                     __ATOMIC_RELEASE);
    lib->changes++;
    ptl_ct_fire(lib, ct);
}

static void trig_free(struct ptl_lib *lib, struct ptl_trig *t)
{
    if (t->kind == PTL_T_APPEND && t->entry != NULL)
        ptl_me_disarm(lib, t->entry);   /* never fired */
    if (lib->ni[t->ni].n_trigs > 0)
        lib->ni[t->ni].n_trigs--;
    t->used = false;
    ptl_pool_put(&lib->trigs, t);
}

void ptl_trig_drop_all(struct ptl_lib *lib, struct ptl_ct *ct)
{
    while (ct->trigs != NULL) {
        struct ptl_trig *t = ct->trigs;
        ct->trigs = t->next;
        trig_free(lib, t);
    }
}

static void ct_set(struct ptl_lib *lib, struct ptl_ct *ct, ptl_ct_event_t v)
{
    __atomic_store_n(&ct->val->success, v.success, __ATOMIC_RELEASE);
    __atomic_store_n(&ct->val->failure, v.failure, __ATOMIC_RELEASE);
    lib->changes++;
    ptl_ct_fire(lib, ct);
}

/* Run one triggered operation.  Its errors have nowhere to go (the
 * spec's answer too): a failed trigger is simply consumed -- except for
 * want of a message slot, which only delays it: false, run it later. */
static bool trig_run(struct ptl_lib *lib, struct ptl_trig *t)
{
    struct ptl_ct *ct;
    int rc = PTL_OK;

    switch (t->kind) {
    case PTL_T_PUT:
    case PTL_T_ATOMIC:
        rc = ptl_do_put(lib, t->md, t->local_off, t->length, t->ack_req,
                   t->target, t->pt, t->bits, t->remote_off, t->user_ptr,
                   t->hdr_data, t->kind == PTL_T_PUT ? PTL_W_PUT
                                                     : PTL_W_ATOMIC,
                   t->op, t->dt);
        break;
    case PTL_T_GET:
    case PTL_T_FETCH:
    case PTL_T_SWAP:
        rc = ptl_do_get(lib, t->get_md, t->get_off, t->md, t->local_off,
                   t->length, t->target, t->pt, t->bits, t->remote_off,
                   t->user_ptr, t->hdr_data,
                   t->kind == PTL_T_GET ? PTL_W_GET
                   : t->kind == PTL_T_FETCH ? PTL_W_FETCH : PTL_W_SWAP,
                   t->operand, t->op, t->dt);
        break;
    case PTL_T_CTINC:
        if ((ct = ptl_ct_get(lib, t->ct, -1)) != NULL)
            ptl_ct_add(lib, ct, t->ctval.success, t->ctval.failure);
        break;
    case PTL_T_CTSET:
        if ((ct = ptl_ct_get(lib, t->ct, -1)) != NULL)
            ct_set(lib, ct, t->ctval);
        break;
    case PTL_T_APPEND:
        ptl_me_fire(lib, t->entry);
        t->entry = NULL;
        break;
    case PTL_T_UNLINK:
        ptl_me_unlink_handle(lib, t->entry_h);
        break;
    }
    return rc != PTL_NO_SPACE;
}

/* Fired operations that found every message slot taken (1024 triggered
 * puts released by one PtlCTInc, say) wait here in order and go as
 * slots free up (ptl_lib_progress); none is dropped. */
void ptl_trig_retry(struct ptl_lib *lib)
{
    while (lib->trig_wait != NULL && trig_run(lib, lib->trig_wait)) {
        struct ptl_trig *t = lib->trig_wait;
        lib->trig_wait = t->next;
        trig_free(lib, t);
    }
}

static void trig_wait(struct ptl_lib *lib, struct ptl_trig *t)
{
    if (lib->trig_wait == NULL)
        lib->trig_wait_tail = &lib->trig_wait;
    t->next = NULL;
    *lib->trig_wait_tail = t;
    lib->trig_wait_tail = &t->next;
}

/* Fire every trigger whose threshold is reached, lowest first.  A fired
 * trigger may change this or another counter; those changes fire their
 * own triggers through the same path, bounded by the pool size. */
void ptl_ct_fire(struct ptl_lib *lib, struct ptl_ct *ct)
{
    if (lib->in_fire > 8)
        return;     /* deep chains finish on the next progress call */
    lib->in_fire++;
    while (ct->used && ct->trigs != NULL &&
           ct->trigs->threshold <= ct->val->success) {
        struct ptl_trig *t = ct->trigs;
        ct->trigs = t->next;
        if (lib->trig_wait != NULL || !trig_run(lib, t))
            trig_wait(lib, t);      /* behind those already waiting */
        else
            trig_free(lib, t);
    }
    lib->in_fire--;
}

int PtlCTAlloc(ptl_handle_ni_t nih, ptl_handle_ct_t *out)
{
    struct ptl_lib *lib;
    unsigned nii;
    struct ptl_ct *ct;

    if (ptl_resolve_ni(nih, &lib, &nii) == NULL || out == NULL)
        return PTL_ARG_INVALID;
    ptl_enter(lib);
    ct = lib->ni[nii].n_cts < (uint32_t)lib->ni[nii].limits.max_cts
         ? ptl_pool_get(&lib->cts) : NULL;
    if (ct != NULL)
        ct->val = lib->ops->shared_alloc(lib->ctx, sizeof(*ct->val));
    if (ct == NULL || ct->val == NULL) {
        if (ct)
            ptl_pool_put(&lib->cts, ct);
        ptl_leave(lib);
        return PTL_NO_SPACE;
    }
    ct->val->success = ct->val->failure = 0;
    ct->ni = (uint8_t)nii;
    ct->used = true;
    lib->ni[nii].n_cts++;
    *out = ptl_handle(PTL_K_CT, lib->slot, nii, ptl_pool_idx(&lib->cts, ct));
    ptl_leave(lib);
    return PTL_OK;
}

int PtlCTFree(ptl_handle_ct_t h)
{
    struct ptl_lib *lib;
    struct ptl_ct *ct = ptl_resolve(h, PTL_K_CT, &lib);

    if (ct == NULL)
        return PTL_ARG_INVALID;
    ptl_enter(lib);
    ptl_trig_drop_all(lib, ct);
    lib->ops->shared_free(lib->ctx, ct->val, sizeof(*ct->val));
    ct->used = false;
    lib->ni[ct->ni].n_cts--;
    ptl_pool_put(&lib->cts, ct);
    ptl_leave(lib);
    return PTL_OK;
}

int PtlCTCancelTriggered(ptl_handle_ct_t h)
{
    struct ptl_lib *lib;
    struct ptl_ct *ct = ptl_resolve(h, PTL_K_CT, &lib);

    if (ct == NULL)
        return PTL_ARG_INVALID;
    ptl_enter(lib);
    ptl_trig_drop_all(lib, ct);
    ptl_leave(lib);
    return PTL_OK;
}

int PtlCTGet(ptl_handle_ct_t h, ptl_ct_event_t *ev)
{
    struct ptl_lib *lib;
    struct ptl_ct *ct = ptl_resolve(h, PTL_K_CT, &lib);

    if (ct == NULL || ev == NULL)
        return PTL_ARG_INVALID;
    ptl_enter(lib);
    ptl_poll(lib);
    *ev = *ct->val;
    ptl_leave(lib);
    return PTL_OK;
}

static int ct_poll_once(struct ptl_lib *lib, const ptl_handle_ct_t *hs,
                        const ptl_size_t *tests, unsigned n,
                        ptl_ct_event_t *ev, unsigned *which)
{
    for (unsigned i = 0; i < n; i++) {
        struct ptl_ct *ct = ptl_ct_get(lib, hs[i], -1);

        if (ct == NULL)
            return PTL_ARG_INVALID;
        if (ct->val->success + ct->val->failure >= tests[i]) {
            *ev = *ct->val;
            *which = i;
            return PTL_OK;
        }
    }
    return PTL_CT_NONE_REACHED;
}

int PtlCTPoll(const ptl_handle_ct_t *hs, const ptl_size_t *tests,
              unsigned int n, ptl_time_t timeout, ptl_ct_event_t *ev,
              unsigned int *which)
{
    struct ptl_lib *lib;
    uint64_t deadline;
    int rc;

    if (hs == NULL || tests == NULL || n == 0 || ev == NULL ||
        which == NULL || ptl_resolve(hs[0], PTL_K_CT, &lib) == NULL)
        return PTL_ARG_INVALID;
    ptl_enter(lib);
    deadline = ptl_deadline_ms(lib, timeout);
    for (bool looked = false;; looked = true) {    /* as in PtlEQPoll */
        ptl_lib_progress(lib);
        rc = ct_poll_once(lib, hs, tests, n, ev, which);
        if (rc != PTL_CT_NONE_REACHED || (looked && ptl_now(lib) >= deadline))
            break;
        if ((rc = ptl_block(lib, deadline)) != 0) {
            rc = rc == PTL_ABORTED ? PTL_ABORTED : PTL_INTERRUPTED;
            break;
        }
    }
    ptl_leave(lib);
    return rc;
}

int PtlCTWait(ptl_handle_ct_t h, ptl_size_t test, ptl_ct_event_t *ev)
{
    unsigned which;

    return PtlCTPoll(&h, &test, 1, PTL_TIME_FOREVER, ev, &which);
}

int PtlCTSet(ptl_handle_ct_t h, ptl_ct_event_t v)
{
    struct ptl_lib *lib;
    struct ptl_ct *ct = ptl_resolve(h, PTL_K_CT, &lib);

    if (ct == NULL)
        return PTL_ARG_INVALID;
    ptl_enter(lib);
    ct_set(lib, ct, v);
    ptl_leave(lib);
    return PTL_OK;
}

int PtlCTInc(ptl_handle_ct_t h, ptl_ct_event_t inc)
{
    struct ptl_lib *lib;
    struct ptl_ct *ct = ptl_resolve(h, PTL_K_CT, &lib);

    if (ct == NULL)
        return PTL_ARG_INVALID;
    ptl_enter(lib);
    ptl_ct_add(lib, ct, inc.success, inc.failure);
    ptl_leave(lib);
    return PTL_OK;
}

/* ---- triggered operations ---- */

/* Insert sorted by threshold (stable), then fire if already reached. */
int ptl_trig_add(struct ptl_lib *lib, const struct ptl_trig *tmpl,
                 ptl_handle_ct_t trig_cth)
{
    struct ptl_ct *ct = ptl_ct_get(lib, trig_cth, -1);
    struct ptl_trig *t, **pp;

    if (ct == NULL)
        return PTL_ARG_INVALID;
    if (lib->ni[ct->ni].n_trigs >=
        (uint32_t)lib->ni[ct->ni].limits.max_triggered_ops ||
        (t = ptl_pool_get(&lib->trigs)) == NULL)
        return PTL_NO_SPACE;
    *t = *tmpl;
    t->used = true;
    t->ni = ct->ni;
    lib->ni[ct->ni].n_trigs++;
    t->trig_ct = ct;
    for (pp = &ct->trigs; *pp && (*pp)->threshold <= t->threshold;
         pp = &(*pp)->next)
        ;
    t->next = *pp;
    *pp = t;
    ptl_ct_fire(lib, ct);
    return PTL_OK;
}

static struct ptl_lib *lib_of_handle(uint32_t h)
{
    struct ptl_lib *lib;
    unsigned kind = h >> 28;

    if (kind != PTL_K_MD && kind != PTL_K_CT)
        return NULL;
    return ptl_resolve(h, kind, &lib) ? lib : NULL;
}

static int trig_submit(const struct ptl_trig *t, uint32_t anyh,
                       ptl_handle_ct_t trig_ct)
{
    struct ptl_lib *lib = lib_of_handle(anyh);
    int rc;

    if (lib == NULL)
        return PTL_ARG_INVALID;
    ptl_enter(lib);
    rc = ptl_trig_add(lib, t, trig_ct);
    ptl_leave(lib);
    return rc;
}

int PtlTriggeredPut(ptl_handle_md_t md, ptl_size_t loff, ptl_size_t len,
                    ptl_ack_req_t ack, ptl_process_t tgt, ptl_pt_index_t pt,
                    ptl_match_bits_t bits, ptl_size_t roff, void *uptr,
                    ptl_hdr_data_t hdr, ptl_handle_ct_t tct, ptl_size_t thr)
{
    struct ptl_trig t = { .kind = PTL_T_PUT, .md = md, .local_off = loff,
        .length = len, .ack_req = ack, .target = tgt, .pt = pt,
        .bits = bits, .remote_off = roff, .user_ptr = uptr,
        .hdr_data = hdr, .threshold = thr };

    return trig_submit(&t, md, tct);
}

int PtlTriggeredGet(ptl_handle_md_t md, ptl_size_t loff, ptl_size_t len,
                    ptl_process_t tgt, ptl_pt_index_t pt,
                    ptl_match_bits_t bits, ptl_size_t roff, void *uptr,
                    ptl_handle_ct_t tct, ptl_size_t thr)
{
    struct ptl_trig t = { .kind = PTL_T_GET, .get_md = md, .get_off = loff,
        .md = PTL_INVALID_HANDLE, .length = len, .target = tgt, .pt = pt,
        .bits = bits, .remote_off = roff, .user_ptr = uptr,
        .threshold = thr };

    return trig_submit(&t, md, tct);
}

int PtlTriggeredAtomic(ptl_handle_md_t md, ptl_size_t loff, ptl_size_t len,
                       ptl_ack_req_t ack, ptl_process_t tgt,
                       ptl_pt_index_t pt, ptl_match_bits_t bits,
                       ptl_size_t roff, void *uptr, ptl_hdr_data_t hdr,
                       ptl_op_t op, ptl_datatype_t dt, ptl_handle_ct_t tct,
                       ptl_size_t thr)
{
    struct ptl_trig t = { .kind = PTL_T_ATOMIC, .md = md, .local_off = loff,
        .length = len, .ack_req = ack, .target = tgt, .pt = pt,
        .bits = bits, .remote_off = roff, .user_ptr = uptr,
        .hdr_data = hdr, .op = op, .dt = dt, .threshold = thr };

    return trig_submit(&t, md, tct);
}

int PtlTriggeredFetchAtomic(ptl_handle_md_t gmd, ptl_size_t goff,
                            ptl_handle_md_t pmd, ptl_size_t poff,
                            ptl_size_t len, ptl_process_t tgt,
                            ptl_pt_index_t pt, ptl_match_bits_t bits,
                            ptl_size_t roff, void *uptr, ptl_hdr_data_t hdr,
                            ptl_op_t op, ptl_datatype_t dt,
                            ptl_handle_ct_t tct, ptl_size_t thr)
{
    struct ptl_trig t = { .kind = PTL_T_FETCH, .get_md = gmd,
        .get_off = goff, .md = pmd, .local_off = poff, .length = len,
        .target = tgt, .pt = pt, .bits = bits, .remote_off = roff,
        .user_ptr = uptr, .hdr_data = hdr, .op = op, .dt = dt,
        .threshold = thr };

    return trig_submit(&t, gmd, tct);
}

int PtlTriggeredSwap(ptl_handle_md_t gmd, ptl_size_t goff,
                     ptl_handle_md_t pmd, ptl_size_t poff, ptl_size_t len,
                     ptl_process_t tgt, ptl_pt_index_t pt,
                     ptl_match_bits_t bits, ptl_size_t roff, void *uptr,
                     ptl_hdr_data_t hdr, const void *operand, ptl_op_t op,
                     ptl_datatype_t dt, ptl_handle_ct_t tct, ptl_size_t thr)
{
    struct ptl_trig t = { .kind = PTL_T_SWAP, .get_md = gmd,
        .get_off = goff, .md = pmd, .local_off = poff, .length = len,
        .target = tgt, .pt = pt, .bits = bits, .remote_off = roff,
        .user_ptr = uptr, .hdr_data = hdr, .op = op, .dt = dt,
        .threshold = thr };
    struct ptl_lib *lib = lib_of_handle(gmd);
    size_t n = ptl_atomic_dtsize(dt);

    if (lib == NULL || n == 0)
        return PTL_ARG_INVALID;
    if (operand != NULL) {
        if (lib->ops->check(lib->ctx, operand, n, 0) != 0)
            return PTL_ARG_INVALID;
        lib->ops->copy_in(lib->ctx, t.operand, operand, n);
    }
    return trig_submit(&t, gmd, tct);
}

int PtlTriggeredCTInc(ptl_handle_ct_t cth, ptl_ct_event_t inc,
                      ptl_handle_ct_t tct, ptl_size_t thr)
{
    struct ptl_trig t = { .kind = PTL_T_CTINC, .ct = cth, .ctval = inc,
        .threshold = thr };

    return trig_submit(&t, cth, tct);
}

int PtlTriggeredCTSet(ptl_handle_ct_t cth, ptl_ct_event_t v,
                      ptl_handle_ct_t tct, ptl_size_t thr)
{
    struct ptl_trig t = { .kind = PTL_T_CTSET, .ct = cth, .ctval = v,
        .threshold = thr };

    return trig_submit(&t, cth, tct);
}

/* ---- PtlTriggered{ME,LE}{Append,Unlink} ---- */

/* The entry is made now (arguments checked, handle returned at once) and
 * linked when the trigger fires (ptl_me_fire); until then it is on no
 * list, and a cancelled trigger frees it (ptl_me_disarm). */
static int trig_append(ptl_handle_ni_t nih, ptl_pt_index_t pti,
                       const ptl_me_t *mein, bool is_le, ptl_list_t list,
                       void *uptr, uint32_t *out, ptl_handle_ct_t tct,
                       ptl_size_t threshold)
{
    struct ptl_lib *lib;
    unsigned nii;
    struct ptl_ni *ni = ptl_resolve_ni(nih, &lib, &nii);
    struct ptl_trig t = { .kind = PTL_T_APPEND, .threshold = threshold };
    int rc;

    if (ni == NULL || mein == NULL || out == NULL ||
        is_le != !!(ni->options & PTL_NI_NO_MATCHING))
        return PTL_ARG_INVALID;
    ptl_enter(lib);
    rc = ptl_me_new(lib, nii, pti, mein, is_le, list, uptr, out, &t.entry);
    if (rc == PTL_OK) {
        t.entry->armed = true;
        if ((rc = ptl_trig_add(lib, &t, tct)) != PTL_OK)
            ptl_me_disarm(lib, t.entry);
    }
    ptl_leave(lib);
    return rc;
}

static int trig_unlink(uint32_t h, ptl_handle_ct_t tct, ptl_size_t threshold)
{
    struct ptl_lib *lib;
    struct ptl_trig t = { .kind = PTL_T_UNLINK, .threshold = threshold,
                          .entry_h = h };
    int rc;

    if (ptl_resolve(h, PTL_K_ME, &lib) == NULL)
        return PTL_ARG_INVALID;
    ptl_enter(lib);
    rc = ptl_trig_add(lib, &t, tct);
    ptl_leave(lib);
    return rc;
}

int PtlTriggeredMEAppend(ptl_handle_ni_t ni, ptl_pt_index_t pt,
                         const ptl_me_t *me, ptl_list_t list, void *uptr,
                         ptl_handle_me_t *out, ptl_handle_ct_t tct,
                         ptl_size_t threshold)
{
    return trig_append(ni, pt, me, false, list, uptr, out, tct, threshold);
}

int PtlTriggeredLEAppend(ptl_handle_ni_t ni, ptl_pt_index_t pt,
                         const ptl_le_t *le, ptl_list_t list, void *uptr,
                         ptl_handle_le_t *out, ptl_handle_ct_t tct,
                         ptl_size_t threshold)
{
    ptl_me_t me;

    if (le == NULL)
        return PTL_ARG_INVALID;
    ptl_le_to_me(le, &me);
    return trig_append(ni, pt, &me, true, list, uptr, out, tct, threshold);
}

int PtlTriggeredMEUnlink(ptl_handle_me_t me, ptl_handle_ct_t tct,
                         ptl_size_t threshold)
{
    return trig_unlink(me, tct, threshold);
}

int PtlTriggeredLEUnlink(ptl_handle_le_t le, ptl_handle_ct_t tct,
                         ptl_size_t threshold)
{
    return trig_unlink(le, tct, threshold);
}
