# yod/: the launcher (Linux).  It links libportals and checks programs
# with the same ELF code the PCT uses (kernel/elf.c).

YOD_BIN := $(BUILD)/bin/yod

YOD_SRCS := yod/yod.c yod/control.c yod/request.c yod/options.c yod/nodelist.c \
            yod/launch.c yod/end.c yod/lease.c \
            yod/auth.c yod/fileio.c yod/filecalls.c yod/paths.c yod/pfs.c yod/transfer.c yod/cluster.c \
            yod/ioserver.c yod/iod.c yod/slurm.c yod/siphash.c \
            yod/rankdbg.c yod/gdbrsp.c \
            yod/gdbregs.c yod/gdbserver.c yod/gdbpackets.c yod/jobctl.c yod/core.c \
            yod/postmortem.c yod/stacks.c yod/gmon.c yod/profile.c kernel/elf.c

$(YOD_BIN): $(YOD_SRCS) yod/yod.h yod/fileio.h yod/filecalls.h yod/paths.h \
            yod/ioserver.h yod/pfs.h yod/pfs_map.h yod/fileio_srv.h \
            yod/cluster.h yod/slurm.h yod/yod_proto.h yod/siphash.h \
            yod/yod_debug.h yod/rankdbg.h yod/gdbrsp.h yod/gdbregs.h \
            yod/gdbserver.h yod/gdbsession.h yod/jobctl.h yod/core.h yod/postmortem.h \
            yod/stacks.h yod/gmon.h yod/profile.h \
            kernel/include/elf.h kernel/include/uapi/abi.h $(PTL_B)/libportals.a
	$(call say,HOSTCC,$@)
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) $(filter-out -MMD -MP,$(HOSTCFLAGS)) -O2 -pthread \
	    $(PTL_INC) -iquote kernel/include -iquote yod -o $@ \
	    $(YOD_SRCS) $(PTL_B)/libportals.a -lvdeplug -ldw -lelf -pthread

# mpiexec and mpirun are yod under other names: it reads their options
# (yod/options.c).
$(BUILD)/bin/mpiexec $(BUILD)/bin/mpirun: $(YOD_BIN)
	$(Q)ln -sf yod $@

# showmesh: every node's state, from the PCTs (STATUS requests).
SHOWMESH_BIN := $(BUILD)/bin/showmesh

$(SHOWMESH_BIN): yod/showmesh.c yod/cluster.c yod/cluster.h yod/yod_proto.h \
                 yod/siphash.h $(PTL_B)/libportals.a
	$(call say,HOSTCC,$@)
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) $(filter-out -MMD -MP,$(HOSTCFLAGS)) -O2 -pthread \
	    $(PTL_INC) -iquote yod -o $@ yod/showmesh.c yod/cluster.c \
	    $(PTL_B)/libportals.a -lvdeplug -pthread

# srun on a Slurm-managed cluster (tools/cluster up --slurm): a SPANK
# plugin turning a step's task 0 into yod (docs/slurm.md).  Built where
# Slurm's headers are (libslurm-dev, make deps).
LWK_SRUN := $(BUILD)/slurm/lwk_srun.so
ifneq ($(wildcard /usr/include/slurm/spank.h),)
$(LWK_SRUN): yod/lwk_srun.c
	$(call say,HOSTCC,$@)
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) $(filter-out -MMD -MP,$(HOSTCFLAGS)) -O2 -shared -fPIC \
	    -o $@ $<
yod: $(LWK_SRUN)
test-build: $(LWK_SRUN)
endif

yod: $(YOD_BIN) $(SHOWMESH_BIN) $(BUILD)/bin/mpiexec $(BUILD)/bin/mpirun
all: yod
.PHONY: yod

