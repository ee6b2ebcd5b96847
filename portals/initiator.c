/* SPDX-License-Identifier: MIT */
/*
 * initiator.c: memory descriptors and the data movement calls (put, get,
 * atomics), and the initiator's side of completion: SEND once the data is
 * acknowledged by the link (so the buffer is no longer needed for
 * retransmission: the frames point into it, zero copy), then ACK or REPLY
 * when the target answers.
 */
#include "ptl_internal.h"

#define SWAP_OPERAND_BYTES 32

/* ---- memory descriptors ---- */

static int md_bind_locked(struct ptl_lib *lib, unsigned nii,
                          const ptl_md_t *in, ptl_handle_md_t *out)
{
    struct ptl_eq *eq = NULL;
    struct ptl_ct *ct = NULL;
    struct ptl_md *md;

    if (in->options & PTL_IOVEC)
        return PTL_ARG_INVALID;     /* max_iovecs is 0 */
    if (in->options & ~(unsigned)PTL_MD_OPTIONS_MASK)
        return PTL_ARG_INVALID;     /* an option we do not know */
    if (in->length &&
        lib->ops->check(lib->ctx, in->start, in->length, PTL_CHECK_BIND))
        return PTL_ARG_INVALID;
    if (in->eq_handle != PTL_EQ_NONE &&
        (eq = ptl_eq_get(lib, in->eq_handle, nii)) == NULL)
        return PTL_ARG_INVALID;
    if (in->ct_handle != PTL_CT_NONE &&
        (ct = ptl_ct_get(lib, in->ct_handle, nii)) == NULL)
        return PTL_ARG_INVALID;
    if (lib->ni[nii].n_mds >= (uint32_t)lib->ni[nii].limits.max_mds ||
        (md = ptl_pool_get(&lib->mds)) == NULL)
        return PTL_NO_SPACE;
    lib->ni[nii].n_mds++;
    md->used = true;
    md->ni = (uint8_t)nii;
    md->md = *in;
    md->eq = eq;
    md->ct = ct;
    *out = ptl_handle(PTL_K_MD, lib->slot, nii, ptl_pool_idx(&lib->mds, md));
    return PTL_OK;
}

int PtlMDBind(ptl_handle_ni_t nih, const ptl_md_t *md, ptl_handle_md_t *out)
{
    struct ptl_lib *lib;
    unsigned nii;
    int rc;

    if (ptl_resolve_ni(nih, &lib, &nii) == NULL || md == NULL || !out)
        return PTL_ARG_INVALID;
    ptl_enter(lib);
    rc = md_bind_locked(lib, nii, md, out);
    ptl_leave(lib);
    return rc;
}

int PtlMDRelease(ptl_handle_md_t h)
{
    struct ptl_lib *lib;
    struct ptl_md *md = ptl_resolve(h, PTL_K_MD, &lib);
    int rc = PTL_OK;

    if (md == NULL)
        return PTL_ARG_INVALID;
    ptl_enter(lib);
    if (md->refs != 0) {
        rc = PTL_IN_USE;
    } else {
        md->used = false;
        lib->ni[md->ni].n_mds--;
        ptl_pool_put(&lib->mds, md);
    }
    ptl_leave(lib);
    return rc;
}

/* ---- events ---- */

static void ini_event(struct ptl_lib *lib, struct ptl_msg *m,
                      struct ptl_md *md, ptl_event_kind_t kind,
                      const struct ptl_whdr *resp, uint8_t fail)
{
    ptl_event_t ev;

    if (md == NULL || md->eq == NULL)
        return;
    if (fail == PTL_NI_OK && (md->md.options & PTL_MD_EVENT_SUCCESS_DISABLE))
        return;
    if (kind == PTL_EVENT_SEND && (md->md.options & PTL_MD_EVENT_SEND_DISABLE))
        return;
    ptl_memzero(&ev, sizeof(ev));
    ev.type = kind;
    ev.user_ptr = m->user_ptr;
    ev.hdr_data = m->hdr.hdr_data;
    ev.match_bits = m->hdr.match_bits;
    ev.rlength = m->hdr.rlength;
    ev.mlength = resp ? resp->mlength : m->hdr.rlength;
    ev.remote_offset = resp ? resp->remote_offset : m->hdr.remote_offset;
    ev.pt_index = m->hdr.pt_index;
    ev.ptl_list = resp ? resp->ptl_list : PTL_PRIORITY_LIST;
    ev.ni_fail_type = fail;
    ev.atomic_operation = m->hdr.atomic_op;
    ev.atomic_type = m->hdr.atomic_type;
    ev.start = resp == NULL ? NULL
             : (uint8_t *)md->md.start + (md == m->get_md ? m->get_off
                                                          : m->local_off);
    ptl_eq_post(lib, md->eq, &ev);
}

