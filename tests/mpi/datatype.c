/* SPDX-License-Identifier: MIT */
/* Derived datatypes: contiguous, vector, hvector, indexed, hindexed,
 * struct (with MPI_LB/MPI_UB), sizes/extents/bounds, pack/unpack, sending
 * non-contiguous data (eager and long) and receiving it as another type,
 * Get_elements, reductions on derived types. */
#include <stdbool.h>
#include <stddef.h>
#include "mpitest.h"

static void bounds(void)
{
    MPI_Datatype v, s, h, c, lbub;
    MPI_Aint ext, lb, ub;
    int size;

    MPI_Type_vector(3, 2, 5, MPI_INT, &v);      /* xx...xx...xx */
    MPI_Type_commit(&v);
    MPI_Type_size(v, &size);
    MPI_Type_extent(v, &ext);
    CHECK(size == 6 * 4 && ext == 12 * 4);
    MPI_Type_hvector(2, 1, 100, v, &h);
    MPI_Type_commit(&h);
    MPI_Type_extent(h, &ext);
    CHECK(ext == 100 + 48);
    MPI_Type_contiguous(4, MPI_DOUBLE, &c);
    MPI_Type_commit(&c);
    MPI_Type_size(c, &size);
    MPI_Type_get_extent(c, &lb, &ext);
    CHECK(size == 32 && lb == 0 && ext == 32);
    /* struct {char; double} is padded to 16; LB/UB markers override */
    int bl[4] = { 1, 1, 1, 1 };
    MPI_Aint d[4] = { 0, 8, -4, 40 };
    MPI_Datatype t[4] = { MPI_CHAR, MPI_DOUBLE, MPI_LB, MPI_UB };
    MPI_Type_struct(2, bl, d, t, &s);
    MPI_Type_commit(&s);
    MPI_Type_extent(s, &ext);
    MPI_Type_size(s, &size);
    CHECK(ext == 16 && size == 9);
    MPI_Type_create_struct(4, bl, d, t, &lbub);
    MPI_Type_commit(&lbub);
    MPI_Type_lb(lbub, &lb);
    MPI_Type_ub(lbub, &ub);
    MPI_Type_extent(lbub, &ext);
    CHECK(lb == -4 && ub == 40 && ext == 44);
    MPI_Type_free(&v);
    MPI_Type_free(&h);
    MPI_Type_free(&c);
    MPI_Type_free(&s);
    MPI_Type_free(&lbub);
    CHECK(v == MPI_DATATYPE_NULL);
}

struct part { char name[5]; double x; int id; };

static MPI_Datatype part_type(void)
{
    struct part p;
    int bl[3] = { 5, 1, 1 };
    MPI_Aint base, d[3];
    MPI_Datatype t[3] = { MPI_CHAR, MPI_DOUBLE, MPI_INT }, r;

    MPI_Get_address(&p, &base);
    MPI_Get_address(p.name, &d[0]);
    MPI_Address(&p.x, &d[1]);
    MPI_Get_address(&p.id, &d[2]);
    for (int i = 0; i < 3; i++)
        d[i] -= base;
    MPI_Type_create_struct(3, bl, d, t, &r);
    MPI_Type_commit(&r);
    return r;
}

