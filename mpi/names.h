/* SPDX-License-Identifier: MIT */
/*
 * names.h: the symbols of the names the library's files share.  Those
 * names are short (comm_check, dt_pack, drain), and a program may define
 * the same ones: it would not link with libmpi.a ("multiple definition").
 * So each has the symbol mpii_NAME (the private prefix, as MPICH's
 * MPII_), its C name unchanged: `#pragma redefine_extname` renames only
 * what the linker sees, never a field or a local of the same name.
 *
 * Every name here must be declared after this file (mpi_impl.h and
 * fmpi.h include it first).  A global name not listed here shows in the
 * test that reads both libraries' symbol tables (tests/mpi/run,
 * mpi.names): every global symbol of libmpi.a is MPI_, PMPI_, MPIX_,
 * mpii_, or mpi_/pmpi_ and a trailing underscore (the Fortran bindings
 * and mpi.h's predefined objects).
 */
#ifndef MPI_NAMES_H
#define MPI_NAMES_H

#define MPII_PRAGMA(x) _Pragma(#x)
#define MPII(name) MPII_PRAGMA(redefine_extname name mpii_##name)

/* attr.c */
MPII(attr_copy_all) MPII(attr_delete_all) MPII(type_attr_copy_all)
MPII(type_attr_delete_all) MPII(win_attr_delete_all) MPII(win_attr_get)
/* bsend.c */
MPII(bsend_done) MPII(bsend_start)
/* coll.c */
MPII(check_buf) MPII(check_coll) MPII(check_root) MPII(coll_allreduce)
MPII(coll_at) MPII(coll_barrier) MPII(coll_bcast) MPII(coll_recv)
MPII(coll_reduce) MPII(coll_send) MPII(coll_sendrecv) MPII(dt_copy)
MPII(dt_copy2) MPII(tmp_typed)
/* comm_idup.c */
MPII(comm_idup_then)
/* commx.c */
MPII(comm_one_node)
/* comm.c */
MPII(comm_check) MPII(comm_destroy) MPII(comm_dup_make) MPII(comm_init_builtin)
MPII(comm_new) MPII(split_group)
/* context.c */
MPII(ctx_agree) MPII(ctx_agree_inter) MPII(ctx_agreeing) MPII(ctx_and)
MPII(ctx_free_here) MPII(ctx_mine) MPII(ctx_offer) MPII(ctx_release)
MPII(ctx_settle) MPII(ctx_take) MPII(ctx_untake)
/* datatype.c */
MPII(dt_build) MPII(dt_resize)
/* distgraph.c */
MPII(topo_neighbors)
/* dt_basic.c */
MPII(dt_basic) MPII(dt_basic_align) MPII(dt_basic_name) MPII(dt_basic_size)
MPII(dt_check) MPII(dt_check_any) MPII(dt_class_of) MPII(dt_contig)
MPII(dt_null_buffer) MPII(dt_release) MPII(dt_retain)
/* errh.c */
MPII(err_class) MPII(err_last_used) MPII(errh_fits) MPII(errh_new)
MPII(errh_release) MPII(errh_retain) MPII(mpi_err) MPII(mpi_err_handler)
MPII(mpi_fatal) MPII(mpi_fatal_peer)
/* flowctl.c */
MPII(ctrl_send) MPII(data_put) MPII(fc_acked) MPII(fc_begin) MPII(fc_busy)
MPII(fc_ctrl) MPII(fc_got) MPII(fc_init) MPII(fc_refused) MPII(fc_state)
MPII(fc_withdraw) MPII(get_start) MPII(hold_drained) MPII(unstall)
MPII(uq_from_event)
/* gather.c */
MPII(coll_allgather) MPII(coll_inplace_src) MPII(coll_inplace_srcw)
MPII(coll_scatterv)
/* grequest.c */
MPII(greq_cancel) MPII(greq_query) MPII(greq_release)
/* group.c */
MPII(group_new) MPII(group_rank_of_world) MPII(group_release)
MPII(group_retain)
/* info.c */
MPII(info_copy) MPII(info_env_init) MPII(info_free) MPII(info_give)
MPII(info_set)
/* init.c */
MPII(mpi_state)
/* inter_coll.c */
MPII(ic_allreduce) MPII(ic_alltoallw) MPII(ic_barrier) MPII(ic_bcast)
MPII(ic_exchange) MPII(ic_gatherv) MPII(ic_reduce) MPII(ic_reduce_scatter)
MPII(ic_scatterv) MPII(ic_start) MPII(ic_wait)
/* intercomm.c */
MPII(inter_create) MPII(inter_split)
/* io.c */
MPII(file_check) MPII(file_err) MPII(io_errno) MPII(io_size)
/* io_view.c */
MPII(io_access) MPII(io_access_check) MPII(io_done_request)
MPII(io_file_byte) MPII(io_seek_end) MPII(io_seek_to)
MPII(view_clear) MPII(view_default)
/* io_async.c */
MPII(io_async_drain) MPII(io_async_pending) MPII(io_async_progress)
MPII(io_async_wait) MPII(io_start)
/* io_hints.c, io_coll.c */
MPII(io_hints) MPII(io_hints_free) MPII(io_hints_give) MPII(io_collective)
/* io_shared.c */
MPII(io_ordered) MPII(sfp_close) MPII(sfp_open) MPII(sfp_reset)
/* nbc.c */
MPII(nbc_block) MPII(nbc_call) MPII(nbc_copy) MPII(nbc_free) MPII(nbc_new)
MPII(nbc_on) MPII(nbc_op) MPII(nbc_own) MPII(nbc_progress) MPII(nbc_recv)
MPII(nbc_round) MPII(nbc_send) MPII(nbc_start) MPII(nbc_tmp)
/* nbc_algo.c */
MPII(nbc_alltoall_steps) MPII(nbc_alltoallw_steps) MPII(nbc_barrier_steps)
MPII(nbc_bcast_steps) MPII(nbc_build_allreduce) MPII(nbc_exchange_steps)
MPII(nbc_gatherv_steps) MPII(nbc_reduce_scatter_steps) MPII(nbc_reduce_to)
MPII(nbc_scan_steps) MPII(nbc_scatterv_steps)
/* nbc_tcoll.c */
MPII(tcoll_allreduce_ok) MPII(tcoll_bcast_ok) MPII(tcoll_done) MPII(tcoll_free)
MPII(tcoll_iallreduce) MPII(tcoll_ibcast) MPII(tcoll_wait)
/* nbc_trig.c */
MPII(trig_comm_free) MPII(trig_done) MPII(trig_ibarrier) MPII(trig_ready)
MPII(trig_wait)
/* op.c */
MPII(op_apply) MPII(op_check) MPII(op_check_rma)
/* p2p.c */
MPII(buf_check) MPII(p2p_check_recv) MPII(p2p_check_send) MPII(p2p_irecv)
MPII(p2p_isend) MPII(p2p_make) MPII(p2p_stage) MPII(p2p_start)
/* pack.c */
MPII(dt_elements) MPII(dt_elements_bytes) MPII(dt_pack) MPII(dt_pair_int_off)
MPII(dt_pair_val) MPII(dt_pieces) MPII(dt_unpack)
/* probe.c */
MPII(status_count)
/* proto.c */
MPII(copy_limit) MPII(drain) MPII(eager_limit) MPII(eq) MPII(job)
MPII(list_add) MPII(list_del) MPII(md) MPII(peers) MPII(posted_count)
MPII(proto_barrier) MPII(proto_events) MPII(proto_fini) MPII(proto_init)
MPII(proto_nid) MPII(proto_poll) MPII(proto_progress) MPII(proto_world_rank)
MPII(proto_world_size) MPII(pvc) MPII(uq_find) MPII(uq_push)
/* recv.c */
MPII(fill_status) MPII(on_probe) MPII(on_put) MPII(on_reply) MPII(posted)
MPII(proto_cancel_recv) MPII(proto_iprobe) MPII(proto_match)
MPII(proto_msg_len) MPII(proto_recv) MPII(proto_recv_held) MPII(self_send)
/* request.c */
MPII(p2p_wait) MPII(req_complete) MPII(req_done) MPII(req_finish)
MPII(req_free) MPII(req_new) MPII(status_empty)
/* rma.c */
MPII(rma_atomic) MPII(rma_complete) MPII(rma_down) MPII(rma_event)
MPII(rma_fetch) MPII(rma_flush) MPII(rma_get) MPII(rma_hold) MPII(rma_put)
MPII(rma_state_add) MPII(rma_state_ct) MPII(rma_state_swap) MPII(rma_swap)
MPII(rma_up) MPII(rma_wait_state) MPII(rma_where) MPII(win_check) MPII(win_err)
/* win.c, win_shared.c */
MPII(win_make) MPII(win_shared_free)
/* rma_state.c */
MPII(state_alloc) MPII(state_free)
/* rma_ops.c */
MPII(ptl_op_of) MPII(ptl_type_of)
/* rma_sync.c */
MPII(rma_may_access)
/* send.c */
MPII(copy_fini) MPII(on_ack) MPII(on_ctrl) MPII(on_get)
MPII(proto_cancel_send) MPII(proto_copy_release) MPII(proto_send)
MPII(proto_send_copy) MPII(send_pending)
/* shm.c */
MPII(shm_addr) MPII(shm_grouped) MPII(shm_init) MPII(shm_peer)
MPII(shm_recv_take) MPII(shm_send_cancel) MPII(shm_send_done)
MPII(shm_send_post) MPII(shm_send_wanted)
/* tool.c, tool_vars.c */
MPII(cats) MPII(cvars) MPII(fc_state_enum) MPII(ncats) MPII(ncvars)
MPII(npvars) MPII(pvars) MPII(tool_inits) MPII(tool_str_out)
/* topo.c */
MPII(copy_ints) MPII(topo_free)
/* typeinfo.c */
MPII(dt_forget) MPII(name_get) MPII(name_set) MPII(rec_aints) MPII(rec_init)
MPII(rec_ints) MPII(rec_keep) MPII(rec_types)

/* win.c */
MPII(win_args) MPII(win_make)
/* win_shared.c */
MPII(win_shared_free)

/* fortran/f2c.c */
MPII(mpif_comm_size) MPII(mpif_get) MPII(mpif_index_of) MPII(mpif_nbrs)
MPII(mpif_npredefs) MPII(mpif_predef_index) MPII(mpif_predefs) MPII(mpif_put)
MPII(mpif_str_in) MPII(mpif_str_out) MPII(mpif_update)

#endif
