# tests/: host unit tests (cmocka, ASan+UBSan) of the kernel's pure logic
# (and of yod's: which rank's end ended a job), and the QEMU suites.  Each suite prints PASS/FAIL lines (tools/runtests).

UNIT_TESTS := test_region test_cmdline test_printf test_bootinfo test_elf test_virtq \
              test_lib test_modline test_yod_end test_acpi test_siphash \
              test_ratelimit test_e1000e_ring test_linux_abi \
              test_slurm_hostlist test_gdbrsp test_core test_gmon \
              test_pmu test_yod_lease test_pfs_map
UNIT_BINS  := $(patsubst %,$(BUILD)/unit/%,$(UNIT_TESTS))

# The pure kernel and boot sources each unit test links against.
UNIT_SRCS_test_region   := kernel/region.c
UNIT_SRCS_test_cmdline  := kernel/cmdline.c
UNIT_SRCS_test_printf   := kernel/printf.c
UNIT_SRCS_test_bootinfo := boot/bootinfo.c
UNIT_SRCS_test_elf      := kernel/elf.c
UNIT_SRCS_test_virtq    := kernel/virtq.c
UNIT_SRCS_test_e1000e_ring := kernel/e1000e_ring.c
UNIT_SRCS_test_modline  := pct/modline.c
UNIT_SRCS_test_yod_end  := yod/end.c
UNIT_SRCS_test_yod_lease := yod/lease.c
UNIT_SRCS_test_slurm_hostlist := yod/slurm.c
UNIT_SRCS_test_gdbrsp   := yod/gdbrsp.c yod/gdbregs.c
UNIT_SRCS_test_core     := yod/core.c
UNIT_SRCS_test_gmon     := yod/gmon.c
UNIT_SRCS_test_pmu      :=
UNIT_SRCS_test_acpi     := kernel/acpi.c
UNIT_SRCS_test_siphash  := yod/siphash.c
UNIT_SRCS_test_pfs_map  := yod/pfs_map.h
UNIT_SRCS_test_ratelimit := kernel/ratelimit.c
UNIT_SRCS_test_linux_abi := kernel/include/uapi/linux.def lxrt/lx_abi.h

UNIT_CFLAGS := $(HOSTCFLAGS) $(SANFLAGS) -iquote kernel/include -iquote boot \
               -iquote pct -iquote yod -Iportals/include

.SECONDEXPANSION:
$(BUILD)/unit/%: tests/unit/%.c $$(UNIT_SRCS_%)
	@mkdir -p $(@D)
	$(call say,HOSTCC,$@)
	$(Q)$(HOSTCC) $(UNIT_CFLAGS) -o $@ $(filter %.c,$^) -lcmocka

test-build: $(UNIT_BINS) $(BUILD)/kernel.elf $(BUILD)/lwk.iso $(BUILD)/lwk-test.iso

TEST_SUITES += $(patsubst %,tests/unit/run-cmocka@%,$(UNIT_BINS))
TEST_SUITES += tests/qemu/suite-boot tests/qemu/suite-net

-include $(UNIT_BINS:=.d)

