/* SPDX-License-Identifier: MIT */
/*
 * io_coll.c: collective buffering (two-phase I/O, as ROMIO does it) for
 * MPI_File_write_all, _read_all, _write_at_all, _read_at_all, their
 * split and nonblocking forms.  Without it each rank moves its own
 * runs of file bytes: a 2-D block of a matrix is one request per row,
 * each a round trip to the rank's I/O server.  With it:
 *
 *   1. every rank learns the range of file bytes the call touches
 *      (one allreduce) and splits it evenly into one file domain per
 *      aggregator (io_hints.c picks them: one per I/O server), domain
 *      boundaries at multiples of striping_unit when it is set;
 *   2. in rounds of cb_buffer_size bytes of each domain, every rank
 *      sends each aggregator its pieces of that aggregator's window
 *      (offsets, lengths and, writing, the bytes: the exchange phase,
 *      point to point), and each aggregator writes what its window
 *      holds as few large contiguous writes (one where the ranks'
 *      pieces cover it) or reads its window's extent in one read and
 *      sends each rank its pieces back (the I/O phase).
 *
 * romio_cb_write/romio_cb_read choose: enable, disable (each rank on
 * its own, io_view.c), or automatic: two phases when some rank's access
 * is more than one run of file bytes.  An aggregator writes only bytes
 * some rank gave it, never a read-modify-write of the holes between,
 * so a file opened write-only works and bytes nobody wrote are never
 * rewritten.  Errors: the worst any rank met is every rank's.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "io.h"

/* A run of file bytes of this rank's access: where in the file, how
 * many, where in its stream of data. */
struct run {
    MPI_Offset off;
    size_t len, at;
};

/* One call's plan, the same on every rank. */
struct plan {
    MPI_Offset lo, hi;          /* the file bytes any rank touches */
    MPI_Offset base, dlen;      /* domain a: base + a*dlen, dlen long */
    int rounds;
};

/* The runs of len stream bytes from stream byte s (adjacent ones
 * merged); reading, cut at the end of the file (eof >= 0). */
static int runs_of(MPI_File f, MPI_Offset s, size_t len, MPI_Offset eof,
                   struct run **out, int *n)
{
    struct run *v = NULL;
    int cap = 0;

    *n = 0;
    for (size_t done = 0; done < len;) {
        size_t run;
        MPI_Offset at = io_file_byte(f, s + (MPI_Offset)done, &run);
        size_t k = len - done < run ? len - done : run;
        if (eof >= 0 && at + (MPI_Offset)k > eof)
            k = at < eof ? (size_t)(eof - at) : 0;
        if (k == 0)
            break;              /* the view's bytes only grow from here */
        if (*n > 0 && v[*n - 1].off + (MPI_Offset)v[*n - 1].len == at) {
            v[*n - 1].len += k;
        } else {
            if (*n == cap) {
                struct run *w = realloc(v, (size_t)(cap = cap * 2 + 16) *
                                           sizeof(*v));
                if (w == NULL) {
                    free(v);
                    return MPI_ERR_NO_MEM;
                }
                v = w;
            }
            v[(*n)++] = (struct run){ at, k, done };
        }
        done += k;
    }
    *out = v;
    return MPI_SUCCESS;
}

/* Aggregator a's window in round k: [*ws, *we), empty if *ws >= *we. */
static void window(const MPI_File f, const struct plan *p, int a, int k,
                   MPI_Offset *ws, MPI_Offset *we)
{
    MPI_Offset ds = p->base + a * p->dlen, de = ds + p->dlen;

    ds = ds < p->lo ? p->lo : ds;
    de = de > p->hi ? p->hi : de;
    *ws = ds + (MPI_Offset)k * f->cb.bufsize;
    *we = *ws + f->cb.bufsize < de ? *ws + f->cb.bufsize : de;
}

