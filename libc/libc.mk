# libc/libc.mk: the C library of compute-node programs and the compiler
# wrapper.  Included by the top-level Makefile; all output goes under
# $(BUILD)/libc, $(BUILD)/newlib, $(BUILD)/bin and $(BUILD)/tests/libc.
#
#   $(BUILD)/bin/lwkcc              the wrapper (from tools/lwkcc)
#   $(BUILD)/libc/include/lwk/      lwk.h, syscall.h, uapi/{syscalls.def,abi.h}
#   $(BUILD)/libc/include/          every header of libc/include (newlib's
#                                   lacks them or needs more; libc/README.md)
#   $(BUILD)/libc/lib/              crt0.o liblwk.a (the glue) app.ld lwk.specs
#   $(BUILD)/libc/newlib/x86_64-elf newlib's headers, libc.a, libm.a
#
# Use from any Makefile:  LWKCC := build/bin/lwkcc ; $(LWKCC) -O2 -o x x.c

LIBC_OUT   := $(BUILD)/libc
LIBC_LIB   := $(LIBC_OUT)/lib
LIBC_INC   := $(LIBC_OUT)/include
LWKCC      := $(BUILD)/bin/lwkcc

include libc/newlib.mk

# ---- headers programs see as <lwk/...>, <sys/...> and <pthread.h> ------
LIBC_HDRS_OWN  := $(patsubst libc/include/%,$(LIBC_INC)/%,\
                    $(wildcard libc/include/*.h libc/include/*/*.h))
LIBC_HDRS_UAPI := $(LIBC_INC)/lwk/uapi/syscalls.def $(LIBC_INC)/lwk/uapi/abi.h \
                  $(LIBC_INC)/lwk/uapi/ptlcalls.def $(LIBC_INC)/lwk/uapi/linux.def
LIBC_HDRS      := $(LIBC_HDRS_OWN) $(LIBC_HDRS_UAPI)

$(LIBC_HDRS_OWN): $(LIBC_INC)/%: libc/include/%
	@mkdir -p $(@D) && cp $< $@
$(LIBC_HDRS_UAPI): $(LIBC_INC)/lwk/uapi/%: kernel/include/uapi/%
	@mkdir -p $(@D) && cp $< $@

# ---- the wrapper ---------------------------------------------------------
$(LWKCC): tools/lwkcc
	$(call say,GEN,$@)
	@mkdir -p $(@D)
	$(Q)sed 's|@CC@|$(KCC)|' $< >$@.tmp && chmod 755 $@.tmp && mv $@.tmp $@

# gcc's own library dirs (glibc's among them) are dropped from every link;
# lwkcc adds -Wl,-nostdlib for ld's.  See tools/lwkcc.
$(LIBC_LIB)/lwk.specs: libc/libc.mk
	@mkdir -p $(@D)
	@printf '*link_libgcc:\n\n\n' >$@

$(LIBC_LIB)/app.ld: libc/app.ld
	@mkdir -p $(@D) && cp $< $@

# ---- crt0 and the newlib glue --------------------------------------------
# Compiled by lwkcc itself, so the glue sees exactly what programs see.
LIBC_GLUE_SRCS := libc/init.c libc/heap.c libc/time.c libc/proc.c libc/abort.c \
                  libc/signal.c libc/uname.c libc/io.c libc/yodio.c \
                  libc/yodfile.c libc/misc.c libc/setjmp.S \
                  libc/tls.c libc/lock.c libc/pthread.c libc/pthread_sync.c \
                  libc/cop.c \
                  libc/fdtable.c libc/files.c libc/dirent.c libc/spawn.c \
                  libc/identity.c libc/sched.c libc/sysconf.c \
                  libc/memmap.c libc/semaphore.c libc/err.c libc/dlfcn.c \
                  libc/stdio_extra.c libc/libgen.c libc/fnmatch.c libc/glob.c \
                  libc/pthread_locks.c libc/aio.c libc/pfs.c
LIBC_GLUE_OBJS := $(patsubst libc/%,$(LIBC_OUT)/obj/%.o,\
                    $(basename $(LIBC_GLUE_SRCS))) $(LIBC_OUT)/obj/siphash.o
LIBC_CFLAGS    := -std=gnu11 -O2 -g -Wall -Wextra -Werror \
                  -fno-stack-protector -Ilibc -Iyod -MMD -MP
LIBC_DEPS      := $(LWKCC) $(NEWLIB_STAMP) $(LIBC_HDRS)

$(LIBC_OUT)/obj/%.o: libc/%.c $(LIBC_DEPS)
	$(call say,LWKCC,$<)
	@mkdir -p $(@D)
	$(Q)$(LWKCC) $(LIBC_CFLAGS) -c $< -o $@

# yodio.c and yodfile.c speak Portals to yod (yod/yod_proto.h) and sign
# what they send with yod's SipHash (yod/siphash.c, the same file).
$(LIBC_OUT)/obj/yodio.o $(LIBC_OUT)/obj/yodfile.o $(LIBC_OUT)/obj/pfs.o: $(LIBC_INC)/portals4.h yod/yod_proto.h yod/pfs_map.h
$(LIBC_OUT)/obj/siphash.o: yod/siphash.c $(LIBC_DEPS)
	$(call say,LWKCC,$<)
	@mkdir -p $(@D)
	$(Q)$(LWKCC) $(LIBC_CFLAGS) -c $< -o $@

$(LIBC_OUT)/obj/%.o: libc/%.S $(LIBC_DEPS)
	$(call say,LWKCC,$<)
	@mkdir -p $(@D)
	$(Q)$(LWKCC) -g -MMD -MP -c $< -o $@

