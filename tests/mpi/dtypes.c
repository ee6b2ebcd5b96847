/* SPDX-License-Identifier: MIT */
/* The predefined types MPI-2.2 and MPI-3 added (MPI_WCHAR, MPI_C_BOOL,
 * the complex types of C, C++ and Fortran, the Fortran types and pairs,
 * MPI_AINT, _OFFSET, _COUNT): names, sizes, and the reduction ops the
 * standard's table (5.9.2) allows on each class, every other refused;
 * results against the arithmetic done here.  external32 (4.2, 13.5.2):
 * the bytes Pack_external writes, computed here, and back.  The F90
 * parameterized types and MPI_Type_match_size (17.1.9). */
#include <complex.h>
#include "mpitest.h"

struct named { MPI_Datatype t; const char *name; size_t size; int cls; };
enum { CI, FI, FL, CX, LG, BY, NO };    /* the table's groups */

static const struct named types[] = {
    { MPI_INT, "MPI_INT", sizeof(int), CI },
    { MPI_WCHAR, "MPI_WCHAR", 4, NO },
    { MPI_C_BOOL, "MPI_C_BOOL", 1, LG },
    { MPI_CXX_BOOL, "MPI_CXX_BOOL", 1, LG },
    { MPI_C_FLOAT_COMPLEX, "MPI_C_FLOAT_COMPLEX", 8, CX },
    { MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX", 16, CX },
    { MPI_C_LONG_DOUBLE_COMPLEX, "MPI_C_LONG_DOUBLE_COMPLEX", 32, CX },
    { MPI_CXX_FLOAT_COMPLEX, "MPI_CXX_FLOAT_COMPLEX", 8, CX },
    { MPI_CXX_DOUBLE_COMPLEX, "MPI_CXX_DOUBLE_COMPLEX", 16, CX },
    { MPI_AINT, "MPI_AINT", sizeof(MPI_Aint), CI },
    { MPI_OFFSET, "MPI_OFFSET", 8, CI },
    { MPI_COUNT, "MPI_COUNT", 8, CI },
    { MPI_INTEGER, "MPI_INTEGER", 4, FI },
    { MPI_REAL, "MPI_REAL", 4, FL },
    { MPI_DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION", 8, FL },
    { MPI_COMPLEX, "MPI_COMPLEX", 8, CX },
    { MPI_DOUBLE_COMPLEX, "MPI_DOUBLE_COMPLEX", 16, CX },
    { MPI_LOGICAL, "MPI_LOGICAL", 4, LG },
    { MPI_CHARACTER, "MPI_CHARACTER", 1, NO },
    { MPI_INTEGER1, "MPI_INTEGER1", 1, FI },
    { MPI_INTEGER2, "MPI_INTEGER2", 2, FI },
    { MPI_INTEGER4, "MPI_INTEGER4", 4, FI },
    { MPI_INTEGER8, "MPI_INTEGER8", 8, FI },
    { MPI_INTEGER16, "MPI_INTEGER16", 16, FI },
    { MPI_REAL4, "MPI_REAL4", 4, FL },
    { MPI_REAL8, "MPI_REAL8", 8, FL },
    { MPI_REAL16, "MPI_REAL16", 16, FL },
    { MPI_COMPLEX8, "MPI_COMPLEX8", 8, CX },
    { MPI_COMPLEX16, "MPI_COMPLEX16", 16, CX },
    { MPI_COMPLEX32, "MPI_COMPLEX32", 32, CX },
    { MPI_BYTE, "MPI_BYTE", 1, BY },
};
#define NTYPES (int)(sizeof(types) / sizeof(types[0]))

static MPI_Op ops[] = { MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND,
                        MPI_LOR, MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR };

/* 5.9.2: which groups each op takes */
static bool allowed(int op, int cls)
{
    switch (op) {
    case 0: case 1: return cls == CI || cls == FI || cls == FL;
    case 2: case 3: return cls == CI || cls == FI || cls == FL || cls == CX;
    case 4: case 5: case 6: return cls == CI || cls == LG;
    default: return cls == CI || cls == FI || cls == BY;
    }
}

static void names_sizes_ops(void)
{
    char name[MPI_MAX_OBJECT_NAME];
    unsigned char a[64] = { 0 }, b[64] = { 0 };
    int len, size, nc, na, nt, comb;

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int i = 0; i < NTYPES; i++) {
        MPI_Type_get_name(types[i].t, name, &len);
        CHECK(strcmp(name, types[i].name) == 0);
        MPI_Type_size(types[i].t, &size);
        CHECK(size == (int)types[i].size);
        MPI_Type_get_envelope(types[i].t, &nc, &na, &nt, &comb);
        CHECK(comb == MPI_COMBINER_NAMED);
        for (int o = 0; o < (int)(sizeof(ops) / sizeof(ops[0])); o++) {
            int rc = MPI_Reduce_local(a, b, 1, types[i].t, ops[o]);
            if (allowed(o, types[i].cls) != (rc == MPI_SUCCESS))
                fprintf(stderr, "%s op %d: %d\n", types[i].name, o, rc);
            CHECK(allowed(o, types[i].cls) == (rc == MPI_SUCCESS));
        }
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    /* a C and a Fortran type of one layout are two types */
    CHECK(MPI_INTEGER != MPI_INT && MPI_REAL != MPI_FLOAT &&
          MPI_C_COMPLEX == MPI_C_FLOAT_COMPLEX);
}

static void arithmetic(int n)
{
    /* complex product and sum of everyone's values, against the same in C */
    double complex mine = (1.0 + t_rank) + (0.5 * t_rank) * I, p = 1, s = 0;
    double complex gotp, gots;
    for (int r = 0; r < n; r++) {
        double complex v = (1.0 + r) + (0.5 * r) * I;
        p *= v;
        s += v;
    }
    MPI_Allreduce(&mine, &gotp, 1, MPI_C_DOUBLE_COMPLEX, MPI_PROD,
                  MPI_COMM_WORLD);
    MPI_Allreduce(&mine, &gots, 1, MPI_DOUBLE_COMPLEX, MPI_SUM,
                  MPI_COMM_WORLD);
    CHECK(cabs(gotp - p) < 1e-9 * cabs(p) && cabs(gots - s) < 1e-12);
    float complex fm = t_rank + 2.0f * I, fs;
    MPI_Allreduce(&fm, &fs, 1, MPI_COMPLEX, MPI_SUM, MPI_COMM_WORLD);
    CHECK(crealf(fs) == n * (n - 1) / 2.0f && cimagf(fs) == 2.0f * n);
    /* logicals: Fortran's (any nonzero true; results 1 or 0, once an op
     * combined two) and C's */
    int lg[3] = { t_rank == 0 ? 5 : 1, t_rank == n - 1, 0 }, lr[3];
    MPI_Allreduce(lg, lr, 3, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD);
    CHECK(lr[0] == (n == 1 ? 5 : 1) && lr[1] == (n == 1) && lr[2] == 0);
    MPI_Allreduce(lg, lr, 3, MPI_LOGICAL, MPI_LXOR, MPI_COMM_WORLD);
    CHECK(lr[0] == (n == 1 ? 5 : n % 2) && lr[1] == 1 && lr[2] == 0);
    bool cb = t_rank % 2, cr;
    MPI_Allreduce(&cb, &cr, 1, MPI_C_BOOL, MPI_LOR, MPI_COMM_WORLD);
    CHECK(cr == (n > 1));
    /* Fortran pairs: the largest value and its (smallest) index */
    float rp[2] = { (float)(t_rank % 2), (float)t_rank }, rq[2];
    MPI_Allreduce(rp, rq, 1, MPI_2REAL, MPI_MAXLOC, MPI_COMM_WORLD);
    CHECK(rq[0] == (n > 1) && rq[1] == (n > 1));
    double dp[2] = { -t_rank, t_rank }, dq[2];
    MPI_Allreduce(dp, dq, 1, MPI_2DOUBLE_PRECISION, MPI_MINLOC,
                  MPI_COMM_WORLD);
    CHECK(dq[0] == -(n - 1) && dq[1] == n - 1);
    int ip[2] = { 7, t_rank }, iq[2];
    MPI_Allreduce(ip, iq, 1, MPI_2INTEGER, MPI_MAXLOC, MPI_COMM_WORLD);
    CHECK(iq[0] == 7 && iq[1] == 0);
    /* 128-bit integers and quads */
    __int128 big = ((__int128)1 << 100) + t_rank, bs;
    MPI_Allreduce(&big, &bs, 1, MPI_INTEGER16, MPI_SUM, MPI_COMM_WORLD);
    CHECK(bs == ((__int128)n << 100) + n * (n - 1) / 2);
    __float128 q = 1 + t_rank, qm;
    MPI_Allreduce(&q, &qm, 1, MPI_REAL16, MPI_MAX, MPI_COMM_WORLD);
    CHECK(qm == n);
    MPI_Aint ai = t_rank, am;
    MPI_Allreduce(&ai, &am, 1, MPI_AINT, MPI_BXOR, MPI_COMM_WORLD);
    MPI_Aint want = 0;
    for (int r = 0; r < n; r++)
        want ^= r;
    CHECK(am == want);
}

/* external32: big-endian, the standard's sizes */
static void external32(void)
{
    struct { int i; long l; double d; short s; } in = { 0x01020304, -2,
                                                       1.0, -3 }, out;
    MPI_Datatype st, ts[4] = { MPI_INT, MPI_LONG, MPI_DOUBLE, MPI_SHORT };
    int bl[4] = { 1, 1, 1, 1 };
    MPI_Aint ds[4] = { offsetof(__typeof__(in), i), offsetof(__typeof__(in),
                       l), offsetof(__typeof__(in), d),
                       offsetof(__typeof__(in), s) }, size, pos = 0;
    unsigned char buf[64], want[18] = { 1, 2, 3, 4,     /* int */
                                        0xff, 0xff, 0xff, 0xfe, /* long: 4 */
                                        0x3f, 0xf0, 0, 0, 0, 0, 0, 0,
                                        0xff, 0xfd };   /* short */

    MPI_Type_create_struct(4, bl, ds, ts, &st);
    MPI_Type_commit(&st);
    MPI_Pack_external_size("external32", 1, st, &size);
    CHECK(size == 18);
    MPI_Pack_external("external32", &in, 1, st, buf, sizeof(buf), &pos);
    CHECK(pos == 18 && memcmp(buf, want, 18) == 0);
    memset(&out, 0, sizeof(out));
    pos = 0;
    MPI_Unpack_external("external32", buf, 18, &pos, &out, 1, st);
    CHECK(pos == 18 && out.i == in.i && out.l == -2 && out.d == 1.0 &&
          out.s == -3);
    /* long double: an IEEE quad, 1.0 is 3fff 0000 ...; back exactly */
    long double ld = 1.0L, lb;
    pos = 0;
    MPI_Pack_external("external32", &ld, 1, MPI_LONG_DOUBLE, buf, 64, &pos);
    CHECK(pos == 16 && buf[0] == 0x3f && buf[1] == 0xff && buf[2] == 0 &&
          buf[15] == 0);
    pos = 0;
    MPI_Unpack_external("external32", buf, 16, &pos, &lb, 1,
                        MPI_LONG_DOUBLE);
    CHECK(lb == 1.0L);
    /* a long past 32 bits cannot be external32's MPI_LONG */
    long huge = 1L << 40;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    pos = 0;
    int rc = MPI_Pack_external("external32", &huge, 1, MPI_LONG, buf, 64,
                               &pos), cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_CONVERSION && pos == 0);
    rc = MPI_Pack_external("native", &in, 1, st, buf, 64, &pos);
    CHECK(rc != MPI_SUCCESS);
    pos = 0;
    CHECK(MPI_Pack_external("external32", &in, 1, st, buf, 10, &pos) ==
          MPI_ERR_TRUNCATE);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Type_free(&st);
}

static void f90_and_match(void)
{
    MPI_Datatype t, u, m;
    int size, nc, na, nt, comb, ints[2];
    MPI_Aint a;

    MPI_Type_create_f90_real(10, 100, &t);
    MPI_Type_create_f90_real(10, 100, &u);
    MPI_Type_size(t, &size);
    CHECK(t == u && size == 8);         /* REAL(8) holds 10 digits */
    MPI_Type_get_envelope(t, &nc, &na, &nt, &comb);
    CHECK(comb == MPI_COMBINER_F90_REAL && nc == 2 && na == 0 && nt == 0);
    MPI_Type_get_contents(t, 2, 0, 0, ints, &a, &m);
    CHECK(ints[0] == 10 && ints[1] == 100);
    MPI_Type_create_f90_real(5, MPI_UNDEFINED, &t);
    MPI_Type_size(t, &size);
    CHECK(size == 4);
    MPI_Type_create_f90_complex(30, MPI_UNDEFINED, &t);
    MPI_Type_size(t, &size);
    CHECK(size == 32);
    MPI_Type_create_f90_integer(9, &t);
    MPI_Type_size(t, &size);
    MPI_Type_get_envelope(t, &nc, &na, &nt, &comb);
    CHECK(size == 4 && comb == MPI_COMBINER_F90_INTEGER && nc == 1);
    int v = t_rank + 1, s = 0;
    MPI_Allreduce(&v, &s, 1, t, MPI_SUM, MPI_COMM_WORLD);
    CHECK(s == t_size * (t_size + 1) / 2);
    MPI_Type_create_f90_integer(19, &t);
    MPI_Type_size(t, &size);
    CHECK(size == 16);
    MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, &m);
    CHECK(m == MPI_REAL8);
    MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 2, &m);
    CHECK(m == MPI_INTEGER2);
    MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 16, &m);
    CHECK(m == MPI_COMPLEX16);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(MPI_Type_match_size(MPI_TYPECLASS_REAL, 3, &m) != MPI_SUCCESS &&
          m == MPI_DATATYPE_NULL);
    CHECK(MPI_Type_create_f90_real(40, 10, &t) != MPI_SUCCESS);
    CHECK(MPI_Type_free(&u) != MPI_SUCCESS);    /* predefined */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv, "dtypes");
    names_sizes_ops();
    t_report("names-sizes-ops-of-5.9.2");
    arithmetic(t_size);
    t_report("complex-logical-pairs-int128-quad");
    external32();
    t_report("external32");
    f90_and_match();
    t_report("f90-types-match-size");
    return t_finish();
}
