/* SPDX-License-Identifier: MIT */
/*
 * list.c: the target's lists: priority and overflow list entries (ME/LE)
 * and the unexpected-header list.  An append to the priority list first
 * consumes matching unexpected headers (spec: PtlMEAppend), which is how a
 * late-posted receive finds a message that arrived early.
 */
#include "ptl_internal.h"

static bool id_matches(const struct ptl_ni *ni, ptl_process_t want,
                       ptl_process_t init)
{
    if (ni->options & PTL_NI_LOGICAL)
        return want.rank == PTL_RANK_ANY || want.rank == init.rank;
    return (want.phys.nid == PTL_NID_ANY || want.phys.nid == init.phys.nid) &&
           (want.phys.pid == PTL_PID_ANY || want.phys.pid == init.phys.pid);
}

/* The match rule: ((incoming ^ match_bits) & ~ignore_bits) == 0, plus the
 * initiator id; non-matching NIs (LEs) match everything. */
bool ptl_me_matches(const struct ptl_lib *lib, const struct ptl_ni *ni,
                    const struct ptl_me *me, const struct ptl_whdr *h,
                    ptl_process_t init)
{
    (void)lib;
    if (me->is_le)
        return true;
    if (((h->match_bits ^ me->me.match_bits) & ~me->me.ignore_bits) != 0)
        return false;
    return id_matches(ni, me->me.match_id, init);
}

static struct ptl_me **list_head(struct ptl_pt *pt, int list,
                                 struct ptl_me ***tail)
{
    if (list == PTL_PRIORITY_LIST) {
        *tail = &pt->prio_tail;
        return &pt->prio;
    }
    *tail = &pt->over_tail;
    return &pt->over;
}

static void list_append(struct ptl_pt *pt, struct ptl_me *me)
{
    struct ptl_me **tail, **head = list_head(pt, me->list, &tail);

    me->next = NULL;
    if (*head == NULL)
        *head = me;
    else
        (*tail)->next = me;
    *tail = me;
    me->linked = true;
}

static void list_remove(struct ptl_pt *pt, struct ptl_me *me)
{
    struct ptl_me **tail, **head = list_head(pt, me->list, &tail);
    struct ptl_me *prev = NULL;

    for (struct ptl_me **pp = head; *pp; prev = *pp, pp = &(*pp)->next) {
        if (*pp == me) {
            *pp = me->next;
            if (*tail == me)
                *tail = prev;
            break;
        }
    }
    me->linked = false;
    me->next = NULL;
}

/* Free the entry once nothing refers to it any more. */
void ptl_me_release(struct ptl_lib *lib, struct ptl_me *me)
{
    if (me->linked || me->busy || me->uh_refs || me->armed || !me->used)
        return;
    me->used = false;
    if (lib->ni[me->ni].n_mes > 0)  /* 0: its NI was finalized meanwhile */
        lib->ni[me->ni].n_mes--;
    ptl_pool_put(&lib->mes, me);
}

/* Take an entry off its list (USE_ONCE, min_free or explicit unlink). */
void ptl_me_unlink(struct ptl_lib *lib, struct ptl_pt *pt, struct ptl_me *me)
{
    if (me->linked)
        list_remove(pt, me);
    ptl_me_release(lib, me);
}

/* Unexpected headers come from the lib's pool, which every NI shares,
 * and each NI takes at most the max_unexpected_headers its PtlNIInit
 * reported: a flow-controlled entry is disabled at that limit, as its
 * owner was told, not only when the whole pool runs dry. */
bool ptl_uh_room(const struct ptl_lib *lib, unsigned nii)
{
    return lib->uhs.nfree > 0 &&
           lib->ni[nii].n_uhs < (uint32_t)lib->ni[nii].limits.
                                    max_unexpected_headers;
}

struct ptl_uh *ptl_uh_get(struct ptl_lib *lib, unsigned nii)
{
    struct ptl_uh *uh;

