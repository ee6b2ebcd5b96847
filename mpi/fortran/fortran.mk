# mpi/fortran/fortran.mk: the Fortran bindings of the MPI library (MPI-3.1
# through mpif.h and the mpi module), their wrappers' objects in
# build/mpi/libmpi.a, mpif.h and mpi.mod in build/mpi/include (where
# tools/mpifort finds them), and the Fortran and C++ test programs.
# Included by the top-level Makefile after mpi/mpi.mk.

MPIF_B     := $(MPI_B)/fortran
MPIF_INC   := $(MPI_B)/include
MPIF_CFLAGS := $(MPI_CFLAGS) -Impi/fortran -I$(MPIF_B)
MPIF_OBJS  := $(MPIF_B)/f2c.o $(MPIF_B)/fspecial.o $(MPIF_B)/fcallback.o \
              $(MPIF_B)/fwrap.o
# make's own FC is f77; MPIF_FC=... picks another gfortran
MPIF_FC    ?= gfortran

# The wrappers and the module's interfaces, from the table.
# (one run writes both: the second file names the first as its maker, so
# make -j never runs the script twice at once)
$(MPIF_B)/fwrap.c: mpi/fortran/mpi.def mpi/fortran/genwrap.py
	@mkdir -p $(MPIF_B)
	$(call say,GEN,$@)
	$(Q)python3 mpi/fortran/genwrap.py mpi/fortran/mpi.def \
	    $(MPIF_B)/fwrap.c $(MPIF_B)/mpi-ifaces.f90
$(MPIF_B)/mpi-ifaces.f90: $(MPIF_B)/fwrap.c ;

$(MPIF_B)/%.o: mpi/fortran/%.c mpi/fortran/fmpi.h mpi/include/mpi.h
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(HOSTCC) $(MPIF_CFLAGS) -c $< -o $@

$(MPIF_B)/fwrap.o: $(MPIF_B)/fwrap.c mpi/fortran/fmpi.h mpi/include/mpi.h
	$(call say,CC,$@)
	$(Q)$(HOSTCC) $(MPIF_CFLAGS) -c $< -o $@

# libmpi.a's rule archives all its prerequisites ($^).
$(MPI_B)/libmpi.a: $(MPIF_OBJS)

# mpif.h and the module's constants, from mpi.h's values.
$(MPIF_B)/genmpif: mpi/fortran/genmpif.c mpi/fortran/fmpi.h \
                   $(MPI_B)/libmpi.a $(PTL_B)/libportals.a
	$(call say,CC,$@)
	$(Q)$(HOSTCC) $(MPIF_CFLAGS) $< -o $@ $(MPI_B)/libmpi.a \
	    $(PTL_B)/libportals.a -lvdeplug -pthread -lm

$(MPIF_INC)/mpif.h: $(MPIF_B)/genmpif
	@mkdir -p $(@D)
	$(call say,GEN,$@)
	$(Q)$< h >$@.tmp && mv $@.tmp $@

$(MPIF_B)/mpif-consts.h: $(MPIF_B)/genmpif
	$(call say,GEN,$@)
	$(Q)$< mod >$@.tmp && mv $@.tmp $@

$(MPIF_INC)/mpi.mod: mpi/fortran/mpi.f90 $(MPIF_B)/mpif-consts.h \
                     $(MPIF_B)/mpi-ifaces.f90
	@mkdir -p $(@D)
	$(call say,FC,$@)
	$(Q)$(MPIF_FC) -c $< -I$(MPIF_B) -J$(MPIF_INC) -o $(MPIF_B)/mpi_mod.o
	@touch $@       # gfortran keeps an unchanged .mod's old time

# The node library gets the same wrappers (lwkcc, newlib): a Fortran
# program for the nodes needs only its compiler road (the Linux
# personality) on top.
MPIF_LWKOBJS := $(patsubst $(MPIF_B)/%.o,$(MPI_B)/lwk/fortran/%.o,$(MPIF_OBJS))
$(MPI_B)/lwk/fortran/%.o: mpi/fortran/%.c mpi/fortran/fmpi.h \
                          mpi/include/mpi.h $(LIBC_ALL)
	@mkdir -p $(@D)
	$(call say,LWKCC,$@)
	$(Q)$(LWKCC) -O2 -Wall -Wextra -Werror -Impi/include -Impi/fortran \
	    -c $< -o $@
$(MPI_B)/lwk/fortran/fwrap.o: $(MPIF_B)/fwrap.c mpi/fortran/fmpi.h \
                              mpi/include/mpi.h $(LIBC_ALL)
	@mkdir -p $(@D)
	$(call say,LWKCC,$@)
	$(Q)$(LWKCC) -O2 -Wall -Wextra -Werror -Impi/include -Impi/fortran \
	    -c $< -o $@
$(LIBC_LIB)/libmpi.a: $(MPIF_LWKOBJS)

MPIF_ALL := $(MPI_B)/libmpi.a $(MPIF_INC)/mpif.h $(MPIF_INC)/mpi.mod
mpi-fortran: $(MPIF_ALL)
all: mpi-fortran
.PHONY: mpi-fortran

# ---- tests (tests/mpif/run under ptlrun) ----
MPIF_T := $(MPIF_B)/tests
MPIF_TESTS := $(MPIF_T)/fmpi-h $(MPIF_T)/fmpi-mod $(MPIF_T)/f77hello \
              $(MPIF_T)/f77legacy $(MPIF_T)/cxxmpi

# fmpi.F90 (its harness module first), then fmpi2-4.F90, twice:
# through mpif.h and through use mpi; each build its own module directory.
MPIF_SRC := tests/mpif/fmpi.F90 tests/mpif/fmpi2.F90 tests/mpif/fmpi3.F90 \
            tests/mpif/fmpi4.F90
$(MPIF_T)/fmpi-h: $(MPIF_SRC) tests/mpif/fmpi.h $(MPIF_ALL) tools/mpicc
	@mkdir -p $(@D)/mod-h
	$(call say,MPIFORT,$@)
	$(Q)MPI_BUILD=$(BUILD) tools/mpifort -O1 -J$(@D)/mod-h $(MPIF_SRC) -o $@

$(MPIF_T)/fmpi-mod: $(MPIF_SRC) tests/mpif/fmpi.h $(MPIF_ALL) tools/mpicc
	@mkdir -p $(@D)/mod-mod
	$(call say,MPIFORT,$@)
	$(Q)MPI_BUILD=$(BUILD) tools/mpifort -O1 -Wall -Wno-unused-dummy-argument \
	    -DUSE_MPI_MODULE -J$(@D)/mod-mod $(MPIF_SRC) -o $@

$(MPIF_T)/f77hello $(MPIF_T)/f77legacy: $(MPIF_T)/%: tests/mpif/%.f \
                                        $(MPIF_ALL) tools/mpicc
	@mkdir -p $(@D)
	$(call say,MPIFORT,$@)
	$(Q)MPI_BUILD=$(BUILD) tools/mpifort -O1 $< -o $@

$(MPIF_T)/cxxmpi: tests/mpif/cxxmpi.cc $(MPI_B)/libmpi.a tools/mpicc
	@mkdir -p $(@D)
	$(call say,MPICXX,$@)
	$(Q)MPI_BUILD=$(BUILD) tools/mpicxx -O2 -Wall -Wextra -Werror $< -o $@

test-build: $(MPIF_TESTS)
TEST_SUITES += tests/mpif/run@$(BUILD)@mpif
