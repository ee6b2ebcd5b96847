/* SPDX-License-Identifier: MIT */
/* MPI-IO collective buffering (two-phase I/O, mpi/io_coll.c): a 2-D
 * array of NR x NC ints in blocks over a grid of ranks, each block a
 * subarray view, written by MPI_File_write_all
 *   - by the independent path (romio_cb_write=disable): the reference;
 *   - in two phases with 1, 2 and 4 aggregators (cb_nodes), with a
 *     small cb_buffer_size (many rounds) and a striping_unit (domains
 *     aligned to it) among them;
 * each file equal byte for byte to the reference and to the array as
 * computed here; only aggregators write, in few large writes (the
 * file_writes performance variable: the independent path writes a row
 * at a time); MPI_File_get_info gives the hints in use; then read back
 * with another decomposition (column blocks: whole columns per rank)
 * by MPI_File_read_all and _read_at_all through the aggregators, and a
 * read asking past the end of the file; hints that are not valid are
 * ignored (get_info shows the defaults).
 *
 * iocoll [FILE [AGGREGATORS]]: files FILE.* (default iocoll-JOB.dat.*,
 * deleted at the end); AGGREGATORS: how many aggregators the default
 * must be (yod -io N: N, one per I/O server).
 * iocoll full: 2 MiB of rank 0's (none of the others') written
 * collectively through 2 aggregators where the disk has less room (a
 * suite's small tmpfs): every rank's call must fail with
 * MPI_ERR_NO_SPACE, the aggregators' error being everyone's. */
#include <fcntl.h>
#include <unistd.h>
#include "mpitest.h"

#define NR 67
#define NC 45

static char path[256];
static MPI_T_pvar_session ses;
static MPI_T_pvar_handle writes = MPI_T_PVAR_HANDLE_NULL;

static int expect(int i, int j) { return i * 1000 + j + 11; }

static void block(int n, int p, int c, int *from, int *len)
{
    int q = n / p, r = n % p;

    *len = q + (c < r);
    *from = c * q + (c < r ? c : r);
}

/* Write calls this rank made since the last look (~0: no such counter). */
static unsigned long long writes_since(void)
{
    unsigned long long v = ~0ull;
    int i, n;

    if (writes == MPI_T_PVAR_HANDLE_NULL &&
        (MPI_T_pvar_get_index("file_writes", MPI_T_PVAR_CLASS_COUNTER,
                              &i) != 0 ||
         MPI_T_pvar_handle_alloc(ses, i, NULL, &writes, &n) != 0))
        return v;
    MPI_T_pvar_readreset(ses, writes, &v);
    return v;
}

static MPI_Info hints(const char *wr, const char *rd, int nodes,
                      int bufsize, int unit)
{
    MPI_Info info;
    char v[32];

    MPI_Info_create(&info);
    MPI_Info_set(info, "romio_cb_write", wr);
    MPI_Info_set(info, "romio_cb_read", rd);
    if (nodes > 0) {
        snprintf(v, sizeof(v), "%d", nodes);
        MPI_Info_set(info, "cb_nodes", v);
    }
    if (bufsize > 0) {
        snprintf(v, sizeof(v), "%d", bufsize);
        MPI_Info_set(info, "cb_buffer_size", v);
    }
    if (unit > 0) {
        snprintf(v, sizeof(v), "%d", unit);
        MPI_Info_set(info, "striping_unit", v);
    }
    return info;
}

static bool info_is(MPI_Info info, const char *key, const char *want)
{
    char v[MPI_MAX_INFO_VAL + 1];
    int flag = 0;

    MPI_Info_get(info, key, MPI_MAX_INFO_VAL, v, &flag);
    if (!flag || strcmp(v, want) != 0)
        fprintf(stderr, "rank %d: %s is %s, not %s\n", t_rank, key,
                flag ? v : "(unset)", want);
    return flag && strcmp(v, want) == 0;
}

/* This rank's block of the array through a subarray view, write_all. */
static void write_blocks(const char *name, MPI_Info info,
                         unsigned long long *my_writes)
{
    int dims[2] = { 0, 0 }, r0, nr, c0, nc, cnt;
    MPI_Datatype ftype;
    MPI_File fh;
    MPI_Status st;

    MPI_Dims_create(t_size, 2, dims);
    block(NR, dims[0], t_rank / dims[1], &r0, &nr);
    block(NC, dims[1], t_rank % dims[1], &c0, &nc);
    int *loc = malloc((size_t)(nr * nc + 1) * sizeof(int));
    for (int i = 0; i < nr; i++)
        for (int j = 0; j < nc; j++)
            loc[i * nc + j] = expect(r0 + i, c0 + j);
    int gs[2] = { NR, NC }, ls[2] = { nr, nc }, gst[2] = { r0, c0 };
    MPI_Type_create_subarray(2, gs, ls, gst, MPI_ORDER_C, MPI_INT, &ftype);
    MPI_Type_commit(&ftype);
    CHECK(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE |
                        MPI_MODE_WRONLY, info, &fh) == 0);
    MPI_File_set_view(fh, 0, MPI_INT, ftype, "native", MPI_INFO_NULL);
    writes_since();
    CHECK(MPI_File_write_all(fh, loc, nr * nc, MPI_INT, &st) == 0);
    *my_writes = writes_since();
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(cnt == nr * nc);
    MPI_File_close(&fh);
    MPI_Type_free(&ftype);
    free(loc);
}

