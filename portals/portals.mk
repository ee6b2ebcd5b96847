# portals/portals.mk: the Portals 4 core, the Linux library and their tests.
# Included by the top-level Makefile; non-recursive; all output under
# $(BUILD)/portals.

PTL_B        := $(BUILD)/portals
PTL_INC      := -Iportals/include -Iportals -iquote yod
PTL_CORE     := portals/lib.c portals/ni.c portals/eq.c portals/ct.c \
                portals/list.c portals/search.c portals/target.c portals/initiator.c \
                portals/rel.c portals/peer.c portals/recover.c portals/receive.c \
                portals/wire.c portals/atomic_ops.c
PTL_LINUX    := portals/linux/host.c portals/linux/progress.c \
                portals/linux/init.c portals/linux/tp_mem.c \
                portals/linux/tp_vde.c portals/linux/tp_packet.c \
                portals/linux/tp_unix.c
# The job interface (ptl_job.h): portable, for MPI and NX on Linux and nodes.
PTL_USER     := portals/user/job.c
PTL_SRCS     := $(PTL_CORE) $(PTL_LINUX) $(PTL_USER)
# The frames' MAC (PROTOCOL.md 2.3) is yod's SipHash: the one file that
# yod, the PCT and the node's C library sign their messages with.
PTL_SIP      := yod/siphash.c

# ---- the Linux library: static and shared -------------------------------
PTL_LIBCFLAGS := $(HOSTCFLAGS) -O2 -fPIC -pthread $(PTL_INC)
PTL_PIC_OBJS  := $(patsubst portals/%.c,$(PTL_B)/pic/%.o,$(PTL_SRCS)) \
                 $(PTL_B)/pic/siphash.o

$(PTL_B)/pic/%.o: portals/%.c
	@mkdir -p $(dir $@)
	$(HOSTCC) $(PTL_LIBCFLAGS) -c $< -o $@
$(PTL_B)/pic/%.o: yod/%.c
	@mkdir -p $(dir $@)
	$(HOSTCC) $(PTL_LIBCFLAGS) -c $< -o $@

