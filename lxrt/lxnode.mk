# lxrt/lxnode.mk: Portals, MPI and NX for Linux programs on the nodes
# (static glibc programs run by the Linux personality, docs/LINUX.md).
# The same sources as the node libraries, compiled by the host's gcc
# against glibc: Portals is the node library (portals/lwk/ptl_lwk.c, one
# Q-Kernel call per operation), which shares the process's one Portals
# endpoint with the runtime's copy (PtlInit adopts the area the other made).
# `__lwk__` is defined as for lwkcc: the libraries run on a compute node.
#
#   $(BUILD)/lxnode/include/lwk/  lwk.h, syscall.h, uapi/ (no newlib headers)
#   $(BUILD)/lxnode/lib/          libportals.a (+ job interface), libmpi.a,
#                                 libnx.a: what `mpicc --lwk-linux`,
#                                 `mpicxx --lwk`, `mpifort --lwk` link

LXN          := $(BUILD)/lxnode
LXN_INC      := $(LXN)/include
LXN_LIB      := $(LXN)/lib
LXN_HDRS     := $(LXN_INC)/lwk/lwk.h $(LXN_INC)/lwk/syscall.h $(LXN_INC)/lwk/smartmap.h \
                $(LXN_INC)/lwk/uapi/abi.h $(LXN_INC)/lwk/uapi/syscalls.def \
                $(LXN_INC)/lwk/uapi/ptlcalls.def
LXN_CFLAGS   := -std=gnu11 -O2 -g -Wall -Wextra -Werror -MMD -MP -D__lwk__ \
                -I$(LXN_INC) -Iportals/include

$(LXN_INC)/lwk/%.h: libc/include/lwk/%.h
	@mkdir -p $(@D) && cp $< $@
$(LXN_INC)/lwk/uapi/%: kernel/include/uapi/%
	@mkdir -p $(@D) && cp $< $@

$(LXN)/obj/ptl/%.o: portals/lwk/%.c portals/lwk/ptl_lwk.h $(LXN_HDRS)
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(HOSTCC) $(LXN_CFLAGS) -c $< -o $@
$(LXN)/obj/ptl/abort.o: libc/abort.c $(LXN_HDRS)
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(HOSTCC) $(LXN_CFLAGS) -c $< -o $@
$(LXN)/obj/ptl/job.o: portals/user/job.c $(LXN_HDRS)
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(HOSTCC) $(LXN_CFLAGS) -c $< -o $@
$(LXN)/obj/mpi/%.o: mpi/%.c $(LXN_HDRS)
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(HOSTCC) $(LXN_CFLAGS) -Impi/include -Impi -c $< -o $@
$(LXN)/obj/nx/%.o: nx/%.c $(LXN_HDRS)
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(HOSTCC) $(LXN_CFLAGS) -Inx/include -c $< -o $@

LXN_PTL_OBJS := $(LXN)/obj/ptl/ptl_lwk.o $(LXN)/obj/ptl/ptl_lwk_wait.o \
                $(LXN)/obj/ptl/abort.o \
                $(LXN)/obj/ptl/job.o
LXN_MPI_OBJS := $(patsubst mpi/%.c,$(LXN)/obj/mpi/%.o,$(MPI_SRCS))
LXN_NX_OBJS  := $(patsubst nx/%.c,$(LXN)/obj/nx/%.o,$(NX_SRCS))

