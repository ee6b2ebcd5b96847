# Q-Kernel / Cougar-style LWK: one non-recursive Makefile.
# Each directory contributes a short *.mk that lists its sources explicitly.
# All output goes to build/.

BUILD      := build
HOSTARCH   := $(shell uname -m)

# The kernel is x86-64 code. On an x86-64 host the host gcc/binutils build it;
# elsewhere Debian's x86_64-linux-gnu- cross tools do.
ifeq ($(HOSTARCH),x86_64)
CROSS      ?=
else
CROSS      ?= x86_64-linux-gnu-
endif
KCC        := $(CROSS)gcc
KLD        := $(CROSS)ld
KOBJCOPY   := $(CROSS)objcopy
KNM        := $(CROSS)nm

# Kernel code: freestanding, no red zone (interrupts use the stack), no SIMD
# (we do not save FPU state in traps), kernel code model (linked at -2 GiB).
# Copies and clears gcc inlines are unrolled loops up to 256 bytes, calls to
# kernel/lib.c above: never rep movs/stos (see memcpy there).
KSTRINGOP  := unrolled_loop:256:noalign,libcall:-1:noalign
KCFLAGS    := -std=gnu11 -O2 -g -Wall -Wextra -Werror -ffreestanding -fno-common \
              -fno-pic -fno-pie -mno-red-zone -mno-sse -mno-mmx -mno-sse2 -mno-avx \
              -mmemcpy-strategy=$(KSTRINGOP) -mmemset-strategy=$(KSTRINGOP) \
              -mcmodel=kernel -fno-stack-protector -fno-omit-frame-pointer \
              -fno-asynchronous-unwind-tables -nostdinc \
              -isystem $(shell $(KCC) -print-file-name=include) \
              -Ikernel/include -Iboot -MMD -MP
KASFLAGS   := -g -Ikernel/include -Iboot -MMD -MP -D__ASSEMBLY__

# Host code (unit tests, Linux tools): sanitizers on in tests.
HOSTCC     ?= gcc
HOSTCFLAGS := -std=gnu11 -O1 -g -Wall -Wextra -Werror -fno-omit-frame-pointer -MMD -MP
SANFLAGS   := -fsanitize=address,undefined -fno-sanitize-recover=all

# QEMU: TCG unless asked for KVM (nested KVM is slower than TCG on our hosts).
QEMU       ?= qemu-system-x86_64
ACCEL      ?= tcg
MEM        ?= 128M
CMDLINE    ?=

# Quiet build lines ("  CC  file"); make V=1 shows the commands.
ifeq ($(V),1)
Q    :=
say   = @true
else
Q    := @
say   = @printf '  %-7s %s\n' $(1) $(2);
endif

all: kernel iso

include boot/boot.mk
include kernel/kernel.mk
include tests/tests.mk
-include portals/portals.mk
-include libc/libc.mk
-include mpi/mpi.mk
-include lxrt/lxrt.mk
-include mpi/fortran/fortran.mk
-include pct/pct.mk
-include yod/yod.mk
-include tests/debug/debug.mk
-include tools/tools.mk
-include nx/nx.mk
-include lxrt/lxnode.mk
-include examples/examples.mk

# ---- setup ---------------------------------------------------------------
deps:
	@tools/deps

# ---- running -------------------------------------------------------------
QEMU_ARGS = -machine q35,accel=$(ACCEL) -m $(MEM) -display none -nic none -no-reboot \
            -serial stdio -device isa-debug-exit,iobase=0xf4,iosize=0x04

run: $(BUILD)/kernel.elf
	$(QEMU) $(QEMU_ARGS) -kernel $(BUILD)/kernel.elf -append "$(CMDLINE)"

run-iso: $(BUILD)/lwk.iso
	$(QEMU) $(QEMU_ARGS) -cdrom $(BUILD)/lwk.iso

# The same ISO on a UEFI machine (Debian's ovmf); slow to start under TCG.
OVMF       ?= /usr/share/ovmf/OVMF.fd
run-uefi: $(BUILD)/lwk.iso
	$(QEMU) $(QEMU_ARGS) -bios $(OVMF) -cdrom $(BUILD)/lwk.iso

# QEMU waits for gdb on tcp::1234+uid%1000; see README "Debugging".
GDBPORT    := $(shell expr 1234 + $$(id -u) % 1000)
debug: $(BUILD)/kernel.elf
	@echo "gdb: gdb -ex 'target remote :$(GDBPORT)' $(BUILD)/kernel.elf"
	$(QEMU) $(QEMU_ARGS) -kernel $(BUILD)/kernel.elf -append "$(CMDLINE)" \
		-S -gdb tcp::$(GDBPORT)

demo: deps all
	@tools/demo

# Every *.mk adds its suites to TEST_SUITES: executables that print one
# "PASS name" or "FAIL name" line per test (see tools/runtests).
# make test T=PATTERNS runs only the suites or tests they name (the
# patterns reach runtests alone: several suites use $T for themselves).
unexport T
test: deps
	@$(MAKE) --no-print-directory all test-build
	@tools/runtests $(if $(T),--only '$(T)') $(TEST_SUITES)

clean:
	rm -rf $(BUILD)

help:
	@echo 'make [all]          build the kernel, PCT, ISO, libraries and tools (build/)'
	@echo 'make deps           install the Debian packages the build and tests need'
	@echo 'make test           build and run every suite (tools/runtests)'
	@echo 'make test T=PAT     only the suites or tests PAT names, e.g. T=suite-yod,'
	@echo '                    T=yod (the same), T=mpi.p2p (its tests), T="nx.*-4":'
	@echo '                    suite names with or without "suite-"; test names are'
	@echo '                    dotted, matched whole or up to a dot, wildcards allowed;'
	@echo '                    commas or spaces between patterns (tools/runtests)'
	@echo 'make demo           a 4-node cluster, programs run with yod, then down'
	@echo 'make install        PREFIX=/usr/local (DESTDIR=...): bin/ lib/ include/'
	@echo '                    share/lwk/ (tools/install); make uninstall removes it'
	@echo 'make run | debug    boot one node under QEMU (debug: wait for gdb)'
	@echo 'make run-iso        the ISO under SeaBIOS; run-uefi: under OVMF (UEFI)'
	@echo 'make clean          remove build/'

.PHONY: all deps run run-iso run-uefi debug demo test clean kernel iso test-build help