static void send_structs(void)
{
    int to = (t_rank + 1) % t_size, from = (t_rank + t_size - 1) % t_size;
    MPI_Datatype pt = part_type();
    MPI_Aint ext;
    enum { N = 5000 };          /* ~85 KB packed: the long protocol */
    struct part *a = calloc(N, sizeof(*a)), *b = calloc(N, sizeof(*b));

    MPI_Type_extent(pt, &ext);
    CHECK(ext == sizeof(struct part));
    for (int i = 0; i < N; i++) {
        snprintf(a[i].name, 5, "p%d", i % 100);
        a[i].x = t_rank + i * 0.5;
        a[i].id = t_rank * N + i;
    }
    for (int n = 3; n <= N; n += N - 3) {
        MPI_Sendrecv(a, n, pt, to, 1, b, n, pt, from, 1, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        int ok = 1;
        for (int i = 0; i < n; i++) {
            char nm[5];
            snprintf(nm, 5, "p%d", i % 100);
            ok &= b[i].x == from + i * 0.5 && b[i].id == from * N + i &&
                  strcmp(b[i].name, nm) == 0;
        }
        CHECK(ok);
    }
    MPI_Type_free(&pt);
    free(a);
    free(b);
}

/* A column of a matrix as a vector type, received as contiguous. */
static void columns(void)
{
    enum { R = 50, C = 40 };
    int to = (t_rank + 1) % t_size, from = (t_rank + t_size - 1) % t_size;
    double m[R][C], col[R];
    MPI_Datatype colt;
    MPI_Status st;
    int cnt;

    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            m[i][j] = t_rank * 10000 + i * 100 + j;
    MPI_Type_vector(R, 1, C, MPI_DOUBLE, &colt);
    MPI_Type_commit(&colt);
    MPI_Sendrecv(&m[0][3], 1, colt, to, 2, col, R, MPI_DOUBLE, from, 2,
                 MPI_COMM_WORLD, &st);
    int ok = 1;
    for (int i = 0; i < R; i++)
        ok &= col[i] == from * 10000 + i * 100 + 3;
    CHECK(ok);
    MPI_Get_count(&st, MPI_DOUBLE, &cnt);
    CHECK(cnt == R);
    MPI_Get_count(&st, colt, &cnt);
    CHECK(cnt == 1);
    MPI_Get_elements(&st, colt, &cnt);
    CHECK(cnt == R);
    /* and back: contiguous into a column of another matrix */
    double m2[R][C];
    memset(m2, 0, sizeof(m2));
    MPI_Sendrecv(col, R, MPI_DOUBLE, to, 3, &m2[0][7], 1, colt, from, 3,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    ok = 1;
    int src2 = (from + t_size - 1) % t_size;
    for (int i = 0; i < R; i++)
        ok &= m2[i][7] == src2 * 10000 + i * 100 + 3 && m2[i][6] == 0;
    CHECK(ok);
    MPI_Type_free(&colt);
}

static void indexed(void)
{
    int bl[3] = { 2, 1, 3 }, disp[3] = { 0, 5, 9 }, buf[12], out[12];
    MPI_Aint hd[3] = { 0, 20, 36 };
    MPI_Datatype it, ht;
    int size, pos = 0;
    char pk[64];

    for (int i = 0; i < 12; i++)
        buf[i] = i * 11;
    MPI_Type_indexed(3, bl, disp, MPI_INT, &it);
    MPI_Type_hindexed(3, bl, hd, MPI_INT, &ht);
    /* the MPI-2 names build the same types */
    MPI_Datatype h2, v2;
    MPI_Aint e1, e2;
    MPI_Type_create_hindexed(3, bl, hd, MPI_INT, &h2);
    MPI_Type_create_hvector(3, 2, 20, MPI_INT, &v2);
    MPI_Type_commit(&h2);
    MPI_Type_commit(&v2);
    MPI_Type_extent(h2, &e1);
    MPI_Type_extent(v2, &e2);
    MPI_Type_size(v2, &size);
    CHECK(e1 == 48 && e2 == 48 && size == 24);
    MPI_Type_free(&h2);
    MPI_Type_free(&v2);
    MPI_Type_commit(&it);
    MPI_Type_commit(&ht);
    MPI_Type_size(it, &size);
    CHECK(size == 24);
    MPI_Pack_size(1, it, MPI_COMM_WORLD, &size);
    CHECK(size == 24);
    MPI_Pack(buf, 1, it, pk, sizeof(pk), &pos, MPI_COMM_WORLD);
    int v = 77;
    MPI_Pack(&v, 1, MPI_INT, pk, sizeof(pk), &pos, MPI_COMM_WORLD);
    CHECK(pos == 28);
    int *p = (int *)pk;
    CHECK(p[0] == 0 && p[1] == 11 && p[2] == 55 && p[3] == 99 &&
          p[5] == 121 && p[6] == 77);
    memset(out, 0, sizeof(out));
    pos = 0;
    MPI_Unpack(pk, sizeof(pk), &pos, out, 1, ht, MPI_COMM_WORLD);
    MPI_Unpack(pk, sizeof(pk), &pos, &v, 1, MPI_INT, MPI_COMM_WORLD);
    CHECK(out[0] == 0 && out[1] == 11 && out[2] == 0 && out[5] == 55 &&
          out[9] == 99 && out[11] == 121 && v == 77);
    /* packed data travels as MPI_PACKED */
    int to = (t_rank + 1) % t_size, from = (t_rank + t_size - 1) % t_size;
    char rp[64];
    MPI_Sendrecv(pk, 28, MPI_PACKED, to, 4, rp, 64, MPI_PACKED, from, 4,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    pos = 0;
    memset(out, 0, sizeof(out));
    MPI_Unpack(rp, 64, &pos, out, 1, it, MPI_COMM_WORLD);
    CHECK(out[0] == 0 && out[5] == 55 && out[11] == 121);
    MPI_Type_free(&it);
    MPI_Type_free(&ht);
}

static void reduce_derived(void)
{
    MPI_Datatype pair;
    int v[4] = { t_rank, 1, 2 * t_rank, 7 }, r[4] = { 0, 0, 0, 0 };

    MPI_Type_vector(2, 1, 2, MPI_INT, &pair);   /* v[0], v[2] */
    MPI_Type_commit(&pair);
    MPI_Allreduce(v, r, 1, pair, MPI_SUM, MPI_COMM_WORLD);
    int e = t_size * (t_size - 1) / 2;
    CHECK(r[0] == e && r[2] == 2 * e && r[1] == 0);
    MPI_Type_free(&pair);
}

/* ---- bounds against typemaps (MPI-3.1 4.1.6, 4.1.7) ----
 * A model of a typemap: its data entries (displacement, size) and its
 * lb and ub markers.  lb is the least lb marker if there is one, else
 * the least displacement; ub the greatest ub marker, else the greatest
 * end of an entry (struct: rounded up to the widest entry's size); the
 * true bounds look at the data only.  Each case builds a type with the
 * library and the same typemap here, and the two must agree. */
#define MAXE 64
struct tmap {
    int n, nl, nu;
    long d[MAXE], s[MAXE], l[MAXE], u[MAXE];
};

static long tm_lb(const struct tmap *t)
{
    long v = 0;

    for (int i = 0; i < (t->nl ? t->nl : t->n); i++) {
        long x = t->nl ? t->l[i] : t->d[i];
        v = i == 0 || x < v ? x : v;
    }
    return v;
}

static long tm_ub(const struct tmap *t, bool pad)
{
    long v = 0, a = 1;

    if (t->nu) {
        for (int i = 0; i < t->nu; i++)
            v = i == 0 || t->u[i] > v ? t->u[i] : v;
        return v;
    }
    for (int i = 0; i < t->n; i++) {
        v = i == 0 || t->d[i] + t->s[i] > v ? t->d[i] + t->s[i] : v;
        a = t->s[i] > a ? t->s[i] : a;
    }
    long ext = v - tm_lb(t);
    return pad && ext % a ? v + a - ext % a : v;
}

static void tm_true(const struct tmap *t, long *lo, long *hi)
{
    *lo = *hi = 0;
    for (int i = 0; i < t->n; i++) {
        *lo = i == 0 || t->d[i] < *lo ? t->d[i] : *lo;
        *hi = i == 0 || t->d[i] + t->s[i] > *hi ? t->d[i] + t->s[i] : *hi;
    }
}

/* count copies of src, the k-th at disp + k * stride, into dst. */
static void tm_add(struct tmap *dst, const struct tmap *src, long disp,
                   int count, long stride)
{
    for (int k = 0; k < count; k++) {
        long at = disp + k * stride;
        for (int i = 0; i < src->n; i++) {
            dst->d[dst->n] = src->d[i] + at;
            dst->s[dst->n++] = src->s[i];
        }
        for (int i = 0; i < src->nl; i++)
            dst->l[dst->nl++] = src->l[i] + at;
        for (int i = 0; i < src->nu; i++)
            dst->u[dst->nu++] = src->u[i] + at;
    }
}

static long tm_extent(const struct tmap *t, bool pad)
{
    return tm_ub(t, pad) - tm_lb(t);
}

static struct tmap tm_basic(long size)
{
    struct tmap t = { .n = 1, .d = { 0 }, .s = { size } };
    return t;
}

/* MPI_Type_create_resized: old markers go, these two come. */
static struct tmap tm_resized(struct tmap t, long lb, long ext)
{
    t.nl = t.nu = 1;
    t.l[0] = lb;
    t.u[0] = lb + ext;
    return t;
}

static void agree(MPI_Datatype dt, const struct tmap *t, bool pad)
{
    MPI_Aint lb, ext, tlb, text, lb1, ub1;
    long lo, hi, size = 0;
    int sz;

    MPI_Type_get_extent(dt, &lb, &ext);
    MPI_Type_get_true_extent(dt, &tlb, &text);
    MPI_Type_lb(dt, &lb1);
    MPI_Type_ub(dt, &ub1);
    MPI_Type_size(dt, &sz);
    tm_true(t, &lo, &hi);
    for (int i = 0; i < t->n; i++)
        size += t->s[i];
    CHECK(lb == tm_lb(t) && ext == tm_extent(t, pad));
    CHECK(lb1 == lb && ub1 == lb + ext);
    CHECK(tlb == lo && text == hi - lo);
    CHECK(sz == size);
}

static void bounds_typemaps(void)
{
    struct tmap i4 = tm_basic(4), d8 = tm_basic(8), c1 = tm_basic(1), t, u;
    MPI_Datatype r, nr, dt, dt2;
    int one[3] = { 1, 1, 1 }, two[2] = { 2, 3 }, id[2] = { -2, 3 };
    MPI_Aint ad[3];

    /* resized with a negative lower bound, and contiguous of it */
    MPI_Type_create_resized(MPI_INT, -4, 12, &r);
    struct tmap rm = tm_resized(i4, -4, 12);
    agree(r, &rm, false);
    MPI_Type_contiguous(3, r, &dt);
    t = (struct tmap){ 0 };
    tm_add(&t, &rm, 0, 3, 12);
    agree(dt, &t, false);
    MPI_Type_free(&dt);
    /* vectors with negative strides, of int and of the resized type */
    MPI_Type_vector(3, 1, -2, MPI_INT, &dt);
    t = (struct tmap){ 0 };
    tm_add(&t, &i4, 0, 3, -8);
    agree(dt, &t, false);
    MPI_Type_free(&dt);
    MPI_Type_vector(2, 2, -3, r, &dt);
    t = (struct tmap){ 0 };
    for (int b = 0; b < 2; b++)
        tm_add(&t, &rm, b * -36, 2, 12);
    agree(dt, &t, false);
    MPI_Type_free(&dt);
    MPI_Type_create_hvector(2, 1, -16, MPI_DOUBLE, &dt);
    t = (struct tmap){ 0 };
    tm_add(&t, &d8, 0, 2, -16);
    agree(dt, &t, false);
    /* resized around it, and two of those */
    MPI_Type_create_resized(dt, -16, 40, &dt2);
    u = tm_resized(t, -16, 40);
    agree(dt2, &u, false);
    MPI_Type_free(&dt);
    MPI_Type_contiguous(2, dt2, &dt);
    t = (struct tmap){ 0 };
    tm_add(&t, &u, 0, 2, 40);
    agree(dt, &t, false);
    MPI_Type_free(&dt);
    MPI_Type_free(&dt2);
    /* a negative extent */
    MPI_Type_create_resized(MPI_INT, 0, -4, &nr);
    struct tmap nm = tm_resized(i4, 0, -4);
    agree(nr, &nm, false);
    MPI_Type_contiguous(3, nr, &dt);
    t = (struct tmap){ 0 };
    tm_add(&t, &nm, 0, 3, -4);
    agree(dt, &t, false);
    MPI_Type_free(&dt);
    /* indexed at negative displacements */
    MPI_Type_indexed(2, one, id, MPI_DOUBLE, &dt);
    t = (struct tmap){ 0 };
    tm_add(&t, &d8, -16, 1, 0);
    tm_add(&t, &d8, 24, 1, 0);
    agree(dt, &t, false);
    MPI_Type_free(&dt);
    MPI_Type_indexed(2, two, id, r, &dt);       /* blocks of 2 and 3 */
    t = (struct tmap){ 0 };
    tm_add(&t, &rm, -24, 2, 12);
    tm_add(&t, &rm, 36, 3, 12);
    agree(dt, &t, false);
    MPI_Type_free(&dt);
    /* structs: MPI-1 markers, a resized member, padding */
    MPI_Datatype ty[3] = { MPI_LB, MPI_INT, MPI_UB };
    ad[0] = -8, ad[1] = 0, ad[2] = 16;
    MPI_Type_struct(3, one, ad, ty, &dt);
    t = (struct tmap){ .nl = 1, .nu = 1, .l = { -8 }, .u = { 16 } };
    tm_add(&t, &i4, 0, 1, 0);
    agree(dt, &t, true);
    MPI_Type_free(&dt);
    ad[0] = 100;
    MPI_Type_create_struct(1, one, ad, &r, &dt);
    t = (struct tmap){ 0 };
    tm_add(&t, &rm, 100, 1, 0);
    agree(dt, &t, true);
    MPI_Type_free(&dt);
    MPI_Datatype cic[3] = { MPI_CHAR, MPI_INT, MPI_CHAR };
    ad[0] = 0, ad[1] = 4, ad[2] = 8;
    MPI_Type_create_struct(3, one, ad, cic, &dt);
    t = (struct tmap){ 0 };
    tm_add(&t, &c1, 0, 1, 0);
    tm_add(&t, &i4, 4, 1, 0);
    tm_add(&t, &c1, 8, 1, 0);
    agree(dt, &t, true);                /* 9 bytes, extent 12 */
    MPI_Type_free(&dt);
    /* dup keeps the bounds */
    MPI_Type_dup(r, &dt);
    agree(dt, &rm, false);
    MPI_Type_free(&dt);
    MPI_Type_free(&r);
    MPI_Type_free(&nr);
}

/* The constructors bounds_typemaps does not reach: hindexed, the block
 * forms, a struct's padding for the MPI-3 types (the C compiler's: the
 * struct's sizeof), subarray and darray (the whole array's extent, the
 * part's true bounds: 4.1.3, 4.1.4). */
static void bounds_more(void)
{
    struct tmap i4 = tm_basic(4), s2 = tm_basic(2), t;
    MPI_Datatype dt, r;
    int bl[2] = { 2, 1 }, ib[3] = { 4, -3, 0 };
    MPI_Aint hd[2] = { -20, 7 }, hb[2] = { -40, 12 };

    MPI_Type_create_hindexed(2, bl, hd, MPI_INT, &dt);
    t = (struct tmap){ 0 };
    tm_add(&t, &i4, -20, 2, 4);
    tm_add(&t, &i4, 7, 1, 0);
    agree(dt, &t, false);
    MPI_Type_free(&dt);
    MPI_Type_create_indexed_block(3, 2, ib, MPI_INT, &dt);
    t = (struct tmap){ 0 };
    for (int k = 0; k < 3; k++)
        tm_add(&t, &i4, 4L * ib[k], 2, 4);
    agree(dt, &t, false);
    /* resized to a negative lower bound, then two of them */
    MPI_Type_create_resized(dt, -12, 48, &r);
    struct tmap rm = tm_resized(t, -12, 48), t2 = { 0 };
    agree(r, &rm, false);
    MPI_Type_free(&dt);
    MPI_Type_contiguous(2, r, &dt);
    tm_add(&t2, &rm, 0, 2, 48);
    agree(dt, &t2, false);
    MPI_Type_free(&dt);
    MPI_Type_free(&r);
    MPI_Type_create_hindexed_block(2, 3, hb, MPI_SHORT, &dt);
    t = (struct tmap){ 0 };
    tm_add(&t, &s2, -40, 3, 2);
    tm_add(&t, &s2, 12, 3, 2);
    agree(dt, &t, false);
    MPI_Type_free(&dt);

    /* a struct's extent is its C struct's size (alignment of the widest
     * member: a complex's is its half's) */
    struct dc { double _Complex c; char x; };
    struct fi { float _Complex c; int i; char x; };
    struct lc { char x; long double _Complex c; };
    struct q { int i; __int128 v; };
    struct {
        MPI_Datatype t[2];
        MPI_Aint d[2];
        size_t size;
    } cs[] = {
        { { MPI_C_DOUBLE_COMPLEX, MPI_CHAR },
          { offsetof(struct dc, c), offsetof(struct dc, x) },
          sizeof(struct dc) },
        { { MPI_C_FLOAT_COMPLEX, MPI_INT },
          { offsetof(struct fi, c), offsetof(struct fi, i) },
          offsetof(struct fi, x) },
        { { MPI_CHAR, MPI_C_LONG_DOUBLE_COMPLEX },
          { offsetof(struct lc, x), offsetof(struct lc, c) },
          sizeof(struct lc) },
        { { MPI_INT, MPI_INTEGER16 },
          { offsetof(struct q, i), offsetof(struct q, v) },
          sizeof(struct q) },
    };
    int one2[2] = { 1, 1 };
    for (size_t k = 0; k < sizeof(cs) / sizeof(cs[0]); k++) {
        MPI_Aint lb, ext;
        MPI_Type_create_struct(2, one2, cs[k].d, cs[k].t, &dt);
        MPI_Type_get_extent(dt, &lb, &ext);
        CHECK(lb == 0 && (size_t)ext == cs[k].size);
        MPI_Type_free(&dt);
    }

    /* subarray of a 6x5 int array: rows 1..3, columns 2..3 */
    int sizes[2] = { 6, 5 }, sub[2] = { 3, 2 }, st[2] = { 1, 2 }, sz;
    MPI_Aint lb, ext, tlb, text;
    MPI_Type_create_subarray(2, sizes, sub, st, MPI_ORDER_C, MPI_INT, &dt);
    MPI_Type_get_extent(dt, &lb, &ext);
    MPI_Type_get_true_extent(dt, &tlb, &text);
    MPI_Type_size(dt, &sz);
    CHECK(lb == 0 && ext == 6 * 5 * 4 && sz == 3 * 2 * 4);
    CHECK(tlb == (1 * 5 + 2) * 4 && text == ((3 * 5 + 4) - (5 + 2)) * 4);
    MPI_Type_free(&dt);
    /* the same in Fortran order: the first index runs fastest */
    MPI_Type_create_subarray(2, sizes, sub, st, MPI_ORDER_FORTRAN, MPI_INT,
                             &dt);
    MPI_Type_get_true_extent(dt, &tlb, &text);
    CHECK(tlb == (2 * 6 + 1) * 4 && text == ((3 * 6 + 4) - (2 * 6 + 1)) * 4);
    MPI_Type_free(&dt);
    /* darray: 10 ints in blocks over 3 processes, this rank's part */
    int g = 10, dist = MPI_DISTRIBUTE_BLOCK, darg = MPI_DISTRIBUTE_DFLT_DARG;
    int ps = 3;
    for (int rk = 0; rk < 3; rk++) {
        int from = rk * 4, to = from + 4 < g ? from + 4 : g;
        MPI_Type_create_darray(3, rk, 1, &g, &dist, &darg, &ps, MPI_ORDER_C,
                               MPI_INT, &dt);
        MPI_Type_get_extent(dt, &lb, &ext);
        MPI_Type_get_true_extent(dt, &tlb, &text);
        MPI_Type_size(dt, &sz);
        CHECK(lb == 0 && ext == 40 && sz == (to - from) * 4);
        CHECK(tlb == from * 4 && text == (to - from) * 4);
        MPI_Type_free(&dt);
    }
}

/* MPI_Get_elements counts basic elements: a pair type (MPI_2INT,
 * MPI_DOUBLE_INT, Fortran's MPI_2REAL) is two, its value and its index
 * (MPI-3.1 5.9.4 gives their typemaps); a message that ends after a
 * pair's value holds one element of it; MPI_Status_set_elements is the
 * inverse. */
static void pair_elements(void)
{
    struct { double v; int i; } di[3] = { { 1.5, 1 }, { 2.5, 2 }, { 3.5, 3 } },
                                rdi[3];
    int ii[6] = { 1, 2, 3, 4, 5, 6 }, rii[6], n = -1;
    float r2[4] = { 1, 2, 3, 4 }, rr2[4];
    MPI_Datatype t;
    MPI_Status st;
    MPI_Count big = -1;

    MPI_Sendrecv(ii, 3, MPI_2INT, 0, 7, rii, 3, MPI_2INT, 0, 7,
                 MPI_COMM_SELF, &st);
    MPI_Get_elements(&st, MPI_2INT, &n);
    CHECK(n == 6);
    MPI_Get_count(&st, MPI_2INT, &n);
    CHECK(n == 3);
    MPI_Sendrecv(di, 3, MPI_DOUBLE_INT, 0, 8, rdi, 3, MPI_DOUBLE_INT, 0, 8,
                 MPI_COMM_SELF, &st);
    MPI_Get_elements_x(&st, MPI_DOUBLE_INT, &big);
    CHECK(big == 6 && rdi[2].v == 3.5 && rdi[2].i == 3);
    MPI_Sendrecv(r2, 2, MPI_2REAL, 0, 10, rr2, 2, MPI_2REAL, 0, 10,
                 MPI_COMM_SELF, &st);
    MPI_Get_elements(&st, MPI_2REAL, &n);
    CHECK(n == 4);
    /* 7 ints into pairs: 3 whole pairs and the value of the fourth */
    int seven[7] = { 0 }, got[8];
    MPI_Sendrecv(seven, 7, MPI_INT, 0, 11, got, 4, MPI_2INT, 0, 11,
                 MPI_COMM_SELF, &st);
    MPI_Get_elements(&st, MPI_2INT, &n);
    CHECK(n == 7);
    MPI_Get_count(&st, MPI_2INT, &n);
    CHECK(n == MPI_UNDEFINED);
    /* a derived type of pairs, and set_elements back */
    MPI_Type_contiguous(2, MPI_2INT, &t);
    MPI_Type_commit(&t);
    MPI_Status_set_elements(&st, t, 5);
    MPI_Get_elements(&st, t, &n);
    CHECK(n == 5);
    MPI_Get_elements(&st, MPI_INT, &n);
    CHECK(n == 5);              /* the bytes of 5 ints */
    MPI_Type_free(&t);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv, "datatype");
    bounds_typemaps();
    t_report("bounds-against-typemaps");
    bounds_more();
    t_report("bounds-every-constructor");
    bounds();
    t_report("size-extent-bounds-lb-ub");
    send_structs();
    t_report("struct-send-eager-long");
    columns();
    t_report("vector-column-to-contiguous");
    indexed();
    t_report("indexed-hindexed-pack-unpack");
    reduce_derived();
    t_report("reduce-on-derived");
    pair_elements();
    t_report("elements-of-pair-types");
    return t_finish();
}