static void ini_count(struct ptl_lib *lib, struct ptl_md *md, unsigned opt,
                      uint64_t bytes, uint8_t fail)
{
    if (md == NULL || md->ct == NULL || !(md->md.options & opt))
        return;
    if (fail != PTL_NI_OK)
        ptl_ct_add(lib, md->ct, 0, 1);
    else
        ptl_ct_add(lib, md->ct,
                   (md->md.options & PTL_MD_EVENT_CT_BYTES) ? bytes : 1, 0);
}

static void msg_done(struct ptl_lib *lib, struct ptl_msg *m)
{
    if ((m->need_send_ev && !m->send_done) ||
        (m->need_resp && !m->resp_done) || m->frames_unacked != 0 ||
        m->state == PTL_M_QUEUED)
        return;
    if (m->md)
        m->md->refs--;
    if (m->get_md)
        m->get_md->refs--;
    ptl_msg_free(lib, m);
}

/* The link acknowledged every frame of m. */
void ptl_msg_sent(struct ptl_lib *lib, struct ptl_msg *m)
{
    if (m->is_response) {
        ptl_msg_free(lib, m);
        return;
    }
    if (m->need_send_ev && !m->send_done) {
        m->send_done = true;
        ini_event(lib, m, m->md, PTL_EVENT_SEND, NULL, PTL_NI_OK);
        ini_count(lib, m->md, PTL_MD_EVENT_CT_SEND, m->len, PTL_NI_OK);
    }
    msg_done(lib, m);
}

static void ack_event(struct ptl_lib *lib, struct ptl_msg *m,
                      const struct ptl_whdr *h, uint8_t fail)
{
    if (m->hdr.ack_req == PTL_ACK_REQ)
        ini_event(lib, m, m->md, PTL_EVENT_ACK, h, fail);
    ini_count(lib, m->md, PTL_MD_EVENT_CT_ACK, h ? h->mlength : 0, fail);
}

static void reply_event(struct ptl_lib *lib, struct ptl_msg *m,
                        const struct ptl_whdr *h, uint8_t fail)
{
    ini_event(lib, m, m->get_md, PTL_EVENT_REPLY, h, fail);
    ini_count(lib, m->get_md, PTL_MD_EVENT_CT_REPLY, h ? h->mlength : 0,
              fail);
}

/* The peer is unreachable: complete m with PTL_NI_UNDELIVERABLE. */
void ptl_msg_fail(struct ptl_lib *lib, struct ptl_msg *m, uint8_t fail)
{
    m->frames_unacked = 0;
    m->state = PTL_M_SENT;
    if (m->is_response) {
        ptl_msg_free(lib, m);
        return;
    }
    if (m->need_send_ev && !m->send_done) {
        m->send_done = true;
        ini_event(lib, m, m->md, PTL_EVENT_SEND, NULL, fail);
        ini_count(lib, m->md, PTL_MD_EVENT_CT_SEND, 0, fail);
    }
    if (m->need_resp && !m->resp_done) {
        m->resp_done = true;
        if (m->hdr.type == PTL_W_PUT || m->hdr.type == PTL_W_ATOMIC)
            ack_event(lib, m, NULL, fail);
        else
            reply_event(lib, m, NULL, fail);
    }
    msg_done(lib, m);
}

/* ---- responses from the target ---- */

static void land_reply(struct ptl_lib *lib, struct ptl_msg *m,
                       const struct ptl_whdr *h, const uint8_t *data)
{
    uint64_t room = m->hdr.rlength, n;
    uint8_t *dst;

    if (m->get_md == NULL || h->frag_off >= room)
        return;
    n = room - h->frag_off;
    if (n > h->frag_len)
        n = h->frag_len;
    dst = (uint8_t *)m->get_md->md.start + m->get_off + h->frag_off;
    lib->ops->copy_out(lib->ctx, dst, data, n);
}

