# tools/tools.mk: make install / uninstall (tools/install), and the tests
# of the installed system, the compile wrappers and test selection.

# `make install PREFIX=/opt/lwk` (DESTDIR=... for packaging): bin/, lib/,
# lib/lwk/, include/, share/lwk/ as tools/install lists.  Relocatable:
# nothing installed names PREFIX or this tree.
PREFIX  ?= /usr/local
DESTDIR ?=

install: all mpi $(BUILD)/nx/libnx.a
	@tools/install install $(BUILD) '$(DESTDIR)$(PREFIX)'

uninstall:
	@tools/install uninstall '$(DESTDIR)$(PREFIX)'

.PHONY: install uninstall

# Suites: the compile wrappers as build systems call them (CC=wrapper,
# -show, autoconf's configure), an install used from outside the tree,
# and make test T=... (tools/runtests --only, tests/select.sh).
TEST_SUITES += tests/tools/wrappers@$(BUILD)@wrappers \
               tests/tools/install@$(BUILD)@install \
               tests/tools/select@$(BUILD)@select