    if (!ptl_uh_room(lib, nii) || (uh = ptl_pool_get(&lib->uhs)) == NULL)
        return NULL;
    uh->ni = (uint8_t)nii;
    lib->ni[nii].n_uhs++;
    return uh;
}

static void uh_put(struct ptl_lib *lib, struct ptl_uh *uh)
{
    if (lib->ni[uh->ni].n_uhs > 0)  /* 0: its NI was finalized meanwhile */
        lib->ni[uh->ni].n_uhs--;
    ptl_pool_put(&lib->uhs, uh);
}

/* Drop every entry and header of a PT (PtlPTFree, PtlNIFini). */
void ptl_pt_reset(struct ptl_lib *lib, struct ptl_pt *pt)
{
    while (pt->uh != NULL) {
        struct ptl_uh *uh = pt->uh;
        pt->uh = uh->next;
        uh->me->uh_refs--;
        ptl_me_release(lib, uh->me);
        uh_put(lib, uh);
    }
    while (pt->prio != NULL)
        ptl_me_unlink(lib, pt, pt->prio);
    while (pt->over != NULL)
        ptl_me_unlink(lib, pt, pt->over);
    pt->used = false;
}

static ptl_event_kind_t overflow_kind(uint8_t wtype)
{
    switch (wtype) {
    case PTL_W_GET: return PTL_EVENT_GET_OVERFLOW;
    case PTL_W_ATOMIC: return PTL_EVENT_ATOMIC_OVERFLOW;
    case PTL_W_FETCH:
    case PTL_W_SWAP: return PTL_EVENT_FETCH_ATOMIC_OVERFLOW;
    default: return PTL_EVENT_PUT_OVERFLOW;
    }
}

static bool op_allowed(const struct ptl_me *me, uint8_t wtype)
{
    unsigned o = me->me.options;

    switch (wtype) {
    case PTL_W_GET: return o & PTL_ME_OP_GET;
    case PTL_W_FETCH:
    case PTL_W_SWAP: return (o & PTL_ME_OP_GET) && (o & PTL_ME_OP_PUT);
    default: return o & PTL_ME_OP_PUT;
    }
}

bool ptl_uh_matches(struct ptl_lib *lib, struct ptl_ni *ni,
                    const struct ptl_me *me, const struct ptl_uh *uh)
{
    struct ptl_whdr h;

    h.match_bits = uh->match_bits;
    if (!ptl_me_matches(lib, ni, me, &h, uh->initiator))
        return false;
    if (me->me.uid != PTL_UID_ANY && me->me.uid != uh->uid)
        return false;
    return op_allowed(me, uh->wtype);
}

static void uh_event(struct ptl_lib *lib, struct ptl_pt *pt,
                     struct ptl_me *me, const struct ptl_uh *uh,
                     ptl_event_kind_t kind, uint8_t fail)
{
    ptl_event_t ev;

    ptl_memzero(&ev, sizeof(ev));
    ev.type = kind;
    ev.start = uh->start;
    ev.user_ptr = me->user_ptr;
    ev.hdr_data = uh->hdr_data;
    ev.match_bits = uh->match_bits;
    ev.rlength = uh->rlength;
    ev.mlength = uh->mlength;
    ev.remote_offset = uh->remote_offset;
    ev.uid = uh->uid;
    ev.initiator = uh->initiator;
    ev.ptl_list = PTL_OVERFLOW_LIST;
    ev.ni_fail_type = fail;
    ev.atomic_operation = uh->atomic_op;
    ev.atomic_type = uh->atomic_type;
    ptl_target_event(lib, pt, me, kind, &ev);
}

/* The overflow entry that held a consumed header may now be AUTO_FREE. */
static void uh_drop(struct ptl_lib *lib, struct ptl_pt *pt,
                    struct ptl_uh *uh)
{
    struct ptl_me *ome = uh->me;
    ptl_event_t ev;

