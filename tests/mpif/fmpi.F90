! fmpi.F90: MPI-1.1 from Fortran 90, built twice: through mpif.h
! (fmpi-h) and through the mpi module (fmpi-mod, -DUSE_MPI_MODULE).  Each
! part checks its results against values computed here, independently of
! the library; report() is collective and rank 0 prints
! "PASS mpif.PROG.nSIZE.PART" only if no rank failed since the last one.
#ifdef USE_MPI_MODULE
#define USE_MPI use mpi
#define INC_MPI
#define PROG 'fmpi-mod'
#else
#define USE_MPI
#define INC_MPI include 'mpif.h'
#define PROG 'fmpi-h'
#endif

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

! Derived types: a struct of an INTEGER and a DOUBLE PRECISION placed by
! MPI_GET_ADDRESS, a column block, sizes and extents; MPI_PACK/UNPACK.
subroutine types()
  USE_MPI
  use harness
  implicit none
  INC_MPI
  type rec
    sequence
    integer :: id
    integer :: pad
    double precision :: val
  end type rec
  type(rec) :: rs(3), rr(3)
  integer :: ierr, tstruct, tcol, sz, nxt, prv, i, pos
  ! reached through MPI_BOTTOM too: the compiler must not keep them in
  ! registers across the calls (MPI-1 section 10.2.2's advice)
  integer, volatile :: ia(4), ib(4)
  integer :: blen(2), oldt(2), ext
  integer(kind=MPI_ADDRESS_KIND) :: disp(2), base, lb, extent
  integer :: m(4, 3), mc(4, 3)
  character(len=64) :: packbuf

  nxt = mod(me + 1, np)
  prv = mod(me - 1 + np, np)
  call MPI_GET_ADDRESS(rs(1), base, ierr)
  call MPI_GET_ADDRESS(rs(1)%id, disp(1), ierr)
  call MPI_GET_ADDRESS(rs(1)%val, disp(2), ierr)
  disp = disp - base
  call check(disp(1) == 0 .and. disp(2) == 8, 'get_address displacements')
  blen = 1
  oldt = [MPI_INTEGER, MPI_DOUBLE_PRECISION]
  call MPI_TYPE_CREATE_STRUCT(2, blen, disp, oldt, tstruct, ierr)
  call MPI_TYPE_COMMIT(tstruct, ierr)
  call MPI_TYPE_SIZE(tstruct, sz, ierr)
  call check(sz == 12, 'struct size')
  call MPI_TYPE_GET_EXTENT(tstruct, lb, extent, ierr)
  call check(lb == 0 .and. extent == 16, 'struct extent')
  do i = 1, 3
    rs(i) = rec(me * 10 + i, -7, me + i * 0.5d0)
  end do
  rr = rec(0, 0, 0d0)
  call MPI_SENDRECV(rs, 3, tstruct, nxt, 1, rr, 3, tstruct, prv, 1, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call check(all(rr%id == [(prv * 10 + i, i = 1, 3)]), 'struct ids')
  call check(all(rr%val == [(prv + i * 0.5d0, i = 1, 3)]), 'struct values')
  call check(all(rr%pad == 0), 'struct gap not sent')
  call MPI_TYPE_FREE(tstruct, ierr)

  ! two middle rows of a 4x3 INTEGER matrix: a vector of 3 blocks of 2
  m = reshape([(me * 100 + i, i = 1, 12)], [4, 3])
  mc = 0
  call MPI_TYPE_VECTOR(3, 2, 4, MPI_INTEGER, tcol, ierr)
  call MPI_TYPE_COMMIT(tcol, ierr)
  call MPI_TYPE_EXTENT(tcol, ext, ierr)
  call check(ext == 4 * 10, 'vector extent (MPI-1 INTEGER form)')
  call MPI_SENDRECV(m(2, 1), 1, tcol, nxt, 2, mc(2, 1), 1, tcol, prv, 2, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  m = reshape([(prv * 100 + i, i = 1, 12)], [4, 3])   ! what prv sent
  call check(all(mc(2:3, :) == m(2:3, :)), 'vector rows')
  call check(all(mc(1, :) == 0) .and. all(mc(4, :) == 0), 'vector leaves the rest')
  call MPI_TYPE_FREE(tcol, ierr)

  ! pack four integers and unpack them
  ia = [1, -2, 3, me]
  pos = 0
  call MPI_PACK(ia, 4, MPI_INTEGER, packbuf, 64, pos, MPI_COMM_WORLD, ierr)
  call check(pos == 16, 'pack position')
  pos = 0
  call MPI_UNPACK(packbuf, 64, pos, ib, 4, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call check(all(ib == ia), 'unpack')

  ! MPI_BOTTOM with absolute addresses: send ia, receive into ib
  call MPI_GET_ADDRESS(ia, disp(1), ierr)
  call MPI_GET_ADDRESS(ib, disp(2), ierr)
  blen(1) = 4
  call MPI_TYPE_CREATE_HINDEXED(1, blen, disp(1), MPI_INTEGER, tcol, ierr)
  call MPI_TYPE_COMMIT(tcol, ierr)
  call MPI_TYPE_CREATE_HINDEXED(1, blen, disp(2), MPI_INTEGER, tstruct, ierr)
  call MPI_TYPE_COMMIT(tstruct, ierr)
  ia = [5, 6, 7, me]
  ib = 0
  call MPI_SENDRECV(MPI_BOTTOM, 1, tcol, nxt, 3, MPI_BOTTOM, 1, tstruct, prv, 3, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_BOTTOM sendrecv')
  call check(all(ib == [5, 6, 7, prv]), 'MPI_BOTTOM with absolute addresses')
  call MPI_TYPE_FREE(tcol, ierr)
  call MPI_TYPE_FREE(tstruct, ierr)
  ! nothing was written into the sentinel
  call check(all(MPI_STATUS_IGNORE == 0), 'MPI_STATUS_IGNORE untouched')
  call report('types')
end subroutine types

! MPI_COMM_SPLIT by parity with the keys reversing the order; groups.
subroutine split()
  USE_MPI
  use harness
  implicit none
  INC_MPI
  integer :: ierr, sub, sr, ss, s, want, i, grp, wgrp, sub0, res
  integer :: r1(1), r2(1)
  logical :: flag

  call MPI_COMM_SPLIT(MPI_COMM_WORLD, mod(me, 2), -me, sub, ierr)
  call MPI_COMM_SIZE(sub, ss, ierr)
  call MPI_COMM_RANK(sub, sr, ierr)
  want = 0
  do i = mod(me, 2), np - 1, 2
    want = want + 1
  end do
  call check(ss == want, 'split size')
  ! reversed: the highest world rank of my parity is sub rank 0
  want = 0
  do i = me + 2, np - 1, 2
    want = want + 1
  end do
  call check(sr == want, 'split rank order')
  call MPI_ALLREDUCE(me, s, 1, MPI_INTEGER, MPI_SUM, sub, ierr)
  want = 0
  do i = mod(me, 2), np - 1, 2
    want = want + i
  end do
  call check(s == want, 'sum within the split')
  call MPI_COMM_GROUP(sub, grp, ierr)
  call MPI_COMM_GROUP(MPI_COMM_WORLD, wgrp, ierr)
  r1(1) = sr
  call MPI_GROUP_TRANSLATE_RANKS(grp, 1, r1, wgrp, r2, ierr)
  call check(r2(1) == me, 'translate_ranks')
  call MPI_GROUP_FREE(grp, ierr)
  call MPI_GROUP_FREE(wgrp, ierr)
  call check(grp == MPI_GROUP_NULL .and. wgrp == MPI_GROUP_NULL, 'group_free')
  call MPI_COMM_DUP(sub, sub0, ierr)
  call MPI_COMM_COMPARE(sub, sub0, res, ierr)
  call check(res == MPI_CONGRUENT, 'comm_compare of a dup')
  call MPI_COMM_FREE(sub0, ierr)
  call MPI_COMM_FREE(sub, ierr)

  ! an intercommunicator between the parities (leaders: world 0 and 1),
  ! merged with the odd side high: evens first, then odds
  if (np >= 2) then
    call MPI_COMM_SPLIT(MPI_COMM_WORLD, mod(me, 2), me, sub, ierr)
    call MPI_INTERCOMM_CREATE(sub, 0, MPI_COMM_WORLD, 1 - mod(me, 2), 77, &
                              sub0, ierr)
    call MPI_COMM_TEST_INTER(sub0, flag, ierr)
    call check(flag, 'comm_test_inter')
    call MPI_COMM_REMOTE_SIZE(sub0, res, ierr)
    if (mod(me, 2) == 0) then
      call check(res == np / 2, 'remote size (odds)')
    else
      call check(res == (np + 1) / 2, 'remote size (evens)')
    end if
    call MPI_INTERCOMM_MERGE(sub0, mod(me, 2) == 1, grp, ierr)
    call MPI_COMM_RANK(grp, sr, ierr)
    if (mod(me, 2) == 0) then
      want = me / 2
    else
      want = (np + 1) / 2 + me / 2
    end if
    call check(sr == want, 'intercomm_merge order (LOGICAL high)')
    call MPI_COMM_FREE(grp, ierr)
    call MPI_COMM_FREE(sub0, ierr)
    call MPI_COMM_FREE(sub, ierr)
  end if
  call report('split')
end subroutine split

! Attributes with Fortran copy and delete procedures.
subroutine copy_plus1(oldcomm, keyval, extra, valin, valout, flag, ierr)
  implicit none
  integer :: oldcomm, keyval, extra, valin, valout, ierr
  logical :: flag
  valout = valin + extra
  flag = .true.
  ierr = 0
end subroutine copy_plus1

subroutine count_delete(comm, keyval, val, extra, ierr)
  use harness, only: ndel => nfail
  implicit none
  integer :: comm, keyval, val, extra, ierr
  integer, save :: calls = 0
  calls = calls + 1
  ierr = 0
  if (val < 0) ndel = ndel + 1        ! never: values here are >= 40
end subroutine count_delete

subroutine myhandler(comm, code)
  use harness
  implicit none
  integer :: comm, code
  nfail = nfail - 1000         ! report() sees it unless the test adds it back
  if (comm < 0) nfail = nfail + 1
  if (code == 0) nfail = nfail + 1
end subroutine myhandler

subroutine errs_attrs()
  USE_MPI
  use harness
  implicit none
  INC_MPI
  external :: copy_plus1, count_delete, myhandler
  integer :: ierr, cls, rlen, key, val, dup, eh, tagub, before
  logical :: flag
  character(len=MPI_MAX_ERROR_STRING) :: msg
  character(len=MPI_MAX_PROCESSOR_NAME) :: host

  call MPI_ATTR_GET(MPI_COMM_WORLD, MPI_TAG_UB, tagub, flag, ierr)
  call check(flag .and. tagub >= 32767, 'tag_ub value, not its address')
  call MPI_KEYVAL_CREATE(copy_plus1, count_delete, key, 2, ierr)
  call MPI_ATTR_PUT(MPI_COMM_WORLD, key, 40 + me, ierr)
  call MPI_ATTR_GET(MPI_COMM_WORLD, key, val, flag, ierr)
  call check(flag .and. val == 40 + me, 'attr_get')
  call MPI_COMM_DUP(MPI_COMM_WORLD, dup, ierr)
  call MPI_ATTR_GET(dup, key, val, flag, ierr)
  call check(flag .and. val == 42 + me, 'attr copied by the Fortran copy_fn')
  call MPI_COMM_FREE(dup, ierr)
  call MPI_ATTR_DELETE(MPI_COMM_WORLD, key, ierr)
  call MPI_ATTR_GET(MPI_COMM_WORLD, key, val, flag, ierr)
  call check(.not. flag, 'attr deleted')
  call MPI_KEYVAL_FREE(key, ierr)
  call check(key == MPI_KEYVAL_INVALID, 'keyval_free')

  ! errors come back as codes under MPI_ERRORS_RETURN
  call MPI_ERRHANDLER_SET(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_SEND(val, 1, MPI_INTEGER, np + 5, 0, MPI_COMM_WORLD, ierr)
  call check(ierr /= MPI_SUCCESS, 'bad rank gives an error code')
  call MPI_ERROR_CLASS(ierr, cls, ierr)
  call check(cls == MPI_ERR_RANK, 'error class is MPI_ERR_RANK')
  msg = repeat('x', len(msg))
  call MPI_ERROR_STRING(cls, msg, rlen, ierr)
  call check(rlen > 0 .and. rlen < len(msg), 'error string length')
  call check(len_trim(msg) == rlen, 'error string blank-padded')
  call MPI_SEND(val, 1, 0, 0, 0, MPI_COMM_WORLD, ierr)
  call check(ierr /= MPI_SUCCESS, 'null datatype gives an error code')
  ! a Fortran error handler is called with the comm and the code
  call MPI_ERRHANDLER_CREATE(myhandler, eh, ierr)
  call MPI_ERRHANDLER_SET(MPI_COMM_WORLD, eh, ierr)
  before = nfail
  call MPI_SEND(val, 1, MPI_INTEGER, -7, 0, MPI_COMM_WORLD, ierr)
  flag = nfail == before - 1000
  nfail = before
  call check(flag, 'Fortran error handler called once, with comm and code')
  call MPI_ERRHANDLER_SET(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL, ierr)
  call MPI_ERRHANDLER_FREE(eh, ierr)
  call check(eh == MPI_ERRHANDLER_NULL, 'errhandler_free')

  call MPI_GET_PROCESSOR_NAME(host, rlen, ierr)
  call check(rlen > 0 .and. len_trim(host) == rlen, 'processor name')
  call check(MPI_WTICK() > 0d0 .and. MPI_WTIME() > 0d0, 'wtime and wtick')
  call report('errors-attrs')
end subroutine errs_attrs

! The remaining kinds of argument the wrappers convert: WAITSOME's
! indices, TESTALL, SSEND, SENDRECV_REPLACE, range triplets, MPI-1's
! INTEGER displacements (TYPE_HVECTOR, TYPE_STRUCT), CART_SUB's LOGICAL
! array, a graph topology, names in and out.
subroutine more()
  USE_MPI
  use harness
  implicit none
  INC_MPI
  integer :: ierr, nxt, prv, i, k, req(3), outc, idx(3), sts(MPI_STATUS_SIZE, 3)
  integer :: v(3), w(3), x, grp, wgrp, sz, rng(3, 1), t, blen(2), disp(2), types(2)
  integer :: cart, sub, dims(2), rlen, gcomm, nn, nbr(2)
  integer :: gindex(64), gedges(128)
  logical :: flag, periods(2), remain(2)
  character(len=MPI_MAX_OBJECT_NAME) :: name
  double precision :: d(4), e(4)

  nxt = mod(me + 1, np)
  prv = mod(me - 1 + np, np)
  ! WAITSOME until three receives are in: indices 1-based, each once
  v = -1
  do i = 1, 3
    call MPI_IRECV(v(i), 1, MPI_INTEGER, prv, 20 + i, MPI_COMM_WORLD, req(i), ierr)
  end do
  do i = 3, 1, -1
    call MPI_SSEND(me * 10 + i, 1, MPI_INTEGER, nxt, 20 + i, MPI_COMM_WORLD, ierr)
    if (np == 1) exit       ! a synchronous send to oneself waits for its receive
  end do
  if (np == 1) then
    call MPI_SEND(me * 10 + 2, 1, MPI_INTEGER, 0, 22, MPI_COMM_WORLD, ierr)
    call MPI_SEND(me * 10 + 1, 1, MPI_INTEGER, 0, 21, MPI_COMM_WORLD, ierr)
  end if
  k = 0
  w = 0
  do while (k < 3)
    call MPI_WAITSOME(3, req, outc, idx, sts, ierr)
    call check(outc >= 1 .and. outc <= 3 - k, 'waitsome count')
    do i = 1, outc
      call check(idx(i) >= 1 .and. idx(i) <= 3, 'waitsome index 1-based')
      if (idx(i) >= 1 .and. idx(i) <= 3) w(idx(i)) = w(idx(i)) + 1
      call check(sts(MPI_TAG, i) == 20 + idx(i), 'waitsome status')
    end do
    k = k + outc
  end do
  call check(all(w == 1) .and. all(req == MPI_REQUEST_NULL), 'each request once')
  call check(all(v == [(prv * 10 + i, i = 1, 3)]), 'ssend data')
  ! TESTALL: false until both are done, then true
  call MPI_IRECV(x, 1, MPI_INTEGER, prv, 30, MPI_COMM_WORLD, req(1), ierr)
  call MPI_ISEND(me, 1, MPI_INTEGER, nxt, 30, MPI_COMM_WORLD, req(2), ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_TESTALL(2, req, flag, MPI_STATUSES_IGNORE, ierr)
  end do
  call check(x == prv .and. all(req(1:2) == MPI_REQUEST_NULL), 'testall')
  ! SENDRECV_REPLACE
  d = [(me + i * 0.25d0, i = 1, 4)]
  call MPI_SENDRECV_REPLACE(d, 4, MPI_DOUBLE_PRECISION, nxt, 31, prv, 31, &
                            MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call check(all(d == [(prv + i * 0.25d0, i = 1, 4)]), 'sendrecv_replace')

  ! the even ranks by a (first, last, stride) triplet
  call MPI_COMM_GROUP(MPI_COMM_WORLD, wgrp, ierr)
  rng(:, 1) = [0, np - 1, 2]
  call MPI_GROUP_RANGE_INCL(wgrp, 1, rng, grp, ierr)
  call MPI_GROUP_SIZE(grp, sz, ierr)
  call check(sz == (np + 1) / 2, 'group_range_incl')
  call MPI_GROUP_FREE(grp, ierr)
  call MPI_GROUP_FREE(wgrp, ierr)

  ! MPI-1 types with INTEGER byte displacements: every other double, then
  ! that and an INTEGER in a struct
  call MPI_TYPE_HVECTOR(2, 1, 16, MPI_DOUBLE_PRECISION, t, ierr)
  call MPI_TYPE_COMMIT(t, ierr)
  e = 0
  d = [(me * 10 + i, i = 1, 4)]
  call MPI_SENDRECV(d, 1, t, nxt, 32, e, 1, t, prv, 32, MPI_COMM_WORLD, &
                    MPI_STATUS_IGNORE, ierr)
  call check(e(1) == prv * 10 + 1 .and. e(3) == prv * 10 + 3 .and. &
             e(2) == 0 .and. e(4) == 0, 'type_hvector')
  blen = [1, 1]
  disp = [0, 24]
  types = [t, MPI_DOUBLE_PRECISION]
  call MPI_TYPE_FREE(t, ierr)
  call MPI_TYPE_HVECTOR(2, 1, 16, MPI_DOUBLE_PRECISION, types(1), ierr)
  call MPI_TYPE_STRUCT(2, blen, disp, types, t, ierr)
  call MPI_TYPE_COMMIT(t, ierr)
  call MPI_TYPE_SIZE(t, sz, ierr)
  call check(sz == 24, 'type_struct size')
  e = 0
  call MPI_SENDRECV(d, 1, t, nxt, 33, e, 1, t, prv, 33, MPI_COMM_WORLD, &
                    MPI_STATUS_IGNORE, ierr)
  call check(all(e == [prv * 10 + 1d0, 0d0, prv * 10 + 3d0, prv * 10 + 4d0]), &
             'type_struct with INTEGER displacements')
  call MPI_TYPE_FREE(t, ierr)
  call MPI_TYPE_FREE(types(1), ierr)

  ! CART_SUB keeping the second dimension: a row of the grid
  dims = [np, 1]
  periods = .false.
  call MPI_CART_CREATE(MPI_COMM_WORLD, 2, dims, periods, .false., cart, ierr)
  remain = [.false., .true.]
  call MPI_CART_SUB(cart, remain, sub, ierr)
  call MPI_COMM_SIZE(sub, sz, ierr)
  call check(sz == 1, 'cart_sub keeps the size-1 dimension')
  call MPI_COMM_FREE(sub, ierr)
  remain = [.true., .false.]
  call MPI_CART_SUB(cart, remain, sub, ierr)
  call MPI_COMM_SIZE(sub, sz, ierr)
  call check(sz == np, 'cart_sub keeps the first dimension')
  ! names: set with trailing blanks dropped, got back blank-padded
  call MPI_COMM_SET_NAME(sub, 'column   ', ierr)
  name = repeat('x', len(name))
  call MPI_COMM_GET_NAME(sub, name, rlen, ierr)
  call check(rlen == 6 .and. name == 'column', 'comm names')
  call MPI_COMM_FREE(sub, ierr)
  call MPI_COMM_FREE(cart, ierr)

  ! a ring as a graph: each node's neighbours are its two sides
  do i = 1, np
    gindex(i) = 2 * i
    gedges(2 * i - 1) = mod(i, np)
    gedges(2 * i) = mod(i - 2 + np, np)
  end do
  call MPI_GRAPH_CREATE(MPI_COMM_WORLD, np, gindex, gedges, .false., gcomm, ierr)
  call MPI_TOPO_TEST(gcomm, k, ierr)
  call check(k == MPI_GRAPH, 'topo_test graph')
  call MPI_GRAPH_NEIGHBORS_COUNT(gcomm, me, nn, ierr)
  call MPI_GRAPH_NEIGHBORS(gcomm, me, 2, nbr, ierr)
  call check(nn == 2 .and. nbr(1) == nxt .and. nbr(2) == prv, 'graph neighbours')
  call MPI_COMM_FREE(gcomm, ierr)
  call report('more')
end subroutine more

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
  call MPI_FINALIZE(ierr)
end program fmpi
