# libc/newlib.mk: build newlib from Debian's newlib-source tarball, out of
# tree, for a freestanding x86-64 ELF target with the host gcc.  Included by
# libc/libc.mk.  Every configure input is in this file and the configure
# stamp depends on it, so editing this file rebuilds newlib (about a minute
# on two cores) and editing anything else does not.
#
#   $(BUILD)/newlib/src        unpacked source (nothing of newlib is committed)
#   $(BUILD)/newlib/obj        configure + build tree, logs in obj/*.log
#   $(BUILD)/libc/newlib       installed: x86_64-elf/{include,lib/libc.a,libm.a}

NEWLIB_TARBALL ?= $(firstword $(wildcard /usr/src/newlib/newlib-*.tar.*))
NEWLIB_DIR     := $(BUILD)/newlib
NEWLIB_SRC     := $(NEWLIB_DIR)/src
NEWLIB_OBJ     := $(NEWLIB_DIR)/obj
NEWLIB_PREFIX  := $(LIBC_OUT)/newlib
NEWLIB_INC     := $(NEWLIB_PREFIX)/x86_64-elf/include
NEWLIB_LIBDIR  := $(NEWLIB_PREFIX)/x86_64-elf/lib
NEWLIB_STAMP   := $(NEWLIB_DIR)/.installed

# Compute-node user code: normal x86-64 SysV ABI (red zone and SSE are fine
# in ring 3), non-PIC at 0x400000, small code model.  No glibc headers:
# newlib's own plus gcc's freestanding ones.  No stack protector: there is
# no TLS canary on a node.  Sections per function so --gc-sections keeps
# programs small.
NEWLIB_CFLAGS := -O2 -g -fno-pic -fno-pie -mcmodel=small \
                 -fno-stack-protector -ffunction-sections -fdata-sections \
                 -U__linux__ -U__gnu_linux__ -nostdinc \
                 -isystem $(shell $(KCC) -print-file-name=include)

NEWLIB_TOOLS := CC_FOR_TARGET="$(KCC)" AR_FOR_TARGET=$(CROSS)ar \
                AS_FOR_TARGET=$(CROSS)as LD_FOR_TARGET=$(CROSS)ld \
                NM_FOR_TARGET=$(CROSS)nm RANLIB_FOR_TARGET=$(CROSS)ranlib \
                OBJDUMP_FOR_TARGET=$(CROSS)objdump \
                READELF_FOR_TARGET=$(CROSS)readelf \
                STRIP_FOR_TARGET=$(CROSS)strip

# Threads (yod -threads) share stdio's streams, malloc, atexit: newlib
# takes locks around them, and libc/lock.c provides the locks (retargetable
# locking); system calls come from libc/, not from newlib or libgloss; C99
# and long long formats; float printf/scanf.
NEWLIB_OPTS := --target=x86_64-elf --prefix=$(abspath $(NEWLIB_PREFIX)) \
               --disable-multilib --disable-nls \
               --disable-newlib-supplied-syscalls \
               --enable-newlib-retargetable-locking \
               --enable-newlib-io-long-long --enable-newlib-io-c99-formats \
               --enable-newlib-io-float

# A parallel top-level make shares its jobserver; a serial one would build
# newlib on one core, so give the sub-make the machine's cores instead.
NEWLIB_JOBS = $(if $(findstring jobserver,$(MAKEFLAGS)),,-j$(shell nproc))

$(NEWLIB_DIR)/.unpacked: $(NEWLIB_TARBALL)
	@test -n "$(NEWLIB_TARBALL)" || { echo "newlib: no /usr/src/newlib/" \
	    "newlib-*.tar.*; install newlib-source (make deps)" >&2; exit 1; }
	$(call say,UNPACK,$(NEWLIB_TARBALL))
	@rm -rf $(NEWLIB_SRC) && mkdir -p $(NEWLIB_SRC)
	@tar -xf $(NEWLIB_TARBALL) -C $(NEWLIB_SRC) --strip-components=1
	@touch $@

$(NEWLIB_DIR)/.configured: $(NEWLIB_DIR)/.unpacked libc/newlib.mk
	$(call say,CONFIG,'newlib (log: $(NEWLIB_OBJ)/configure.log)')
	@rm -rf $(NEWLIB_OBJ) $(NEWLIB_PREFIX) && mkdir -p $(NEWLIB_OBJ)
	@cd $(NEWLIB_OBJ) && $(abspath $(NEWLIB_SRC))/configure $(NEWLIB_OPTS) \
	    $(NEWLIB_TOOLS) CFLAGS_FOR_TARGET="$(NEWLIB_CFLAGS)" \
	    >configure.log 2>&1 || { tail -30 configure.log; exit 1; }
	@touch $@

# What libc/ defines in newlib's place (abort() and assert() end the
# whole job through the kernel's abort call: libc/proc.c; the locks:
# libc/lock.c).  Newlib's copies leave its libc.a, so no link can pick
# them up before ours.
NEWLIB_REPLACED := lib_a-abort.o lib_a-assert.o lib_a-lock.o

# libc.a and libm.a only: the all-target-newlib target skips libgloss and
# every host tool.
$(NEWLIB_STAMP): $(NEWLIB_DIR)/.configured
	$(call say,MAKE,'newlib (log: $(NEWLIB_OBJ)/build.log; 1-2 minutes)')
	@+$(MAKE) -C $(NEWLIB_OBJ) $(NEWLIB_JOBS) all-target-newlib \
	    >$(NEWLIB_OBJ)/build.log 2>&1 \
	    || { tail -40 $(NEWLIB_OBJ)/build.log; exit 1; }
	@+$(MAKE) -C $(NEWLIB_OBJ) install-target-newlib \
	    >$(NEWLIB_OBJ)/install.log 2>&1 \
	    || { tail -40 $(NEWLIB_OBJ)/install.log; exit 1; }
	@$(CROSS)ar d $(NEWLIB_LIBDIR)/libc.a $(NEWLIB_REPLACED)
	@touch $@
