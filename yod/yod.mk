# yod/: the launcher (Linux).  It links libportals and checks programs
# with the same ELF code the PCT uses (kernel/elf.c).

YOD_BIN := $(BUILD)/bin/yod

$(YOD_BIN): yod/yod.c yod/yod_proto.h kernel/elf.c kernel/include/elf.h \
            kernel/include/uapi/abi.h $(PTL_B)/libportals.a
	$(call say,HOSTCC,$@)
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) $(filter-out -MMD -MP,$(HOSTCFLAGS)) -O2 -pthread \
	    $(PTL_INC) -iquote kernel/include -iquote yod -o $@ \
	    yod/yod.c kernel/elf.c $(PTL_B)/libportals.a -lvdeplug -pthread

yod: $(YOD_BIN)
all: yod
.PHONY: yod

# The test program of tests/qemu/suite-yod.
YOD_TEST_ELF := $(BUILD)/tests/yod/yodtest.elf
$(YOD_TEST_ELF): tests/yod/yodtest.c $(LIBC_ALL)
	$(call say,LWKCC,$@)
	@mkdir -p $(@D)
	$(Q)$(LWKCC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -o $@ $<

test-build: $(YOD_BIN) $(YOD_TEST_ELF)
TEST_SUITES += tests/qemu/suite-yod
