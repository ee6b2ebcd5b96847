# pct/: the process control thread, a compute-node program built with
# lwkcc.  kernel/elf.c is shared: the kernel loads the PCT with it, the PCT
# loads applications with it.

PCT_SRCS := pct/pct.c pct/load.c pct/modline.c pct/report.c pct/symbols.c \
            pct/serve.c pct/ranks.c pct/cpus.c pct/fetch.c pct/fanout.c pct/reply.c \
            pct/auth.c pct/linux.c pct/debug.c pct/profile.c kernel/elf.c kernel/ratelimit.c \
            yod/siphash.c
PCT_ELF  := $(BUILD)/pct/pct.elf

$(PCT_ELF): $(PCT_SRCS) pct/pct.h pct/serve.h yod/yod_proto.h yod/yod_debug.h yod/siphash.h \
            kernel/include/elf.h kernel/include/ratelimit.h kernel/include/uapi/abi.h \
            kernel/include/uapi/syscalls.def $(LIBC_ALL) $(LWKCC)
	@mkdir -p $(@D)
	$(call say,LWKCC,$@)
	$(Q)$(LWKCC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -iquote kernel/include \
		-iquote pct -iquote yod -o $@ $(PCT_SRCS)

pct: $(PCT_ELF)
all: pct
.PHONY: pct