$(PTL_B)/libportals.a: $(PTL_PIC_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(PTL_B)/libportals.so: $(PTL_PIC_OBJS)
	$(HOSTCC) -shared -pthread -o $@ $^ -lvdeplug

# ---- the same library with sanitizers, for tests -------------------------
PTL_TCFLAGS  := $(HOSTCFLAGS) $(SANFLAGS) -pthread $(PTL_INC)
PTL_SAN_OBJS := $(patsubst portals/%.c,$(PTL_B)/san/%.o,$(PTL_SRCS)) \
                $(PTL_B)/san/siphash.o

$(PTL_B)/san/%.o: portals/%.c
	@mkdir -p $(dir $@)
	$(HOSTCC) $(PTL_TCFLAGS) -c $< -o $@
$(PTL_B)/san/%.o: yod/%.c
	@mkdir -p $(dir $@)
	$(HOSTCC) $(PTL_TCFLAGS) -c $< -o $@

$(PTL_B)/libportals-san.a: $(PTL_SAN_OBJS)
	@rm -f $@
	ar rcs $@ $^

# ---- and with ThreadSanitizer, for the thread stress test ----------------
PTL_TSFLAGS  := $(HOSTCFLAGS) -fsanitize=thread -pthread $(PTL_INC)
PTL_TS_OBJS  := $(patsubst portals/%.c,$(PTL_B)/tsan/%.o,$(PTL_CORE) $(PTL_LINUX)) \
                $(PTL_B)/tsan/siphash.o

$(PTL_B)/tsan/%.o: portals/%.c
	@mkdir -p $(dir $@)
	$(HOSTCC) $(PTL_TSFLAGS) -c $< -o $@
$(PTL_B)/tsan/%.o: yod/%.c
	@mkdir -p $(dir $@)
	$(HOSTCC) $(PTL_TSFLAGS) -c $< -o $@

$(PTL_B)/libportals-tsan.a: $(PTL_TS_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(PTL_B)/ptl-test-threads: tests/portals/threads.c $(PTL_B)/libportals-tsan.a
	$(HOSTCC) $(PTL_TSFLAGS) $< -o $@ $(PTL_B)/libportals-tsan.a \
		-lvdeplug -pthread

# The long run, on demand (20000 messages per sender thread).
test-portals-stress: $(PTL_B)/ptl-test-threads
	tests/portals/run-threads $(BUILD) 20000

# ---- kernel build check: every core file as the Q-Kernel compiles it ----
# atomic_ops.c is the one file allowed SSE (the kernel saves FPU state
# around it); everything else must build freestanding, no SIMD, no libc.
PTL_KFLAGS   := -std=gnu11 -O2 -Wall -Wextra -Werror -ffreestanding \
                -fno-common -fno-pic -fno-pie -mno-red-zone -mcmodel=kernel \
                -fno-stack-protector -nostdinc \
                -isystem $(shell $(KCC) -print-file-name=include) \
                -Iportals/include -Iportals -iquote yod
PTL_KNOSIMD  := -mno-sse -mno-mmx -mno-sse2 -mno-avx
PTL_KOBJS    := $(patsubst portals/%.c,$(PTL_B)/kcheck/%.o,$(PTL_CORE)) \
                $(PTL_B)/kcheck/siphash.o

$(PTL_B)/kcheck/atomic_ops.o: portals/atomic_ops.c
	@mkdir -p $(dir $@)
	$(KCC) $(PTL_KFLAGS) -c $< -o $@

$(PTL_B)/kcheck/%.o: portals/%.c
	@mkdir -p $(dir $@)
	$(KCC) $(PTL_KFLAGS) $(PTL_KNOSIMD) -c $< -o $@
$(PTL_B)/kcheck/%.o: yod/%.c
	@mkdir -p $(dir $@)
	$(KCC) $(PTL_KFLAGS) $(PTL_KNOSIMD) -c $< -o $@

portals-kcheck: $(PTL_KOBJS)

# ---- tests -----------------------------------------------------------------
PTL_TLIBS    := $(PTL_B)/libportals-san.a -lvdeplug -lcmocka -pthread

$(PTL_B)/ptl-test-%: tests/portals/test_%.c $(wildcard tests/portals/*.h) \
                 $(PTL_B)/libportals-san.a
	$(HOSTCC) $(PTL_TCFLAGS) -Itests/portals $(filter %.c,$^) -o $@ \
		$(PTL_TLIBS)

# A suite in several files: test_<suite>.c has its fixture and main(), the
# test_<suite>_*.c files its tests, one file per Portals area.
PTL_SEMANTICS := tests/portals/test_semantics_me.c \
                 tests/portals/test_semantics_overflow.c \
                 tests/portals/test_semantics_ops.c \
                 tests/portals/test_semantics_ct.c \
                 tests/portals/test_semantics_eq.c \
                 tests/portals/test_semantics_ni.c
$(PTL_B)/ptl-test-semantics: $(PTL_SEMANTICS)
PTL_FAULTS    := tests/portals/test_faults_link.c \
                 tests/portals/test_faults_acks.c \
                 tests/portals/test_faults_peers.c \
                 tests/portals/test_faults_large.c \
                 tests/portals/test_faults_auth.c
$(PTL_B)/ptl-test-faults: $(PTL_FAULTS)
PTL_RULES     := tests/portals/test_rules_search.c \
                 tests/portals/test_rules_resources.c \
                 tests/portals/test_rules_triggered.c \
                 tests/portals/test_rules_ack.c \
                 tests/portals/test_rules_backpressure.c
$(PTL_B)/ptl-test-rules: $(PTL_RULES)

# Programs that attach to VDE cannot use ASan: libvdeplug dlopens its
# back ends with RTLD_DEEPBIND, which the ASan runtime refuses.
$(PTL_B)/ptl-node: tests/portals/ptl_node.c $(PTL_B)/libportals.a
	$(HOSTCC) $(HOSTCFLAGS) -O2 -pthread $(PTL_INC) $< -o $@ \
		$(PTL_B)/libportals.a -lvdeplug -pthread

# The rules again, without sanitizers, for run-vde to run over a switch.
$(PTL_B)/ptl-rules: tests/portals/test_rules.c $(PTL_RULES) \
                    $(wildcard tests/portals/*.h) $(PTL_B)/libportals.a
	$(HOSTCC) $(HOSTCFLAGS) -O2 -pthread $(PTL_INC) -Itests/portals \
		$(filter %.c,$^) -o $@ $(PTL_B)/libportals.a -lvdeplug \
		-lcmocka -pthread

$(PTL_B)/ptl-progress: tests/portals/progress.c $(PTL_B)/libportals.a
	$(HOSTCC) $(HOSTCFLAGS) -O2 -pthread $(PTL_INC) $< -o $@ \
		$(PTL_B)/libportals.a -lvdeplug -pthread

# ---- fuzzing: AFL++ on the receive path, replayed under ASan/UBSan ------
# (clang's libFuzzer runtime is not in Debian's clang package; AFL++'s
# afl-clang-fast builds the same LLVMFuzzerTestOneInput target.)
AFLCC        ?= afl-clang-fast
FUZZ_SECONDS ?= 600
PTL_FUZZ_SRC := tests/portals/fuzz_frame.c $(PTL_CORE) $(PTL_SIP)

$(PTL_B)/ptl-fuzz-frame: $(PTL_FUZZ_SRC)
	@mkdir -p $(dir $@)
	AFL_QUIET=1 $(AFLCC) -std=gnu11 -O1 -g -fsanitize=fuzzer $(PTL_INC) \
		$(PTL_FUZZ_SRC) -o $@

$(PTL_B)/ptl-fuzz-replay: $(PTL_FUZZ_SRC)
	@mkdir -p $(dir $@)
	$(HOSTCC) $(HOSTCFLAGS) $(SANFLAGS) -DPTL_FUZZ_REPLAY $(PTL_INC) \
		$(PTL_FUZZ_SRC) -o $@

$(PTL_B)/ptl-fuzz-seedgen: $(PTL_FUZZ_SRC)
	@mkdir -p $(dir $@)
	$(HOSTCC) $(HOSTCFLAGS) -DPTL_FUZZ_SEEDS $(PTL_INC) $(PTL_FUZZ_SRC) -o $@

$(PTL_B)/fuzz-seeds/put: $(PTL_B)/ptl-fuzz-seedgen
	@mkdir -p $(dir $@)
	$< $(dir $@)

PTL_FUZZ_BINS := $(PTL_B)/ptl-fuzz-frame $(PTL_B)/ptl-fuzz-replay \
                 $(PTL_B)/fuzz-seeds/put

# The long run, on demand: make fuzz-portals FUZZ_SECONDS=600
fuzz-portals: $(PTL_FUZZ_BINS)
	tests/portals/run-fuzz $(BUILD) $(FUZZ_SECONDS)

# ---- benchmark (not a test) ----------------------------------------------
$(PTL_B)/ptl-bench: tests/bench/portals/ptl_bench.c $(PTL_B)/libportals.a
	$(HOSTCC) $(HOSTCFLAGS) -O2 -pthread $(PTL_INC) $< -o $@ \
		$(PTL_B)/libportals.a -lvdeplug -pthread

bench-portals: $(PTL_B)/ptl-bench
	tests/bench/portals/run $(BUILD) 5

PTL_TESTS    := $(PTL_B)/ptl-test-semantics $(PTL_B)/ptl-test-wire \
                $(PTL_B)/ptl-test-faults $(PTL_B)/ptl-test-rules

test-build: portals-kcheck $(PTL_B)/libportals.a $(PTL_B)/libportals.so \
            $(PTL_TESTS) $(PTL_B)/ptl-test-threads $(PTL_B)/ptl-node \
            $(PTL_B)/ptl-progress $(PTL_B)/ptl-rules $(PTL_FUZZ_BINS)

TEST_SUITES += tests/unit/run-cmocka@$(PTL_B)/ptl-test-semantics
TEST_SUITES += tests/unit/run-cmocka@$(PTL_B)/ptl-test-wire
TEST_SUITES += tests/unit/run-cmocka@$(PTL_B)/ptl-test-faults
TEST_SUITES += tests/unit/run-cmocka@$(PTL_B)/ptl-test-rules
TEST_SUITES += tests/portals/run-vde@$(BUILD)@ptl-vde
TEST_SUITES += tests/portals/run-threads@$(BUILD)@ptl-threads
TEST_SUITES += tests/portals/run-names@$(BUILD)@ptl-names
TEST_SUITES += tests/portals/run-fuzz@$(BUILD)@15@ptl-fuzz
# (The last word of a suite only names its log: tools/runtests.)
# AF_PACKET on a veth pair in private network namespaces needs root.
ifeq ($(shell id -u),0)
TEST_SUITES += tests/portals/run-packet@$(BUILD)@ptl-packet
endif

-include $(PTL_SAN_OBJS:.o=.d) $(PTL_PIC_OBJS:.o=.d) $(PTL_KOBJS:.o=.d) \
         $(PTL_TS_OBJS:.o=.d)

.PHONY: portals-kcheck fuzz-portals bench-portals test-portals-stress

# ---- the job interface and launcher (ptl_job.h, tools/ptlrun) -----------
$(PTL_B)/job-test: tests/portals/job/job_test.c $(PTL_B)/libportals.a
	$(call say,CC,$@)
	$(Q)$(HOSTCC) $(HOSTCFLAGS) -O2 -pthread $(PTL_INC) $< -o $@ \
		$(PTL_B)/libportals.a -lvdeplug -pthread

test-build: $(PTL_B)/job-test
TEST_SUITES += tests/portals/job/run@$(BUILD)@ptl-job