$(LIBC_LIB)/crt0.o: libc/crt0.S $(LIBC_DEPS)
	$(call say,LWKCC,$<)
	@mkdir -p $(@D)
	$(Q)$(LWKCC) -g -c $< -o $@

$(LIBC_LIB)/liblwk.a: $(LIBC_GLUE_OBJS)
	$(call say,AR,$@)
	$(Q)mkdir -p $(@D) && rm -f $@ && $(CROSS)ar rcs $@ $^

# ---- Portals for node programs: portals4.h, served by the kernel ----------
$(LIBC_INC)/portals4.h: portals/include/portals4.h
	@mkdir -p $(@D) && cp $< $@

$(LIBC_OUT)/obj/ptl_lwk.o $(LIBC_OUT)/obj/ptl_lwk_wait.o: \
    $(LIBC_OUT)/obj/%.o: portals/lwk/%.c portals/lwk/ptl_lwk.h \
    portals/include/ptl_eqring.h $(LIBC_DEPS) $(LIBC_INC)/portals4.h
	$(call say,LWKCC,$<)
	@mkdir -p $(@D)
	$(Q)$(LWKCC) $(LIBC_CFLAGS) -Iportals/include -c $< -o $@

# The job interface (ptl_job.h: rank, size, the job's logical NI) is part
# of Portals here as on Linux, so MPI and NX in one program share one copy.
$(LIBC_INC)/ptl_job.h: portals/include/ptl_job.h
	@mkdir -p $(@D) && cp $< $@

$(LIBC_OUT)/obj/ptl_job.o: portals/user/job.c $(LIBC_DEPS) \
                           $(LIBC_INC)/portals4.h $(LIBC_INC)/ptl_job.h
	$(call say,LWKCC,$<)
	@mkdir -p $(@D)
	$(Q)$(LWKCC) $(LIBC_CFLAGS) -Iportals/include -c $< -o $@

$(LIBC_LIB)/libportals.a: $(LIBC_OUT)/obj/ptl_lwk.o \
                          $(LIBC_OUT)/obj/ptl_lwk_wait.o $(LIBC_OUT)/obj/ptl_job.o
	$(call say,AR,$@)
	$(Q)mkdir -p $(@D) && rm -f $@ && $(CROSS)ar rcs $@ $^

LIBC_ALL := $(LWKCC) $(NEWLIB_STAMP) $(LIBC_HDRS) $(LIBC_LIB)/crt0.o \
            $(LIBC_LIB)/liblwk.a $(LIBC_LIB)/app.ld $(LIBC_LIB)/lwk.specs \
            $(LIBC_INC)/portals4.h $(LIBC_INC)/ptl_job.h \
            $(LIBC_LIB)/libportals.a

libc: $(LIBC_ALL)
all: libc

-include $(LIBC_GLUE_OBJS:.o=.d)

# ---- tests ---------------------------------------------------------------
# Sample programs (also run on a node by the in-QEMU tests once the kernel
# loads programs): each prints "<name>: OK" last and returns 0 only then.
LIBC_PROGS     := hello floats qsort strtod snprintf malloc setjmp math \
                  args exitcode libcalls memfig portable posix
LIBC_TEST_OUT  := $(BUILD)/tests/libc
LIBC_PROG_ELFS := $(LIBC_PROGS:%=$(LIBC_TEST_OUT)/progs/%)

$(LIBC_TEST_OUT)/progs/%: tests/libc/progs/%.c tests/libc/progs/check.h \
                         $(LIBC_ALL)
	$(call say,LWKCC,$<)
	@mkdir -p $(@D)
	$(Q)$(LWKCC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -o $@ $< -lm

# Host test of the auxv/heap logic crt0 relies on (init.c, heap.c), built
# with the host compiler; sbrk is renamed so glibc's stays untouched.
LIBC_INIT_TEST := $(LIBC_TEST_OUT)/test_libc_init
$(LIBC_INIT_TEST): tests/libc/test_libc_init.c libc/init.c libc/heap.c \
                   libc/libc_internal.h $(LIBC_HDRS)
	$(call say,HOSTCC,$@)
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) $(filter-out -MMD -MP,$(HOSTCFLAGS)) $(SANFLAGS) \
	    -idirafter $(LIBC_INC) -Ilibc -Dsbrk=lwk_test_sbrk -o $@ \
	    tests/libc/test_libc_init.c libc/init.c libc/heap.c -lcmocka

# lwkemu runs the sample programs on the host, answering their Q-Kernel
# system calls under ptrace (see tests/libc/lwkemu.c).  Host programs see
# our headers after glibc's (-idirafter): only <lwk/...> is for them.
LWKEMU := $(LIBC_TEST_OUT)/lwkemu
$(LWKEMU): tests/libc/lwkemu.c $(LIBC_HDRS)
	$(call say,HOSTCC,$@)
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) $(filter-out -MMD -MP,$(HOSTCFLAGS)) -idirafter $(LIBC_INC) -o $@ $<

# Suites (tools/runtests; '@' stands for a space, the last word names the
# log): lwkcc and ELF layout checks, the POSIX names programs use compiled
# and linked (tests/libc/posix-names.txt), the programs run under lwkemu,
# and the init/heap unit test.
test-build: $(LIBC_PROG_ELFS) $(LIBC_INIT_TEST) $(LWKEMU)
TEST_SUITES += tests/libc/check-lwkcc@$(LWKCC) \
               tests/libc/run-names@$(LWKCC)@libc-names \
               tests/libc/run-progs@$(LIBC_TEST_OUT)/progs \
               tests/unit/run-cmocka@$(LIBC_INIT_TEST)

.PHONY: libc