bool ptl_ini_rx(struct ptl_lib *lib, struct ptl_peer *peer,
                const struct ptl_whdr *h, const uint8_t *data)
{
    struct ptl_msg *m = ptl_msg_lookup(lib, h->msg_id);

    if (m == NULL || m->is_response || !m->need_resp || m->resp_done ||
        m->peer != peer)
        return true;        /* stale or forged: ignore */
    if (h->type == PTL_W_REPLY)
        land_reply(lib, m, h, data);
    if (h->frag_off + h->frag_len != h->total)
        return true;
    m->resp_done = true;
    if (h->type == PTL_W_ACK) {
        /* The entry has ACK_DISABLE: the operation is complete, with no
         * ACK event and no ACK counted (spec; the reference's OP_NO_ACK). */
        if (!(h->ack_req & PTL_WACK_DISABLED))
            ack_event(lib, m, h, h->fail_type);
    } else
        reply_event(lib, m, h, h->fail_type);
    msg_done(lib, m);
    return true;
}

/* ---- issuing operations ---- */

static int resolve_target(struct ptl_lib *lib, unsigned nii,
                          ptl_process_t tgt, uint32_t *nid, uint32_t *pid)
{
    struct ptl_ni *ni = &lib->ni[nii];

    if (!(ni->options & PTL_NI_LOGICAL)) {
        *nid = tgt.phys.nid;
        *pid = tgt.phys.pid;
        return PTL_OK;
    }
    if (ni->map == NULL || tgt.rank >= ni->map_size)
        return PTL_ARG_INVALID;
    *nid = ni->map[tgt.rank].phys.nid;
    *pid = ni->map[tgt.rank].phys.pid;
    return PTL_OK;
}

/* The MD of an operation on [off, off+len) of it.  The bytes are checked
 * again here: an MD may describe more than the process has (all of memory,
 * as MPI binds one), so only what an operation really touches counts. */
static struct ptl_md *md_for(struct ptl_lib *lib, ptl_handle_md_t h,
                             ptl_size_t off, ptl_size_t len, int write)
{
    struct ptl_lib *owner;
    struct ptl_md *md = ptl_resolve(h, PTL_K_MD, &owner);

    if (md == NULL || owner != lib || off > md->md.length ||
        md->md.length - off < len)
        return NULL;
    if (len && lib->ops->check(lib->ctx, (uint8_t *)md->md.start + off,
                               len, write) != 0)
        return NULL;
    return md;
}

/* Allocate a message to (nid, pid) and fill the common header. */
static int msg_new(struct ptl_lib *lib, unsigned nii, ptl_process_t tgt,
                   struct ptl_msg **out)
{
    struct ptl_ni *ni = &lib->ni[nii];
    uint32_t nid, pid;
    struct ptl_msg *m;
    int rc = resolve_target(lib, nii, tgt, &nid, &pid);

    if (rc != PTL_OK)
        return rc;
    if ((m = ptl_msg_alloc(lib, false, nid == lib->p.nid &&
                                       pid == lib->p.pid)) == NULL)
        return PTL_NO_SPACE;
    if ((m->peer = ptl_peer_find(lib, nid, pid, true)) == NULL) {
        ptl_msg_free(lib, m);
        return PTL_NO_SPACE;
    }
    m->ni = (uint8_t)nii;
    m->hdr.flags = (uint8_t)nii;
    m->hdr.uid = lib->p.uid;
    m->hdr.jid = lib->p.jid;
    m->hdr.src_rank = (ni->options & PTL_NI_LOGICAL) ? ni->my_rank : 0;
    *out = m;
    return PTL_OK;
}

static void msg_fill(struct ptl_msg *m, uint8_t wtype, ptl_pt_index_t pt,
                     ptl_match_bits_t bits, ptl_size_t roff, ptl_size_t len,
                     ptl_hdr_data_t hdr)
{
    m->hdr.type = wtype;
    m->hdr.pt_index = pt;
    m->hdr.match_bits = bits;
    m->hdr.remote_offset = roff;
    m->hdr.rlength = len;
    m->hdr.hdr_data = hdr;
}

static bool atomic_args_ok(uint8_t wtype, ptl_op_t op, ptl_datatype_t dt,
                           ptl_size_t len)
{
    if (wtype == PTL_W_PUT || wtype == PTL_W_GET)
        return true;
    return len <= PTL_INLINE_MAX &&
           ptl_atomic_valid(op, dt, len, wtype == PTL_W_SWAP);
}

/* Within the NI's limits (PtlNIInit may have lowered them)? */
static bool size_ok(const struct ptl_lib *lib, unsigned nii, uint8_t wtype,
                    ptl_size_t len)
{
    const ptl_ni_limits_t *l = &lib->ni[nii].limits;

    if (len > (ptl_size_t)l->max_msg_size)
        return false;
    if (wtype == PTL_W_ATOMIC)
        return len <= (ptl_size_t)l->max_atomic_size;
    if (wtype == PTL_W_FETCH || wtype == PTL_W_SWAP)
        return len <= (ptl_size_t)l->max_fetch_atomic_size;
    return true;
}