static void plan_make(const MPI_File f, MPI_Offset lo, MPI_Offset hi,
                      struct plan *p)
{
    MPI_Offset unit = f->cb.unit, n = f->cb.nodes, most = 0;

    p->lo = lo;
    p->hi = hi;
    p->base = unit ? lo / unit * unit : lo;
    p->dlen = (hi - p->base + n - 1) / n;
    if (unit)
        p->dlen = (p->dlen + unit - 1) / unit * unit;
    for (int a = 0; a < n; a++) {
        MPI_Offset ds = p->base + a * p->dlen, de = ds + p->dlen;
        ds = ds < lo ? lo : ds;
        de = de > hi ? hi : de;
        most = de - ds > most ? de - ds : most;
    }
    p->rounds = (int)((most + f->cb.bufsize - 1) / f->cb.bufsize);
}

/* The pieces of runs inside [ws, we) into out (NULL: only count them);
 * how many.  Runs are sorted by offset (MPI-3.1 13.3: a filetype's
 * displacements never decrease). */
static size_t pieces(const struct run *r, int n, MPI_Offset ws,
                     MPI_Offset we, struct run *out)
{
    int lo = 0, hi = n;
    size_t k = 0;

    while (lo < hi) {           /* the first run ending after ws */
        int mid = (lo + hi) / 2;
        if (r[mid].off + (MPI_Offset)r[mid].len <= ws)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (int i = lo; i < n && r[i].off < we; i++) {
        MPI_Offset s = r[i].off > ws ? r[i].off : ws;
        MPI_Offset e = r[i].off + (MPI_Offset)r[i].len;
        e = e < we ? e : we;
        if (out != NULL)
            out[k] = (struct run){ s, (size_t)(e - s),
                                   r[i].at + (size_t)(s - r[i].off) };
        k++;
    }
    return k;
}

/* Blocks between ranks, only the nonempty ones moving: scnt[i] bytes at
 * sbuf + sdsp[i] to rank i, rcnt[i] into rbuf + rdsp[i] from it. */
static int exchange(MPI_Comm c, const char *sbuf, const int *scnt,
                    const size_t *sdsp, char *rbuf, const int *rcnt,
                    const size_t *rdsp)
{
    MPI_Request *q = malloc(2 * (size_t)c->size * sizeof(*q));
    int n = 0, rc = q ? MPI_SUCCESS : MPI_ERR_NO_MEM;

    for (int i = 0; rc == MPI_SUCCESS && i < c->size; i++)
        if (rcnt[i] > 0 && (rc = p2p_irecv(rbuf + rdsp[i], rcnt[i], MPI_BYTE,
                                           i, 1, c, c->ctx + 1,
                                           &q[n])) == MPI_SUCCESS)
            n++;
    for (int i = 0; rc == MPI_SUCCESS && i < c->size; i++)
        if (scnt[i] > 0 && (rc = p2p_isend(sbuf + sdsp[i], scnt[i], MPI_BYTE,
                                           i, 1, c, c->ctx + 1, M_STD,
                                           &q[n])) == MPI_SUCCESS)
            n++;
    for (int i = 0; i < n; i++) {
        int rc2 = p2p_wait(&q[i], MPI_STATUS_IGNORE);
        rc = rc ? rc : rc2;
    }
    free(q);
    return rc;
}

/* pread/pwrite of all len bytes (a read stops at the end of the file,
 * the rest zeroed). */
static int file_io(MPI_File f, bool wr, char *buf, size_t len, MPI_Offset at)
{
    for (size_t done = 0; done < len;) {
        ssize_t r;
        if (wr)
            pvc.file_writes++;
        else
            pvc.file_reads++;
        r = wr ? pwrite(f->fd, buf + done, len - done, (off_t)at + done)
               : pread(f->fd, buf + done, len - done, (off_t)at + done);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return io_errno(errno);
        if (r == 0) {
            if (wr)
                return MPI_ERR_IO;
            memset(buf + done, 0, len - done);
            break;
        }
        done += (size_t)r;
    }
    return MPI_SUCCESS;
}

/* One round's messages: for each rank, a count of pieces, the pieces
 * (offset, length) and, when `data`, their bytes. */
struct msgs {
    char *buf;
    int *cnt;
    size_t *dsp;
};

static void msgs_free(struct msgs *m)
{
    free(m->buf);
    free(m->cnt);
    free(m->dsp);
}

static int msgs_alloc(struct msgs *m, int n, size_t total)
{
    m->buf = malloc(total + 1);
    m->cnt = calloc((size_t)n, sizeof(int));
    m->dsp = calloc((size_t)n, sizeof(size_t));
    return m->buf && m->cnt && m->dsp ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

/* This rank's messages to the aggregators for round k; *mine: its
 * pieces, aggregator by aggregator, as they went. */
static int build_out(MPI_File f, const struct plan *p, int k,
                     const struct run *r, int n, const char *stream,
                     bool data, struct msgs *m, struct run **mine)
{
    size_t total = 0, np = 0;
    int rc;

    for (int a = 0; a < f->cb.nodes; a++) {
        MPI_Offset ws, we;
        window(f, p, a, k, &ws, &we);
        np += ws < we ? pieces(r, n, ws, we, NULL) : 0;
    }
    if ((*mine = malloc((np + 1) * sizeof(struct run))) == NULL)
        return MPI_ERR_NO_MEM;
    np = 0;
    for (int a = 0; a < f->cb.nodes; a++) {
        MPI_Offset ws, we;
        window(f, p, a, k, &ws, &we);
        size_t got = ws < we ? pieces(r, n, ws, we, *mine + np) : 0;
        total += got ? (1 + 2 * got) * sizeof(int64_t) : 0;
        for (size_t i = 0; data && i < got; i++)
            total += (*mine)[np + i].len;
        np += got;
    }
    if ((rc = msgs_alloc(m, f->comm->size, total)) != MPI_SUCCESS)
        return rc;
    total = np = 0;
    for (int a = 0; a < f->cb.nodes; a++) {
        MPI_Offset ws, we;
        struct run *pc = *mine + np;
        int64_t *h = (int64_t *)(m->buf + total);
        int to = f->cb.aggr[a];
        window(f, p, a, k, &ws, &we);
        size_t got = ws < we ? pieces(r, n, ws, we, NULL) : 0;
        if (got == 0)
            continue;
        h[0] = (int64_t)got;
        for (size_t i = 0; i < got; i++) {
            h[1 + 2 * i] = pc[i].off;
            h[2 + 2 * i] = (int64_t)pc[i].len;
        }
        m->dsp[to] = total;
        total += (1 + 2 * got) * sizeof(int64_t);
        for (size_t i = 0; data && i < got; i++) {
            memcpy(m->buf + total, stream + pc[i].at, pc[i].len);
            total += pc[i].len;
        }
        m->cnt[to] = (int)(total - m->dsp[to]);
        np += got;
    }
    return MPI_SUCCESS;
}

/* The messages for me, an aggregator, once their sizes are known. */
static int receive(MPI_File f, const struct msgs *out, struct msgs *in)
{
    int size = f->comm->size, rc;
    size_t total = 0;

    in->buf = NULL;
    in->cnt = calloc((size_t)size, sizeof(int));
    in->dsp = calloc((size_t)size, sizeof(size_t));
    if (in->cnt == NULL || in->dsp == NULL)
        return MPI_ERR_NO_MEM;
    rc = MPI_Alltoall(out->cnt, 1, MPI_INT, in->cnt, 1, MPI_INT, f->comm);
    for (int i = 0; i < size; i++) {
        in->dsp[i] = total;
        total += (size_t)in->cnt[i];
    }
    if (rc == MPI_SUCCESS && (in->buf = malloc(total + 1)) == NULL)
        rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS)
        rc = exchange(f->comm, out->buf, out->cnt, out->dsp, in->buf,
                      in->cnt, in->dsp);
    return rc;
}

static int by_off(const void *a, const void *b)
{
    const struct run *x = a, *y = b;

    return x->off < y->off ? -1 : x->off > y->off;
}

/* Every piece sent to me this round (from rank i's message at
 * in->buf + in->dsp[i]), in a list sorted by offset; *extent: the
 * bytes from the first to the end of the last.  Writing, each piece's
 * bytes go into win (the window from ws). */
static int gather_pieces(const struct msgs *in, int size, MPI_Offset ws,
                         char *win, bool wr, struct run **out, size_t *n)
{
    size_t np = 0;

    for (int i = 0; i < size; i++)
        if (in->cnt[i] > 0)
            np += (size_t)*(int64_t *)(in->buf + in->dsp[i]);
    if ((*out = malloc((np + 1) * sizeof(struct run))) == NULL)
        return MPI_ERR_NO_MEM;
    np = 0;
    for (int i = 0; i < size; i++) {
        if (in->cnt[i] == 0)
            continue;
        int64_t *h = (int64_t *)(in->buf + in->dsp[i]);
        const char *d = (const char *)(h + 1 + 2 * h[0]);
        for (int64_t j = 0; j < h[0]; j++) {
            (*out)[np++] = (struct run){ h[1 + 2 * j], (size_t)h[2 + 2 * j],
                                         0 };
            if (wr) {
                memcpy(win + (h[1 + 2 * j] - ws), d, (size_t)h[2 + 2 * j]);
                d += h[2 + 2 * j];
            }
        }
    }
    qsort(*out, np, sizeof(**out), by_off);
    *n = np;
    return MPI_SUCCESS;
}

/* Write what the window holds: each stretch the pieces cover, once. */
static int write_window(MPI_File f, char *win, MPI_Offset ws,
                        const struct run *pc, size_t n)
{
    int rc = MPI_SUCCESS;

    for (size_t i = 0; i < n && rc == MPI_SUCCESS;) {
        MPI_Offset s = pc[i].off, e = s + (MPI_Offset)pc[i].len;
        for (i++; i < n && pc[i].off <= e; i++)
            if (pc[i].off + (MPI_Offset)pc[i].len > e)
                e = pc[i].off + (MPI_Offset)pc[i].len;
        rc = file_io(f, true, win + (s - ws), (size_t)(e - s), s);
    }
    return rc;
}

/* Read the window's extent (one read: from the first piece to the
 * furthest end) and answer each rank with its pieces' bytes in the
 * order it asked. */
static int read_window(MPI_File f, char *win, MPI_Offset ws,
                       const struct msgs *in, const struct run *pc,
                       size_t n, struct msgs *ans)
{
    int size = f->comm->size, rc = MPI_SUCCESS;
    size_t total = 0;
    MPI_Offset end = 0;

    for (size_t i = 0; i < n; i++)
        if (pc[i].off + (MPI_Offset)pc[i].len > end)
            end = pc[i].off + (MPI_Offset)pc[i].len;
    if (win == NULL)
        rc = MPI_ERR_NO_MEM;
    else if (n > 0)
        rc = file_io(f, false, win + (pc[0].off - ws),
                     (size_t)(end - pc[0].off), pc[0].off);
    for (size_t i = 0; i < n; i++)
        total += pc[i].len;
    /* answers even after an error (its bytes then meaningless), so no
     * rank waits for ever; the error reaches every rank at the end */
    if (msgs_alloc(ans, size, total) != MPI_SUCCESS || in->cnt == NULL)
        return MPI_ERR_NO_MEM;
    total = 0;
    for (int i = 0; i < size; i++) {
        ans->dsp[i] = total;
        if (in->cnt[i] == 0)
            continue;
        int64_t *h = (int64_t *)(in->buf + in->dsp[i]);
        for (int64_t j = 0; j < h[0]; j++) {
            if (win != NULL)
                memcpy(ans->buf + total, win + (h[1 + 2 * j] - ws),
                       (size_t)h[2 + 2 * j]);
            total += (size_t)h[2 + 2 * j];
        }
        ans->cnt[i] = (int)(total - ans->dsp[i]);
    }
    return rc;
}

/* Am I aggregator a of the plan?  -1 if none. */
static int my_aggregator(const MPI_File f)
{
    for (int a = 0; a < f->cb.nodes; a++)
        if (f->cb.aggr[a] == f->comm->rank)
            return a;
    return -1;
}

/* A read round's second half: my pieces' bytes back from the
 * aggregators, into the stream. */
static int take_answers(MPI_File f, const struct msgs *ans,
                        const struct msgs *out, const struct run *mine,
                        char *stream)
{
    int size = f->comm->size, rc;
    struct msgs back = { 0 };
    size_t total = 0, np = 0;

    rc = msgs_alloc(&back, size, 0);
    for (int i = 0; rc == MPI_SUCCESS && i < size; i++) {
        back.dsp[i] = total;
        if (out->cnt[i] == 0)
            continue;
        int64_t *h = (int64_t *)(out->buf + out->dsp[i]);
        for (int64_t j = 0; j < h[0]; j++)
            total += (size_t)h[2 + 2 * j];
        back.cnt[i] = (int)(total - back.dsp[i]);
    }
    free(back.buf);
    if (rc == MPI_SUCCESS && (back.buf = malloc(total + 1)) == NULL)
        rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS)
        rc = exchange(f->comm, ans->buf, ans->cnt, ans->dsp, back.buf,
                      back.cnt, back.dsp);
    /* my pieces, in the order they went: aggregator by aggregator */
    for (int a = 0; rc == MPI_SUCCESS && a < f->cb.nodes; a++) {
        int i = f->cb.aggr[a];
        size_t at = back.dsp[i];
        if (out->cnt[i] == 0)
            continue;
        int64_t c = *(int64_t *)(out->buf + out->dsp[i]);
        for (int64_t j = 0; j < c; j++, np++) {
            memcpy(stream + mine[np].at, back.buf + at, mine[np].len);
            at += mine[np].len;
        }
    }
    msgs_free(&back);
    return rc;
}

