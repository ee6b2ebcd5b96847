# tests/debug/: programs of tests/qemu/suite-debug (gdb on a rank, core
# files, stack summaries, profiles: docs/debugging.md).  All with -g and
# no optimization, so gdb's `next` and locals are the source's.

DEBUG_B := $(BUILD)/tests/debug
DEBUG_MPI_ELF := $(DEBUG_B)/dbgmpi.elf

$(DEBUG_B)/%.elf: tests/debug/%.c $(LIBC_ALL) $$(MPI_LWK) tools/mpicc
	$(call say,MPICC,$@)
	@mkdir -p $(@D)
	$(Q)MPI_BUILD=$(BUILD) tools/mpicc --lwk -std=gnu11 -O0 -g -Wall \
	    -Wextra -Werror -o $@ $<

test-build: $(DEBUG_MPI_ELF) $(DEBUG_B)/heat.elf $(DEBUG_B)/hot.elf

# The same in Fortran and C++, static Linux programs (the Linux
# personality), and in a thread (yod -threads).
DEBUG_F90 := $(DEBUG_B)/dbgf90
DEBUG_CXX := $(DEBUG_B)/dbgcxx
DEBUG_THR_ELF := $(DEBUG_B)/dbgthr.elf
$(DEBUG_F90): tests/debug/dbgf90.f90 $$(LXN_DEPS)
	$(call say,MPIFORT,$@)
	@mkdir -p $(@D)/mod
	$(Q)MPI_BUILD=$(BUILD) tools/mpifort --lwk -O0 -g -Wall -J$(@D)/mod \
	    $< -o $@
$(DEBUG_CXX): tests/debug/dbgcxx.cc $$(LXN_DEPS)
	$(call say,MPICXX,$@)
	@mkdir -p $(@D)
	$(Q)MPI_BUILD=$(BUILD) tools/mpicxx --lwk -O0 -g -Wall -Wextra \
	    -Werror $< -o $@

test-build: $(DEBUG_F90) $(DEBUG_CXX) $(DEBUG_THR_ELF)
TEST_SUITES += tests/qemu/suite-debug

# heat.c as a static Linux program (mpicc --linux-node): its cores.
DEBUG_HEAT_LX := $(DEBUG_B)/heat-lx
$(DEBUG_HEAT_LX): tests/debug/heat.c $$(LXN_DEPS)
	$(call say,MPICC,$@)
	@mkdir -p $(@D)
	$(Q)MPI_BUILD=$(BUILD) tools/mpicc --linux-node -O0 -g -Wall -Wextra \
	    -Werror $< -o $@
test-build: $(DEBUG_HEAT_LX)

# hot.c (profiles) with the MPI profile linked (mpicc -mpiprof), newlib
# and as a static Linux program.
$(DEBUG_B)/hot.elf: tests/debug/hot.c $(LIBC_ALL) $$(MPI_LWK) tools/mpicc
	$(call say,MPICC,$@)
	@mkdir -p $(@D)
	$(Q)MPI_BUILD=$(BUILD) tools/mpicc --lwk -mpiprof -std=gnu11 -O0 -g \
	    -Wall -Wextra -Werror -o $@ $<
DEBUG_HOT_LX := $(DEBUG_B)/hot-lx
$(DEBUG_HOT_LX): tests/debug/hot.c $$(LXN_DEPS)
	$(call say,MPICC,$@)
	@mkdir -p $(@D)
	$(Q)MPI_BUILD=$(BUILD) tools/mpicc --linux-node -mpiprof -O0 -g -Wall \
	    -Wextra -Werror $< -o $@
test-build: $(DEBUG_HOT_LX)

# The cost of profiling (tests/bench/profile/run, docs/PERFORMANCE.md).
$(BUILD)/tests/bench/spin.elf: tests/bench/profile/spin.c $(LIBC_ALL)
	$(call say,LWKCC,$@)
	@mkdir -p $(@D)
	$(Q)$(LWKCC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -o $@ $<
bench-profile: $(BUILD)/tests/bench/spin.elf $$(YOD_BIN)
	tests/bench/profile/run 3
.PHONY: bench-profile
