! mmf: the Fortran half of the Linux-personality figure (run): the same
! 200x200 multiply as mm.c, loops in Fortran order, timed 5 times with
! system_clock.  Prints "mm,fortran,REP,MS" lines.
program mmf
  implicit none
  integer, parameter :: n = 200
  real(8) :: a(n, n), b(n, n), c(n, n), s, check
  integer(8) :: t0, t1, rate
  integer :: i, j, k, rep
  do j = 1, n
    do i = 1, n
      a(i, j) = (i - 1) + 0.5d0 * (j - 1)
      b(i, j) = (i - 1) - 0.25d0 * (j - 1)
    end do
  end do
  check = 0
  do rep = 0, 4
    call system_clock(t0, rate)
    do j = 1, n
      do i = 1, n
        s = 0
        do k = 1, n
          s = s + a(i, k) * b(k, j)
        end do
        c(i, j) = s
      end do
    end do
    call system_clock(t1)
    check = check + c(rep + 1, n - rep)
    write(*, '(A, I0, A, F0.3)') 'mm,fortran,', rep, ',', &
      real(t1 - t0, 8) * 1000d0 / real(rate, 8)
  end do
  write(*, '(A, ES14.6)') 'mm: check ', check
end program