$(LXN_LIB)/libportals.a: $(LXN_PTL_OBJS)
$(LXN_LIB)/libmpi.a: $(LXN_MPI_OBJS)
$(LXN_LIB)/libnx.a: $(LXN_NX_OBJS)
$(LXN_LIB)/%.a:
	@mkdir -p $(@D)
	$(call say,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

# The MPI profile (mpicc -mpiprof; mpi/mpi.mk).
$(LXN)/obj/mpi/mpiprof.o: mpi/mpiprof.h
$(LXN)/obj/mpi/mpiprof_calls.o: $(MPI_B)/mpiprof_calls.c mpi/mpiprof.h $(LXN_HDRS)
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(HOSTCC) $(LXN_CFLAGS) -Impi/include -Impi -c $< -o $@
$(LXN_LIB)/libmpiprof.a: $(LXN)/obj/mpi/mpiprof.o $(LXN)/obj/mpi/mpiprof_calls.o

LXN_LIBS := $(LXN_LIB)/libportals.a $(LXN_LIB)/libmpi.a $(LXN_LIB)/libnx.a \
            $(LXN_LIB)/libmpiprof.a
lxnode: $(LXN_LIBS)
all: lxnode
.PHONY: lxnode

-include $(LXN_PTL_OBJS:.o=.d) $(LXN_MPI_OBJS:.o=.d) $(LXN_NX_OBJS:.o=.d)

# The Fortran bindings (mpi/fortran/fortran.mk) in the same libmpi.a, so
# `mpifort --lwk` programs link them (mpif.h and mpi.mod are the Linux
# build's: the same values).
LXN_MPIF_OBJS := $(patsubst $(MPIF_B)/%.o,$(LXN)/obj/mpi/fortran/%.o,$(MPIF_OBJS))
$(LXN)/obj/mpi/fortran/%.o: mpi/fortran/%.c mpi/fortran/fmpi.h $(LXN_HDRS)
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(HOSTCC) $(LXN_CFLAGS) -Impi/include -Impi/fortran -I$(MPIF_B) -c $< -o $@
$(LXN)/obj/mpi/fortran/fwrap.o: $(MPIF_B)/fwrap.c mpi/fortran/fmpi.h $(LXN_HDRS)
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(HOSTCC) $(LXN_CFLAGS) -Impi/include -Impi/fortran -I$(MPIF_B) -c $< -o $@
$(LXN_LIB)/libmpi.a: $(LXN_MPIF_OBJS)
-include $(LXN_MPIF_OBJS:.o=.d)

# ---- tests (tests/qemu/suite-linux): the Fortran and C++ MPI programs of
# tests/mpif, built for the nodes exactly as a user would: mpifort --lwk
# (through mpif.h and through use mpi) and mpicxx --lwk.
LXN_T    := $(BUILD)/tests/linux
LXN_DEPS := $(LXN_LIBS) $(MPIF_ALL) tools/mpicc
$(LXN_T)/fmpi-h: $(MPIF_SRC) tests/mpif/fmpi.h $(LXN_DEPS)
	@mkdir -p $(@D)/mod-h
	$(call say,MPIFORT,$@)
	$(Q)MPI_BUILD=$(BUILD) tools/mpifort --lwk -O1 -J$(@D)/mod-h $(MPIF_SRC) -o $@
$(LXN_T)/fmpi-mod: $(MPIF_SRC) tests/mpif/fmpi.h $(LXN_DEPS)
	@mkdir -p $(@D)/mod-mod
	$(call say,MPIFORT,$@)
	$(Q)MPI_BUILD=$(BUILD) tools/mpifort --lwk -O1 -Wall \
	    -Wno-unused-dummy-argument -DUSE_MPI_MODULE -J$(@D)/mod-mod \
	    $(MPIF_SRC) -o $@
$(LXN_T)/cxxmpi: tests/mpif/cxxmpi.cc $(LXN_DEPS)
	@mkdir -p $(@D)
	$(call say,MPICXX,$@)
	$(Q)MPI_BUILD=$(BUILD) tools/mpicxx --lwk -O2 -Wall -Wextra -Werror $< -o $@
test-build: $(LXN_T)/fmpi-h $(LXN_T)/fmpi-mod $(LXN_T)/cxxmpi
# MPI and NX in one C program through plain gcc (mpicc --linux-node -lnx)
$(LXN_T)/mpinx: tests/mpinx/mpinx.c tests/mpi/mpitest.h $(LXN_DEPS)
	@mkdir -p $(@D)
	$(call say,MPICC,$@)
	$(Q)MPI_BUILD=$(BUILD) tools/mpicc --linux-node -O2 -g -Wall -Wextra \
	    -Werror -Itests/mpi -Inx/include $< -o $@ -lnx -lm
test-build: $(LXN_T)/mpinx
$(LXN_T)/lxmpiabort: tests/linux/lxmpiabort.c $(LXN_DEPS)
	@mkdir -p $(@D)
	$(call say,MPICC,$@)
	$(Q)MPI_BUILD=$(BUILD) tools/mpicc --linux-node -O2 -Wall -Werror $< -o $@
test-build: $(LXN_T)/lxmpiabort
# tests/mpi programs as Linux programs: shmwin (suite-smartmap's shared
# windows), ioasync (MPI-IO's nonblocking calls over io_submit, suite-linux)
LXN_MPI := shmwin ioasync
$(addprefix $(LXN_T)/,$(LXN_MPI)): $(LXN_T)/%: tests/mpi/%.c tests/mpi/mpitest.h $(LXN_DEPS)
	@mkdir -p $(@D)
	$(call say,MPICC,$@)
	$(Q)MPI_BUILD=$(BUILD) tools/mpicc --linux-node -O2 -Wall -Wextra \
	    -Werror -Itests/mpi $< -o $@
test-build: $(addprefix $(LXN_T)/,$(LXN_MPI))
# suite-jobs' leave.c (a rank leaves its MPI and NX job) as a Linux program
$(LXN_T)/leave: tests/yod/leave.c $(LXN_DEPS)
	@mkdir -p $(@D)
	$(call say,MPICC,$@)
	$(Q)MPI_BUILD=$(BUILD) tools/mpicc --linux-node -O2 -Wall -Wextra \
	    -Werror -Inx/include $< -o $@ -lnx
test-build: $(LXN_T)/leave