# Programs the QEMU user-space suite runs on a node (built with lwkcc).
USER_PROGS := $(patsubst tests/user/%.c,$(BUILD)/tests/user/%.elf,$(wildcard tests/user/*.c)) \
              $(patsubst tests/libc/progs/%.c,$(BUILD)/tests/user/%.elf,$(wildcard tests/libc/progs/*.c))

$(BUILD)/tests/user/%.elf: tests/user/%.c $$(LIBC_ALL)
	@mkdir -p $(@D)
	$(call say,LWKCC,$@)
	$(Q)$(LWKCC) -O2 -g -Wall -Werror -o $@ $<

$(BUILD)/tests/user/%.elf: tests/libc/progs/%.c $$(LIBC_ALL)
	@mkdir -p $(@D)
	$(call say,LWKCC,$@)
	$(Q)$(LWKCC) -O2 -g -Wall -Werror -Itests/libc/progs -o $@ $< -lm

test-build: $(USER_PROGS) $$(PCT_ELF)
TEST_SUITES += tests/qemu/suite-user

# Portals on the compute nodes (tests/qemu/suite-portals, tests/bench/pingpong):
# programs for the nodes, and the same ping-pong for Linux over libportals.
NET_ELFS := $(BUILD)/tests/net/pingpong.elf $(BUILD)/tests/net/badaddr.elf \
            $(BUILD)/tests/net/ptl_node.elf $(BUILD)/tests/net/rxpause.elf \
            $(BUILD)/tests/net/selfstorm.elf
NET_LINUX := $(BUILD)/tests/net/pingpong

$(BUILD)/tests/net/%.elf: tests/net/%.c tests/net/node_test.h $$(LIBC_ALL)
	@mkdir -p $(@D)
	$(call say,LWKCC,$@)
	$(Q)$(LWKCC) -O2 -g -Wall -Werror -Iportals/include -o $@ $<

$(BUILD)/tests/net/ptl_node.elf: tests/portals/ptl_node.c $$(LIBC_ALL)
	@mkdir -p $(@D)
	$(call say,LWKCC,$@)
	$(Q)$(LWKCC) -O2 -g -Wall -Werror -Iportals/include -o $@ $<

$(BUILD)/tests/net/pingpong: tests/net/pingpong.c tests/net/node_test.h \
                             $$(PTL_B)/libportals.a
	@mkdir -p $(@D)
	$(call say,HOSTCC,$@)
	$(Q)$(HOSTCC) $(HOSTCFLAGS) -Iportals/include -o $@ $< \
	    $(PTL_B)/libportals.a -lvdeplug -pthread

test-build: $(NET_ELFS) $(NET_LINUX)
TEST_SUITES += tests/qemu/suite-portals

# Clusters of nodes on one VDE segment (tools/cluster); runs nodeid.elf
# from USER_PROGS on every node and libportals' ptl-node beside them.
TEST_SUITES += tests/qemu/suite-cluster

# One partition over two hosts (root only): two network namespaces joined
# by a veth pair, two nodes on each, their switches tied by vxvde://.
TEST_SUITES += tests/qemu/suite-hosts

# Virtual-node mode (yod -vn): 8 ranks on 4 two-CPU nodes, MPI and NX,
# the loop queues' counts, showmesh's CPUs, a rank's fault.
TEST_SUITES += tests/qemu/suite-vnode

# Shared memory between a node's ranks (SMARTMAP): shared windows,
# single-copy messages, a rank dying while the others use its memory.
TEST_SUITES += tests/qemu/suite-smartmap

# The Intel 82574L (e1000e) in clusters: Portals ping-pong on e1000e nodes
# at MTU 1500 and 9000, the MPI/NX node suite on a virtio+e1000e cluster;
# and diskless nodes (one of each NIC) booted over the network by iPXE
# from the service side's DHCP/TFTP server, running a yod job.
TEST_SUITES += tests/qemu/suite-e1000e tests/qemu/suite-netboot

# The repository refers only to itself and what it names exists: links,
# paths in docs and Makefiles (tests/docs/check-links; no build needed).
TEST_SUITES += tests/docs/check-links

# Benchmark (not a test): threads-mode speedup (tests/bench/threads/run).
$(BUILD)/tests/bench/matmul.elf: tests/bench/threads/matmul.c $(LIBC_ALL)
	@mkdir -p $(@D)
	$(call say,LWKCC,$@)
	$(Q)$(LWKCC) -O2 -g -Wall -Werror -o $@ $<

bench-threads: $(BUILD)/tests/bench/matmul.elf $(BUILD)/kernel.elf $(PCT_ELF)
	tests/bench/threads/run 5
.PHONY: bench-threads

# Benchmark (not a test): OS noise per mode (tests/bench/noise/run).
$(BUILD)/tests/bench/noise.elf: tests/bench/noise/noise.c $(LIBC_ALL)
	@mkdir -p $(@D)
	$(call say,LWKCC,$@)
	$(Q)$(LWKCC) -O2 -g -Wall -Werror -o $@ $<

bench-noise: $(BUILD)/tests/bench/noise.elf $(BUILD)/kernel.elf $(PCT_ELF)
	tests/bench/noise/run 3
.PHONY: bench-noise
