/* SPDX-License-Identifier: MIT */
/*
 * search.c: PtlMESearch and PtlLESearch (the Portals 4 specification's
 * search calls): a temporary entry that looks through a portal table
 * entry's unexpected headers (list.c) without ever linking.
 */
#include "ptl_internal.h"

/* Matches a search would report (SEARCH_ONLY sees headers still landing,
 * SEARCH_DELETE does not), at most one for a use-once entry. */
static unsigned search_count(struct ptl_lib *lib, struct ptl_ni *ni,
                             struct ptl_pt *pt, struct ptl_me *me,
                             bool delete)
{
    unsigned n = 0;

    for (struct ptl_uh *uh = pt->uh; uh != NULL; uh = uh->next)
        if (ptl_uh_matches(lib, ni, me, uh) && !(delete && uh->pending) &&
            ++n == 1 && (me->me.options & PTL_ME_USE_ONCE))
            break;
    return n;
}

/* PtlMESearch: a temporary entry that never links.  SEARCH_ONLY reports
 * every match as a SEARCH event (only the first for a use-once entry);
 * SEARCH_DELETE consumes every match (the first, use-once) as overflow
 * events.  No match is a SEARCH event with PTL_NI_NO_MATCH.  Each result
 * counts on the entry's counting event, and a persistent entry's matches
 * are followed by one failure there, "search done".  If the EQ has no
 * room for every event the search owes, nothing is done and the call
 * says PTL_NO_SPACE: a probe must never lose its answer (the caller
 * drains and asks again). */
static int search_locked(struct ptl_lib *lib, unsigned nii,
                         ptl_pt_index_t pti, const ptl_me_t *mein,
                         bool is_le, ptl_search_op_t op, void *uptr)
{
    struct ptl_ni *ni = &lib->ni[nii];
    bool delete = op == PTL_SEARCH_DELETE;
    struct ptl_me tmp;
    struct ptl_pt *pt;
    ptl_event_t ev;
    unsigned want;

    if (pti > lib->p.max_pt_index || !ni->pts[pti].used ||
        (op != PTL_SEARCH_ONLY && op != PTL_SEARCH_DELETE))
        return PTL_ARG_INVALID;
    pt = &ni->pts[pti];
    ptl_memzero(&tmp, sizeof(tmp));
    tmp.me = *mein;
    tmp.is_le = is_le;
    tmp.user_ptr = uptr;
    tmp.pt = pti;
    tmp.searching = true;
    tmp.ct = NULL;
    if (mein->ct_handle != PTL_CT_NONE &&
        (tmp.ct = ptl_ct_get(lib, mein->ct_handle, nii)) == NULL)
        return PTL_ARG_INVALID;
    want = search_count(lib, ni, pt, &tmp, delete);
    if (pt->eq != NULL && ptl_eq_space(pt->eq) < (want ? want : 1))
        return PTL_NO_SPACE;
    if (ptl_uh_scan(lib, ni, pt, &tmp, delete,
                mein->options & PTL_ME_USE_ONCE, false) == 0) {
        ptl_memzero(&ev, sizeof(ev));
        ev.type = PTL_EVENT_SEARCH;
        ev.user_ptr = uptr;
        ev.ni_fail_type = PTL_NI_NO_MATCH;
        ptl_target_event(lib, pt, &tmp, PTL_EVENT_SEARCH, &ev);
    } else if (tmp.ct != NULL && !(mein->options & PTL_ME_USE_ONCE)) {
        /* A persistent entry may match any number of headers, so a
         * program that waits on the counter alone cannot know when the
         * successes stop: the search marks its end with one failure (the
         * reference implementation's "search done"; a use-once entry's
         * single success, or its no-match failure, is the end). */
        ptl_ct_add(lib, tmp.ct, 0, 1);
    }
    return PTL_OK;
}

static int search(ptl_handle_ni_t nih, ptl_pt_index_t pti,
                  const ptl_me_t *me, bool is_le, ptl_search_op_t op,
                  void *uptr)
{
    struct ptl_lib *lib;
    unsigned nii;
    struct ptl_ni *ni = ptl_resolve_ni(nih, &lib, &nii);
    int rc;

    if (ni == NULL || me == NULL ||
        is_le != !!(ni->options & PTL_NI_NO_MATCHING))
        return PTL_ARG_INVALID;
    ptl_enter(lib);
    rc = search_locked(lib, nii, pti, me, is_le, op, uptr);
    ptl_leave(lib);
    return rc;
}

int PtlMESearch(ptl_handle_ni_t ni, ptl_pt_index_t pt, const ptl_me_t *me,
                ptl_search_op_t op, void *uptr)
{
    return search(ni, pt, me, false, op, uptr);
}

int PtlLESearch(ptl_handle_ni_t ni, ptl_pt_index_t pt, const ptl_le_t *le,
                ptl_search_op_t op, void *uptr)
{
    ptl_me_t me;

    if (le == NULL)
        return PTL_ARG_INVALID;
    ptl_le_to_me(le, &me);
    return search(ni, pt, &me, true, op, uptr);
}
