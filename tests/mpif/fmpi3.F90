! fmpi3.F90: the MPI-2/3 calls from Fortran 90 (types, communicators,
! attributes; fmpi4.F90 has the rest), parts of fmpi.F90's
! program (built with it twice: through mpif.h and through use mpi).
! Each part checks results computed here, independently of the library.
#include "fmpi.h"

! What the attribute and generalized-request procedures saw.
module seen3
  implicit none
  integer :: ndel = 0, nfree = 0
  integer(kind=8) :: lastdel = 0
end module seen3

! Fortran's MPI-2 types and reductions: COMPLEX, DOUBLE COMPLEX, LOGICAL,
! MPI_2REAL pairs, INTEGER8; the type a class and size match, the F90
! parameterised types, MPI_SIZEOF (use mpi only), a subarray in Fortran
! order, external32 packing (big-endian, MPI-3.1 section 13.5.2).
subroutine types3()
  USE_MPI
  use harness
  implicit none
  INC_MPI
  integer :: ierr, i, t, sz, nxt, prv, bi
  complex :: c, csum
  double complex :: z, zprod, zwant
  logical :: l, lres
  real :: pr(2), prmax(2), best
  integer(kind=8) :: i8, i8sum
  integer :: m(4, 3), sub(4), sizes(2), subs(2), starts(2), iv(2), iw(2)
  integer(kind=MPI_ADDRESS_KIND) :: lb, ext, pos, psz
  integer(kind=1) :: pk(16)
  double precision :: d, dback
  character(len=5) :: name5 = 'abcde'

  nxt = mod(me + 1, np)
  prv = mod(me - 1 + np, np)
  c = cmplx(me + 1, 2 * me)
  call MPI_ALLREDUCE(c, csum, 1, MPI_COMPLEX, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(ierr == MPI_SUCCESS .and. &
             csum == cmplx(np * (np + 1) / 2, np * (np - 1)), 'COMPLEX sum')
  z = (0d0, 1d0)
  call MPI_ALLREDUCE(z, zprod, 1, MPI_DOUBLE_COMPLEX, MPI_PROD, &
                     MPI_COMM_WORLD, ierr)
  zwant = (1d0, 0d0)
  do i = 1, np
    zwant = zwant * (0d0, 1d0)
  end do
  call check(zprod == zwant, 'DOUBLE COMPLEX product')
  l = me /= 1
  call MPI_ALLREDUCE(l, lres, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD, ierr)
  call check(lres .eqv. np == 1, 'LOGICAL land')
  l = me == np - 1
  call MPI_ALLREDUCE(l, lres, 1, MPI_LOGICAL, MPI_LOR, MPI_COMM_WORLD, ierr)
  call check(lres, 'LOGICAL lor')
  l = .true.
  call MPI_ALLREDUCE(l, lres, 1, MPI_LOGICAL, MPI_LXOR, MPI_COMM_WORLD, ierr)
  call check(lres .eqv. mod(np, 2) == 1, 'LOGICAL lxor')
  ! the largest mod(7r, 5), the lowest rank of a tie
  pr = [real(mod(me * 7, 5)), real(me)]
  call MPI_ALLREDUCE(pr, prmax, 1, MPI_2REAL, MPI_MAXLOC, MPI_COMM_WORLD, ierr)
  best = -1
  bi = -1
  do i = 0, np - 1
    if (mod(i * 7, 5) > best) then
      best = mod(i * 7, 5)
      bi = i
    end if
  end do
  call check(prmax(1) == best .and. prmax(2) == bi, 'MPI_2REAL maxloc')
  i8 = 2_8**40 + me
  call MPI_ALLREDUCE(i8, i8sum, 1, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(i8sum == np * 2_8**40 + np * (np - 1) / 2, 'INTEGER8 sum')

  call MPI_TYPE_MATCH_SIZE(MPI_TYPECLASS_REAL, 8, t, ierr)
  call MPI_TYPE_SIZE(t, sz, ierr)
  call check(ierr == MPI_SUCCESS .and. sz == 8, 'type_match_size real 8')
  call MPI_TYPE_MATCH_SIZE(MPI_TYPECLASS_COMPLEX, 16, t, ierr)
  call MPI_TYPE_SIZE(t, sz, ierr)
  call check(sz == 16, 'type_match_size complex 16')
  call MPI_TYPE_MATCH_SIZE(MPI_TYPECLASS_INTEGER, 2, t, ierr)
  call MPI_TYPE_SIZE(t, sz, ierr)
  call check(sz == 2, 'type_match_size integer 2')
  call MPI_TYPE_CREATE_F90_REAL(precision(d), MPI_UNDEFINED, t, ierr)
  call MPI_TYPE_SIZE(t, sz, ierr)
  call check(sz == storage_size(d) / 8, 'f90 real of DOUBLE PRECISION')
  d = me + 0.125d0
  dback = -1
  call MPI_SENDRECV(d, 1, t, nxt, 41, dback, 1, t, prv, 41, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call check(dback == prv + 0.125d0, 'data through an f90 real type')
  call MPI_TYPE_CREATE_F90_INTEGER(range(i), t, ierr)
  call MPI_TYPE_SIZE(t, sz, ierr)
  call check(sz == storage_size(i) / 8, 'f90 integer of INTEGER')
  call MPI_TYPE_CREATE_F90_COMPLEX(precision(c), MPI_UNDEFINED, t, ierr)
  call MPI_TYPE_SIZE(t, sz, ierr)
  call check(sz == storage_size(c) / 8, 'f90 complex of COMPLEX')
#ifdef USE_MPI_MODULE
  call MPI_SIZEOF(z, sz, ierr)
  call check(sz == 16, 'MPI_SIZEOF double complex')
  call MPI_SIZEOF(i8, sz, ierr)
  call check(sz == 8, 'MPI_SIZEOF integer(8)')
  call MPI_SIZEOF(pr, sz, ierr)
  call check(sz == 4 .and. ierr == MPI_SUCCESS, 'MPI_SIZEOF real array')
  call MPI_SIZEOF(name5, sz, ierr)
  call check(sz == 5, 'MPI_SIZEOF character(len=5)')
#endif

  ! the middle 2x2 of a 4x3 matrix, in Fortran order: m(2:3, 2:3)
  m = reshape([(me * 100 + i, i = 1, 12)], [4, 3])
  sizes = [4, 3]
  subs = [2, 2]
  starts = [1, 1]
  call MPI_TYPE_CREATE_SUBARRAY(2, sizes, subs, starts, MPI_ORDER_FORTRAN, &
                                MPI_INTEGER, t, ierr)
  call MPI_TYPE_COMMIT(t, ierr)
  call MPI_TYPE_GET_EXTENT(t, lb, ext, ierr)
  call check(lb == 0 .and. ext == 48, 'subarray extent is the whole array')
  sub = 0
  call MPI_SENDRECV(m, 1, t, nxt, 40, sub, 4, MPI_INTEGER, prv, 40, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call check(all(sub == prv * 100 + [6, 7, 10, 11]), 'subarray, Fortran order')
  call MPI_TYPE_FREE(t, ierr)

  iv = [1, -2]
  call MPI_PACK_EXTERNAL_SIZE('external32', 2, MPI_INTEGER, psz, ierr)
  call check(psz == 8, 'pack_external_size')
  pos = 0
  pk = 7
  call MPI_PACK_EXTERNAL('external32', iv, 2, MPI_INTEGER, pk, &
                         int(size(pk), MPI_ADDRESS_KIND), pos, ierr)
  call check(pos == 8 .and. all(pk(1:8) == [0, 0, 0, 1, -1, -1, -1, -2]), &
             'external32 INTEGERs big-endian')
  d = 1.5d0
  call MPI_PACK_EXTERNAL('external32', d, 1, MPI_DOUBLE_PRECISION, pk, &
                         int(size(pk), MPI_ADDRESS_KIND), pos, ierr)
  call check(pos == 16 .and. all(pk(9:16) == [63, -8, 0, 0, 0, 0, 0, 0]), &
             'external32 DOUBLE PRECISION')
  pos = 0
  iw = 0
  call MPI_UNPACK_EXTERNAL('external32', pk, psz, pos, iw, 2, MPI_INTEGER, &
                           ierr)
  call check(pos == 8 .and. all(iw == iv), 'unpack_external')
  call report('types3')
end subroutine types3

! MPI_COMM_IDUP, nonblocking collectives, MPI_ALLTOALLW and its
! nonblocking twin, an intercommunicator between groups of 1 and np-1
! (collectives, split, merge), MPI_COMM_CREATE_GROUP, split by type.
subroutine comms3()
  USE_MPI
  use harness
  implicit none
  INC_MPI
  integer :: ierr, dup, req, reqs(2), res, x, s, i, j, k, tcont
  integer :: sc(0:63), sd(0:63), rc(0:63), rd(0:63), st(0:63), rt(0:63)
  integer :: sbuf(640), rbuf(640), local, inter, inter2, merged, color
  integer :: rsz, v, gath(0:63), wg, eg, ec, rng(3, 1), sz, rk, node
  logical :: flag

  call MPI_COMM_IDUP(MPI_COMM_WORLD, dup, req, ierr)
  call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
  call MPI_COMM_COMPARE(dup, MPI_COMM_WORLD, res, ierr)
  call check(ierr == MPI_SUCCESS .and. res == MPI_CONGRUENT, 'comm_idup')
  x = me + 1
  call MPI_IALLREDUCE(x, s, 1, MPI_INTEGER, MPI_SUM, dup, reqs(1), ierr)
  call MPI_IBARRIER(dup, reqs(2), ierr)
  call MPI_WAITALL(2, reqs, MPI_STATUSES_IGNORE, ierr)
  call check(s == np * (np + 1) / 2, 'iallreduce')

  ! j+1 INTEGERs to rank j, each me*100+j; the odd ranks' through a type
  ! of one INTEGER; displacements in bytes
  call MPI_TYPE_CONTIGUOUS(1, MPI_INTEGER, tcont, ierr)
  call MPI_TYPE_COMMIT(tcont, ierr)
  k = 0
  do j = 0, np - 1
    sc(j) = j + 1
    sd(j) = 4 * k
    sbuf(k + 1:k + j + 1) = me * 100 + j
    k = k + j + 1
    st(j) = merge(tcont, MPI_INTEGER, mod(j, 2) == 1)
    rc(j) = me + 1
    rd(j) = 4 * (me + 1) * j
    rt(j) = merge(MPI_INTEGER, tcont, mod(j, 2) == 1)
  end do
  do k = 1, 2
    rbuf = -1
    if (k == 1) then
      call MPI_ALLTOALLW(sbuf, sc, sd, st, rbuf, rc, rd, rt, dup, ierr)
    else
      call MPI_IALLTOALLW(sbuf, sc, sd, st, rbuf, rc, rd, rt, dup, req, ierr)
      call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
    end if
    flag = ierr == MPI_SUCCESS
    do i = 0, np - 1
      flag = flag .and. all(rbuf(i * (me + 1) + 1:(i + 1) * (me + 1)) == &
                            i * 100 + me)
    end do
    call check(flag .and. rbuf(np * (me + 1) + 1) == -1, &
               merge('alltoallw ', 'ialltoallw', k == 1))
  end do
  call MPI_TYPE_FREE(tcont, ierr)
  call MPI_COMM_FREE(dup, ierr)

  if (np >= 2) then
    ! rank 0 alone against the others
    color = merge(0, 1, me == 0)
    call MPI_COMM_SPLIT(MPI_COMM_WORLD, color, me, local, ierr)
    call MPI_INTERCOMM_CREATE(local, 0, MPI_COMM_WORLD, merge(1, 0, me == 0), &
                              77, inter, ierr)
    call MPI_COMM_TEST_INTER(inter, flag, ierr)
    call MPI_COMM_REMOTE_SIZE(inter, rsz, ierr)
    call check(flag .and. rsz == merge(np - 1, 1, me == 0), 'intercomm_create')
    x = me + 1
    call MPI_ALLREDUCE(x, s, 1, MPI_INTEGER, MPI_SUM, inter, ierr)
    call check(s == merge(np * (np + 1) / 2 - 1, 1, me == 0), &
               'intercomm allreduce: the other group''s sum')
    v = 0
    if (me == 0) then
      v = 4242
      call MPI_BCAST(v, 1, MPI_INTEGER, MPI_ROOT, inter, ierr)
    else
      call MPI_BCAST(v, 1, MPI_INTEGER, 0, inter, ierr)
    end if
    call check(v == 4242, 'intercomm bcast')
    gath = -1
    call MPI_IALLGATHER(me, 1, MPI_INTEGER, gath, 1, MPI_INTEGER, inter, &
                        req, ierr)
    call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
    if (me == 0) then
      call check(all(gath(0:np - 2) == [(i, i = 1, np - 1)]), &
                 'intercomm iallgather')
    else
      call check(gath(0) == 0 .and. gath(1) == -1, 'intercomm iallgather')
    end if
    ! split of an intercommunicator: everyone in one color, reversed keys
    call MPI_COMM_SPLIT(inter, 0, -me, inter2, ierr)
    call MPI_COMM_TEST_INTER(inter2, flag, ierr)
    call MPI_COMM_REMOTE_SIZE(inter2, rsz, ierr)
    call MPI_COMM_RANK(inter2, rk, ierr)
    call check(flag .and. rsz == merge(np - 1, 1, me == 0) .and. &
               rk == merge(0, np - 1 - me, me == 0), 'intercomm split')
    call MPI_COMM_FREE(inter2, ierr)
    call MPI_INTERCOMM_MERGE(inter, me /= 0, merged, ierr)
    call MPI_COMM_RANK(merged, rk, ierr)
    call check(rk == me, 'intercomm_merge')
    call MPI_COMM_FREE(merged, ierr)
    call MPI_COMM_FREE(inter, ierr)
    call MPI_COMM_FREE(local, ierr)
  end if

  ! the even ranks make their communicator without the odd ones
  call MPI_COMM_GROUP(MPI_COMM_WORLD, wg, ierr)
  rng(:, 1) = [0, np - 1, 2]
  call MPI_GROUP_RANGE_INCL(wg, 1, rng, eg, ierr)
  if (mod(me, 2) == 0) then
    call MPI_COMM_CREATE_GROUP(MPI_COMM_WORLD, eg, 5, ec, ierr)
    call MPI_COMM_SIZE(ec, sz, ierr)
    call MPI_COMM_RANK(ec, rk, ierr)
    call check(sz == (np + 1) / 2 .and. rk == me / 2, 'comm_create_group')
    call MPI_COMM_FREE(ec, ierr)
  end if
  call MPI_GROUP_FREE(eg, ierr)
  call MPI_GROUP_FREE(wg, ierr)
  call MPI_COMM_SPLIT_TYPE(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, me, &
                           MPI_INFO_NULL, node, ierr)
  call MPI_COMM_SIZE(node, sz, ierr)
  call MPI_COMM_RANK(node, rk, ierr)
  call check(ierr == MPI_SUCCESS .and. sz >= 1 .and. sz <= np .and. &
             rk < sz, 'comm_split_type shared')
  call MPI_COMM_FREE(node, ierr)
  call MPI_COMM_SPLIT_TYPE(MPI_COMM_WORLD, MPI_UNDEFINED, me, &
                           MPI_INFO_NULL, node, ierr)
  call check(node == MPI_COMM_NULL, 'comm_split_type undefined')
  call report('comms3')
end subroutine comms3

! Attribute procedures of MPI-2: values INTEGER(KIND=MPI_ADDRESS_KIND).
subroutine acopy(old, keyval, extra, valin, valout, flag, ierr)
  USE_MPI
  implicit none
  INC_MPI
  integer :: old, keyval, ierr
  integer(kind=MPI_ADDRESS_KIND) :: extra, valin, valout
  logical :: flag
  valout = valin + extra
  flag = .true.
  ierr = MPI_SUCCESS
end subroutine acopy

subroutine adelete(obj, keyval, val, extra, ierr)
  USE_MPI
  use seen3
  implicit none
  INC_MPI
  integer :: obj, keyval, ierr
  integer(kind=MPI_ADDRESS_KIND) :: val, extra
  ndel = ndel + 1
  lastdel = val
  ierr = MPI_SUCCESS
end subroutine adelete

! Keyvals of communicators, types and windows with Fortran procedures and
! the predefined ones; a window's predefined attributes; names.
subroutine attrs3()
  USE_MPI
  use harness
  use seen3
  implicit none
  INC_MPI
  external :: acopy, adelete
  integer :: ierr, key, k2, k3, dup, t, t2, win, wk, rlen
  integer(kind=MPI_ADDRESS_KIND) :: extra, val, got, addr
  logical :: flag
  integer :: wbuf(4)
  character(len=MPI_MAX_OBJECT_NAME) :: name

  extra = 1000
  ndel = 0
  call MPI_COMM_CREATE_KEYVAL(acopy, adelete, key, extra, ierr)
  val = 2_MPI_ADDRESS_KIND**40 + me
  call MPI_COMM_SET_ATTR(MPI_COMM_WORLD, key, val, ierr)
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, key, got, flag, ierr)
  call check(flag .and. got == val, 'comm_get_attr: an address-sized value')
  call MPI_COMM_DUP(MPI_COMM_WORLD, dup, ierr)
  call MPI_COMM_GET_ATTR(dup, key, got, flag, ierr)
  call check(flag .and. got == val + 1000, 'copied by the Fortran procedure')
  call MPI_COMM_FREE(dup, ierr)
  call check(ndel == 1 .and. lastdel == val + 1000, 'deleted with the copy')
  call MPI_COMM_DELETE_ATTR(MPI_COMM_WORLD, key, ierr)
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, key, got, flag, ierr)
  call check(.not. flag .and. ndel == 2 .and. lastdel == val, 'comm_delete_attr')
  call MPI_COMM_FREE_KEYVAL(key, ierr)
  call check(key == MPI_KEYVAL_INVALID, 'comm_free_keyval')
  ! the predefined procedures: MPI_COMM_DUP_FN copies, NULL_COPY does not
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, k2, &
                              extra, ierr)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &
                              k3, extra, ierr)
  call MPI_COMM_SET_ATTR(MPI_COMM_WORLD, k2, 7_MPI_ADDRESS_KIND, ierr)
  call MPI_COMM_SET_ATTR(MPI_COMM_WORLD, k3, 8_MPI_ADDRESS_KIND, ierr)
  call MPI_COMM_DUP(MPI_COMM_WORLD, dup, ierr)
  call MPI_COMM_GET_ATTR(dup, k2, got, flag, ierr)
  call check(flag .and. got == 7, 'MPI_COMM_DUP_FN')
  call MPI_COMM_GET_ATTR(dup, k3, got, flag, ierr)
  call check(.not. flag, 'MPI_COMM_NULL_COPY_FN')
  call MPI_COMM_FREE(dup, ierr)
  call MPI_COMM_DELETE_ATTR(MPI_COMM_WORLD, k2, ierr)
  call MPI_COMM_DELETE_ATTR(MPI_COMM_WORLD, k3, ierr)
  call MPI_COMM_FREE_KEYVAL(k2, ierr)
  call MPI_COMM_FREE_KEYVAL(k3, ierr)
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_TAG_UB, got, flag, ierr)
  call check(flag .and. got >= 32767, 'MPI_TAG_UB by comm_get_attr')

  ! a type's attribute follows MPI_TYPE_DUP through the copy procedure
  ndel = 0
  call MPI_TYPE_CREATE_KEYVAL(acopy, adelete, key, extra, ierr)
  call MPI_TYPE_CONTIGUOUS(2, MPI_INTEGER, t, ierr)
  call MPI_TYPE_SET_ATTR(t, key, 5_MPI_ADDRESS_KIND, ierr)
  call MPI_TYPE_DUP(t, t2, ierr)
  call MPI_TYPE_GET_ATTR(t2, key, got, flag, ierr)
  call check(flag .and. got == 1005, 'type attribute copied by type_dup')
  call MPI_TYPE_SET_NAME(t2, 'pair', ierr)
  name = repeat('x', len(name))
  call MPI_TYPE_GET_NAME(t2, name, rlen, ierr)
  call check(rlen == 4 .and. name == 'pair', 'type names')
  call MPI_TYPE_FREE(t2, ierr)
  call MPI_TYPE_FREE(t, ierr)
  call check(ndel == 2, 'type attributes deleted with their types')
  call MPI_TYPE_FREE_KEYVAL(key, ierr)

  ! a window: its keyval, its predefined attributes, its name
  ndel = 0
  call MPI_WIN_CREATE(wbuf, 16_MPI_ADDRESS_KIND, 4, MPI_INFO_NULL, &
                      MPI_COMM_WORLD, win, ierr)
  call MPI_WIN_CREATE_KEYVAL(MPI_WIN_NULL_COPY_FN, adelete, wk, extra, ierr)
  call MPI_WIN_SET_ATTR(win, wk, 9_MPI_ADDRESS_KIND, ierr)
  call MPI_WIN_GET_ATTR(win, wk, got, flag, ierr)
  call check(flag .and. got == 9, 'win attribute')
  call MPI_WIN_GET_ATTR(win, MPI_WIN_SIZE, got, flag, ierr)
  call check(flag .and. got == 16, 'MPI_WIN_SIZE')
  call MPI_WIN_GET_ATTR(win, MPI_WIN_DISP_UNIT, got, flag, ierr)
  call check(flag .and. got == 4, 'MPI_WIN_DISP_UNIT')
  call MPI_WIN_GET_ATTR(win, MPI_WIN_CREATE_FLAVOR, got, flag, ierr)
  call check(flag .and. got == MPI_WIN_FLAVOR_CREATE, 'MPI_WIN_CREATE_FLAVOR')
  call MPI_WIN_GET_ATTR(win, MPI_WIN_BASE, got, flag, ierr)
  call MPI_GET_ADDRESS(wbuf, addr, ierr)
  call check(flag .and. got == addr, 'MPI_WIN_BASE')
  call MPI_WIN_SET_NAME(win, 'w3', ierr)
  call MPI_WIN_GET_NAME(win, name, rlen, ierr)
  call check(rlen == 2 .and. name == 'w3', 'win names')
  call MPI_WIN_FREE(win, ierr)
  call check(win == MPI_WIN_NULL .and. ndel == 1 .and. lastdel == 9, &
             'win attribute deleted with the window')
  call MPI_WIN_FREE_KEYVAL(wk, ierr)
  call report('attrs3')
end subroutine attrs3
