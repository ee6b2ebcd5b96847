! lxf90: Fortran 90 built with the host's gfortran -static: a module,
! allocatable arrays, formatted I/O to a file and back, STOP 3.
module grid
  implicit none
  integer, parameter :: dp = kind(1.0d0)
contains
  subroutine fill(a)
    real(dp), intent(out) :: a(:, :)
    integer :: i, j
    do j = 1, size(a, 2)
      do i = 1, size(a, 1)
        a(i, j) = real(i, dp) + 0.5_dp * real(j, dp)
      end do
    end do
  end subroutine
end module

program lxf90
  use grid
  implicit none
  real(dp), allocatable :: a(:, :), b(:)
  integer :: u, i, n
  real(dp) :: x, total

  allocate(a(50, 40))
  call fill(a)
  allocate(b(size(a, 2)))
  b = sum(a, dim=1)
  print '(A, F12.3)', 'lxf90: total ', sum(b)
  open(newunit=u, file='lxf90.dat', status='replace', action='write')
  do i = 1, 5
    write(u, '(I4, 1X, F10.4)') i, b(i)
  end do
  close(u)
  open(newunit=u, file='lxf90.dat', status='old', action='read')
  total = 0
  do i = 1, 5
    read(u, *) n, x
    total = total + x
  end do
  close(u)
  print '(A, F12.4)', 'lxf90: read back ', total
  deallocate(a, b)
  print '(A)', 'lxf90: OK'
  stop 3
end program
