# nx/nx.mk: libnx (Paragon NX on Portals 4) for Linux, the NX test suite,
# and a check that libnx also compiles for the compute nodes (lwkcc).
#
# Build any NX program for Linux from its source:
#     make build/nx/bin/path/to/prog        (from path/to/prog.c)
#     tools/ptlrun -n 4 build/nx/bin/path/to/prog
# or by hand: cc -Inx/include -Iportals/include prog.c \
#     build/nx/libnx.a build/portals/libportals.a -lvdeplug -pthread

NX_B      := $(BUILD)/nx
NX_SRCS   := nx/init.c nx/progress.c nx/req.c nx/send.c nx/recv.c \
             nx/flow.c nx/global.c nx/api.c
NX_INC    := -Inx/include -Iportals/include
NX_CFLAGS := $(HOSTCFLAGS) -O2 $(NX_INC)
NX_OBJS   := $(patsubst nx/%.c,$(NX_B)/obj/%.o,$(NX_SRCS))
NX_LIBS   := $(NX_B)/libnx.a $(PTL_B)/libportals.a -lvdeplug -pthread -lm

$(NX_B)/obj/%.o: nx/%.c
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(HOSTCC) $(NX_CFLAGS) -c $< -o $@

$(NX_B)/libnx.a: $(NX_OBJS)
	$(call say,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(NX_B)/bin/%: %.c $(NX_B)/libnx.a $(PTL_B)/libportals.a
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(HOSTCC) $(NX_CFLAGS) -Itests/nx $< -o $@ $(NX_LIBS) \
	    $(NX_TEST_LDFLAGS)

# The node library: the same sources as lwkcc compiles them (libc +
# portals4.h + ptl_job.h only), installed next to the node libportals.a
# (which holds the job interface), so `lwkcc prog.c -lnx` builds a
# program for yod.
NX_KOBJS  := $(patsubst nx/%.c,$(NX_B)/lwk/%.o,$(NX_SRCS))

$(NX_B)/lwk/%.o: nx/%.c $(LIBC_ALL)
	@mkdir -p $(@D)
	$(call say,LWKCC,$@)
	$(Q)$(LWKCC) -O2 -Wall -Wextra -Werror -MMD -MP $(NX_INC) -c $< -o $@

$(LIBC_LIB)/libnx.a: $(NX_KOBJS)
	$(call say,AR,$@)
	$(Q)rm -f $@ && $(CROSS)ar rcs $@ $^

$(LIBC_INC)/nx.h: nx/include/nx.h
	@mkdir -p $(@D) && cp $< $@

NX_LWK := $(LIBC_LIB)/libnx.a $(LIBC_INC)/nx.h
nx-lwk: $(NX_LWK)
nx-lwkcheck: nx-lwk
all: nx-lwk

NX_TESTS  := p2p nonblock typed probe bcast cancel order global gcolx long \
             errors flowctl pingpong gsum backpressure
NX_TBINS  := $(patsubst %,$(NX_B)/bin/tests/nx/%,$(NX_TESTS))
# probe holds libnx's search answers to let a message come meanwhile.
$(NX_B)/bin/tests/nx/probe $(NX_B)/node/probe.elf: \
    NX_TEST_LDFLAGS = -Wl,--wrap=PtlMESearch

# The test programs for the compute nodes (tests/qemu/suite-mpinodes).
$(NX_B)/node/%.elf: tests/nx/%.c tests/nx/nxtest.h $(NX_LWK) $(LIBC_ALL)
	@mkdir -p $(@D)
	$(call say,LWKCC,$@)
	$(Q)$(LWKCC) -O2 -g -Wall -Wextra -Werror -Itests/nx $< -o $@ -lnx -lm \
	    $(NX_TEST_LDFLAGS)
NX_NODE_TESTS := $(patsubst %,$(NX_B)/node/%.elf,$(NX_TESTS))

test-build: $(NX_B)/libnx.a $(NX_TBINS) nx-lwkcheck $(NX_NODE_TESTS)
TEST_SUITES += tests/nx/run@$(BUILD)@nx

# Not a test: NX ping-pong against raw Portals (tests/bench/nx/run).
bench-nx: $(NX_B)/bin/tests/nx/pingpong $(PTL_B)/ptl-bench
	tests/bench/nx/run $(BUILD) 5

-include $(NX_OBJS:.o=.d) $(NX_KOBJS:.o=.d)

.PHONY: nx-lwk nx-lwkcheck bench-nx