    ome->uh_refs--;
    if (ome->auto_unlinked && ome->uh_refs == 0 && ome->busy == 0) {
        ptl_memzero(&ev, sizeof(ev));
        ev.type = PTL_EVENT_AUTO_FREE;
        ev.user_ptr = ome->user_ptr;
        ev.ptl_list = PTL_OVERFLOW_LIST;
        ptl_target_event(lib, pt, ome, PTL_EVENT_AUTO_FREE, &ev);
        ome->auto_unlinked = false;
    }
    ptl_me_release(lib, ome);
    uh_put(lib, uh);
}

/* Walk the unexpected list for me.  deliver: report and remove matches;
 * otherwise report them as SEARCH events.  once: stop at the first (a
 * use-once entry).  claim: me is a real entry (not a search) and may take
 * a header whose message is still landing (its event comes when the last
 * fragment does); a search delete skips them.  Returns matches found. */
unsigned ptl_uh_scan(struct ptl_lib *lib, struct ptl_ni *ni,
                     struct ptl_pt *pt, struct ptl_me *me, bool deliver,
                     bool once, bool claim)
{
    struct ptl_uh **pp = &pt->uh, *prev = NULL;
    unsigned n = 0;

    while (*pp != NULL) {
        struct ptl_uh *uh = *pp;
        if (!ptl_uh_matches(lib, ni, me, uh) ||
            (deliver && uh->pending && !claim)) {
            prev = uh;
            pp = &uh->next;
            continue;
        }
        n++;
        if (!deliver) {
            uh_event(lib, pt, me, uh, PTL_EVENT_SEARCH, PTL_NI_OK);
            if (once)
                return n;
            prev = uh;
            pp = &uh->next;
            continue;
        }
        *pp = uh->next;
        if (pt->uh_tail == uh)
            pt->uh_tail = prev;
        if (uh->pending) {
            uh->claimer = me;       /* PUT_OVERFLOW when it has landed */
            me->busy++;
        } else {
            uh_event(lib, pt, me, uh, overflow_kind(uh->wtype), PTL_NI_OK);
            uh_drop(lib, pt, uh);
        }
        if (once)
            return n;
    }
    return n;
}

static void unlink_event(struct ptl_lib *lib, struct ptl_pt *pt,
                         struct ptl_me *me)
{
    ptl_event_t ev;

    ptl_memzero(&ev, sizeof(ev));
    ev.type = PTL_EVENT_AUTO_UNLINK;
    ev.user_ptr = me->user_ptr;
    ev.ptl_list = me->list;
    ptl_target_event(lib, pt, me, PTL_EVENT_AUTO_UNLINK, &ev);
}

/* The last fragment of a message recorded as unexpected has landed: the
 * header is complete; a receive that claimed it meanwhile gets it now. */
void ptl_uh_landed(struct ptl_lib *lib, struct ptl_pt *pt,
                   struct ptl_uh *uh, uint64_t mlength, uint8_t fail)
{
    struct ptl_me *c = uh->claimer;

    uh->pending = false;
    uh->mlength = mlength;
    if (c == NULL)
        return;
    uh_event(lib, pt, c, uh, overflow_kind(uh->wtype), fail);
    if ((c->me.options & PTL_ME_USE_ONCE) && !c->linked)
        unlink_event(lib, pt, c);       /* satisfied at its append */
    c->busy--;
    uh_drop(lib, pt, uh);
    ptl_me_release(lib, c);
}

/* The message will never land (its initiator restarted or vanished). */
void ptl_uh_abort(struct ptl_lib *lib, struct ptl_pt *pt, struct ptl_uh *uh)
{
    struct ptl_uh **pp = &pt->uh, *prev = NULL;

    if (uh->claimer != NULL) {
        ptl_uh_landed(lib, pt, uh, 0, PTL_NI_UNDELIVERABLE);
        return;
    }
    while (*pp != NULL && *pp != uh) {
        prev = *pp;
        pp = &(*pp)->next;
    }
    if (*pp == uh) {
        *pp = uh->next;
        if (pt->uh_tail == uh)
            pt->uh_tail = prev;
    }
    uh_drop(lib, pt, uh);
}

