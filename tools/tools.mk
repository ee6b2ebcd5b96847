# tools/tools.mk: the tests of the compile wrappers (tools/mpicc, lwkcc).

# The compile wrappers as build systems call them (CC=wrapper, -show,
# autoconf's configure).
TEST_SUITES += tests/tools/wrappers@$(BUILD)@wrappers
