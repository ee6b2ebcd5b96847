# mpi/mpi.mk: the MPI library over Portals (build/mpi/libmpi.a), the
# mpicc wrapper's inputs, and the MPI test programs (tests/mpi).
# Included by the top-level Makefile; non-recursive; output in $(BUILD)/mpi.

MPI_B      := $(BUILD)/mpi
MPI_SRCS   := mpi/init.c mpi/errh.c mpi/dt_basic.c mpi/datatype.c \
              mpi/pack.c mpi/external.c mpi/dt_f90.c mpi/op.c \
              mpi/group.c mpi/comm.c mpi/intercomm.c mpi/context.c \
              mpi/attr.c mpi/topo.c mpi/request.c mpi/grequest.c \
              mpi/p2p.c mpi/probe.c mpi/mprobe.c mpi/bsend.c mpi/proto.c \
              mpi/send.c mpi/recv.c mpi/flowctl.c \
              mpi/coll.c mpi/gather.c mpi/info.c mpi/typeinfo.c \
              mpi/subarray.c mpi/commx.c mpi/comm_idup.c mpi/dynamic.c \
              mpi/distgraph.c mpi/neighbor.c mpi/bigcount.c \
              mpi/win.c mpi/win_shared.c mpi/shm.c mpi/rma.c mpi/rma_ops.c \
              mpi/rma_sync.c mpi/rma_state.c \
              mpi/nbc.c mpi/nbc_algo.c mpi/nbc_calls.c mpi/nbc_trig.c \
              mpi/nbc_tcoll.c mpi/inter_coll.c \
              mpi/io.c mpi/io_view.c mpi/io_shared.c mpi/io_split.c \
              mpi/io_async.c mpi/io_hints.c mpi/io_coll.c \
              mpi/tool.c mpi/tool_vars.c mpi/tool_pvar.c
MPI_OBJS   := $(patsubst mpi/%.c,$(MPI_B)/obj/%.o,$(MPI_SRCS))
# Portable C: libc + portals4.h + ptl_job.h only (it will build with lwkcc).
MPI_CFLAGS := $(HOSTCFLAGS) -O2 -fPIC -Impi/include -Impi -Iportals/include

$(MPI_B)/obj/%.o: mpi/%.c mpi/mpi_impl.h mpi/proto.h mpi/coll.h mpi/rma.h \
                   mpi/shm.h mpi/nbc.h mpi/io.h mpi/tool.h mpi/include/mpi.h
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(HOSTCC) $(MPI_CFLAGS) -c $< -o $@

$(MPI_B)/libmpi.a: $(MPI_OBJS)
	@rm -f $@
	$(call say,AR,$@)
	$(Q)ar rcs $@ $^

mpi: $(MPI_B)/libmpi.a $(PTL_B)/libportals.a

# ---- the node library: the same files as lwkcc (newlib) compiles them --
# Installed next to the node libportals.a, so `lwkcc prog.c -lmpi` (or
# `tools/mpicc --lwk prog.c`) builds a program for yod.
MPI_LWKOBJS := $(patsubst mpi/%.c,$(MPI_B)/lwk/%.o,$(MPI_SRCS))

$(MPI_B)/lwk/%.o: mpi/%.c mpi/mpi_impl.h mpi/proto.h mpi/coll.h mpi/rma.h \
                  mpi/shm.h mpi/nbc.h mpi/io.h mpi/tool.h mpi/include/mpi.h \
                  $(LIBC_ALL)
	@mkdir -p $(@D)
	$(call say,LWKCC,$@)
	$(Q)$(LWKCC) -O2 -Wall -Wextra -Werror -MMD -MP -Impi/include -Impi \
		-Iportals/include -c $< -o $@

$(LIBC_LIB)/libmpi.a: $(MPI_LWKOBJS)
	$(call say,AR,$@)
	$(Q)rm -f $@ && $(CROSS)ar rcs $@ $^

$(LIBC_INC)/mpi.h: mpi/include/mpi.h
	@mkdir -p $(@D) && cp $< $@

MPI_LWK := $(LIBC_LIB)/libmpi.a $(LIBC_INC)/mpi.h $(LIBC_LIB)/libmpiprof.a
mpi-lwk: $(MPI_LWK)

# ---- the MPI profile (mpicc -mpiprof): wrappers over the PMPI names,
# generated from mpi.h's list (mpi/genmpiprof.py), and mpiprof.c.  A
# library of its own, linked before libmpi only when asked.
$(MPI_B)/mpiprof_calls.c: mpi/genmpiprof.py mpi/genpmpi.py mpi/include/mpi.h
	@mkdir -p $(@D)
	$(call say,GEN,$@)
	$(Q)python3 mpi/genmpiprof.py mpi/include/mpi.h $@
