/* SPDX-License-Identifier: MIT */
/*
 * coll.h: what the collectives' files share (coll.c, gather.c, the
 * nonblocking ones in nbc*.c and the neighbourhood ones in neighbor.c):
 * typed temporaries, copies between typed buffers, argument checks.
 */
#ifndef MPI_COLL_H
#define MPI_COLL_H

#include "mpi_impl.h"

/* A buffer for count items of dt, returned so that item 0 starts at the
 * type's lower bound; *base is what to free. */
void *tmp_typed(int count, MPI_Datatype dt, void **base);
/* Copy count items of dt between typed buffers (via the packed form). */
int dt_copy(const void *src, void *dst, int count, MPI_Datatype dt);
/* Copy between differently typed buffers (send type -> receive type). */
int dt_copy2(const void *src, int scount, MPI_Datatype st, void *dst,
             int rcount, MPI_Datatype rt);
/* Block i of count items of dt in buf. */
char *coll_at(void *buf, int i, int count, MPI_Datatype dt);

int check_coll(MPI_Comm c);
int check_buf(MPI_Comm c, int count, MPI_Datatype dt);
int check_root(MPI_Comm c, int root);

int coll_reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
                MPI_Op op, int root, MPI_Comm c);
int coll_scatterv(const void *sbuf, const int *scounts, const int *displs,
                  MPI_Datatype st, void *rbuf, int rcount, MPI_Datatype rt,
                  int root, MPI_Comm c);
/* An all-to-all's MPI_IN_PLACE: the n blocks of rbuf (counts of rt at
 * displs extents) copied to *src, a temporary of the same layout (free
 * *mem after), to send from. */
int coll_inplace_src(const void *rbuf, int n, const int *counts,
                     const int *displs, MPI_Datatype rt, const void **src,
                     void **mem);
/* The same for blocks of types[i] at bdispls[i] bytes (all-to-all-w). */
int coll_inplace_srcw(const void *rbuf, int n, const int *counts,
                      const MPI_Aint *bdispls, const MPI_Datatype *types,
                      const void **src, void **mem);

/* ---- intercommunicators (inter_coll.c): each call's schedule, its
 * arguments checked; then run to completion or started as a request ---- */
struct nbc;
static inline bool comm_inter(MPI_Comm c)
{
    return comm_check(c) == MPI_SUCCESS && c->inter;
}
int ic_wait(int rc, struct nbc *s);
int ic_start(int rc, struct nbc *s, MPI_Request *req);
int ic_barrier(MPI_Comm c, struct nbc **out);
int ic_bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm c,
             struct nbc **out);
int ic_gatherv(const void *sbuf, int scount, MPI_Datatype st, void *rbuf,
               const int *rcounts, const int *displs, int rcount,
               MPI_Datatype rt, int root, MPI_Comm c, struct nbc **out);
int ic_scatterv(const void *sbuf, const int *scounts, const int *displs,
                int scount, MPI_Datatype st, void *rbuf, int rcount,
                MPI_Datatype rt, int root, MPI_Comm c, struct nbc **out);
int ic_exchange(const void *sbuf, const int *scounts, const int *sdispls,
                int scount, MPI_Datatype st, void *rbuf, const int *rcounts,
                const int *rdispls, int rcount, MPI_Datatype rt, bool same,
                MPI_Comm c, struct nbc **out);
int ic_alltoallw(const void *sbuf, const int *scounts, const int *sdispls,
                 const MPI_Datatype *stypes, void *rbuf, const int *rcounts,
                 const int *rdispls, const MPI_Datatype *rtypes, MPI_Comm c,
                 struct nbc **out);
int ic_reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
              MPI_Op op, int root, MPI_Comm c, struct nbc **out);
int ic_allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt,
                 MPI_Op op, MPI_Comm c, struct nbc **out);
int ic_reduce_scatter(const void *sbuf, void *rbuf, const int *rcounts,
                      int rcount, MPI_Datatype dt, MPI_Op op, MPI_Comm c,
                      struct nbc **out);

/* Tags in a communicator's collective context: blocking collectives
 * 0, neighbourhood ones 1, nonblocking ones from TAG_NBC (cycling below
 * 2^27), MPI_Comm_create_group from 2^27 (commx.c). */
#define TAG_COLL     0
#define TAG_NEIGHBOR 1
#define TAG_NBC      2

/* (mpi_err passes MPI_SUCCESS through; rc is evaluated once) */
#define RET(c, rc, name) mpi_err(c, rc, name)

#endif