int ptl_do_put(struct ptl_lib *lib, ptl_handle_md_t mdh, ptl_size_t loff,
               ptl_size_t len, ptl_ack_req_t ack, ptl_process_t tgt,
               ptl_pt_index_t pt, ptl_match_bits_t bits, ptl_size_t roff,
               void *uptr, ptl_hdr_data_t hdr, uint8_t wtype, ptl_op_t op,
               ptl_datatype_t dt)
{
    struct ptl_md *md = md_for(lib, mdh, loff, len, 0);
    struct ptl_msg *m;
    int rc;

    if (md == NULL || len > UINT32_MAX || (unsigned)ack > PTL_OC_ACK_REQ ||
        !atomic_args_ok(wtype, op, dt, len) ||
        !size_ok(lib, md->ni, wtype, len))
        return PTL_ARG_INVALID;
    if ((rc = msg_new(lib, md->ni, tgt, &m)) != PTL_OK)
        return rc;
    msg_fill(m, wtype, pt, bits, roff, len, hdr);
    m->hdr.ack_req = (uint8_t)ack;
    m->hdr.atomic_op = (uint8_t)op;
    m->hdr.atomic_type = (uint8_t)dt;
    m->hdr.total = (uint32_t)len;
    m->md = md;
    m->local_off = loff;
    m->user_ptr = uptr;
    m->len = len;
    m->data_app = wtype == PTL_W_PUT;
    m->data = (const uint8_t *)md->md.start + loff;
    if (!m->data_app) {     /* atomics travel from a private copy */
        lib->ops->copy_in(lib->ctx, m->inline_data, m->data, len);
        m->data = m->inline_data;
    }
    m->need_send_ev = true;
    m->need_resp = ack != PTL_NO_ACK_REQ;
    md->refs++;
    ptl_rel_send(lib, m);
    return PTL_OK;
}

/* Get, fetch-atomic and swap: data comes back in a REPLY to get_md;
 * fetch and swap also carry put_md's data (and swap an operand). */
int ptl_do_get(struct ptl_lib *lib, ptl_handle_md_t gmdh, ptl_size_t goff,
               ptl_handle_md_t pmdh, ptl_size_t poff, ptl_size_t len,
               ptl_process_t tgt, ptl_pt_index_t pt, ptl_match_bits_t bits,
               ptl_size_t roff, void *uptr, ptl_hdr_data_t hdr,
               uint8_t wtype, const void *operand, ptl_op_t op,
               ptl_datatype_t dt)
{
    struct ptl_md *gmd = md_for(lib, gmdh, goff, len, 1), *pmd = NULL;
    struct ptl_msg *m;
    int rc;

    if (gmd == NULL || len > UINT32_MAX ||
        !atomic_args_ok(wtype, op, dt, len) ||
        !size_ok(lib, gmd->ni, wtype, len))
        return PTL_ARG_INVALID;
    if (wtype != PTL_W_GET &&
        ((pmd = md_for(lib, pmdh, poff, len, 0)) == NULL || pmd->ni != gmd->ni))
        return PTL_ARG_INVALID;
    if ((rc = msg_new(lib, gmd->ni, tgt, &m)) != PTL_OK)
        return rc;
    msg_fill(m, wtype, pt, bits, roff, len, hdr);
    m->hdr.atomic_op = (uint8_t)op;
    m->hdr.atomic_type = (uint8_t)dt;
    m->get_md = gmd;
    m->get_off = goff;
    m->md = pmd;
    m->local_off = poff;
    m->user_ptr = uptr;
    m->need_resp = true;
    m->data = m->inline_data;
    if (pmd != NULL) {
        m->len = len;
        lib->ops->copy_in(lib->ctx, m->inline_data,
                          (const uint8_t *)pmd->md.start + poff, len);
        m->need_send_ev = true;
        pmd->refs++;
    }
    if (wtype == PTL_W_SWAP) {
        ptl_memzero(m->inline_data + len, SWAP_OPERAND_BYTES);
        if (operand)
            ptl_memcopy(m->inline_data + len, operand, ptl_atomic_dtsize(dt));
        m->len = len + SWAP_OPERAND_BYTES;
    }
    m->hdr.total = (uint32_t)m->len;
    gmd->refs++;
    ptl_rel_send(lib, m);
    return PTL_OK;
}

