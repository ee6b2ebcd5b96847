/* SPDX-License-Identifier: MIT */
/* Error handling: MPI_ERRORS_RETURN gives each error class for the
 * matching mistake; a user handler is called with the code; handler
 * get/set/free; error strings and classes. */
#include "mpitest.h"

static int calls, last;

static void handler(MPI_Comm *c, int *code, ...)
{
    (void)c;
    calls++;
    last = *code;
}

int main(int argc, char **argv)
{
    int v = 0, rc, len, cls;
    char msg[MPI_MAX_ERROR_STRING];
    MPI_Errhandler eh, got;
    MPI_Datatype uncommitted;

    t_init(&argc, &argv, "errh");
    MPI_Errhandler_set(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK(MPI_Send(&v, 1, MPI_INT, t_size, 0, MPI_COMM_WORLD) == MPI_ERR_RANK);
    CHECK(MPI_Send(&v, -1, MPI_INT, 0, 0, MPI_COMM_WORLD) == MPI_ERR_COUNT);
    CHECK(MPI_Send(&v, 1, MPI_INT, 0, -5, MPI_COMM_WORLD) == MPI_ERR_TAG);
    CHECK(MPI_Send(&v, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD) ==
          MPI_ERR_TYPE);
    CHECK(MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_NULL) == MPI_ERR_COMM);
    CHECK(MPI_Bcast(&v, 1, MPI_INT, t_size + 3, MPI_COMM_WORLD) ==
          MPI_ERR_ROOT);
    CHECK(MPI_Allreduce(&v, &rc, 1, MPI_FLOAT, MPI_BAND, MPI_COMM_WORLD) ==
          MPI_ERR_OP);
    MPI_Type_contiguous(2, MPI_INT, &uncommitted);
    CHECK(MPI_Send(&v, 1, uncommitted, 0, 0, MPI_COMM_WORLD) == MPI_ERR_TYPE);
    MPI_Type_free(&uncommitted);
    CHECK(MPI_Wait(NULL, MPI_STATUS_IGNORE) == MPI_ERR_REQUEST);
    CHECK(MPI_Cart_rank(MPI_COMM_WORLD, &v, &rc) == MPI_ERR_TOPOLOGY);
    int kv = 12345;
    CHECK(MPI_Attr_put(MPI_COMM_WORLD, kv, NULL) == MPI_ERR_KEYVAL);
    t_report("errors-return-classes");

    MPI_Errhandler_create(handler, &eh);
    MPI_Errhandler_set(MPI_COMM_WORLD, eh);
    MPI_Errhandler_get(MPI_COMM_WORLD, &got);
    CHECK(got == eh);
    MPI_Errhandler_free(&got);
    rc = MPI_Send(&v, 1, MPI_INT, -7, 0, MPI_COMM_WORLD);
    CHECK(calls == 1 && last == MPI_ERR_RANK && rc == MPI_ERR_RANK);
    MPI_Comm d;
    MPI_Comm_dup(MPI_COMM_WORLD, &d);       /* the handler is inherited */
    MPI_Recv(&v, 1, MPI_INT, 0, -3, d, MPI_STATUS_IGNORE);
    CHECK(calls == 2 && last == MPI_ERR_TAG);
    MPI_Comm_free(&d);
    MPI_Errhandler_free(&eh);
    CHECK(eh == MPI_ERRHANDLER_NULL);
    MPI_Errhandler_set(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    t_report("user-handler");

    MPI_Error_string(MPI_ERR_TRUNCATE, msg, &len);
    CHECK(len > 0 && strstr(msg, "trunc") != NULL);
    MPI_Error_class(MPI_ERR_RANK, &cls);
    CHECK(cls == MPI_ERR_RANK);
    CHECK(MPI_Error_string(MPI_SUCCESS, msg, &len) == MPI_SUCCESS);
    t_report("error-strings");

    /* environment odds and ends */
    int flag = 0, ver, sub, prov;
    MPI_Initialized(&flag);
    MPI_Get_version(&ver, &sub);
    MPI_Query_thread(&prov);
    CHECK(flag && ver == 3 && sub == 1 && prov == MPI_THREAD_SINGLE);
    MPI_Get_processor_name(msg, &len);
    CHECK(len > 0 && (int)strlen(msg) == len && strstr(msg, "nid ") != NULL);
    double t0 = MPI_Wtime(), tick = MPI_Wtick();
    CHECK(tick > 0 && tick < 0.01 && MPI_Wtime() >= t0);
    CHECK(MPI_Pcontrol(1) == MPI_SUCCESS);
    t_report("environment");
    return t_finish();
}
