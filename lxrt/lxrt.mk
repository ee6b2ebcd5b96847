# lxrt/: the Linux personality's runtime (docs/LINUX.md).  A newlib
# program linked at LXRT_BASE (2 GiB - 32 MiB: newlib is built for the
# small code model, so below 2 GiB; a Linux program lies below it),
# packed as yod packs programs; yod and lwkrun send it after a Linux
# program (pct/linux.c loads both).
#
#   $(BUILD)/lxrt/lxrt.elf      the runtime
#   $(BUILD)/lxrt/lxrt.packed   what yod and lwkrun send
#   $(BUILD)/lxrt/pack          host tool: elf_pack (kernel/elf.c)

LXRT_BASE   := 0x7e000000
LXRT_SRCS   := lxrt/rt.c lxrt/rt_mem.c lxrt/rt_file.c lxrt/rt_fd.c \
               lxrt/rt_aio.c lxrt/rt_sys.c lxrt/rt_signal.c lxrt/rt_timer.c lxrt/rt_proc.c \
               lxrt/rt_procio.c lxrt/rt_procfiles.c lxrt/rt_cpuinfo.c \
               lxrt/rt_fmt.c lxrt/rt_entry.S
LXRT_ELF    := $(BUILD)/lxrt/lxrt.elf
LXRT_PACKED := $(BUILD)/lxrt/lxrt.packed
LXRT_LD     := $(BUILD)/lxrt/rt.ld
LXPACK      := $(BUILD)/lxrt/pack

# app.ld at LXRT_BASE, without unwind tables (the runtime never unwinds).
$(LXRT_LD): libc/app.ld lxrt/lxrt.mk
	@mkdir -p $(@D)
	$(Q)sed -e 's/0x400000/$(LXRT_BASE)/g' \
		-e 's|^ *\.eh_frame_hdr : .*|    /DISCARD/ : { *(.eh_frame_hdr) *(.eh_frame) *(.eh_frame.*) }|' \
		-e '/^ *\.eh_frame : /d' $< >$@

# Every lx_<name> takes the six argument registers, used or not.
$(LXRT_ELF): $(LXRT_SRCS) lxrt/rt.h lxrt/rt_proc.h lxrt/lx_abi.h $(LXRT_LD) \
             $(LIBC_ALL) kernel/include/uapi/linux.def
	$(call say,LWKCC,$@)
	$(Q)LWKCC_LDSCRIPT=$(abspath $(LXRT_LD)) $(LWKCC) -std=gnu11 -Os -g \
		-DLXRT_BASE=$(LXRT_BASE) \
		-fno-asynchronous-unwind-tables \
		-Wall -Wextra -Werror -Wno-unused-parameter -Wno-override-init \
		-Ilibc -Iyod -o $@ $(LXRT_SRCS)

$(LXPACK): lxrt/pack.c kernel/elf.c kernel/include/elf.h
	@mkdir -p $(@D)
	$(call say,HOSTCC,$@)
	$(Q)$(HOSTCC) $(HOSTCFLAGS) -iquote kernel/include -o $@ lxrt/pack.c kernel/elf.c

# Packed without symbols: it travels with every Linux program.
$(LXRT_PACKED): $(LXRT_ELF) $(LXPACK)
	$(Q)$(CROSS)strip -o $@.tmp $< && $(LXPACK) $@.tmp $@ && rm -f $@.tmp

lxrt: $(LXRT_PACKED)
all: lxrt
.PHONY: lxrt

# ---- tests (tests/qemu/suite-linux): programs built by the host's own
# compilers, -static, exactly as a user would build them (C++ and Fortran
# through lwkc++ and lwkfort, which add only -static).
LX_TEST_OUT  := $(BUILD)/tests/linux
LX_TEST_BINS := $(LX_TEST_OUT)/lxc $(LX_TEST_OUT)/lxc-pie \
                $(LX_TEST_OUT)/lxcxx $(LX_TEST_OUT)/lxf90 \
                $(LX_TEST_OUT)/lxbad $(LX_TEST_OUT)/lxdyn $(LX_TEST_OUT)/lxomp \
                $(LX_TEST_OUT)/lxdir $(LX_TEST_OUT)/lxproc \
                $(LX_TEST_OUT)/lxouttest $(LX_TEST_OUT)/lxrawout \
                $(LX_TEST_OUT)/lxpfs $(LX_TEST_OUT)/lxaio \
                $(LX_TEST_OUT)/lxpaio $(LX_TEST_OUT)/lxsig \
                $(LX_TEST_OUT)/lxwait $(LX_TEST_OUT)/lxfutex
