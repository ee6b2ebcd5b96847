/* SPDX-License-Identifier: MIT */
/* The MPI tool information interface (MPI-3.1 14.3), as a profiler uses
 * it: before MPI_Init, every variable and category listed and found
 * again by name; then the performance variables against what the test
 * itself does (k messages of b bytes sent: the counters move by exactly
 * that; messages sent to a rank that has not posted their receive: the
 * unexpected queue holds them, and is empty once they are received;
 * receives posted: the posted queue); the eager limit set lower, and a
 * message past it then fetched; what may not be done refused. */
#include <unistd.h>
#include "mpitest.h"

static MPI_T_pvar_session ses;

static int pvar(const char *name, int cls, MPI_T_pvar_handle *h)
{
    int i = -1, n;

    CHECK(MPI_T_pvar_get_index(name, cls, &i) == MPI_SUCCESS);
    CHECK(MPI_T_pvar_handle_alloc(ses, i, NULL, h, &n) == MPI_SUCCESS &&
          n == 1);
    return i;
}

static unsigned long long rd(MPI_T_pvar_handle h)
{
    unsigned long long v = ~0ull;

    CHECK(MPI_T_pvar_read(ses, h, &v) == MPI_SUCCESS);
    return v;
}

/* Every variable and category: its info, and its name gives it back. */
static void listing(void)
{
    int n = -1, k, len, verb, cls, bind, ro, cont, at, scope;
    char name[128], desc[512];
    MPI_Datatype dt;
    MPI_T_enum en;

    CHECK(MPI_T_pvar_get_num(&n) == MPI_SUCCESS && n >= 6);
    for (int i = 0; i < n; i++) {
        int dl = sizeof desc;
        len = sizeof name;
        CHECK(MPI_T_pvar_get_info(i, name, &len, &verb, &cls, &dt, &en,
                                  desc, &dl, &bind, &ro, &cont, &at) == 0);
        CHECK(len == (int)strlen(name) + 1 && dl > 1);
        CHECK(MPI_T_pvar_get_index(name, cls, &k) == 0 && k == i);
        CHECK(bind == MPI_T_BIND_NO_OBJECT && cont);
    }
    CHECK(MPI_T_cvar_get_num(&n) == MPI_SUCCESS && n >= 2);
    for (int i = 0; i < n; i++) {
        int dl = sizeof desc;
        len = sizeof name;
        CHECK(MPI_T_cvar_get_info(i, name, &len, &verb, &dt, &en, desc, &dl,
                                  &bind, &scope) == 0 && dt == MPI_INT);
        CHECK(MPI_T_cvar_get_index(name, &k) == 0 && k == i);
    }
    CHECK(MPI_T_category_get_num(&n) == MPI_SUCCESS && n >= 1);
    int p2p = -1, sent = -1, np = 0, nc, ncat, idx[32];
    CHECK(MPI_T_category_get_index("point_to_point", &p2p) == 0);
    len = sizeof name;
    int dl = sizeof desc;
    MPI_T_category_get_info(p2p, name, &len, desc, &dl, &nc, &np, &ncat);
    CHECK(strcmp(name, "point_to_point") == 0 && np > 0 && np <= 32);
    MPI_T_pvar_get_index("msgs_sent", MPI_T_PVAR_CLASS_COUNTER, &sent);
    MPI_T_category_get_pvars(p2p, np, idx);
    bool found = false;
    for (int i = 0; i < np; i++)
        found |= idx[i] == sent;
    CHECK(found);
    /* a short buffer: cut, NUL-terminated, the whole length told */
    char small[4];
    len = sizeof small;
    MPI_T_pvar_get_info(sent, small, &len, NULL, NULL, NULL, NULL, NULL,
                        NULL, NULL, NULL, NULL, NULL);
    CHECK(strcmp(small, "msg") == 0 && len == (int)strlen("msgs_sent") + 1);
    CHECK(MPI_T_cvar_get_index("no_such_variable", &k) ==
          MPI_T_ERR_INVALID_NAME);
    CHECK(MPI_T_pvar_get_info(-1, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                              NULL, NULL, NULL, NULL, NULL) ==
          MPI_T_ERR_INVALID_INDEX);
}

