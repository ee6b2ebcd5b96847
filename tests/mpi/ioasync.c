/* SPDX-License-Identifier: MIT */
/* MPI-IO's nonblocking independent calls over POSIX aio (mpi/io_async.c):
 * each rank starts a 4 MiB MPI_File_iwrite_at of its block and computes
 * before MPI_Wait; the call must have started an aio operation (the
 * file_aio_ops performance variable) and, on the compute nodes (newlib
 * or a Linux program: mpicc --linux-node), must not be complete when it
 * returns (the I/O server moves the bytes while the
 * rank computes: before, the call did it all).  Then: an iread_at into a
 * strided memory type (unpacked at completion), four requests
 * outstanding at once finished by MPI_Waitall beside a message, the
 * individual pointer moved by what was asked at the call, the shared
 * pointer's calls, a view with holes (done at the call, still right),
 * MPI_Test polling until done, a file closed with a write pending (the
 * write lands, its request completes); every byte checked.
 *
 * ioasync [FILE]: the file (default ioasync-JOB.dat, deleted at the end). */
#include <unistd.h>
#include "mpitest.h"

#define BLOCK (4 << 20)
#define SMALL 4096

static char path[256];
static MPI_T_pvar_session ses;

static unsigned char byte_of(int rank, long i)
{
    return (unsigned char)(rank * 31 + i * 7 + (i >> 12));
}

/* The library's counter `name` now; ~0 if it has none. */
static unsigned long long counter(const char *name)
{
    MPI_T_pvar_handle h;
    unsigned long long v = ~0ull;
    int i, n;

    if (MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &i) != 0 ||
        MPI_T_pvar_handle_alloc(ses, i, NULL, &h, &n) != 0)
        return v;
    MPI_T_pvar_read(ses, h, &v);
    MPI_T_pvar_handle_free(ses, &h);
    return v;
}

/* Something to do meanwhile: about 30 ms of arithmetic on a node. */
static volatile double sink;
static void compute(void)
{
    double x = 1.0;

    for (long i = 1; i < 3000000; i++)
        x += 1.0 / (double)i;
    sink = x;
}

static void overlap(MPI_File fh)
{
    unsigned char *b = malloc(BLOCK), *back = malloc(BLOCK);
    unsigned long long before = counter("file_aio_ops");
    MPI_Request q;
    MPI_Status st;
    int flag = 1, cnt, ok = 1;

    for (long i = 0; i < BLOCK; i++)
        b[i] = byte_of(t_rank, i);
    CHECK(MPI_File_iwrite_at(fh, (MPI_Offset)t_rank * BLOCK, b, BLOCK,
                             MPI_BYTE, &q) == MPI_SUCCESS);
    CHECK(counter("file_aio_ops") == before + 1);
#if defined(__lwk__)
    /* the server has 4 MiB to Get off this node: not done yet (a Linux
     * program's too: io_submit, lxrt/rt_aio.c) */
    MPI_Test(&q, &flag, MPI_STATUS_IGNORE);
    CHECK(!flag);
#endif
    compute();
    if (flag)
        MPI_Wait(&q, &st);
    else
        CHECK(MPI_Wait(&q, &st) == MPI_SUCCESS);
    MPI_Get_count(&st, MPI_BYTE, &cnt);
    CHECK(cnt == BLOCK && q == MPI_REQUEST_NULL);
    /* read it back as every 4th KiB into a strided type, polling */
    MPI_Datatype strided;
    MPI_Type_vector(BLOCK / SMALL / 4, SMALL, 4 * SMALL, MPI_BYTE, &strided);
    MPI_Type_commit(&strided);
    memset(back, 0, BLOCK);
    MPI_File_iread_at(fh, (MPI_Offset)t_rank * BLOCK, back, 1, strided, &q);
    do {
        compute();
        MPI_Test(&q, &flag, &st);
    } while (!flag);
    MPI_Get_count(&st, MPI_BYTE, &cnt);
    CHECK(cnt == BLOCK / 4);
    for (long k = 0; k < BLOCK / SMALL / 4; k++)
        for (long j = 0; j < SMALL; j++)
            ok &= back[k * 4 * SMALL + j] == b[k * SMALL + j] &&
                  back[k * 4 * SMALL + SMALL + j] == 0;
    CHECK(ok);
    MPI_Type_free(&strided);
    free(b);
    free(back);
}