LX_FLAGS     := -O2 -g -Wall

# Plain C programs of tests/linux/, gcc -static as a user would: lxdir
# (directories, dup), lxaio (Linux's native AIO through the raw system
# calls), lxpaio (glibc's POSIX aio, its helper thread and futexes), lxpfs
# (a striped file's calls, suite-io), lxsig (signals to threads, affinity),
# lxwait (waiting for signals, timers that send them), lxfutex (futex
# waits and wakes, pthread mutexes and condition variables).
LX_PLAIN := lxc lxdir lxaio lxpaio lxpfs lxsig lxwait lxfutex
$(addprefix $(LX_TEST_OUT)/,$(LX_PLAIN)): $(LX_TEST_OUT)/%: tests/linux/%.c
	@mkdir -p $(@D)
	$(call say,CC-STATIC,$@)
	$(Q)gcc -static $(LX_FLAGS) -o $@ $<
# The node's output compared byte for byte with Linux's (suite-user):
# the same source as the newlib build/tests/user/rawout.elf.
$(LX_TEST_OUT)/lxrawout: tests/user/rawout.c
	@mkdir -p $(@D)
	$(call say,CC-STATIC,$@)
	$(Q)gcc -static $(LX_FLAGS) -o $@ $<
$(LX_TEST_OUT)/lxc-pie: tests/linux/lxc.c
	@mkdir -p $(@D)
	$(call say,CC-SPIE,$@)
	$(Q)gcc -static-pie -fPIE $(LX_FLAGS) -o $@ $<
# lxbad passes bad pointers on purpose: gcc's warning about them is moot.
LX_BAD_FLAGS := $(LX_FLAGS) -Wno-stringop-overread
$(LX_TEST_OUT)/lxbad: tests/linux/lxbad.c
	@mkdir -p $(@D)
	$(call say,CC-STATIC,$@)
	$(Q)gcc -static $(LX_BAD_FLAGS) -o $@ $<
$(LX_TEST_OUT)/lxdyn: tests/linux/lxbad.c
	@mkdir -p $(@D)
	$(call say,CC-DYN,$@)
	$(Q)gcc $(LX_BAD_FLAGS) -o $@ $<
# libgomp's one dlopen (offloading plugins) warns when linked statically.
$(LX_TEST_OUT)/lxomp: tests/linux/lxomp.c
	@mkdir -p $(@D)
	$(call say,CC-OMP,$@)
	$(Q)gcc -static -fopenmp $(LX_FLAGS) -o $@ $< 2>$@.log || { cat $@.log; false; }
$(LX_TEST_OUT)/lxproc: tests/linux/lxproc.c
	@mkdir -p $(@D)
	$(call say,CC-OMP,$@)
	$(Q)gcc -static -fopenmp $(LX_FLAGS) -o $@ $< 2>$@.log || { cat $@.log; false; }
# suite-yodio's output test (threads, a full disk) as a glibc program.
$(LX_TEST_OUT)/lxouttest: tests/yod/outtest.c
	@mkdir -p $(@D)
	$(call say,CC-STATIC,$@)
	$(Q)gcc -static -pthread $(LX_FLAGS) -o $@ $<
$(LX_TEST_OUT)/lxcxx: tests/linux/lxcxx.cc $(BUILD)/bin/lwkc++
	@mkdir -p $(@D)
	$(call say,LWKC++,$@)
	$(Q)$(BUILD)/bin/lwkc++ $(LX_FLAGS) -o $@ $<
$(LX_TEST_OUT)/lxf90: tests/linux/lxf90.f90 $(BUILD)/bin/lwkfort
	@mkdir -p $(@D)
	$(call say,LWKFORT,$@)
	$(Q)cd $(@D) && $(abspath $(BUILD))/bin/lwkfort $(LX_FLAGS) -o $(@F) $(abspath $<)

test-build: $(LX_TEST_BINS)
TEST_SUITES += tests/qemu/suite-linux

# The wrappers for the host's g++ and gfortran (tools/lwkc++, lwkfort).
LX_WRAPPERS := $(BUILD)/bin/lwkc++ $(BUILD)/bin/lwkfort
$(BUILD)/bin/lwkc++: tools/lwkc++
	@mkdir -p $(@D) && cp $< $@
$(BUILD)/bin/lwkfort: tools/lwkfort
	@mkdir -p $(@D) && cp $< $@
lxrt: $(LX_WRAPPERS)

# Figure (not a test): docs/PERFORMANCE.md, docs/bench/compute.csv.
bench-compute: all
	tests/bench/compute/run 3
.PHONY: bench-compute
