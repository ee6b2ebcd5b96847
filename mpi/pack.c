/* SPDX-License-Identifier: MIT */
/*
 * pack.c: moving typed data to and from a contiguous byte stream by
 * walking a datatype's runs, and MPI_Pack/MPI_Unpack/MPI_Pack_size.  The
 * packed form is the data in typemap order, native representation (the
 * machine is homogeneous).  Pair types (MPI_DOUBLE_INT, ...) have a hole
 * between value and index, so they move field by field.
 */
#include <string.h>
#include "mpi_impl.h"

size_t dt_pair_val(int base)
{
    switch (base) {
    case B_FLOAT_INT: return sizeof(float);
    case B_DOUBLE_INT: return sizeof(double);
    case B_LONG_INT: return sizeof(long);
    case B_2INT: return sizeof(int);
    case B_SHORT_INT: return sizeof(short);
    default: return sizeof(long double);
    }
}

/* Byte offset of the int in a pair: after the value, int-aligned. */
size_t dt_pair_int_off(int base)
{
    size_t v = dt_pair_val(base);
    return (v + sizeof(int) - 1) / sizeof(int) * sizeof(int);
}

/* Copy one run between typed memory (mem) and the stream (s); at most
 * `room` stream bytes.  Returns the stream bytes moved. */
static size_t run_copy(char *mem, char *s, const struct dt_run *r,
                       size_t room, bool to_stream)
{
    size_t sz = dt_basic_size(r->base), n = (size_t)r->count * sz, done = 0;

    if (!dt_pair(r->base)) {
        n = n < room ? n : room;
        n -= n % (sz ? sz : 1);
        if (to_stream)
            memcpy(s, mem, n);
        else
            memcpy(mem, s, n);
        return n;
    }
    size_t ext = (size_t)dt_extent(dt_basic(r->base));
    size_t v = dt_pair_val(r->base), io = dt_pair_int_off(r->base);
    for (MPI_Aint i = 0; i < r->count && done + sz <= room; i++) {
        char *e = mem + i * ext;
        if (to_stream) {
            memcpy(s + done, e, v);
            memcpy(s + done + v, e + io, sizeof(int));
        } else {
            memcpy(e, s + done, v);
            memcpy(e + io, s + done + v, sizeof(int));
        }
        done += sz;
    }
    return done;
}

/* Walk count items; stop after `bytes` stream bytes.  Contiguous data
 * (every basic type, and vectors of them without gaps) is one memcpy:
 * run by run it cost ~70 ns an element, 300 us for an 8 KiB reduce. */
static size_t walk(char *buf, int count, MPI_Datatype dt, char *s,
                   size_t bytes, bool to_stream)
{
    size_t pos = 0;
    MPI_Aint ext = dt_extent(dt), off;

    if (count == 0 || dt->size == 0)
        return 0;
    if (dt_contig(dt, count, &off)) {
        size_t sz = dt_basic_size(dt->runs[0].base);
        pos = (size_t)count * (size_t)dt->size;
        pos = pos < bytes ? pos : bytes;
        pos -= pos % (sz ? sz : 1);     /* whole elements, as run_copy */
        if (to_stream)
            memcpy(s, buf + off, pos);
        else
            memcpy(buf + off, s, pos);
        return pos;
    }

    for (int i = 0; i < count && pos < bytes; i++)
        for (int k = 0; k < dt->nruns && pos < bytes; k++)
            pos += run_copy(buf + i * ext + dt->runs[k].off, s + pos,
                            &dt->runs[k], bytes - pos, to_stream);
    return pos;
}

void dt_pack(const void *buf, int count, MPI_Datatype dt, void *out)
{
    walk((char *)buf, count, dt, out, (size_t)count * (size_t)dt->size,
         true);
}

void dt_unpack(const void *in, size_t bytes, void *buf, int count,
               MPI_Datatype dt)
{
    walk(buf, count, dt, (char *)in, bytes, false);
}

/* ---- contiguous pieces, for moves that are not copies ---- */

struct pieces {
    int (*fn)(void *arg, MPI_Aint off, size_t len);
    void *arg;
    MPI_Aint start;
    size_t len;
    int rc;
};

static void emit(struct pieces *p, MPI_Aint off, size_t len)
{
    if (p->len > 0 && p->start + (MPI_Aint)p->len == off) {
        p->len += len;          /* continues the last piece */
        return;
    }
    if (p->len > 0 && p->rc == MPI_SUCCESS)
        p->rc = p->fn(p->arg, p->start, p->len);
    p->start = off;
    p->len = len;
}

/* fn on each contiguous piece of count items of dt, in typemap order
 * (offsets from the first item's address), adjacent ones merged; stops
 * at fn's first error.  A pair type's element is two pieces (its value,
 * its int), as it is packed, so the pieces in order are the packed
 * stream's bytes in order: one-sided moves and file views use it. */