/* Four writes outstanding at once and a message, one MPI_Waitall. */
static void outstanding(MPI_File fh)
{
    MPI_Offset base = (MPI_Offset)t_size * BLOCK + (MPI_Offset)t_rank * 4 *
                      SMALL;
    unsigned char w[4][SMALL], r[4 * SMALL];
    MPI_Request q[6];
    MPI_Status st[6];
    int token = t_rank, got = -1, ok = 1, cnt;
    unsigned long long before = counter("file_aio_ops");

    for (int k = 0; k < 4; k++) {
        memset(w[k], 'a' + t_rank * 4 + k, SMALL);
        /* the last first */
        MPI_File_iwrite_at(fh, base + (3 - k) * SMALL, w[k], SMALL, MPI_BYTE,
                           &q[k]);
    }
    MPI_Irecv(&got, 1, MPI_INT, (t_rank + t_size - 1) % t_size, 5,
              MPI_COMM_WORLD, &q[4]);
    MPI_Isend(&token, 1, MPI_INT, (t_rank + 1) % t_size, 5, MPI_COMM_WORLD,
              &q[5]);
    CHECK(counter("file_aio_ops") == before + 4);
    CHECK(MPI_Waitall(6, q, st) == MPI_SUCCESS);
    for (int k = 0; k < 4; k++) {
        MPI_Get_count(&st[k], MPI_BYTE, &cnt);
        ok &= cnt == SMALL;
    }
    CHECK(ok && got == (t_rank + t_size - 1) % t_size);
    MPI_File_read_at(fh, base, r, 4 * SMALL, MPI_BYTE, MPI_STATUS_IGNORE);
    for (int k = 0; k < 4; k++)
        for (int j = 0; j < SMALL; j++)
            ok &= r[k * SMALL + j] == 'a' + t_rank * 4 + (3 - k);
    CHECK(ok);
}

/* The individual pointer moves by what was asked, at the call; the
 * shared one gives each rank a part of its own. */