static int me_check(struct ptl_lib *lib, struct ptl_ni *ni, unsigned nii,
                    const ptl_me_t *me, struct ptl_ct **ct)
{
    if (me->options & PTL_IOVEC)
        return PTL_ARG_INVALID;     /* max_iovecs is 0 */
    if (me->options & ~(unsigned)PTL_ME_APPEND_OPTIONS_MASK)
        return PTL_ARG_INVALID;     /* an option we do not know */
    /* Only Puts and atomics write into an entry (op_check): a Get-only one
       may cover read-only memory, e.g. a program's constants it writes
       to a file through yod. */
    if (me->length && lib->ops->check(lib->ctx, me->start, me->length,
                                      me->options & PTL_ME_OP_PUT ? 1 : 0))
        return PTL_ARG_INVALID;
    *ct = NULL;
    if (me->ct_handle != PTL_CT_NONE &&
        (*ct = ptl_ct_get(lib, me->ct_handle, nii)) == NULL)
        return PTL_ARG_INVALID;
    (void)ni;
    return PTL_OK;
}

static void link_event(struct ptl_lib *lib, struct ptl_pt *pt,
                       struct ptl_me *me)
{
    ptl_event_t ev;

    if (me->me.options & PTL_ME_EVENT_LINK_DISABLE)
        return;
    ptl_memzero(&ev, sizeof(ev));
    ev.type = PTL_EVENT_LINK;
    ev.user_ptr = me->user_ptr;
    ev.ptl_list = me->list;
    ptl_target_event(lib, pt, me, PTL_EVENT_LINK, &ev);
}

/* Allocate and fill an entry, not yet on its list. */
int ptl_me_new(struct ptl_lib *lib, unsigned nii, ptl_pt_index_t pti,
                  const ptl_me_t *mein, bool is_le, ptl_list_t list,
                  void *uptr, uint32_t *out, struct ptl_me **mep)
{
    struct ptl_ni *ni = &lib->ni[nii];
    struct ptl_me *me;
    struct ptl_ct *ct;
    int rc;

    if (pti > lib->p.max_pt_index || !ni->pts[pti].used ||
        (list != PTL_PRIORITY_LIST && list != PTL_OVERFLOW_LIST))
        return PTL_ARG_INVALID;
    if ((rc = me_check(lib, ni, nii, mein, &ct)) != PTL_OK)
        return rc;
    if (ni->n_mes >= (uint32_t)ni->limits.max_entries ||
        (me = ptl_pool_get(&lib->mes)) == NULL)
        return PTL_NO_SPACE;
    ni->n_mes++;
    me->used = true;
    me->is_le = is_le;
    me->ni = (uint8_t)nii;
    me->list = (uint8_t)list;
    me->pt = pti;
    me->me = *mein;
    me->ct = ct;
    me->user_ptr = uptr;
    *out = ptl_handle(PTL_K_ME, lib->slot, nii, ptl_pool_idx(&lib->mes, me));
    *mep = me;
    return PTL_OK;
}

/* Put a filled entry on its list: on the priority list it first takes
 * the unexpected headers it matches (spec: PtlMEAppend). */
static void me_link(struct ptl_lib *lib, struct ptl_me *me)
{
    struct ptl_ni *ni = &lib->ni[me->ni];
    struct ptl_pt *pt = &ni->pts[me->pt];

    if (me->list == PTL_PRIORITY_LIST &&
        ptl_uh_scan(lib, ni, pt, me, true, me->me.options & PTL_ME_USE_ONCE,
                true) &&
        (me->me.options & PTL_ME_USE_ONCE)) {
        /* Satisfied, never linked: AUTO_UNLINK all the same (the
         * reference implementation's choice), after the overflow event;
         * for a message still landing, when it has (ptl_uh_landed). */
        if (me->busy == 0)
            unlink_event(lib, pt, me);
        ptl_me_release(lib, me);
        return;
    }
    list_append(pt, me);
    link_event(lib, pt, me);
}

