# examples/: parallel programs for compute nodes, built with lwkcc and run
# with yod (make demo runs ring on a 4-node cluster).  They link the job
# interface (portals/user/job.c) and the nodes' Portals library.

EXAMPLES_B    := $(BUILD)/examples
EXAMPLES_BINS := $(EXAMPLES_B)/ring

$(EXAMPLES_B)/%: examples/%.c portals/user/job.c portals/include/ptl_job.h \
                 $(LIBC_ALL)
	$(call say,LWKCC,$@)
	@mkdir -p $(@D)
	$(Q)$(LWKCC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -Iportals/include \
	    -o $@ $< portals/user/job.c -lportals

examples: $(EXAMPLES_BINS)
all: examples
.PHONY: examples
test-build: $(EXAMPLES_BINS)

# pi: an ordinary MPI program (make demo builds and runs it the way a user
# would, with tools/mpicc --lwk); built here too so it keeps compiling.
$(EXAMPLES_B)/pi: examples/pi.c $(MPI_LWK) $(LIBC_ALL) tools/mpicc
	$(call say,MPICC,$@)
	@mkdir -p $(@D)
	$(Q)tools/mpicc --lwk -std=gnu11 -O2 -Wall -Wextra -Werror -o $@ $<

test-build: $(EXAMPLES_B)/pi
