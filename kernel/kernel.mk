# kernel/: the Q-Kernel.  Linked twice: the first link gives the addresses
# for the symbol table (tools/genksyms) that the second link carries.

# The kernel's Portals host (portals.c says which part is where).
KPTL_HOST   := kernel/portals.c kernel/ptlendpoint.c kernel/ptlhost.c \
               kernel/ptlloop.c kernel/ptlcall.c kernel/ptlengine.c

KERNEL_SRCS := kernel/main.c kernel/console.c kernel/fbcon.c kernel/printf.c kernel/lib.c \
               kernel/cmdline.c kernel/ratelimit.c kernel/region.c kernel/mem.c kernel/paging.c \
               kernel/gdt.c kernel/trap.c kernel/trapentry.S kernel/ksym.c \
               kernel/panic.c kernel/apic.c kernel/timer.c kernel/rtc.c kernel/ktest.c \
               kernel/elf.c kernel/aspace.c kernel/proc.c kernel/procrun.c kernel/thread.c \
               kernel/syscall.c kernel/linux.c kernel/linux_sched.c kernel/linux_timer.c kernel/linux_futex.c kernel/debug.c kernel/profile.c kernel/pmu.c kernel/smartmap.c \
               kernel/acpi.c kernel/power.c kernel/smp.c kernel/smpboot.S \
               kernel/pci.c kernel/virtq.c kernel/virtio.c kernel/virtio_net.c \
               kernel/e1000e_ring.c kernel/e1000e.c \
               kernel/netdev.c $(KPTL_HOST)

# The Portals core (portals/), compiled as the kernel compiles.  atomic_ops.c
# alone uses SSE: its entry points get an _sse suffix here and
# kernel/portals.c calls them between an FPU save and restore.
KPTL_SRCS   := portals/lib.c portals/ni.c portals/eq.c portals/ct.c \
               portals/list.c portals/search.c portals/target.c portals/initiator.c \
               portals/rel.c portals/peer.c portals/recover.c portals/receive.c \
               portals/wire.c portals/atomic_ops.c yod/siphash.c
KPTL_SSE    := -Dptl_atomic_apply=ptl_atomic_apply_sse \
               -Dptl_atomic_valid=ptl_atomic_valid_sse \
               -Dptl_atomic_dtsize=ptl_atomic_dtsize_sse

# In-kernel tests are part of every kernel image; test= selects them.
KTEST_SRCS  := tests/kernel/test_basic.c tests/kernel/test_selftest.c \
               tests/kernel/test_net.c tests/kernel/test_smp.c \
               tests/kernel/test_fbcon.c tests/kernel/test_power.c \
               tests/kernel/test_e1000e.c tests/kernel/test_smartmap.c

KOBJS := $(patsubst %,$(BUILD)/k/%.o,$(BOOT_SRCS) $(KERNEL_SRCS) $(KTEST_SRCS) \
                                  $(KPTL_SRCS))

$(patsubst %,$(BUILD)/k/%.o,$(KPTL_SRCS) $(KPTL_HOST)): \
    KCFLAGS += -Iportals/include -Iportals -iquote yod
$(BUILD)/k/portals/atomic_ops.c.o: KCFLAGS := \
    $(filter-out -mno-sse -mno-sse2 -mno-mmx,$(KCFLAGS)) $(KPTL_SSE) \
    -Iportals/include -Iportals

# The console font: GRUB's 8x16 ASCII glyphs (Unifont) from Debian's
# grub-common, made const.
FONT_H := /usr/share/grub/ascii.h
$(BUILD)/k/font8x16.h: $(FONT_H)
	@mkdir -p $(@D)
	$(call say,FONT,$@)
	$(Q)sed 's/^unsigned char ascii_bitmaps/static const unsigned char ascii_bitmaps/' $< > $@
$(BUILD)/k/kernel/fbcon.c.o $(BUILD)/k/tests/kernel/test_fbcon.c.o: $(BUILD)/k/font8x16.h
$(BUILD)/k/kernel/fbcon.c.o $(BUILD)/k/tests/kernel/test_fbcon.c.o: KCFLAGS += -I$(BUILD)/k

$(BUILD)/k/%.c.o: %.c
	@mkdir -p $(@D)
	$(call say,CC,$<)
	$(Q)$(KCC) $(KCFLAGS) -c $< -o $@

$(BUILD)/k/%.S.o: %.S
	@mkdir -p $(@D)
	$(call say,AS,$<)
	$(Q)$(KCC) $(KASFLAGS) -c $< -o $@

KLDFLAGS := -nostdlib -z max-page-size=0x1000 -T kernel/kernel.ld --no-warn-rwx-segments -z noexecstack

$(BUILD)/k/ksyms0.S: tools/genksyms
	@mkdir -p $(@D)
	$(Q)tools/genksyms /dev/null > $@

$(BUILD)/k/kernel.pass1.elf: $(KOBJS) $(BUILD)/k/ksyms0.S.o kernel/kernel.ld
	$(call say,LD,$@)
	$(Q)$(KLD) $(KLDFLAGS) -o $@ $(KOBJS) $(BUILD)/k/ksyms0.S.o

$(BUILD)/k/ksyms.S: $(BUILD)/k/kernel.pass1.elf tools/genksyms
	$(call say,KSYMS,$@)
	$(Q)$(KNM) -n --defined-only $< | tools/genksyms > $@

$(BUILD)/k/ksyms0.S.o $(BUILD)/k/ksyms.S.o: $(BUILD)/k/%.S.o: $(BUILD)/k/%.S
	$(Q)$(KCC) $(KASFLAGS) -c $< -o $@

# The second link must not move any function: check it.
$(BUILD)/kernel.elf: $(BUILD)/k/kernel.pass1.elf $(BUILD)/k/ksyms.S.o
	$(call say,LD,$@)
	$(Q)$(KLD) $(KLDFLAGS) -o $@ $(KOBJS) $(BUILD)/k/ksyms.S.o
	$(Q)$(KNM) -n --defined-only $@ | tools/genksyms | cmp -s - $(BUILD)/k/ksyms.S \
		|| { echo "kernel: symbol table moved functions"; rm -f $@; exit 1; }
	$(Q)$(KOBJCOPY) --only-keep-debug $@ $(BUILD)/kernel.sym 2>/dev/null || true

kernel: $(BUILD)/kernel.elf

-include $(KOBJS:.o=.d)
