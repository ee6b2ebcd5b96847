! mpi.f90: the `mpi' module (MPI-3.1's, every routine of mpi.def),
! compiled by gfortran into mpi.mod.  Its constants are mpif.h's
! (mpif-consts.h, made by genmpif.c from mpi.h), its interfaces are made
! from mpi.def by genwrap.py; a choice buffer takes any type and rank
! (gfortran's NO_ARG_CHECK on an assumed-type, assumed-size dummy: a
! plain address, as mpif.h's callers pass it, so one C wrapper serves
! both).  Here: what a line of mpi.def cannot say (functions, routines
! without IERROR) and MPI_SIZEOF, the one generic routine.
module mpi
  implicit none
  include 'mpif-consts.h'
  external :: MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, MPI_DUP_FN
  external :: MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN
  external :: MPI_COMM_DUP_FN, MPI_WIN_NULL_COPY_FN
  external :: MPI_WIN_NULL_DELETE_FN, MPI_WIN_DUP_FN
  external :: MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN
  external :: MPI_TYPE_DUP_FN, MPI_CONVERSION_FN_NULL
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
    function MPI_AINT_ADD(base, disp)
      import :: MPI_ADDRESS_KIND
      integer(kind=MPI_ADDRESS_KIND) :: base, disp, MPI_AINT_ADD
    end function MPI_AINT_ADD
    function MPI_AINT_DIFF(addr1, addr2)
      import :: MPI_ADDRESS_KIND
      integer(kind=MPI_ADDRESS_KIND) :: addr1, addr2, MPI_AINT_DIFF
    end function MPI_AINT_DIFF
    function PMPI_AINT_ADD(base, disp)
      import :: MPI_ADDRESS_KIND
      integer(kind=MPI_ADDRESS_KIND) :: base, disp, PMPI_AINT_ADD
    end function PMPI_AINT_ADD
    function PMPI_AINT_DIFF(addr1, addr2)
      import :: MPI_ADDRESS_KIND
      integer(kind=MPI_ADDRESS_KIND) :: addr1, addr2, PMPI_AINT_DIFF
    end function PMPI_AINT_DIFF
    subroutine MPI_F_SYNC_REG(buf)
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
    end subroutine MPI_F_SYNC_REG
    subroutine PMPI_F_SYNC_REG(buf)
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf
      type(*), dimension(*) :: buf
    end subroutine PMPI_F_SYNC_REG
  end interface
  include 'mpi-ifaces.f90'

  ! MPI_SIZEOF(x, size, ierror): the bytes of one element of x, any
  ! rank.  One specific routine per type and kind, each the C library's
  ! mpi_sizeof_K_ (fcallback.c), which knows its size (x is not read):
  ! no module procedure, so no program needs an object of this module.
  interface MPI_SIZEOF
    subroutine MPI_SIZEOF_I1(x, size, ierror)
      integer(kind=1), dimension(..), intent(in) :: x
      integer, intent(out) :: size, ierror
    end subroutine MPI_SIZEOF_I1
    subroutine MPI_SIZEOF_I2(x, size, ierror)
      integer(kind=2), dimension(..), intent(in) :: x
      integer, intent(out) :: size, ierror
    end subroutine MPI_SIZEOF_I2
    subroutine MPI_SIZEOF_I4(x, size, ierror)
      integer(kind=4), dimension(..), intent(in) :: x
      integer, intent(out) :: size, ierror
    end subroutine MPI_SIZEOF_I4
    subroutine MPI_SIZEOF_I8(x, size, ierror)
      integer(kind=8), dimension(..), intent(in) :: x
      integer, intent(out) :: size, ierror
    end subroutine MPI_SIZEOF_I8
    subroutine MPI_SIZEOF_I16(x, size, ierror)
      integer(kind=16), dimension(..), intent(in) :: x
      integer, intent(out) :: size, ierror
    end subroutine MPI_SIZEOF_I16
    subroutine MPI_SIZEOF_R4(x, size, ierror)
      real(kind=4), dimension(..), intent(in) :: x
      integer, intent(out) :: size, ierror
    end subroutine MPI_SIZEOF_R4
    subroutine MPI_SIZEOF_R8(x, size, ierror)
      real(kind=8), dimension(..), intent(in) :: x
      integer, intent(out) :: size, ierror
    end subroutine MPI_SIZEOF_R8
    subroutine MPI_SIZEOF_R10(x, size, ierror)
      real(kind=10), dimension(..), intent(in) :: x
      integer, intent(out) :: size, ierror
    end subroutine MPI_SIZEOF_R10
    subroutine MPI_SIZEOF_R16(x, size, ierror)
      real(kind=16), dimension(..), intent(in) :: x
      integer, intent(out) :: size, ierror
    end subroutine MPI_SIZEOF_R16
    subroutine MPI_SIZEOF_C4(x, size, ierror)
      complex(kind=4), dimension(..), intent(in) :: x
      integer, intent(out) :: size, ierror
    end subroutine MPI_SIZEOF_C4
    subroutine MPI_SIZEOF_C8(x, size, ierror)
      complex(kind=8), dimension(..), intent(in) :: x
      integer, intent(out) :: size, ierror
    end subroutine MPI_SIZEOF_C8
    subroutine MPI_SIZEOF_C10(x, size, ierror)
      complex(kind=10), dimension(..), intent(in) :: x
      integer, intent(out) :: size, ierror
    end subroutine MPI_SIZEOF_C10
    subroutine MPI_SIZEOF_C16(x, size, ierror)
      complex(kind=16), dimension(..), intent(in) :: x
      integer, intent(out) :: size, ierror
    end subroutine MPI_SIZEOF_C16
    subroutine MPI_SIZEOF_L1(x, size, ierror)
      logical(kind=1), dimension(..), intent(in) :: x
      integer, intent(out) :: size, ierror
    end subroutine MPI_SIZEOF_L1
    subroutine MPI_SIZEOF_L2(x, size, ierror)
      logical(kind=2), dimension(..), intent(in) :: x
      integer, intent(out) :: size, ierror
    end subroutine MPI_SIZEOF_L2
    subroutine MPI_SIZEOF_L4(x, size, ierror)
      logical(kind=4), dimension(..), intent(in) :: x
      integer, intent(out) :: size, ierror
    end subroutine MPI_SIZEOF_L4
    subroutine MPI_SIZEOF_L8(x, size, ierror)
      logical(kind=8), dimension(..), intent(in) :: x
      integer, intent(out) :: size, ierror
    end subroutine MPI_SIZEOF_L8
    subroutine MPI_SIZEOF_CH(x, size, ierror)
      character(len=*), dimension(..), intent(in) :: x
      integer, intent(out) :: size, ierror
    end subroutine MPI_SIZEOF_CH
  end interface MPI_SIZEOF
end module mpi
