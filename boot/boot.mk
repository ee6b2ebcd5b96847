# boot/: loader headers, 32->64-bit entry, boot-info parser, GRUB ISO.

BOOT_SRCS := boot/header.S boot/entry.S boot/bootinfo.c

# The ISO: GRUB loads kernel.elf with multiboot2, from BIOS (i386-pc) or
# UEFI (x86_64-efi) firmware: grub-mkrescue puts in every GRUB platform
# installed, so both must be, or the ISO would quietly boot only one kind
# of machine.  lwk.iso boots a
# node; lwk-test.iso runs the in-kernel tests (same kernel, other command
# line), so the tests cover the GRUB path too.
$(BUILD)/iso/%/boot/grub/grub.cfg: boot/grub.cfg.in boot/boot.mk
	@mkdir -p $(@D)
	$(Q)sed -e 's|@CMDLINE@|$(ISO_CMDLINE_$*)|' -e 's|@TIMEOUT@|$(ISO_TIMEOUT_$*)|' $< > $@

GRUB_LIB             := /usr/lib/grub
ISO_CMDLINE_lwk      := nid=0 console=serial,fb
ISO_TIMEOUT_lwk      := 2
ISO_CMDLINE_lwk-test := test=all console=serial,fb
ISO_TIMEOUT_lwk-test := 0

$(BUILD)/%.iso: $(BUILD)/iso/%/boot/grub/grub.cfg $(BUILD)/kernel.elf
	$(call say,ISO,$@)
	$(Q)for p in i386-pc x86_64-efi; do [ -d $(GRUB_LIB)/$$p ] || { echo \
		"iso: GRUB for $$p is missing ($(GRUB_LIB)/$$p): run make deps" \
		"(grub-pc-bin, grub-efi-amd64-bin)" >&2; exit 1; }; done
	$(Q)cp $(BUILD)/kernel.elf $(BUILD)/iso/$*/boot/kernel.elf
	$(Q)grub-mkrescue -o $@ $(BUILD)/iso/$* >$(BUILD)/iso/$*.log 2>&1 \
		|| { cat $(BUILD)/iso/$*.log; exit 1; }

iso: $(BUILD)/lwk.iso $(BUILD)/lwk-test.iso
.PRECIOUS: $(BUILD)/iso/%/boot/grub/grub.cfg
