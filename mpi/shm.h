/* SPDX-License-Identifier: MIT */
/*
 * shm.h: the memory of the ranks of one node (shm.c).  On the compute
 * nodes in virtual-node mode the ranks of a node map each other (the
 * kernel's SMARTMAP, docs/SMP.md): a rank reaches a peer's memory
 * directly, which MPI_Win_allocate_shared (win_shared.c) and single-copy
 * messages (below) are built on.  On Linux no rank reaches another's:
 * every answer here says so.
 */
#ifndef MPI_SHM_H
#define MPI_SHM_H

#include "mpi_impl.h"

/* After the job is joined (proto_init): who this process reaches. */
void shm_init(void);
/* This process is in a group of ranks that share memory. */
bool shm_grouped(void);
/* World rank w is another rank whose memory this process reaches. */
bool shm_peer(int w);
/* Where this process reaches `ptr`, an address of world rank w (ptr
   itself for this rank, and for an address already in a slot, which
   means the same in every member); NULL if it reaches none. */
void *shm_addr(int w, const void *ptr);

/* Single-copy sends (send.c, recv.c).  shm_send_wanted: r (its world
   rank known) is long enough and to a peer.  shm_send_post: r goes single
   copy (r->shm set: the descriptor whose address the header's put
   carries as its remote offset); false if r cannot (no descriptor free),
   and r takes the long protocol.  shm_send_done: FIN came.
   shm_send_cancel: withdrawn (true), or a receive is copying it. */
bool shm_send_wanted(MPI_Request r);
bool shm_send_post(MPI_Request r);
void shm_send_done(MPI_Request r);
bool shm_send_cancel(MPI_Request r);
/* A receive matched a single-copy header from world rank w, whose put's
   remote offset was roff: claim the descriptor, copy, send FIN, complete
   r (true); false if the sender withdrew it (MPI_Cancel). */
bool shm_recv_take(MPI_Request r, int w, uint32_t key, uint64_t roff);

#endif
