! mpi.f90: the `mpi' module (MPI-1.1, and the few MPI-2 calls listed in
! mpi.def), compiled by gfortran into mpi.mod.  Its constants are
! mpif.h's (mpif-consts.h, made by genmpif.c from mpi.h), its interfaces
! are made from mpi.def by genwrap.py; a choice buffer takes any type and
! rank (gfortran's NO_ARG_CHECK on an assumed-type, assumed-size dummy: a
! plain address, as mpif.h's callers pass it, so one C wrapper serves both).
module mpi
  implicit none
  include 'mpif-consts.h'
  external :: MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, MPI_DUP_FN
  interface
    double precision function MPI_WTIME()
    end function MPI_WTIME
    double precision function MPI_WTICK()
    end function MPI_WTICK
    double precision function PMPI_WTIME()
    end function PMPI_WTIME
    double precision function PMPI_WTICK()
    end function PMPI_WTICK
    subroutine MPI_PCONTROL(level)
      integer :: level
    end subroutine MPI_PCONTROL
    subroutine PMPI_PCONTROL(level)
      integer :: level
    end subroutine PMPI_PCONTROL
  end interface
  include 'mpi-ifaces.f90'
end module mpi