static void counters(void)
{
    MPI_T_pvar_handle sent, bytes, recvd, sent2;
    MPI_T_pvar_session s2;
    int to = (t_rank + 1) % t_size, from = (t_rank + t_size - 1) % t_size;
    char out[100] = { 0 }, in[10][100];
    MPI_Request rq[20];
    int n = 0;

    pvar("msgs_sent", MPI_T_PVAR_CLASS_COUNTER, &sent);
    pvar("bytes_sent", MPI_T_PVAR_CLASS_COUNTER, &bytes);
    pvar("msgs_received", MPI_T_PVAR_CLASS_COUNTER, &recvd);
    MPI_T_pvar_reset(ses, MPI_T_PVAR_ALL_HANDLES);
    CHECK(rd(sent) == 0 && rd(bytes) == 0 && rd(recvd) == 0);
    for (int i = 0; i < 10; i++) {
        MPI_Irecv(in[i], 100, MPI_CHAR, from, 6, MPI_COMM_WORLD, &rq[n++]);
        MPI_Isend(out, 100, MPI_CHAR, to, 6, MPI_COMM_WORLD, &rq[n++]);
    }
    MPI_Waitall(n, rq, MPI_STATUSES_IGNORE);
    CHECK(rd(sent) == 10 && rd(bytes) == 1000 && rd(recvd) == 10);
    /* a handle in another session keeps its own zero */
    MPI_T_pvar_session_create(&s2);
    int i;
    MPI_T_pvar_get_index("msgs_sent", MPI_T_PVAR_CLASS_COUNTER, &i);
    MPI_T_pvar_handle_alloc(s2, i, NULL, &sent2, &n);
    unsigned long long v = 99;
    CHECK(MPI_T_pvar_readreset(ses, sent, &v) == MPI_SUCCESS && v == 10);
    CHECK(rd(sent) == 0);
    CHECK(MPI_T_pvar_read(s2, sent2, &v) == 0 && v >= 10);
    /* a handle belongs to its session */
    CHECK(MPI_T_pvar_read(ses, sent2, &v) == MPI_T_ERR_INVALID_HANDLE);
    CHECK(MPI_T_pvar_start(ses, sent) == MPI_T_ERR_PVAR_NO_STARTSTOP);
    MPI_T_pvar_handle_free(s2, &sent2);
    MPI_T_pvar_session_free(&s2);
    CHECK(s2 == MPI_T_PVAR_SESSION_NULL);
}

/* Rank 1 sends rank 0 five messages before rank 0 receives: rank 0's
 * unexpected queue holds five more than before, then none more. */