$(MPI_B)/lwk/mpiprof.o: mpi/mpiprof.h
$(MPI_B)/lwk/mpiprof_calls.o: $(MPI_B)/mpiprof_calls.c mpi/mpiprof.h \
                              mpi/include/mpi.h $(LIBC_ALL)
	$(call say,LWKCC,$@)
	$(Q)$(LWKCC) -O2 -Wall -Wextra -Werror -Impi/include -Impi -c $< -o $@
$(LIBC_LIB)/libmpiprof.a: $(MPI_B)/lwk/mpiprof.o $(MPI_B)/lwk/mpiprof_calls.o
	$(call say,AR,$@)
	$(Q)rm -f $@ && $(CROSS)ar rcs $@ $^
mpi-lwkcheck: mpi-lwk
all: mpi-lwk

# ---- tests: one program per area, run by tests/mpi/run under ptlrun ----
MPI_TESTS  := $(patsubst tests/mpi/%.c,$(MPI_B)/tests/%,$(wildcard tests/mpi/*.c))

$(MPI_B)/tests/%: tests/mpi/%.c tests/mpi/mpitest.h $(MPI_B)/libmpi.a \
                  $(PTL_B)/libportals.a tools/mpicc
	@mkdir -p $(@D)
	$(call say,MPICC,$@)
	$(Q)tools/mpicc -O2 -Wall -Wextra -Werror -Itests/mpi $< -o $@ -lm \
	    $(MPI_TEST_LDFLAGS)

# probe holds the library's search answers to let messages come meanwhile.
$(MPI_B)/tests/probe $(MPI_B)/node/probe.elf: \
    MPI_TEST_LDFLAGS = -Wl,--wrap=PtlMESearch

# mpinx: one job, every rank using MPI and NX (tests/mpinx; libnx from nx.mk).
MPI_MPINX := $(MPI_B)/tests/mpinx
$(MPI_MPINX): tests/mpinx/mpinx.c tests/mpi/mpitest.h $(MPI_B)/libmpi.a \
              $(PTL_B)/libportals.a tools/mpicc $$(NX_B)/libnx.a
	@mkdir -p $(@D)
	$(call say,MPICC,$@)
	$(Q)MPI_BUILD=$(BUILD) tools/mpicc -O2 -Wall -Wextra -Werror -Itests/mpi \
	    -Inx/include $< -o $@ $(NX_B)/libnx.a -lm

# The same programs for the compute nodes (tests/qemu/suite-mpinodes).
$(MPI_B)/node/%.elf: tests/mpi/%.c tests/mpi/mpitest.h $(MPI_LWK) $(LIBC_ALL) \
                     tools/mpicc
	@mkdir -p $(@D)
	$(call say,MPICC,$@)
	$(Q)MPI_BUILD=$(BUILD) tools/mpicc --lwk -O2 -g -Wall -Wextra -Werror \
	    -Itests/mpi $< -o $@ -lm $(MPI_TEST_LDFLAGS)

$(MPI_B)/node/mpinx.elf: tests/mpinx/mpinx.c tests/mpi/mpitest.h $(MPI_LWK) \
                         $(LIBC_ALL) tools/mpicc $$(NX_LWK)
	@mkdir -p $(@D)
	$(call say,MPICC,$@)
	$(Q)MPI_BUILD=$(BUILD) tools/mpicc --lwk -O2 -g -Wall -Wextra -Werror \
	    -Itests/mpi $< -o $@ -lnx -lm

MPI_NODE_TESTS := $(patsubst tests/mpi/%.c,$(MPI_B)/node/%.elf,\
                    $(wildcard tests/mpi/*.c)) $(MPI_B)/node/mpinx.elf

test-build: mpi mpi-lwkcheck $(MPI_TESTS) $(MPI_MPINX) $(MPI_NODE_TESTS)
TEST_SUITES += tests/mpi/run@$(BUILD)@mpi tests/qemu/suite-mpinodes

-include $(MPI_OBJS:.o=.d) $(MPI_LWKOBJS:.o=.d)

.PHONY: mpi mpi-lwk mpi-lwkcheck

# ---- benchmark (not a test): MPI ping-pong vs raw Portals -------------
$(MPI_B)/mpi-bench: tests/bench/mpi/mpi_bench.c $(MPI_B)/libmpi.a \
                    $(PTL_B)/libportals.a tools/mpicc
	$(call say,MPICC,$@)
	$(Q)tools/mpicc -O2 -Wall -Werror $< -o $@

bench-mpi: $(MPI_B)/mpi-bench $(PTL_B)/ptl-bench
	tests/bench/mpi/run $(BUILD) 5

# The same between two compute nodes, with NX and raw Portals beside it
# (tests/bench/mpinodes/run), and barrier/allreduce against rank count on
# Linux (tests/bench/mpicoll/run).
# (mpi-bench.elf, mpi-ratio.elf)
$(MPI_B)/node/mpi-%.elf: tests/bench/mpi/mpi_%.c $(MPI_LWK) $(LIBC_ALL) \
                         tools/mpicc
	@mkdir -p $(@D)
	$(call say,MPICC,$@)
	$(Q)MPI_BUILD=$(BUILD) tools/mpicc --lwk -O2 -Wall -Werror $< -o $@

# MPI against raw Portals inside one job, block by block
# (tests/bench/mpiratio/run).
bench-mpiratio: $(MPI_B)/node/mpi-ratio.elf $$(YOD_BIN)
	tests/bench/mpiratio/run $(BUILD) 3

bench-mpinodes: $(MPI_B)/node/mpi-bench.elf $$(NX_B)/node/pingpong.elf \
                $(BUILD)/tests/net/pingpong.elf $$(YOD_BIN)
	tests/bench/mpinodes/run $(BUILD) 5

# Collective buffering against the independent path: write_all and
# read_all of a 2-D array from 8 ranks (tests/bench/io/cb; docs/io.md).
$(BUILD)/tests/bench/iocb.elf: tests/bench/io/cb.c $(MPI_LWK) $(LIBC_ALL) \
                               tools/mpicc
	@mkdir -p $(@D)
	$(call say,MPICC,$@)
	$(Q)MPI_BUILD=$(BUILD) tools/mpicc --lwk -O2 -Wall -Werror $< -o $@

bench-iocb: $(BUILD)/tests/bench/iocb.elf $$(YOD_BIN)
	tests/bench/io/cb $(BUILD)

$(MPI_B)/coll-bench: tests/bench/mpicoll/coll_bench.c $(MPI_B)/libmpi.a \
                     $(PTL_B)/libportals.a tools/mpicc
	$(call say,MPICC,$@)
	$(Q)MPI_BUILD=$(BUILD) tools/mpicc -O2 -Wall -Werror $< -o $@

bench-mpicoll: $(MPI_B)/coll-bench
	tests/bench/mpicoll/run $(BUILD) 5

# One-sided against raw Portals put/get between two compute nodes
# (tests/bench/rma/run), and nonblocking collectives overlapped with
# computation on 2, 4 and 8 nodes (tests/bench/nbc/run).
$(MPI_B)/rma-bench: tests/bench/rma/rma_bench.c $(MPI_B)/libmpi.a \
                    $(PTL_B)/libportals.a tools/mpicc
	$(call say,MPICC,$@)
	$(Q)MPI_BUILD=$(BUILD) tools/mpicc -O2 -Wall -Werror $< -o $@

$(MPI_B)/node/rma-bench.elf: tests/bench/rma/rma_bench.c $(MPI_LWK) \
                             $(LIBC_ALL) tools/mpicc
	@mkdir -p $(@D)
	$(call say,MPICC,$@)
	$(Q)MPI_BUILD=$(BUILD) tools/mpicc --lwk -O2 -Wall -Werror $< -o $@

bench-rma: $(MPI_B)/rma-bench $(MPI_B)/node/rma-bench.elf $$(YOD_BIN)
	tests/bench/rma/run $(BUILD) 5

# Two ranks of one node through their shared memory (single copy, shared
# windows) against the loop queues and two nodes (tests/bench/shm/run).
$(MPI_B)/node/shm-rma.elf: tests/bench/shm/shm_rma.c $(MPI_LWK) $(LIBC_ALL) \
                           tools/mpicc
	@mkdir -p $(@D)
	$(call say,MPICC,$@)
	$(Q)MPI_BUILD=$(BUILD) tools/mpicc --lwk -O2 -Wall -Werror $< -o $@

bench-shm: $(MPI_B)/node/mpi-bench.elf $(MPI_B)/node/shm-rma.elf $$(YOD_BIN)
	tests/bench/shm/run 5

$(MPI_B)/nbc-bench: tests/bench/nbc/nbc_bench.c $(MPI_B)/libmpi.a \
                    $(PTL_B)/libportals.a tools/mpicc
	$(call say,MPICC,$@)
	$(Q)MPI_BUILD=$(BUILD) tools/mpicc -O2 -Wall -Werror $< -o $@

$(MPI_B)/node/nbc-bench.elf: tests/bench/nbc/nbc_bench.c $(MPI_LWK) \
                             $(LIBC_ALL) tools/mpicc
	@mkdir -p $(@D)
	$(call say,MPICC,$@)
	$(Q)MPI_BUILD=$(BUILD) tools/mpicc --lwk -O2 -Wall -Werror $< -o $@

bench-nbc: $(MPI_B)/nbc-bench $(MPI_B)/node/nbc-bench.elf $$(YOD_BIN)
	tests/bench/nbc/run $(BUILD) 5

.PHONY: bench-mpi bench-mpinodes bench-mpiratio bench-mpicoll bench-rma bench-nbc \
        bench-iocb \
        bench-shm
