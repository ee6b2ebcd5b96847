# mpi/mpi.mk: the MPI library over Portals (build/mpi/libmpi.a), the
# mpicc wrapper's inputs, and the MPI test programs (tests/mpi).
# Included by the top-level Makefile; non-recursive; output in $(BUILD)/mpi.

MPI_B      := $(BUILD)/mpi
MPI_SRCS   := mpi/init.c mpi/errh.c mpi/datatype.c mpi/pack.c mpi/op.c \
              mpi/group.c mpi/comm.c mpi/attr.c mpi/topo.c mpi/request.c \
              mpi/p2p.c mpi/proto.c mpi/flowctl.c mpi/coll.c
MPI_OBJS   := $(patsubst mpi/%.c,$(MPI_B)/obj/%.o,$(MPI_SRCS))
# Portable C: libc + portals4.h + ptl_job.h only (it will build with lwkcc).
MPI_CFLAGS := $(HOSTCFLAGS) -O2 -fPIC -Impi/include -Impi -Iportals/include

$(MPI_B)/obj/%.o: mpi/%.c mpi/mpi_impl.h mpi/proto.h mpi/include/mpi.h
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(HOSTCC) $(MPI_CFLAGS) -c $< -o $@

$(MPI_B)/libmpi.a: $(MPI_OBJS)
	@rm -f $@
	$(call say,AR,$@)
	$(Q)ar rcs $@ $^

mpi: $(MPI_B)/libmpi.a $(PTL_B)/libportals.a

# ---- node build check: every file as lwkcc (newlib) compiles it --------
# The node library is wired later; this keeps the code portable now.
MPI_LWKOBJS := $(patsubst mpi/%.c,$(MPI_B)/lwk/%.o,$(MPI_SRCS))

$(MPI_B)/lwk/%.o: mpi/%.c mpi/mpi_impl.h mpi/proto.h mpi/include/mpi.h \
                  $(LIBC_ALL)
	@mkdir -p $(@D)
	$(call say,LWKCC,$@)
	$(Q)$(LWKCC) -O2 -Wall -Wextra -Werror -Impi/include -Impi \
		-Iportals/include -c $< -o $@

mpi-lwkcheck: $(MPI_LWKOBJS)

# ---- tests: one program per area, run by tests/mpi/run under ptlrun ----
MPI_TESTS  := $(patsubst tests/mpi/%.c,$(MPI_B)/tests/%,$(wildcard tests/mpi/*.c))

$(MPI_B)/tests/%: tests/mpi/%.c tests/mpi/mpitest.h $(MPI_B)/libmpi.a \
                  $(PTL_B)/libportals.a tools/mpicc
	@mkdir -p $(@D)
	$(call say,MPICC,$@)
	$(Q)tools/mpicc -O2 -Wall -Wextra -Werror -Itests/mpi $< -o $@ -lm

test-build: mpi mpi-lwkcheck $(MPI_TESTS)
TEST_SUITES += tests/mpi/run@$(BUILD)@mpi

-include $(MPI_OBJS:.o=.d)

.PHONY: mpi mpi-lwkcheck

# ---- benchmark (not a test): MPI ping-pong vs raw Portals -------------
$(MPI_B)/mpi-bench: tests/bench/mpi/mpi_bench.c $(MPI_B)/libmpi.a \
                    $(PTL_B)/libportals.a tools/mpicc
	$(call say,MPICC,$@)
	$(Q)tools/mpicc -O2 -Wall -Werror $< -o $@

bench-mpi: $(MPI_B)/mpi-bench $(PTL_B)/ptl-bench
	tests/bench/mpi/run $(BUILD) 5

.PHONY: bench-mpi
