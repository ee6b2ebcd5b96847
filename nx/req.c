/* SPDX-License-Identifier: MIT */
/*
 * req.c: message ids.  Every send and receive in progress is a request;
 * isend/irecv hand its id to the program (msgwait, msgdone, msgcancel).
 * An id is gen << 16 | index: a stale id (already waited for) is refused
 * instead of naming a newer request in the same slot.  Requests are
 * allocated one by one because Portals events point at them.
 */
#include <stdlib.h>
#include <string.h>

#include "nx_internal.h"

struct nx_req *nx_req_new(enum nx_req_kind kind)
{
    struct nx_req *r = NULL, **grown;
    int i;

    for (i = 0; i < nx.nreqs; i++)
        if (nx.reqs[i]->kind == NX_REQ_FREE)
            break;
    if (i == nx.nreqs) {
        if (nx.nreqs == NX_MAX_REQS)
            return NULL;
        grown = realloc(nx.reqs, sizeof(*grown) * (size_t)(nx.nreqs + 1));
        if (grown == NULL)
            return NULL;
        nx.reqs = grown;
        if ((r = calloc(1, sizeof(*r))) == NULL)
            return NULL;
        r->index = i;
        nx.reqs[nx.nreqs++] = r;
    }
    r = nx.reqs[i];
    unsigned gen = r->gen + 1;
    memset(r, 0, sizeof(*r));
    r->kind = kind;
    r->index = i;
    r->gen = gen & 0x7fff;
    return r;
}

void nx_req_free(struct nx_req *r)
{
    free(r->legs);
    r->legs = NULL;
    r->kind = NX_REQ_FREE;
}

long nx_req_id(const struct nx_req *r)
{
    return (long)r->gen << 16 | r->index;
}

struct nx_req *nx_req_find(long mid)
{
    long i = mid & 0xffff;
    struct nx_req *r;

    if (mid < 0 || i >= nx.nreqs)
        return NULL;
    r = nx.reqs[i];
    if (r->kind == NX_REQ_FREE || (long)r->gen != mid >> 16)
        return NULL;
    return r;
}
