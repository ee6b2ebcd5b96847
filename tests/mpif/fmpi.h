! fmpi.h: the preprocessor's choice between mpif.h and the mpi module
! for fmpi.F90 and fmpi2.F90 (-DUSE_MPI_MODULE builds fmpi-mod).
#ifdef USE_MPI_MODULE
#define USE_MPI use mpi
#define INC_MPI
#define PROG 'fmpi-mod'
#else
#define USE_MPI
#define INC_MPI include 'mpif.h'
#define PROG 'fmpi-h'
#endif
