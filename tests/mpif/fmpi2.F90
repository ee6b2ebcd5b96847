! fmpi2.F90: the second half of fmpi.F90's parts (types, split,
! errors and attributes, more); the harness module is fmpi.F90's.
#include "fmpi.h"

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
  ! a failed call's new handle is the null one
  dup = MPI_COMM_WORLD
  call MPI_COMM_SPLIT(MPI_COMM_WORLD, -5, 0, dup, ierr)
  call check(ierr /= MPI_SUCCESS .and. dup == MPI_COMM_NULL, &
             'failed split gives MPI_COMM_NULL')
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