int dt_pieces(MPI_Datatype dt, int count,
              int (*fn)(void *arg, MPI_Aint off, size_t len), void *arg)
{
    struct pieces p = { fn, arg, 0, 0, MPI_SUCCESS };
    MPI_Aint ext = dt_extent(dt), off;

    if (dt_contig(dt, count, &off)) {
        size_t n = (size_t)count * (size_t)dt->size;
        return n ? fn(arg, off, n) : MPI_SUCCESS;
    }
    for (int i = 0; i < count && p.rc == MPI_SUCCESS; i++)
        for (int k = 0; k < dt->nruns; k++) {
            const struct dt_run *r = &dt->runs[k];
            MPI_Aint at = i * ext + r->off;
            if (!dt_pair(r->base)) {
                emit(&p, at, (size_t)r->count * dt_basic_size(r->base));
                continue;
            }
            MPI_Aint e = dt_extent(dt_basic(r->base));
            for (MPI_Aint j = 0; j < r->count; j++) {
                emit(&p, at + j * e, dt_pair_val(r->base));
                emit(&p, at + j * e + (MPI_Aint)dt_pair_int_off(r->base),
                     sizeof(int));
            }
        }
    if (p.len > 0 && p.rc == MPI_SUCCESS)      /* the last piece */
        p.rc = fn(arg, p.start, p.len);
    return p.rc;
}

/* A basic type's elements (2 in a pair) and the bytes of its first. */
static void basic_elems(int base, MPI_Aint *ne, size_t *first)
{
    size_t sz = dt_basic_size(base);

    *ne = dt_basic(base)->nelems;
    *first = dt_pair(base) ? dt_pair_val(base) : sz / (size_t)*ne;
}

/* Basic elements in the first `bytes` bytes of count items of dt. */
MPI_Aint dt_elements(MPI_Datatype dt, size_t bytes)
{
    MPI_Aint n, ne;
    size_t rem, first;

    if (dt->size == 0)
        return 0;
    n = (MPI_Aint)(bytes / (size_t)dt->size) * dt->nelems;
    rem = bytes % (size_t)dt->size;
    for (int k = 0; k < dt->nruns && rem > 0; k++) {
        size_t sz = dt_basic_size(dt->runs[k].base);
        size_t all = (size_t)dt->runs[k].count * sz;
        size_t take = all < rem ? all : rem;

        basic_elems(dt->runs[k].base, &ne, &first);
        n += (MPI_Aint)(take / sz) * ne;
        if (ne == 2 && take % sz >= first)      /* a pair's value alone */
            n++;
        rem -= take;
    }
    return n;
}

/* The inverse: the bytes of the first n basic elements of items of dt
 * (MPI_Status_set_elements, so that MPI_Get_elements gives n back). */
size_t dt_elements_bytes(MPI_Datatype dt, MPI_Count n)
{
    size_t bytes;

    if (dt->nelems == 0)
        return 0;
    bytes = (size_t)(n / dt->nelems) * (size_t)dt->size;
    n %= dt->nelems;
    for (int k = 0; k < dt->nruns && n > 0; k++) {
        MPI_Aint ne;
        size_t first;

        basic_elems(dt->runs[k].base, &ne, &first);
        MPI_Count all = dt->runs[k].count * ne;
        MPI_Count take = all < n ? all : n;
        bytes += (size_t)(take / ne) * dt_basic_size(dt->runs[k].base) +
                 (take % ne ? first : 0);
        n -= take;
    }
    return bytes;
}

int MPI_Pack(const void *inbuf, int incount, MPI_Datatype dt, void *outbuf,
             int outsize, int *position, MPI_Comm comm)
{
    int rc = comm_check(comm);

    if (rc == MPI_SUCCESS)
        rc = dt_check(dt);
    if (rc == MPI_SUCCESS && (incount < 0 || position == NULL))
        rc = incount < 0 ? MPI_ERR_COUNT : MPI_ERR_ARG;
    if (rc == MPI_SUCCESS &&
        (size_t)*position + (size_t)incount * (size_t)dt->size >
            (size_t)outsize)
        rc = MPI_ERR_TRUNCATE;
    if (rc != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Pack");
    dt_pack(inbuf, incount, dt, (char *)outbuf + *position);
    *position += incount * (int)dt->size;
    return MPI_SUCCESS;
}

int MPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf,
               int outcount, MPI_Datatype dt, MPI_Comm comm)
{
    int rc = comm_check(comm);
    size_t need;

    if (rc == MPI_SUCCESS)
        rc = dt_check(dt);
    if (rc == MPI_SUCCESS && (outcount < 0 || position == NULL))
        rc = outcount < 0 ? MPI_ERR_COUNT : MPI_ERR_ARG;
    need = rc ? 0 : (size_t)outcount * (size_t)dt->size;
    if (rc == MPI_SUCCESS && (size_t)*position + need > (size_t)insize)
        rc = MPI_ERR_TRUNCATE;
    if (rc != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Unpack");
    dt_unpack((char *)inbuf + *position, need, outbuf, outcount, dt);
    *position += (int)need;
    return MPI_SUCCESS;
}

int MPI_Pack_size(int incount, MPI_Datatype dt, MPI_Comm comm, int *size)
{
    int rc = comm_check(comm);

    if (rc == MPI_SUCCESS)
        rc = dt_check(dt);
    if (rc == MPI_SUCCESS && incount < 0)
        rc = MPI_ERR_COUNT;
    if (rc != MPI_SUCCESS)
        return mpi_err(comm, rc, "MPI_Pack_size");
    *size = incount * (int)dt->size;
    return MPI_SUCCESS;
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Pack)
PMPI(MPI_Unpack)
PMPI(MPI_Pack_size)
