/* SPDX-License-Identifier: MIT */
/*
 * tool_vars.c: the variables the MPI tool information interface shows
 * (MPI-3.1 14.3; the calls are tool.c): what the library counts as it
 * works (performance variables: messages and bytes sent and received,
 * the unexpected and posted queues' lengths, flow-control recoveries,
 * long messages fetched, triggered collectives) and what a program may
 * set (control variables: the eager limit and the copy limit of
 * point-to-point; the rest of the protocol's sizes, constants).  Every
 * variable is the process's own (MPI_T_BIND_NO_OBJECT).
 */
#include "tool.h"

/* ---- control variables ---- */

static int blocks = NBLOCKS, block_size = BLOCK_SIZE, tc_bcast = TC_BCAST_MAX,
           tc_red = TC_RED_MAX;

const struct cvar cvars[] = {
    { "eager_limit", "messages of at most this many bytes go in one put "
      "(eager); longer and synchronous ones by the long protocol: the "
      "receiver fetches a message that came before its receive (at most "
      "65536)", MPI_T_VERBOSITY_TUNER_BASIC, MPI_T_SCOPE_LOCAL,
      &eager_limit, 0, EAGER_LIMIT },
    { "copy_limit", "standard sends of at most this many bytes complete "
      "once copied, without waiting for their acknowledgement (at most "
      "4096)", MPI_T_VERBOSITY_TUNER_BASIC, MPI_T_SCOPE_LOCAL,
      &copy_limit, 0, COPY_LIMIT },
    { "overflow_blocks", "buffers that take eager messages which arrive "
      "before their receive", MPI_T_VERBOSITY_TUNER_DETAIL,
      MPI_T_SCOPE_CONSTANT, &blocks, 0, 0 },
    { "overflow_block_size", "bytes of each such buffer",
      MPI_T_VERBOSITY_TUNER_DETAIL, MPI_T_SCOPE_CONSTANT, &block_size, 0,
      0 },
    { "tcoll_bcast_max", "nonblocking broadcasts of at most this many "
      "bytes run on triggered operations (no CPU needed)",
      MPI_T_VERBOSITY_TUNER_DETAIL, MPI_T_SCOPE_CONSTANT, &tc_bcast, 0, 0 },
    { "tcoll_allreduce_max", "nonblocking allreduces of at most this many "
      "bytes run on triggered operations", MPI_T_VERBOSITY_TUNER_DETAIL,
      MPI_T_SCOPE_CONSTANT, &tc_red, 0, 0 },
};
const int ncvars = sizeof(cvars) / sizeof(cvars[0]);

/* ---- performance variables ---- */

static uint64_t rd_sent(void) { return pvc.sent; }
static uint64_t rd_sent_bytes(void) { return pvc.sent_bytes; }
static uint64_t rd_received(void) { return pvc.received; }
static uint64_t rd_received_bytes(void) { return pvc.received_bytes; }
static uint64_t rd_unexpected(void) { return pvc.unexp_in; }
static uint64_t rd_unexp_queue(void)
{
    return pvc.unexp_in > pvc.unexp_out ? pvc.unexp_in - pvc.unexp_out : 0;
}
static uint64_t rd_posted(void)
{
    return mpi_state == 1 ? (uint64_t)posted_count() : 0;
}
static uint64_t rd_flowctl(void) { return (uint64_t)MPIX_Flowctl_count(); }
static uint64_t rd_fc_state(void) { return fc_state(); }
static uint64_t rd_fetched(void) { return (uint64_t)MPIX_Fetch_count(); }
static uint64_t rd_tcoll(void) { return (uint64_t)MPIX_Tcoll_count(); }
static uint64_t rd_file_reads(void) { return pvc.file_reads; }
static uint64_t rd_file_writes(void) { return pvc.file_writes; }
static uint64_t rd_file_async(void) { return pvc.file_async; }

static const struct enum_item fc_states[] = {
    { 0, "normal" }, { 1, "recovering" },
};
struct mpi_t_enum_s fc_state_enum = { "flowctl_state", 2, fc_states };

#define COUNTER(name, desc, fn) { name, desc, MPI_T_VERBOSITY_USER_BASIC, \
    MPI_T_PVAR_CLASS_COUNTER, MPI_UNSIGNED_LONG_LONG, NULL, false, fn }
#define LEVEL(name, desc, fn) { name, desc, MPI_T_VERBOSITY_USER_BASIC, \
    MPI_T_PVAR_CLASS_LEVEL, MPI_UNSIGNED_LONG_LONG, NULL, true, fn }

const struct pvar pvars[] = {
    COUNTER("msgs_sent", "point-to-point messages this process sent "
            "(collectives' and one-sided synchronisation's included)",
            rd_sent),
    COUNTER("bytes_sent", "bytes of those messages", rd_sent_bytes),
    COUNTER("msgs_received", "messages this process's receives took",
            rd_received),
    COUNTER("bytes_received", "bytes of those messages", rd_received_bytes),
    COUNTER("unexpected_msgs", "messages that arrived before a receive "
            "matched them", rd_unexpected),
    LEVEL("unexpected_recvq_length", "messages that arrived and wait for "
          "their receive", rd_unexp_queue),
    LEVEL("posted_recvq_length", "receives posted that wait for their "
          "message", rd_posted),
    COUNTER("flowctl_recoveries", "times this process's receive portal "
            "ran out of room and was recovered (flow control)", rd_flowctl),
    { "flowctl_state", "whether flow control is recovering the receive "
      "portal now", MPI_T_VERBOSITY_TUNER_DETAIL, MPI_T_PVAR_CLASS_STATE,
      MPI_INT, &fc_state_enum, true, rd_fc_state },
    COUNTER("long_msgs_fetched", "long or synchronous messages fetched "
            "because they arrived before their receive", rd_fetched),
    COUNTER("triggered_colls", "nonblocking broadcasts and allreduces run "
            "on triggered operations", rd_tcoll),
    COUNTER("file_reads", "read calls MPI-IO made on files for this "
            "process, each of one contiguous run of file bytes",
            rd_file_reads),
    COUNTER("file_writes", "write calls MPI-IO made on files for this "
            "process (a collective write's aggregators make them for "
            "the others)", rd_file_writes),
    COUNTER("file_aio_ops", "nonblocking file accesses started as POSIX "
            "aio operations (not done at the call)", rd_file_async),
};
const int npvars = sizeof(pvars) / sizeof(pvars[0]);

/* ---- categories ---- */

static const int p2p_cv[] = { 0, 1 }, p2p_pv[] = { 0, 1, 2, 3, 4, 5, 6 };
static const int proto_cv[] = { 2, 3 }, proto_pv[] = { 7, 8, 9 };
static const int coll_cv[] = { 4, 5 }, coll_pv[] = { 10 };
static const int io_pv[] = { 11, 12, 13 };

#define N(a) (int)(sizeof(a) / sizeof(a[0]))
const struct category cats[] = {
    { "point_to_point", "messages: their counts, the queues, the limits "
      "that choose a message's protocol", p2p_cv, N(p2p_cv), p2p_pv,
      N(p2p_pv) },
    { "protocol", "the Portals protocol underneath: buffers for early "
      "messages, flow control, fetches", proto_cv, N(proto_cv), proto_pv,
      N(proto_pv) },
    { "collectives", "collectives that run on triggered operations",
      coll_cv, N(coll_cv), coll_pv, N(coll_pv) },
    { "io", "MPI-IO: the file calls it made, the operations it started "
      "asynchronously", NULL, 0, io_pv, N(io_pv) },
};
const int ncats = N(cats);