static void pointers(void)
{
    char mine[300];
    int v[100], r[100], ok = 1, cnt;
    MPI_File fh;
    MPI_Offset pos;
    MPI_Request q;
    MPI_Status st;

    snprintf(mine, sizeof(mine), "%s.%d", path, t_rank);
    MPI_File_delete(mine, MPI_INFO_NULL);      /* a failed run's */
    MPI_File_open(MPI_COMM_SELF, mine, MPI_MODE_CREATE | MPI_MODE_RDWR,
                  MPI_INFO_NULL, &fh);
    MPI_File_set_view(fh, 16, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
    for (int i = 0; i < 100; i++)
        v[i] = i * i + t_rank;
    unsigned long long before = counter("file_aio_ops");
    MPI_File_iwrite(fh, v, 100, MPI_INT, &q);
    MPI_File_get_position(fh, &pos);
    CHECK(pos == 100 && counter("file_aio_ops") == before + 1);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    MPI_File_seek(fh, 10, MPI_SEEK_SET);
    MPI_File_iread(fh, r, 90, MPI_INT, &q);
    MPI_File_get_position(fh, &pos);
    CHECK(pos == 100);
    MPI_Wait(&q, &st);
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(cnt == 90 && r[0] == v[10] && r[89] == v[99]);
    /* past the end: what there is */
    MPI_File_iread_at(fh, 95, r, 10, MPI_INT, &q);
    MPI_Wait(&q, &st);
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(cnt == 5 && r[4] == v[99]);
    /* a view with holes: every other int, done at the call */
    MPI_Datatype two, every2;
    MPI_Type_contiguous(1, MPI_INT, &two);
    MPI_Type_create_resized(two, 0, 2 * sizeof(int), &every2);
    MPI_Type_commit(&every2);
    MPI_File_set_view(fh, 16, MPI_INT, every2, "native", MPI_INFO_NULL);
    before = counter("file_aio_ops");
    MPI_File_iread_at(fh, 0, r, 50, MPI_INT, &q);
    CHECK(counter("file_aio_ops") == before);
    MPI_Wait(&q, &st);
    MPI_Get_count(&st, MPI_INT, &cnt);
    for (int i = 0; i < 50; i++)
        ok &= r[i] == v[2 * i];
    CHECK(cnt == 50 && ok);
    MPI_Type_free(&two);
    MPI_Type_free(&every2);
    /* closed with three writes pending (erroneous, but they land in
     * this file and their requests complete: on a node one is in
     * flight, the others queued behind it on the closed descriptor) */
    MPI_Request w[3];
    MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
    for (int k = 0; k < 3; k++)
        MPI_File_iwrite_at(fh, 1000 + 100 * k, v, 100, MPI_INT, &w[k]);
    MPI_File_close(&fh);
    for (int k = 0; k < 3; k++) {
        CHECK(MPI_Wait(&w[k], &st) == MPI_SUCCESS);
        MPI_Get_count(&st, MPI_INT, &cnt);
        CHECK(cnt == 100);
    }
    MPI_File_open(MPI_COMM_SELF, mine, MPI_MODE_RDWR |
                  MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh);
    MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
    for (int k = 0; k < 3; k++) {
        memset(r, 0, sizeof(r));
        MPI_File_read_at(fh, 1000 + 100 * k, r, 100, MPI_INT, &st);
        MPI_Get_count(&st, MPI_INT, &cnt);
        CHECK(cnt == 100 && memcmp(r, v, sizeof(v)) == 0);
    }
    MPI_File_close(&fh);
}

static void shared(void)
{
    char name[300];
    int v[64], r[64], ok = 1;
    MPI_File fh;
    MPI_Request q;

    snprintf(name, sizeof(name), "%s.shared", path);
    MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR |
                  MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh);
    MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
    for (int i = 0; i < 64; i++)
        v[i] = t_rank << 16 | i;
    unsigned long long before = counter("file_aio_ops");
    MPI_File_iwrite_shared(fh, v, 64, MPI_INT, &q);
    CHECK(counter("file_aio_ops") == before + 1);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    /* every rank's 64 are somewhere, whole, in a part of their own */
    for (int k = 0; k < t_size; k++) {
        MPI_File_read_at(fh, (MPI_Offset)k * 64, r, 64, MPI_INT,
                         MPI_STATUS_IGNORE);
        for (int i = 0; i < 64; i++)
            ok &= (r[i] & 0xffff) == i && (r[i] >> 16) == (r[0] >> 16);
    }
    CHECK(ok);
    MPI_File_close(&fh);
}

int main(int argc, char **argv)
{
    int job = 0, prov;
    MPI_File fh;

    t_init(&argc, &argv, "ioasync");
    MPI_T_init_thread(MPI_THREAD_SINGLE, &prov);
    MPI_T_pvar_session_create(&ses);
    if (t_rank == 0)
        job = (int)getpid();
    MPI_Bcast(&job, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (argc > 1)
        snprintf(path, sizeof(path), "%s", argv[1]);
    else
        snprintf(path, sizeof(path), "ioasync-%d.dat", job);
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR |
                  MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh);
    overlap(fh);
    t_report("iwrite-at-overlaps-computation");
    outstanding(fh);
    t_report("four-outstanding-and-a-message-waitall");
    MPI_File_close(&fh);
    pointers();
    t_report("pointer-moves-at-call-holes-done-at-call");
    shared();
    t_report("iwrite-shared");
    MPI_T_pvar_session_free(&ses);
    MPI_T_finalize();
    return t_finish();
}
