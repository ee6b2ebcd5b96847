/* SPDX-License-Identifier: MIT */
/*
 * nbc.h: nonblocking collectives (nbc.c: the schedule engine and its
 * progress; nbc_algo.c: the algorithms as schedules and the MPI_I*
 * calls; nbc_trig.c: MPI_Ibarrier on Portals triggered operations;
 * nbc_tcoll.c: small MPI_Ibcast and MPI_Iallreduce on them).
 *
 * A schedule is a list of steps in rounds: a round's sends and receives
 * start together (internal requests in the communicator's collective
 * context, with this collective's own tag), its local steps (a
 * reduction, a copy) run when it starts, and the next round starts when
 * every request of this one is done.  Steps only name buffers known when
 * the schedule is built, so a reduction tree that alternates two
 * buffers is written down once, at the start.
 */
#ifndef MPI_NBC_H
#define MPI_NBC_H

#include "mpi_impl.h"
#include "coll.h"

enum { ST_SEND, ST_RECV, ST_OP, ST_COPY, ST_ROUND, ST_CALL };

struct step {
    int kind;
    MPI_Comm comm;              /* SEND, RECV: the communicator it uses */
    const void *src;            /* SEND, OP (in), COPY */
    void *dst;                  /* RECV, OP (inout), COPY */
    int count;
    MPI_Datatype dt;
    int peer;
    MPI_Op op;
    void (*fn)(struct nbc *s);  /* CALL */
};

struct nbc {
    struct nbc *next;           /* active schedules, in start order */
    MPI_Request req;            /* the user's */
    MPI_Comm comm;
    MPI_Comm on;                /* the sends and receives being added go
                                   on this one: comm, or an
                                   intercommunicator's local_comm */
    int tag;
    struct step *steps;
    int nsteps, cap, at;        /* at: the next step to run */
    MPI_Request *live;          /* the round's requests */
    int nlive, livecap;
    void **tmp;                 /* freed at the end */
    int ntmp, tmpcap;
    bool ok;                    /* no step failed to be recorded */
    struct tbar_wait *trig;     /* a triggered barrier instead (nbc_trig.c) */
    struct tcoll *tc;           /* a triggered bcast/allreduce (nbc_tcoll.c) */
    void (*done)(struct nbc *s);    /* called when it is complete */
    void *arg;                  /* done's */
};

/* Building (nbc.c): a fresh schedule for comm, its steps, its temps.
 * Steps name ranks of s->on (nbc_on: an intercommunicator's schedule
 * moves between its local group and the remote one). */
struct nbc *nbc_new(MPI_Comm comm);
void nbc_send(struct nbc *s, const void *buf, int count, MPI_Datatype dt,
              int peer);
void nbc_recv(struct nbc *s, void *buf, int count, MPI_Datatype dt,
              int peer);
void nbc_op(struct nbc *s, const void *in, void *inout, int count,
            MPI_Datatype dt, MPI_Op op);
void nbc_copy(struct nbc *s, const void *src, void *dst, int count,
              MPI_Datatype dt);
void nbc_round(struct nbc *s);
void nbc_on(struct nbc *s, MPI_Comm c);
/* A step that calls fn(s) when it is reached (it may add steps). */
void nbc_call(struct nbc *s, void (*fn)(struct nbc *s));
/* A temp for count items of dt (typed, see tmp_typed), freed at the end. */
void *nbc_tmp(struct nbc *s, int count, MPI_Datatype dt);
/* Memory freed with the schedule. */
void nbc_own(struct nbc *s, void *mem);
/* Start s as the request *out (or report MPI_ERR_NO_MEM). */
int nbc_start(struct nbc *s, MPI_Request *out);
void nbc_free(struct nbc *s);

/* nbc_algo.c: the algorithms, as steps on s->on (ranks of its group, or
 * of the remote group of an intercommunicator for the exchanges); rcount
 * and scount are used when the count arrays are NULL. */
void nbc_barrier_steps(struct nbc *s);
void nbc_bcast_steps(struct nbc *s, void *buf, int count, MPI_Datatype dt,
                     int root);
void nbc_reduce_to(struct nbc *s, const void *sbuf, void *rbuf, int count,
                   MPI_Datatype dt, MPI_Op op, int root);
void nbc_build_allreduce(struct nbc *s, const void *sbuf, void *rbuf,
                         int count, MPI_Datatype dt, MPI_Op op);
void nbc_scan_steps(struct nbc *s, const void *sbuf, void *rbuf, int count,
                    MPI_Datatype dt, MPI_Op op, bool excl);
void nbc_gatherv_steps(struct nbc *s, const void *sbuf, int scount,
                       MPI_Datatype st, void *rbuf, const int *rcounts,
                       const int *displs, int rcount, MPI_Datatype rt,
                       int root);
void nbc_scatterv_steps(struct nbc *s, const void *sbuf, const int *scounts,
                        const int *displs, int scount, MPI_Datatype st,
                        void *rbuf, int rcount, MPI_Datatype rt, int root);
void nbc_exchange_steps(struct nbc *s, const void *sbuf, const int *scounts,
                        const int *sdispls, int scount, MPI_Datatype st,
                        void *rbuf, const int *rcounts, const int *rdispls,
                        int rcount, MPI_Datatype rt, bool same);
void nbc_alltoall_steps(struct nbc *s, const void *sbuf, const int *scounts,
                        const int *sdispls, MPI_Datatype st, void *rbuf,
                        const int *rcounts, const int *rdispls,
                        MPI_Datatype rt);
/* all-to-all with a type per block and byte displacements */
void nbc_alltoallw_steps(struct nbc *s, const void *sbuf,
                         const int *scounts, const int *sdispls,
                         const MPI_Datatype *stypes, void *rbuf,
                         const int *rcounts, const int *rdispls,
                         const MPI_Datatype *rtypes);
void nbc_reduce_scatter_steps(struct nbc *s, const void *sbuf, void *rbuf,
                              const int *rcounts, MPI_Datatype dt,
                              MPI_Op op);

/* nbc_trig.c: an Ibarrier by triggered operations, or NULL when the
 * software schedule is to be used (the first one on a communicator is
 * an agreement that every rank has the counters for them). */
struct nbc *trig_ibarrier(MPI_Comm comm);
/* Started (a pending one converts itself to software if it must)? */
bool trig_ready(struct nbc *s);
bool trig_done(struct nbc *s);
/* Sleep until its counter moves (or 1 ms). */
void trig_wait(struct nbc *s);

/* nbc_tcoll.c: small broadcasts and allreduces on triggered operations.
 * The limits are every rank's alike (the choice must be). */
#define TC_BCAST_MAX 4096       /* bytes */
#define TC_RED_MAX   512        /* bytes: one Portals atomic */
#define TC_LIVE      16         /* in flight per process */
bool tcoll_bcast_ok(MPI_Comm c, int count, MPI_Datatype dt);
bool tcoll_allreduce_ok(MPI_Comm c, int count, MPI_Datatype dt, MPI_Op op);
/* Start one as *out (a schedule to start, or to free on an error). */
int tcoll_ibcast(void *buf, int count, MPI_Datatype dt, int root,
                 MPI_Comm c, struct nbc **out);
int tcoll_iallreduce(const void *sbuf, void *rbuf, int count,
                     MPI_Datatype dt, MPI_Op op, MPI_Comm c,
                     struct nbc **out);
bool tcoll_done(struct nbc *s);
void tcoll_wait(struct nbc *s);     /* sleep on its counters (or 1 ms) */
void tcoll_free(struct tcoll *t);

#endif
