# boot/: loader headers, 32->64-bit entry, boot-info parser, GRUB ISO.

BOOT_SRCS := boot/header.S boot/entry.S boot/bootinfo.c

# The ISO: GRUB (BIOS) loads kernel.elf with multiboot2.  lwk.iso boots a
# node; lwk-test.iso runs the in-kernel tests (same kernel, other command
# line), so the tests cover the GRUB path too.
$(BUILD)/iso/%/boot/grub/grub.cfg: boot/grub.cfg.in
	@mkdir -p $(@D)
	$(Q)sed -e 's|@CMDLINE@|$(ISO_CMDLINE_$*)|' -e 's|@TIMEOUT@|$(ISO_TIMEOUT_$*)|' $< > $@

ISO_CMDLINE_lwk      := nid=0
ISO_TIMEOUT_lwk      := 2
ISO_CMDLINE_lwk-test := test=all
ISO_TIMEOUT_lwk-test := 0

$(BUILD)/%.iso: $(BUILD)/iso/%/boot/grub/grub.cfg $(BUILD)/kernel.elf
	$(call say,ISO,$@)
	$(Q)cp $(BUILD)/kernel.elf $(BUILD)/iso/$*/boot/kernel.elf
	$(Q)grub-mkrescue -o $@ $(BUILD)/iso/$* >$(BUILD)/iso/$*.log 2>&1 \
		|| { cat $(BUILD)/iso/$*.log; exit 1; }

iso: $(BUILD)/lwk.iso $(BUILD)/lwk-test.iso
.PRECIOUS: $(BUILD)/iso/%/boot/grub/grub.cfg