static int round_trip(MPI_File f, bool wr, const struct plan *p, int k,
                      const struct run *r, int n, char *stream, char *win)
{
    struct msgs out = { 0 }, in = { 0 }, ans = { 0 };
    struct run *mine = NULL, *pc = NULL;
    size_t npc = 0;
    int a = my_aggregator(f), rc;
    MPI_Offset ws = 0, we = 0;

    rc = build_out(f, p, k, r, n, stream, wr, &out, &mine);
    if (rc == MPI_SUCCESS)
        rc = receive(f, &out, &in);
    if (a >= 0)
        window(f, p, a, k, &ws, &we);
    if (rc == MPI_SUCCESS && a >= 0 && (win != NULL || !wr))
        rc = gather_pieces(&in, f->comm->size, ws, win, wr, &pc, &npc);
    else if (rc == MPI_SUCCESS && a >= 0)
        rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS && a >= 0 && wr)
        rc = write_window(f, win, ws, pc, npc);
    if (a >= 0 && !wr) {        /* the ranks wait for answers: always */
        int rc2 = read_window(f, win, ws, &in, pc, npc, &ans);
        rc = rc ? rc : rc2;
    }
    if (rc == MPI_SUCCESS && a < 0 && !wr)
        rc = msgs_alloc(&ans, f->comm->size, 0);
    if (!wr && ans.cnt != NULL && out.cnt != NULL) {
        int rc2 = take_answers(f, &ans, &out, mine, stream);
        rc = rc ? rc : rc2;
    }
    msgs_free(&out);
    msgs_free(&in);
    msgs_free(&ans);
    free(mine);
    free(pc);
    return rc;
}