/* ---- the public calls: take the lock, resolve, go ---- */

static struct ptl_lib *md_lib(ptl_handle_md_t h)
{
    struct ptl_lib *lib;

    return ptl_resolve(h, PTL_K_MD, &lib) ? lib : NULL;
}

int PtlPut(ptl_handle_md_t md, ptl_size_t loff, ptl_size_t len,
           ptl_ack_req_t ack, ptl_process_t tgt, ptl_pt_index_t pt,
           ptl_match_bits_t bits, ptl_size_t roff, void *uptr,
           ptl_hdr_data_t hdr)
{
    return PtlAtomic(md, loff, len, ack, tgt, pt, bits, roff, uptr, hdr,
                     PTL_OP_LAST, PTL_DATATYPE_LAST);
}

int PtlAtomic(ptl_handle_md_t md, ptl_size_t loff, ptl_size_t len,
              ptl_ack_req_t ack, ptl_process_t tgt, ptl_pt_index_t pt,
              ptl_match_bits_t bits, ptl_size_t roff, void *uptr,
              ptl_hdr_data_t hdr, ptl_op_t op, ptl_datatype_t dt)
{
    struct ptl_lib *lib = md_lib(md);
    uint8_t wtype = op == PTL_OP_LAST ? PTL_W_PUT : PTL_W_ATOMIC;
    int rc;

    if (lib == NULL)
        return PTL_ARG_INVALID;
    ptl_enter(lib);
    rc = ptl_do_put(lib, md, loff, len, ack, tgt, pt, bits, roff, uptr, hdr,
                    wtype, op, dt);
    ptl_leave(lib);
    return rc;
}

int PtlGet(ptl_handle_md_t md, ptl_size_t loff, ptl_size_t len,
           ptl_process_t tgt, ptl_pt_index_t pt, ptl_match_bits_t bits,
           ptl_size_t roff, void *uptr)
{
    struct ptl_lib *lib = md_lib(md);
    int rc;

    if (lib == NULL)
        return PTL_ARG_INVALID;
    ptl_enter(lib);
    rc = ptl_do_get(lib, md, loff, PTL_INVALID_HANDLE, 0, len, tgt, pt,
                    bits, roff, uptr, 0, PTL_W_GET, NULL, PTL_SUM,
                    PTL_UINT8_T);
    ptl_leave(lib);
    return rc;
}

int PtlFetchAtomic(ptl_handle_md_t gmd, ptl_size_t goff, ptl_handle_md_t pmd,
                   ptl_size_t poff, ptl_size_t len, ptl_process_t tgt,
                   ptl_pt_index_t pt, ptl_match_bits_t bits, ptl_size_t roff,
                   void *uptr, ptl_hdr_data_t hdr, ptl_op_t op,
                   ptl_datatype_t dt)
{
    struct ptl_lib *lib = md_lib(gmd);
    int rc;

    if (lib == NULL)
        return PTL_ARG_INVALID;
    ptl_enter(lib);
    rc = ptl_do_get(lib, gmd, goff, pmd, poff, len, tgt, pt, bits, roff,
                    uptr, hdr, PTL_W_FETCH, NULL, op, dt);
    ptl_leave(lib);
    return rc;
}

int PtlSwap(ptl_handle_md_t gmd, ptl_size_t goff, ptl_handle_md_t pmd,
            ptl_size_t poff, ptl_size_t len, ptl_process_t tgt,
            ptl_pt_index_t pt, ptl_match_bits_t bits, ptl_size_t roff,
            void *uptr, ptl_hdr_data_t hdr, const void *operand,
            ptl_op_t op, ptl_datatype_t dt)
{
    struct ptl_lib *lib = md_lib(gmd);
    uint8_t opnd[SWAP_OPERAND_BYTES];
    size_t n = ptl_atomic_dtsize(dt);
    int rc;

    if (lib == NULL || n == 0)
        return PTL_ARG_INVALID;
    ptl_memzero(opnd, sizeof(opnd));
    if (operand != NULL) {
        if (lib->ops->check(lib->ctx, operand, n, 0) != 0)
            return PTL_ARG_INVALID;
        lib->ops->copy_in(lib->ctx, opnd, operand, n);
    }
    ptl_enter(lib);
    rc = ptl_do_get(lib, gmd, goff, pmd, poff, len, tgt, pt, bits, roff,
                    uptr, hdr, PTL_W_SWAP, opnd, op, dt);
    ptl_leave(lib);
    return rc;
}