/* The whole file, as plain bytes (rank 0). */
static int *slurp(const char *name)
{
    int *d = calloc(NR * NC + 1, sizeof(int)), fd = open(name, O_RDONLY);
    ssize_t n = fd >= 0 ? read(fd, d, (NR * NC + 1) * sizeof(int)) : -1;

    CHECK(n == (ssize_t)(NR * NC * sizeof(int)));
    if (fd >= 0)
        close(fd);
    return d;
}

static void same_as_reference(const char *name, const char *ref)
{
    if (t_rank != 0)
        return;
    int *a = slurp(name), *b = slurp(ref), ok = 1;
    for (int i = 0; i < NR; i++)
        for (int j = 0; j < NC; j++)
            ok &= a[i * NC + j] == expect(i, j);
    CHECK(ok);
    CHECK(memcmp(a, b, NR * NC * sizeof(int)) == 0);
    free(a);
    free(b);
}

/* Column blocks: all rows of this rank's columns, through aggregators;
 * at_all: by MPI_File_read_at_all at 0, else MPI_File_read_all. */
static void read_columns(const char *name, MPI_Info info, bool at_all)
{
    int c0, nc, ok = 1, cnt;
    MPI_Datatype ftype;
    MPI_File fh;
    MPI_Status st;

    block(NC, t_size, t_rank, &c0, &nc);
    int gs[2] = { NR, NC }, ls[2] = { NR, nc }, gst[2] = { 0, c0 };
    int *got = calloc((size_t)NR * nc + 1, sizeof(int));
    MPI_Type_create_subarray(2, gs, ls, gst, MPI_ORDER_C, MPI_INT, &ftype);
    MPI_Type_commit(&ftype);
    MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDONLY, info, &fh);
    MPI_File_set_view(fh, 0, MPI_INT, ftype, "native", MPI_INFO_NULL);
    if (at_all)
        CHECK(MPI_File_read_at_all(fh, 0, got, NR * nc, MPI_INT, &st) == 0);
    else
        CHECK(MPI_File_read_all(fh, got, NR * nc, MPI_INT, &st) == 0);
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(cnt == NR * nc);
    for (int i = 0; i < NR; i++)
        for (int j = 0; j < nc; j++)
            ok &= got[i * nc + j] == expect(i, c0 + j);
    CHECK(ok);
    /* past the end: the next tile of the view is beyond the file */
    if (!at_all) {
        CHECK(MPI_File_read_all(fh, got, nc, MPI_INT, &st) == 0);
        MPI_Get_count(&st, MPI_INT, &cnt);
        CHECK(cnt == 0);
    }
    MPI_File_close(&fh);
    MPI_Type_free(&ftype);
    free(got);
}

/* Collective buffering with k aggregators: the file, the writers, the
 * hints in use, the read back. */
static void with_aggregators(int k, int bufsize, int unit, const char *ref)
{
    char name[300], v[32];
    unsigned long long mine = 0, total = 0, writers = 0, one;
    int want = k < t_size ? k : t_size;
    MPI_Info info = hints("enable", "enable", k, bufsize, unit), used;
    MPI_File fh;

    snprintf(name, sizeof(name), "%s.cb%d", path, k);
    write_blocks(name, info, &mine);
    one = mine > 0;
    MPI_Allreduce(&mine, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM,
                  MPI_COMM_WORLD);
    MPI_Allreduce(&one, &writers, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM,
                  MPI_COMM_WORLD);
    /* only aggregators write; the ranks' pieces cover each window, so
     * one write per window: the file's bytes over the round size */
    size_t bytes = NR * NC * sizeof(int), round = bufsize ? bufsize
                                                          : 4 << 20;
    CHECK(writers >= 1 && writers <= (unsigned long long)want);
    CHECK(total >= 1 && total <= (bytes + round - 1) / round + want);
    same_as_reference(name, ref);
    /* the hints in use */
    MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDONLY, info, &fh);
    MPI_File_get_info(fh, &used);
    snprintf(v, sizeof(v), "%d", want);
    CHECK(info_is(used, "cb_nodes", v));
    CHECK(info_is(used, "romio_cb_write", "enable"));
    CHECK(info_is(used, "romio_cb_read", "enable"));
    snprintf(v, sizeof(v), "%d", bufsize ? bufsize : 4 << 20);
    CHECK(info_is(used, "cb_buffer_size", v));
    MPI_Info_free(&used);
    MPI_File_close(&fh);
    read_columns(name, info, k == 2);
    MPI_Info_free(&info);
    MPI_Barrier(MPI_COMM_WORLD);
    if (t_rank == 0)
        MPI_File_delete(name, MPI_INFO_NULL);
}