# The test program of tests/qemu/suite-yod.
YOD_TEST_ELF := $(BUILD)/tests/yod/yodtest.elf
$(YOD_TEST_ELF): tests/yod/yodtest.c $(LIBC_ALL)
	$(call say,LWKCC,$@)
	@mkdir -p $(@D)
	$(Q)$(LWKCC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -o $@ $< -lportals

# The test program of tests/qemu/suite-yodio (file I/O through yod).
YOD_IO_ELF := $(BUILD)/tests/yod/iotest.elf
$(YOD_IO_ELF): tests/yod/iotest.c tests/yod/iogarbage.c tests/yod/iotest.h \
                yod/yod_proto.h yod/siphash.c $(LIBC_ALL)
	$(call say,LWKCC,$@)
	@mkdir -p $(@D)
	$(Q)$(LWKCC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -Iyod -o $@ $< \
	    tests/yod/iogarbage.c yod/siphash.c -lportals

# POSIX aio through the rank's I/O server (tests/qemu/suite-io).
YOD_AIO_ELF := $(BUILD)/tests/yod/aiotest.elf
$(YOD_AIO_ELF): tests/yod/aiotest.c $(LIBC_ALL)
	$(call say,LWKCC,$@)
	@mkdir -p $(@D)
	$(Q)$(LWKCC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -o $@ $<

# Striped files (yod -pfs; tests/qemu/suite-io).
YOD_PFS_ELF := $(BUILD)/tests/yod/pfstest.elf
$(YOD_PFS_ELF): tests/yod/pfstest.c $(LIBC_ALL)
	$(call say,LWKCC,$@)
	@mkdir -p $(@D)
	$(Q)$(LWKCC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -o $@ $<

# MPI-IO's striping hints on a striped file (tests/qemu/suite-io).
YOD_PFSMPI_ELF := $(BUILD)/tests/yod/pfsmpi.elf
$(YOD_PFSMPI_ELF): tests/yod/pfsmpi.c $(LIBC_ALL) $$(MPI_LWK) tools/mpicc
	$(call say,MPICC,$@)
	@mkdir -p $(@D)
	$(Q)MPI_BUILD=$(BUILD) tools/mpicc --lwk -std=gnu11 -O2 -g -Wall \
	    -Wextra -Werror -o $@ $<

# Output and files when yod cannot write them, and from threads
# (tests/qemu/suite-yodio).
YOD_OUT_ELF := $(BUILD)/tests/yod/outtest.elf
$(YOD_OUT_ELF): tests/yod/outtest.c $(LIBC_ALL)
	$(call say,LWKCC,$@)
	@mkdir -p $(@D)
	$(Q)$(LWKCC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -o $@ $<

# The ways a rank ends its job (tests/qemu/suite-jobs): MPI_Abort, an NX
# fatal error, abort(), assert(), ptl_job_abort, exits.
YOD_ABORTS_ELF := $(BUILD)/tests/yod/aborts.elf
$(YOD_ABORTS_ELF): tests/yod/aborts.c $(LIBC_ALL) $$(MPI_LWK) $$(NX_LWK) \
                   tools/mpicc
	$(call say,MPICC,$@)
	@mkdir -p $(@D)
	$(Q)MPI_BUILD=$(BUILD) tools/mpicc --lwk -std=gnu11 -O2 -g -Wall \
	    -Wextra -Werror -o $@ $< -lnx

# A rank that leaves its MPI and NX job without finalizing, each way a
# program leaves, while the others wait for it (tests/qemu/suite-jobs).
YOD_LEAVE_ELF := $(BUILD)/tests/yod/leave.elf
$(YOD_LEAVE_ELF): tests/yod/leave.c $(LIBC_ALL) $$(MPI_LWK) $$(NX_LWK) \
                  tools/mpicc
	$(call say,MPICC,$@)
	@mkdir -p $(@D)
	$(Q)MPI_BUILD=$(BUILD) tools/mpicc --lwk -std=gnu11 -O2 -g -Wall \
	    -Wextra -Werror -o $@ $< -lnx

# A program too big for a node (bad-input tests).
YOD_BIGBSS_ELF := $(BUILD)/tests/yod/bigbss.elf
$(YOD_BIGBSS_ELF): tests/yod/bigbss.c $(LIBC_ALL)
	$(call say,LWKCC,$@)
	@mkdir -p $(@D)
	$(Q)$(LWKCC) -std=gnu11 -O2 -Wall -Wextra -Werror -o $@ $<

# The attacks on yod and the PCTs (issue 19), as a node program and as a
# Linux station on the switch (tests/qemu/suite-yod).
FORGE_ELF := $(BUILD)/tests/yod/forge.elf
FORGE_BIN := $(BUILD)/tests/yod/forge
$(FORGE_ELF): tests/yod/forge.c yod/yod_proto.h yod/siphash.c $(LIBC_ALL)
	$(call say,LWKCC,$@)
	@mkdir -p $(@D)
	$(Q)$(LWKCC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -Iyod -o $@ $< \
	    yod/siphash.c -lportals
$(FORGE_BIN): tests/yod/forge.c yod/yod_proto.h yod/siphash.c \
              $(PTL_B)/libportals.a
	$(call say,HOSTCC,$@)
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) $(filter-out -MMD -MP,$(HOSTCFLAGS)) -O2 $(PTL_INC) \
	    -iquote yod -iquote kernel/include -o $@ $< yod/siphash.c \
	    $(PTL_B)/libportals.a -lvdeplug -pthread

test-build: $(YOD_BIN) $(SHOWMESH_BIN) $(YOD_TEST_ELF) $(YOD_IO_ELF) $(YOD_AIO_ELF) $(YOD_PFS_ELF) $(YOD_PFSMPI_ELF) \
    $(YOD_OUT_ELF) $(YOD_BIGBSS_ELF) $(YOD_ABORTS_ELF) $(YOD_LEAVE_ELF) \
    $(FORGE_ELF) $(FORGE_BIN)
TEST_SUITES += tests/qemu/suite-yod tests/qemu/suite-yodio tests/qemu/suite-jobs \
               tests/qemu/suite-io

# Fan-out loading: 8 MiB of initialised data checked on every rank
# (tests/qemu/suite-yodfan, tests/bench/yod/run).
BIGDATA_ELF := $(BUILD)/tests/yod/bigdata.elf
$(BUILD)/tests/yod/bigdata.h: tests/yod/bigdata.py
	$(call say,GEN,$@)
	@mkdir -p $(@D)
	$(Q)python3 tests/yod/bigdata.py $(@D)/bigdata.bin $@
$(BIGDATA_ELF): tests/yod/bigdata.c $(BUILD)/tests/yod/bigdata.h $(LIBC_ALL)
	$(call say,LWKCC,$@)
	$(Q)$(LWKCC) -std=gnu11 -O2 -g -Wall -Wextra -Werror \
	    -I$(BUILD)/tests/yod -o $@ $<

test-build: $(BIGDATA_ELF)
TEST_SUITES += tests/qemu/suite-yodfan

# Slurm over the compute partition (tools/cluster up --slurm): an MPI
# program naming where each rank ran, for tests/qemu/suite-slurm and
# tests/bench/slurm/run.
SLURM_NIDS_ELF := $(BUILD)/tests/slurm/mpinids.elf
$(SLURM_NIDS_ELF): tests/slurm/mpinids.c $(LIBC_ALL) $$(MPI_LWK) tools/mpicc
	$(call say,MPICC,$@)
	@mkdir -p $(@D)
	$(Q)MPI_BUILD=$(BUILD) tools/mpicc --lwk -std=gnu11 -O2 -g -Wall \
	    -Wextra -Werror -o $@ $<

test-build: $(SLURM_NIDS_ELF)
TEST_SUITES += tests/qemu/suite-slurm
# The same over a partition of two hosts (root only: tests/qemu/twohosts.sh).
TEST_SUITES += tests/qemu/suite-slurmhosts

# Many nodes (tests/qemu/suite-scale): an MPI
# allreduce over every rank, each checking the result.
SCALE_ELF := $(BUILD)/tests/yod/allreduce.elf
$(SCALE_ELF): tests/yod/allreduce.c $(LIBC_ALL) $$(MPI_LWK) tools/mpicc
	$(call say,MPICC,$@)
	@mkdir -p $(@D)
	$(Q)MPI_BUILD=$(BUILD) tools/mpicc --lwk -std=gnu11 -O2 -g -Wall \
	    -Wextra -Werror -o $@ $<

test-build: $(SCALE_ELF)
TEST_SUITES += tests/qemu/suite-scale

# The IOR-style benchmark of the ranks' file I/O through yod and its I/O
# servers (tests/bench/io/run; docs/io.md).
IOR_ELF := $(BUILD)/tests/bench/ior.elf
$(IOR_ELF): tests/bench/io/ior.c $(LIBC_ALL) $$(MPI_LWK) tools/mpicc
	$(call say,MPICC,$@)
	@mkdir -p $(@D)
	$(Q)MPI_BUILD=$(BUILD) tools/mpicc --lwk -std=gnu11 -O2 -Wall -Wextra \
	    -Werror -o $@ $<

bench-io: $(IOR_ELF) $(YOD_BIN)
	tests/bench/io/run $(BUILD)
# The same job in Linux guests writing through 9p, interleaved with the
# nodes' path (tests/bench/io/guest9p; docs/io.md "Figures").
bench-io-9p: $(IOR_ELF) $(YOD_BIN)
	COUNTS="$${COUNTS:-1 4}" CONFIGS="$${CONFIGS:-yod-saw io1 io4 9p}" \
	    tests/bench/io/run $(BUILD)
.PHONY: bench-io bench-io-9p