static int append_locked(struct ptl_lib *lib, unsigned nii,
                         ptl_pt_index_t pti, const ptl_me_t *mein,
                         bool is_le, ptl_list_t list, void *uptr,
                         uint32_t *out)
{
    struct ptl_me *me;
    int rc = ptl_me_new(lib, nii, pti, mein, is_le, list, uptr, out, &me);

    if (rc == PTL_OK)
        me_link(lib, me);
    return rc;
}

/* ---- triggered appends and unlinks (ct.c fires them) ---- */

void ptl_me_fire(struct ptl_lib *lib, struct ptl_me *me)
{
    me->armed = false;
    if (lib->ni[me->ni].pts[me->pt].used)
        me_link(lib, me);
    else
        ptl_me_release(lib, me);    /* its portal is gone meanwhile */
}

/* The trigger was cancelled or its counter freed: the entry never links. */
void ptl_me_disarm(struct ptl_lib *lib, struct ptl_me *me)
{
    me->armed = false;
    ptl_me_release(lib, me);
}

/* PtlTriggeredMEUnlink fired: as PtlMEUnlink, if the entry is still there
 * and no message is landing in it (else it stays: its owner sees it). */
void ptl_me_unlink_handle(struct ptl_lib *lib, uint32_t h)
{
    struct ptl_lib *owner;
    struct ptl_me *me = ptl_resolve(h, PTL_K_ME, &owner);

    if (me != NULL && owner == lib && me->linked && !me->busy)
        ptl_me_unlink(lib, &lib->ni[me->ni].pts[me->pt], me);
}

static int append(ptl_handle_ni_t nih, ptl_pt_index_t pti,
                  const ptl_me_t *me, bool is_le, ptl_list_t list,
                  void *uptr, uint32_t *out)
{
    struct ptl_lib *lib;
    unsigned nii;
    struct ptl_ni *ni = ptl_resolve_ni(nih, &lib, &nii);
    int rc;

    if (ni == NULL || me == NULL || out == NULL ||
        is_le != !!(ni->options & PTL_NI_NO_MATCHING))
        return PTL_ARG_INVALID;
    ptl_enter(lib);
    rc = append_locked(lib, nii, pti, me, is_le, list, uptr, out);
    ptl_leave(lib);
    return rc;
}

void ptl_le_to_me(const ptl_le_t *le, ptl_me_t *me)
{
    ptl_memzero(me, sizeof(*me));
    me->start = le->start;
    me->length = le->length;
    me->ct_handle = le->ct_handle;
    me->uid = le->uid;
    me->options = le->options;
    me->match_id.phys.nid = PTL_NID_ANY;
    me->match_id.phys.pid = PTL_PID_ANY;
    me->ignore_bits = ~(ptl_match_bits_t)0;
}

int PtlMEAppend(ptl_handle_ni_t ni, ptl_pt_index_t pt, const ptl_me_t *me,
                ptl_list_t list, void *uptr, ptl_handle_me_t *out)
{
    return append(ni, pt, me, false, list, uptr, out);
}

int PtlLEAppend(ptl_handle_ni_t ni, ptl_pt_index_t pt, const ptl_le_t *le,
                ptl_list_t list, void *uptr, ptl_handle_le_t *out)
{
    ptl_me_t me;

    if (le == NULL)
        return PTL_ARG_INVALID;
    ptl_le_to_me(le, &me);
    return append(ni, pt, &me, true, list, uptr, out);
}

int PtlMEUnlink(ptl_handle_me_t h)
{
    struct ptl_lib *lib;
    struct ptl_me *me = ptl_resolve(h, PTL_K_ME, &lib);
    int rc = PTL_OK;

    if (me == NULL || !me->linked)
        return PTL_ARG_INVALID;
    ptl_enter(lib);
    if (me->busy)
        rc = PTL_IN_USE;    /* a message is landing in it right now */
    else
        ptl_me_unlink(lib, &lib->ni[me->ni].pts[me->pt], me);
    ptl_leave(lib);
    return rc;
}

int PtlLEUnlink(ptl_handle_le_t h)
{
    return PtlMEUnlink(h);
}
