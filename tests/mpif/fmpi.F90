! fmpi.F90: MPI-1.1 from Fortran 90, built twice: through mpif.h
! (fmpi-h) and through the mpi module (fmpi-mod, -DUSE_MPI_MODULE).  Each
! part checks its results against values computed here, independently of
! the library; report() is collective and rank 0 prints
! "PASS mpif.PROG.nSIZE.PART" only if no rank failed since the last one.
! The parts are here and in fmpi2.F90, the MPI-2/3 ones in fmpi3.F90 and
! fmpi4.F90 (built together).
#include "fmpi.h"

module harness
  implicit none
  integer :: me = 0, np = 1, nfail = 0
contains
  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      nfail = nfail + 1
      write (0, '(a,i0,2a)') 'rank ', me, ': check failed: ', what
    end if
  end subroutine check
end module harness

subroutine report(part)
  USE_MPI
  use harness
  implicit none
  INC_MPI
  character(len=*), intent(in) :: part
  integer :: all, ierr
  call MPI_ALLREDUCE(nfail, all, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (me == 0) then
    if (all == 0 .and. ierr == MPI_SUCCESS) then
      write (*, '(3a,i0,2a)') 'PASS mpif.', PROG, '.n', np, '.', part
    else
      write (*, '(3a,i0,2a)') 'FAIL mpif.', PROG, '.n', np, '.', part
    end if
    flush (6)
  end if
  nfail = 0
end subroutine report

! Blocking and nonblocking point to point, probe, status fields,
! persistent and buffered sends.
subroutine p2p()
  USE_MPI
  use harness
  implicit none
  INC_MPI
  integer :: ierr, nxt, prv, i, cnt, src, k, idx, got(0:63)
  integer :: st(MPI_STATUS_SIZE), sts(MPI_STATUS_SIZE, 2), req(2)
  integer, allocatable :: buf(:)
  double precision :: a(100), b(100)
  integer :: bsbuf(1000), bsize
  logical :: flag

  nxt = mod(me + 1, np)
  prv = mod(me - 1 + np, np)
  ! a ring with MPI_SENDRECV: the status names the sender and the tag
  a = [(me * 1000 + i, i = 1, 100)]
  call MPI_SENDRECV(a, 100, MPI_DOUBLE_PRECISION, nxt, 7 + me, b, 100, &
                    MPI_DOUBLE_PRECISION, prv, MPI_ANY_TAG, MPI_COMM_WORLD, st, ierr)
  call check(ierr == MPI_SUCCESS, 'sendrecv ierr')
  call check(st(MPI_SOURCE) == prv, 'sendrecv status source')
  call check(st(MPI_TAG) == 7 + prv, 'sendrecv status tag')
  call check(all(b == [(prv * 1000 + i, i = 1, 100)]), 'sendrecv data')
  call MPI_GET_COUNT(st, MPI_DOUBLE_PRECISION, cnt, ierr)
  call check(cnt == 100, 'get_count')

  ! nonblocking both ways, MPI_WAITALL with an array of statuses
  call MPI_IRECV(b, 50, MPI_DOUBLE_PRECISION, prv, 3, MPI_COMM_WORLD, req(1), ierr)
  call MPI_ISEND(a, 50, MPI_DOUBLE_PRECISION, nxt, 3, MPI_COMM_WORLD, req(2), ierr)
  call check(req(1) /= MPI_REQUEST_NULL .and. req(2) /= MPI_REQUEST_NULL, 'requests made')
  call MPI_WAITALL(2, req, sts, ierr)
  call check(ierr == MPI_SUCCESS, 'waitall ierr')
  call check(all(req == MPI_REQUEST_NULL), 'waitall frees requests')
  call check(sts(MPI_SOURCE, 1) == prv .and. sts(MPI_TAG, 1) == 3, 'waitall status')
  call check(all(b(1:50) == [(prv * 1000 + i, i = 1, 50)]), 'irecv data')

  ! every rank but 0 sends rank+1 integers; rank 0 probes MPI_ANY_SOURCE,
  ! sizes its buffer by MPI_GET_COUNT and receives from the probed source
  if (me /= 0) then
    allocate (buf(me + 1))
    buf = [(me * 10 + i, i = 1, me + 1)]
    call MPI_SEND(buf, me + 1, MPI_INTEGER, 0, 100 + me, MPI_COMM_WORLD, ierr)
    deallocate (buf)
  else
    got = 0
    do k = 1, np - 1
      call MPI_PROBE(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, st, ierr)
      src = st(MPI_SOURCE)
      call check(st(MPI_TAG) == 100 + src, 'probe tag')
      call MPI_GET_COUNT(st, MPI_INTEGER, cnt, ierr)
      call check(cnt == src + 1, 'probe count')
      allocate (buf(cnt))
      call MPI_RECV(buf, cnt, MPI_INTEGER, src, st(MPI_TAG), MPI_COMM_WORLD, &
                    MPI_STATUS_IGNORE, ierr)
      call check(all(buf == [(src * 10 + i, i = 1, cnt)]), 'probed data')
      got(src) = got(src) + 1
      deallocate (buf)
    end do
    call check(all(got(1:np - 1) == 1), 'each sender probed once')
    ! nothing more with a probe tag (later parts send other tags)
    do k = 1, np - 1
      call MPI_IPROBE(MPI_ANY_SOURCE, 100 + k, MPI_COMM_WORLD, flag, st, ierr)
      call check(.not. flag, 'iprobe finds nothing more')
    end do
  end if

  ! (a probe for any tag must not see the next part's messages)
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)

  ! MPI_WAITANY's index is 1-based; MPI_TEST on a completed request
  call MPI_IRECV(cnt, 1, MPI_INTEGER, prv, 5, MPI_COMM_WORLD, req(2), ierr)
  req(1) = MPI_REQUEST_NULL
  call MPI_SEND(me, 1, MPI_INTEGER, nxt, 5, MPI_COMM_WORLD, ierr)
  call MPI_WAITANY(2, req, idx, st, ierr)
  call check(idx == 2, 'waitany index is 1-based')
  call check(cnt == prv, 'waitany data')
  call MPI_TEST(req(2), flag, st, ierr)
  call check(flag, 'test on a null request is true')

  ! persistent requests, started twice
  call MPI_RECV_INIT(b, 10, MPI_DOUBLE_PRECISION, prv, 9, MPI_COMM_WORLD, req(1), ierr)
  call MPI_SEND_INIT(a, 10, MPI_DOUBLE_PRECISION, nxt, 9, MPI_COMM_WORLD, req(2), ierr)
  do k = 1, 2
    a(1:10) = me * 100 + k
    call MPI_STARTALL(2, req, ierr)
    call MPI_WAITALL(2, req, MPI_STATUSES_IGNORE, ierr)
    call check(all(req /= MPI_REQUEST_NULL), 'persistent requests stay')
    call check(all(b(1:10) == prv * 100 + k), 'persistent data')
  end do
  call MPI_REQUEST_FREE(req(1), ierr)
  call MPI_REQUEST_FREE(req(2), ierr)
  call check(all(req == MPI_REQUEST_NULL), 'request_free')

  ! buffered send
  call MPI_BUFFER_ATTACH(bsbuf, 4000, ierr)
  call MPI_BSEND(a, 20, MPI_DOUBLE_PRECISION, nxt, 11, MPI_COMM_WORLD, ierr)
  call check(ierr == MPI_SUCCESS, 'bsend')
  call MPI_RECV(b, 20, MPI_DOUBLE_PRECISION, prv, 11, MPI_COMM_WORLD, st, ierr)
  call MPI_BUFFER_DETACH(bsbuf, bsize, ierr)
  call check(bsize == 4000, 'buffer_detach size')
  call check(all(b(1:10) == prv * 100 + 2), 'bsend data')
  call report('p2p')
end subroutine p2p

! User op: elementwise max of absolute values.
subroutine absmax(invec, inoutvec, n, dtype)
  implicit none
  integer :: n, dtype, i
  double precision :: invec(n), inoutvec(n)
  do i = 1, n
    inoutvec(i) = max(abs(invec(i)), abs(inoutvec(i)))
  end do
end subroutine absmax

subroutine coll()
  USE_MPI
  use harness
  implicit none
  INC_MPI
  external :: absmax
  integer :: ierr, i, j, root, s, op, pair(2), allp(2)
  integer :: sb(0:63), rb(0:63), g(0:63)
  double precision :: d(5), dm(2), dmo(2), x(3)
  real :: r
  logical :: l, lall, lany

  ! bcast from the last rank
  root = np - 1
  d = 0
  if (me == root) d = [(1.5d0 * i, i = 1, 5)]
  call MPI_BCAST(d, 5, MPI_DOUBLE_PRECISION, root, MPI_COMM_WORLD, ierr)
  call check(all(d == [(1.5d0 * i, i = 1, 5)]), 'bcast')

  ! reduce and allreduce against sums done here
  call MPI_REDUCE(me + 1, s, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (me == 0) call check(s == np * (np + 1) / 2, 'reduce sum')
  r = real(me) * 0.5
  call MPI_ALLREDUCE(MPI_IN_PLACE, r, 1, MPI_REAL, MPI_MAX, MPI_COMM_WORLD, ierr)
  call check(r == real(np - 1) * 0.5, 'allreduce max in place')
  pair = [me + 1, 2 * me]
  call MPI_ALLREDUCE(pair, allp, 2, MPI_INTEGER, MPI_PROD, MPI_COMM_WORLD, ierr)
  s = 1
  do i = 1, np
    s = s * i
  end do
  call check(allp(1) == s, 'allreduce prod')
  ! LOGICAL: .true. on every rank but the last
  l = me /= np - 1
  call MPI_ALLREDUCE(l, lall, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD, ierr)
  call MPI_ALLREDUCE(l, lany, 1, MPI_LOGICAL, MPI_LOR, MPI_COMM_WORLD, ierr)
  call check(.not. lall, 'logical land')
  call check(lany .eqv. (np > 1), 'logical lor')
  ! MAXLOC on (value, index) pairs: largest value is on rank np/2
  dm = [dble(-abs(me - np / 2)), dble(me)]
  call MPI_ALLREDUCE(dm, dmo, 1, MPI_2DOUBLE_PRECISION, MPI_MAXLOC, MPI_COMM_WORLD, ierr)
  call check(ierr == MPI_SUCCESS, 'maxloc ierr')
  call check(dmo(1) == 0d0 .and. dmo(2) == dble(np / 2), 'maxloc 2double')
  ! a Fortran user op
  call MPI_OP_CREATE(absmax, .true., op, ierr)
  x = [dble(-me), dble(me) * 0.25d0, 1d0]
  call MPI_ALLREDUCE(MPI_IN_PLACE, x, 3, MPI_DOUBLE_PRECISION, op, MPI_COMM_WORLD, ierr)
  call check(all(x == [dble(np - 1), dble(np - 1) * 0.25d0, 1d0]), 'user op')
  call MPI_OP_FREE(op, ierr)
  call check(op == MPI_OP_NULL, 'op_free')
  ! scan: prefix sums
  call MPI_SCAN(me + 1, s, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(s == (me + 1) * (me + 2) / 2, 'scan')

  ! gather to 0, MPI_IN_PLACE at the root; scatter back doubled
  g = -1
  if (me == 0) then
    g(0) = 0
    call MPI_GATHER(MPI_IN_PLACE, 1, MPI_INTEGER, g, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    call check(all(g(0:np - 1) == [(10 * i, i = 0, np - 1)]), 'gather in place')
    g(0:np - 1) = 2 * g(0:np - 1)
  else
    call MPI_GATHER(10 * me, 1, MPI_INTEGER, g, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  end if
  call MPI_SCATTER(g, 1, MPI_INTEGER, s, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call check(s == 20 * me, 'scatter')
  call MPI_ALLGATHER(me * me, 1, MPI_INTEGER, rb, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call check(all(rb(0:np - 1) == [(i * i, i = 0, np - 1)]), 'allgather')
  ! alltoall: element j goes to rank j
  sb(0:np - 1) = [(100 * me + j, j = 0, np - 1)]
  call MPI_ALLTOALL(sb, 1, MPI_INTEGER, rb, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call check(all(rb(0:np - 1) == [(100 * j + me, j = 0, np - 1)]), 'alltoall')
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  call check(ierr == MPI_SUCCESS, 'barrier')
  call report('coll')
end subroutine coll

! A Cartesian halo exchange: each rank owns a 6x6 block of a periodic
! 2-D grid whose value at global (gi, gj) is 1000*gi + gj; one layer of
! ghost cells comes from the four neighbours by MPI_SENDRECV, rows by a
! vector type.  Every ghost is checked against the formula.
subroutine halo()
  USE_MPI
  use harness
  implicit none
  INC_MPI
  integer, parameter :: n = 6
  integer :: ierr, cart, dims(2), coords(2), up, down, left, right, row
  integer :: i, j, gi, gj, rank, nrows, ncols
  logical :: periods(2), ok
  double precision :: u(0:n + 1, 0:n + 1)

  dims = 0
  call MPI_DIMS_CREATE(np, 2, dims, ierr)
  call check(dims(1) * dims(2) == np, 'dims_create')
  periods = .true.
  call MPI_CART_CREATE(MPI_COMM_WORLD, 2, dims, periods, .false., cart, ierr)
  call check(cart /= MPI_COMM_NULL, 'cart_create')
  call MPI_COMM_RANK(cart, rank, ierr)
  call MPI_CART_COORDS(cart, rank, 2, coords, ierr)
  call MPI_CART_GET(cart, 2, dims, periods, coords, ierr)
  call check(all(periods), 'cart_get periods')
  call MPI_CART_RANK(cart, coords, i, ierr)
  call check(i == rank, 'cart_rank')
  call MPI_CART_SHIFT(cart, 0, 1, up, down, ierr)
  call MPI_CART_SHIFT(cart, 1, 1, left, right, ierr)
  nrows = dims(1) * n
  ncols = dims(2) * n
  u = -1
  do j = 1, n
    do i = 1, n
      u(i, j) = 1000 * (coords(1) * n + i) + (coords(2) * n + j)
    end do
  end do
  ! a row (fixed i) is strided in Fortran's column-major order
  call MPI_TYPE_VECTOR(n, 1, n + 2, MPI_DOUBLE_PRECISION, row, ierr)
  call MPI_TYPE_COMMIT(row, ierr)
  call MPI_SENDRECV(u(n, 1), 1, row, down, 1, u(0, 1), 1, row, up, 1, cart, &
                    MPI_STATUS_IGNORE, ierr)
  call MPI_SENDRECV(u(1, 1), 1, row, up, 2, u(n + 1, 1), 1, row, down, 2, cart, &
                    MPI_STATUS_IGNORE, ierr)
  call MPI_SENDRECV(u(1, n), n, MPI_DOUBLE_PRECISION, right, 3, u(1, 0), n, &
                    MPI_DOUBLE_PRECISION, left, 3, cart, MPI_STATUS_IGNORE, ierr)
  call MPI_SENDRECV(u(1, 1), n, MPI_DOUBLE_PRECISION, left, 4, u(1, n + 1), n, &
                    MPI_DOUBLE_PRECISION, right, 4, cart, MPI_STATUS_IGNORE, ierr)
  call MPI_TYPE_FREE(row, ierr)
  call check(row == MPI_DATATYPE_NULL, 'type_free')
  ok = .true.
  do j = 1, n
    gj = coords(2) * n + j
    gi = modulo(coords(1) * n - 1, nrows) + 1          ! above the block
    ok = ok .and. u(0, j) == 1000 * gi + gj
    gi = modulo(coords(1) * n + n, nrows) + 1          ! below it
    ok = ok .and. u(n + 1, j) == 1000 * gi + gj
  end do
  do i = 1, n
    gi = coords(1) * n + i
    gj = modulo(coords(2) * n - 1, ncols) + 1
    ok = ok .and. u(i, 0) == 1000 * gi + gj
    gj = modulo(coords(2) * n + n, ncols) + 1
    ok = ok .and. u(i, n + 1) == 1000 * gi + gj
  end do
  call check(ok, 'halo values')
  call check(u(0, 0) == -1, 'corners untouched')
  call MPI_COMM_FREE(cart, ierr)
  call check(cart == MPI_COMM_NULL, 'comm_free')
  call report('halo')
end subroutine halo

program fmpi
  USE_MPI
  use harness
  implicit none
  INC_MPI
  integer :: ierr
  logical :: flag
  call MPI_INITIALIZED(flag, ierr)
  call check(.not. flag, 'not initialized yet')
  call MPI_INIT(ierr)
  call MPI_INITIALIZED(flag, ierr)
  call check(flag, 'initialized')
  call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
  call p2p()
  call coll()
  call halo()
  call types()
  call split()
  call errs_attrs()
  call more()
  call types3()
  call comms3()
  call attrs3()
  call rma3()
  call ext3()
  call io3()
  call MPI_FINALIZE(ierr)
end program fmpi