/* The two phases over this rank's runs; every rank calls it. */
static int two_phase(MPI_File f, bool wr, const struct plan *p,
                     const struct run *r, int n, char *stream)
{
    char *win = my_aggregator(f) >= 0 ? malloc((size_t)f->cb.bufsize)
                                      : NULL;
    int rc = MPI_SUCCESS;

    for (int k = 0; k < p->rounds; k++) {
        int rc2 = round_trip(f, wr, p, k, r, n, stream, win);
        rc = rc ? rc : rc2;
    }
    free(win);
    return rc;
}

/* Shall this call take two phases?  The same answer on every rank: g
 * is the allreduced { any rank's error, any access in pieces }. */
static bool use_cb(const MPI_File f, bool wr, const MPI_Offset *g)
{
    int mode = wr ? f->cb.write : f->cb.read;

    if (g[0] || g[3] <= -g[2] || mode == CB_DISABLE)
        return false;
    return mode == CB_ENABLE || g[1];
}

int io_collective(MPI_File f, bool wr, MPI_Offset at, void *buf, int count,
                  MPI_Datatype dt, MPI_Status *st)
{
    int rc = file_check(f), nr = 0, worst;
    MPI_Offset eof = -1, l[4] = { 0, 0, -INT64_MAX, 0 }, g[4];
    struct run *r = NULL;
    struct plan p;
    size_t n = 0, done = 0;
    MPI_Aint off = 0;
    char *stream = NULL;

    if (rc != MPI_SUCCESS)
        return rc;              /* no file: nobody to agree with */
    rc = io_access_check(f, wr, at, count, dt, buf);
    if (rc == MPI_SUCCESS) {
        n = (size_t)count * (size_t)dt->size;
        if (!wr)
            rc = io_size(f, &eof);
    }
    if (rc == MPI_SUCCESS)
        rc = runs_of(f, (at >= 0 ? at : f->pos) *
                        (MPI_Offset)f->etype->size, n, eof, &r, &nr);
    l[0] = rc != MPI_SUCCESS;
    if (nr > 0) {
        l[1] = nr > 1;
        l[2] = -r[0].off;
        l[3] = r[nr - 1].off + (MPI_Offset)r[nr - 1].len;
    }
    if (coll_allreduce(l, g, 4, MPI_OFFSET, MPI_MAX, f->comm) != 0)
        rc = rc ? rc : MPI_ERR_INTERN;
    if (rc != MPI_SUCCESS || !use_cb(f, wr, g)) {
        free(r);                /* each on its own */
        return rc ? rc : io_access(f, wr, at, buf, count, dt, st);
    }
    plan_make(f, -g[2], g[3], &p);
    stream = dt_contig(dt, count, &off) ? (char *)buf + off : malloc(n + 1);
    if (stream == NULL)
        rc = MPI_ERR_NO_MEM;
    else if (wr && stream != (char *)buf + off)
        dt_pack(buf, count, dt, stream);
    /* every round is collective: a rank without memory goes on empty */
    worst = two_phase(f, wr, &p, r, stream ? nr : 0, stream);
    rc = rc ? rc : worst;
    for (int i = 0; stream != NULL && i < nr; i++)
        done += r[i].len;
    if (!wr && done > 0 && stream != (char *)buf + off)
        dt_unpack(stream, done, buf, count, dt);
    if (stream != (char *)buf + off)
        free(stream);
    free(r);
    /* an aggregator's error is everyone's */
    if (coll_allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, f->comm) != 0)
        worst = rc ? rc : MPI_ERR_INTERN;
    rc = worst;
    if (rc != MPI_SUCCESS)
        done = 0;
    if (at < 0)
        f->pos += (MPI_Offset)(done / f->etype->size);
    if (st != MPI_STATUS_IGNORE) {
        status_empty(st);
        st->mpi_bytes = done;
        st->MPI_ERROR = rc;
    }
    return rc;
}