/* Hints that are no hints: ignored; the defaults in use. */
static void bad_hints(const char *ref, int aggregators)
{
    MPI_Info info, used;
    MPI_File fh;
    char n[32];
    int flag, nodes = 0;

    MPI_Info_create(&info);
    MPI_Info_set(info, "cb_nodes", "0");
    MPI_Info_set(info, "cb_buffer_size", "lots");
    MPI_Info_set(info, "romio_cb_write", "sometimes");
    MPI_File_open(MPI_COMM_WORLD, ref, MPI_MODE_RDONLY, info, &fh);
    MPI_File_get_info(fh, &used);
    CHECK(info_is(used, "romio_cb_write", "automatic"));
    CHECK(info_is(used, "romio_cb_read", "automatic"));
    CHECK(info_is(used, "cb_buffer_size", "4194304"));
    MPI_Info_get(used, "cb_nodes", 31, n, &flag);
    nodes = flag ? atoi(n) : 0;
    CHECK(nodes >= 1 && nodes <= t_size);
    if (aggregators > 0)
        CHECK(nodes == aggregators);
    MPI_Info_free(&used);
    /* MPI_File_set_info changes them (collective) */
    MPI_Info_set(info, "cb_nodes", "1");
    MPI_File_set_info(fh, info);
    MPI_File_get_info(fh, &used);
    CHECK(info_is(used, "cb_nodes", "1"));
    MPI_Info_free(&used);
    MPI_File_close(&fh);
    MPI_Info_free(&info);
}

static void full_disk(void)
{
    int n = 512 * 512, mine = t_rank == 0 ? n : 0, ok, cls, all;
    double *d = calloc((size_t)n, sizeof(double));
    MPI_Info info = hints("enable", "enable", 2, 0, 0);
    MPI_File fh;

    /* rank 0 has all the data, the others none: on its own a rank with
     * nothing to write succeeds; here the aggregators' error is its */
    CHECK(MPI_File_open(MPI_COMM_WORLD, "full.dat", MPI_MODE_CREATE |
                        MPI_MODE_WRONLY | MPI_MODE_DELETE_ON_CLOSE, info,
                        &fh) == 0);
    MPI_Error_class(MPI_File_write_at_all(fh, 0, d, mine, MPI_DOUBLE,
                                          MPI_STATUS_IGNORE), &cls);
    ok = cls == MPI_ERR_NO_SPACE;
    if (!ok)
        fprintf(stderr, "rank %d: write_at_all's class %d, not "
                "MPI_ERR_NO_SPACE\n", t_rank, cls);
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    CHECK(all);
    MPI_File_close(&fh);
    MPI_Info_free(&info);
    free(d);
}

int main(int argc, char **argv)
{
    int job = 0, prov, aggregators = argc > 2 ? atoi(argv[2]) : 0;
    char ref[300];
    unsigned long long w;
    MPI_Info off;

    t_init(&argc, &argv, "iocoll");
    MPI_T_init_thread(MPI_THREAD_SINGLE, &prov);
    MPI_T_pvar_session_create(&ses);
    if (t_rank == 0)
        job = (int)getpid();
    MPI_Bcast(&job, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (argc > 1 && strcmp(argv[1], "full") == 0) {
        full_disk();
        t_report("full-disk-no-space-everywhere");
        return t_finish();
    }
    if (argc > 1)
        snprintf(path, sizeof(path), "%s", argv[1]);
    else
        snprintf(path, sizeof(path), "iocoll-%d.dat", job);
    snprintf(ref, sizeof(ref), "%s.independent", path);
    off = hints("disable", "disable", 0, 0, 0);
    write_blocks(ref, off, &w);
    MPI_Info_free(&off);
    same_as_reference(ref, ref);
    t_report("independent-reference");
    with_aggregators(1, 0, 0, ref);
    t_report("cb-1-aggregator");
    with_aggregators(2, 1000, 0, ref);        /* many rounds */
    t_report("cb-2-aggregators-small-buffer");
    with_aggregators(4, 0, 256, ref);         /* domains at 256 bytes */
    t_report("cb-4-aggregators-striping-unit");
    bad_hints(ref, aggregators);
    t_report("hints-ignored-defaults-set-info");
    MPI_Barrier(MPI_COMM_WORLD);
    if (t_rank == 0)
        MPI_File_delete(ref, MPI_INFO_NULL);
    if (writes != MPI_T_PVAR_HANDLE_NULL)
        MPI_T_pvar_handle_free(ses, &writes);
    MPI_T_pvar_session_free(&ses);
    MPI_T_finalize();
    return t_finish();
}
