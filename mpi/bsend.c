/* SPDX-License-Identifier: MIT */
/*
 * bsend.c: the buffered-send buffer.  MPI_Buffer_attach gives the library
 * one buffer; a buffered send copies its message into a first-fit segment
 * of it and completes at once, and an internal request sends the copy and
 * frees the segment when it leaves (bsend_done).
 */
#include <stdlib.h>
#include "mpi_impl.h"

/* ---- buffered sends: an attached buffer, first-fit segments ---- */

struct seg {
    char *start;
    size_t len;
    struct seg *next;       /* in address order */
};

static struct {
    char *buf;
    size_t size;
    struct seg *used;
} bb;

int MPI_Buffer_attach(void *buf, int size)
{
    if (bb.buf != NULL || buf == NULL || size < 0)
        return mpi_err(MPI_COMM_WORLD, bb.buf ? MPI_ERR_BUFFER : MPI_ERR_ARG,
                       "MPI_Buffer_attach");
    bb.buf = buf;
    bb.size = (size_t)size;
    return MPI_SUCCESS;
}

int MPI_Buffer_detach(void *bufaddr, int *size)
{
    if (bb.buf == NULL)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_BUFFER, "MPI_Buffer_detach");
    while (bb.used != NULL)         /* buffered messages still leaving */
        proto_progress(true);
    *(void **)bufaddr = bb.buf;
    *size = (int)bb.size;
    bb.buf = NULL;
    bb.size = 0;
    return MPI_SUCCESS;
}

/* Room for len bytes (plus MPI_BSEND_OVERHEAD as the standard accounts). */
static struct seg *seg_alloc(size_t len)
{
    size_t need = len + MPI_BSEND_OVERHEAD;
    char *at = bb.buf;
    struct seg **pp = &bb.used, *s;

    for (;;) {
        char *end = *pp ? (*pp)->start : bb.buf + bb.size;
        if (end >= at && (size_t)(end - at) >= need)
            break;
        if (*pp == NULL)
            return NULL;
        at = (*pp)->start + (*pp)->len;
        pp = &(*pp)->next;
    }
    if ((s = malloc(sizeof(*s))) == NULL)
        return NULL;
    s->start = at;
    s->len = need;
    s->next = *pp;
    *pp = s;
    return s;
}

static void bsend_free(struct seg *s);

/* The user's request is done once the data is copied; an internal
 * request carries the message and frees the segment when it leaves. */
int bsend_start(MPI_Request r)
{
    size_t len = (size_t)r->count * (size_t)r->dt->size;
    struct seg *s = bb.buf ? seg_alloc(len) : NULL;
    MPI_Request in;
    int rc;

    if (s == NULL)
        return MPI_ERR_BUFFER;
    dt_pack(r->buf, r->count, r->dt, s->start);
    in = p2p_make(RQ_SEND, s->start, (int)len, MPI_BYTE, r->peer, r->tag,
                  r->comm, r->ctx, M_STD);
    if (in == NULL) {
        bsend_free(s);
        return MPI_ERR_INTERN;
    }
    in->internal = true;
    in->freed = true;
    in->bsend_seg = s;
    in->data = s->start;
    in->len = len;
    in->state = RS_ACTIVE;
    if ((rc = proto_send(in)) != MPI_SUCCESS) {
        in->freed = false;
        in->bsend_seg = NULL;
        req_free(in);
        bsend_free(s);
        return rc;
    }
    r->state = RS_ACTIVE;
    req_complete(r);
    return MPI_SUCCESS;
}

static void bsend_free(struct seg *s)
{
    for (struct seg **pp = &bb.used; *pp != NULL; pp = &(*pp)->next)
        if (*pp == s) {
            *pp = s->next;
            free(s);
            break;
        }
}

void bsend_done(MPI_Request r)
{
    bsend_free(r->bsend_seg);
    r->bsend_seg = NULL;
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Buffer_attach)
PMPI(MPI_Buffer_detach)