static void queues(void)
{
    MPI_T_pvar_handle uq, pq, fs;
    unsigned long long base;
    MPI_Request rq[5];
    int v[5] = { 0 }, flag = 0;

    pvar("unexpected_recvq_length", MPI_T_PVAR_CLASS_LEVEL, &uq);
    pvar("posted_recvq_length", MPI_T_PVAR_CLASS_LEVEL, &pq);
    pvar("flowctl_state", MPI_T_PVAR_CLASS_STATE, &fs);
    CHECK(MPI_T_pvar_reset(ses, uq) == MPI_T_ERR_PVAR_NO_WRITE);
    base = rd(uq);
    MPI_Barrier(MPI_COMM_WORLD);
    if (t_rank == 1) {
        for (int i = 0; i < 5; i++)
            MPI_Isend(&v[i], 1, MPI_INT, 0, 7, MPI_COMM_WORLD, &rq[i]);
        MPI_Waitall(5, rq, MPI_STATUSES_IGNORE);
    }
    if (t_rank == 0 && t_size > 1) {
        double t0 = MPI_Wtime();
        while (rd(uq) < base + 5 && MPI_Wtime() - t0 < 20)
            MPI_Iprobe(1, 99, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        CHECK(rd(uq) == base + 5);
        for (int i = 0; i < 5; i++)
            MPI_Recv(&v[i], 1, MPI_INT, 1, 7, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        CHECK(rd(uq) == base);
    }
    /* nobody else sends rank 0 anything before it has looked (a
     * broadcast from it: no message to it) */
    MPI_Bcast(&flag, 1, MPI_INT, 0, MPI_COMM_WORLD);
    /* three receives nobody sends to wait in the posted queue */
    unsigned long long p0 = rd(pq);
    for (int i = 0; i < 3; i++)
        MPI_Irecv(&v[i], 1, MPI_INT, MPI_ANY_SOURCE, 8, MPI_COMM_WORLD,
                  &rq[i]);
    CHECK(rd(pq) == p0 + 3);
    for (int i = 0; i < 3; i++) {
        MPI_Cancel(&rq[i]);
        MPI_Wait(&rq[i], MPI_STATUS_IGNORE);
    }
    CHECK(rd(pq) == p0);
    int state = -1, num = 0, val = -1, len = 32;
    char name[32];
    MPI_T_enum en;
    int i;
    CHECK(MPI_T_pvar_read(ses, fs, &state) == 0 && state == 0);
    MPI_T_pvar_get_index("flowctl_state", MPI_T_PVAR_CLASS_STATE, &i);
    MPI_T_pvar_get_info(i, NULL, NULL, NULL, NULL, NULL, &en, NULL, NULL,
                        NULL, NULL, NULL, NULL);
    CHECK(MPI_T_enum_get_info(en, &num, name, &len) == 0 && num == 2);
    len = sizeof name;
    CHECK(MPI_T_enum_get_item(en, 1, &val, name, &len) == 0 && val == 1 &&
          strcmp(name, "recovering") == 0);
    CHECK(MPI_T_enum_get_item(en, 2, &val, name, &len) ==
          MPI_T_ERR_INVALID_ITEM);
}

/* The eager limit, set to 1024 at the sender: a 2000-byte message that
 * comes before its receive is then fetched, not copied. */
static void eager_limit(void)
{
    MPI_T_cvar_handle h, hb;
    MPI_T_pvar_handle fetched;
    int i, n, lim = -1, v, blocks;
    char buf[2000] = { 0 };

    MPI_T_cvar_get_index("eager_limit", &i);
    MPI_T_cvar_handle_alloc(i, NULL, &h, &n);
    CHECK(MPI_T_cvar_read(h, &lim) == 0 && lim == 65536);
    v = 100000;
    CHECK(MPI_T_cvar_write(h, &v) == MPI_T_ERR_INVALID);
    MPI_T_cvar_get_index("overflow_blocks", &i);
    MPI_T_cvar_handle_alloc(i, NULL, &hb, &n);
    CHECK(MPI_T_cvar_read(hb, &blocks) == 0 && blocks > 0);
    CHECK(MPI_T_cvar_write(hb, &blocks) == MPI_T_ERR_CVAR_SET_NEVER);
    MPI_T_cvar_handle_free(&hb);
    pvar("long_msgs_fetched", MPI_T_PVAR_CLASS_COUNTER, &fetched);
    for (int round = 0; round < 2 && t_size > 1; round++) {
        v = round ? 1024 : 65536;
        if (t_rank == 1)
            CHECK(MPI_T_cvar_write(h, &v) == MPI_SUCCESS);
        unsigned long long f0 = rd(fetched);
        MPI_Barrier(MPI_COMM_WORLD);
        if (t_rank == 1)
            MPI_Send(buf, 2000, MPI_CHAR, 0, 9, MPI_COMM_WORLD);
        if (t_rank == 0) {
            int flag = 0;
            while (!flag)       /* it has come before its receive */
                MPI_Iprobe(1, 9, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
            MPI_Recv(buf, 2000, MPI_CHAR, 1, 9, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            CHECK(rd(fetched) - f0 == (unsigned long long)round);
        }
    }
    v = 65536;
    MPI_T_cvar_write(h, &v);
    MPI_T_cvar_handle_free(&h);
    CHECK(h == MPI_T_CVAR_HANDLE_NULL);
}

int main(int argc, char **argv)
{
    int prov = -1, n;

    /* before MPI_Init, and not before MPI_T_init_thread */
    CHECK(MPI_T_pvar_get_num(&n) == MPI_T_ERR_NOT_INITIALIZED);
    CHECK(MPI_T_init_thread(MPI_THREAD_SINGLE, &prov) == MPI_SUCCESS &&
          prov == MPI_THREAD_SINGLE);
    listing();
    int early_fail = t_fail;
    t_init(&argc, &argv, "mpit");
    t_fail = early_fail;
    t_report("listing-before-init");
    MPI_T_pvar_session_create(&ses);
    counters();
    t_report("counters-exact");
    queues();
    t_report("unexpected-and-posted-queues");
    eager_limit();
    t_report("eager-limit-cvar");
    MPI_T_pvar_session_free(&ses);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &prov);    /* nested */
    MPI_T_finalize();
    CHECK(MPI_T_pvar_get_num(&n) == MPI_SUCCESS);
    MPI_T_finalize();
    CHECK(MPI_T_pvar_get_num(&n) == MPI_T_ERR_NOT_INITIALIZED);
    t_report("init-finalize-nesting");
    return t_finish();
}
