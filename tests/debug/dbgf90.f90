! SPDX-License-Identifier: MIT
! dbgf90: dbgmpi.c in Fortran (mpifort --lwk, the Linux personality), for
! gdb on a rank (tests/qemu/suite-debug): rank 1 stops in work, the test
! prints n and local, steps a line, sets local to 1000 and detaches.
module dbgwork
  implicit none
  integer :: bias = 1
contains
  integer function work(n)
    integer, intent(in) :: n
    integer :: local
    local = n * 3
    work = local + bias
  end function work
end module dbgwork

program dbgf90
  use mpi
  use dbgwork
  implicit none
  integer :: rank, nranks, ierr, v
  integer :: status(MPI_STATUS_SIZE)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  if (rank == 0 .and. nranks > 1) then
    call MPI_Send(bias, 1, MPI_INTEGER, 1, 7, MPI_COMM_WORLD, ierr)
  else if (rank == 1) then
    call MPI_Recv(bias, 1, MPI_INTEGER, 0, 7, MPI_COMM_WORLD, status, ierr)
  end if
  v = work(rank + 10)
  print '(a,i0,a,i0)', 'rank ', rank, ': result ', v
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_Finalize(ierr)
end program dbgf90
