! fmpi4.F90: more MPI-2/3 calls from Fortran 90 (one-sided, matched
! probes, generalized requests, MPI-IO), parts of fmpi.F90's program like
! fmpi3.F90's; the module seen3 is fmpi3.F90's.
#include "fmpi.h"

! One-sided calls on a window MPI_WIN_ALLOCATE made (its base reached
! through C_F_POINTER): put, fetch_and_op, compare_and_swap, rput,
! accumulate; a shared window of MPI_COMM_SELF and its query.
subroutine rma3()
  USE_MPI
  use harness
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
  implicit none
  INC_MPI
  integer :: ierr, win, i, one, got, fsum, cmp, old, req, du
  integer(kind=MPI_ADDRESS_KIND) :: bp, qbp, qsz
  integer, pointer :: a(:)
  type(c_ptr) :: cp
  double precision, pointer :: sh(:)

  call MPI_WIN_ALLOCATE(int(4 * (np + 2), MPI_ADDRESS_KIND), 4, &
                        MPI_INFO_NULL, MPI_COMM_WORLD, bp, win, ierr)
  call c_f_pointer(transfer(bp, cp), a, [np + 2])
  a = -1
  call MPI_WIN_FENCE(0, win, ierr)
  do i = 0, np - 1
    call MPI_PUT(me, 1, MPI_INTEGER, i, int(me, MPI_ADDRESS_KIND), 1, &
                 MPI_INTEGER, win, ierr)
  end do
  call MPI_WIN_FENCE(0, win, ierr)
  call check(all(a(1:np) == [(i, i = 0, np - 1)]), 'win_allocate and put')
  ! each adds one to rank 0's first slot; what they fetched sums to
  ! 0 + 1 + ... + np-1 whatever the order
  call MPI_WIN_FENCE(0, win, ierr)
  call MPI_WIN_LOCK_ALL(0, win, ierr)
  one = 1
  call MPI_FETCH_AND_OP(one, got, MPI_INTEGER, 0, 0_MPI_ADDRESS_KIND, &
                        MPI_SUM, win, ierr)
  call MPI_WIN_FLUSH(0, win, ierr)
  call MPI_WIN_UNLOCK_ALL(win, ierr)
  call MPI_ALLREDUCE(got, fsum, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(fsum == np * (np - 1) / 2, 'fetch_and_op')
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  call MPI_WIN_LOCK(MPI_LOCK_SHARED, me, 0, win, ierr)
  call check(a(1) == merge(np, 0, me == 0), 'fetch_and_op total')
  call MPI_WIN_UNLOCK(me, win, ierr)
  ! rank 0's slot np+1 holds -1: only one rank's swap finds it
  call MPI_WIN_LOCK(MPI_LOCK_SHARED, 0, 0, win, ierr)
  cmp = -1
  call MPI_COMPARE_AND_SWAP(me, cmp, old, MPI_INTEGER, 0, &
                            int(np, MPI_ADDRESS_KIND), win, ierr)
  call MPI_WIN_UNLOCK(0, win, ierr)
  i = merge(1, 0, old == -1)
  call MPI_ALLREDUCE(i, fsum, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(fsum == 1, 'compare_and_swap: one winner')
  ! rput into the next rank's last slot, accumulate into its first
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  call MPI_WIN_LOCK(MPI_LOCK_EXCLUSIVE, mod(me + 1, np), 0, win, ierr)
  call MPI_RPUT(me, 1, MPI_INTEGER, mod(me + 1, np), &
                int(np + 1, MPI_ADDRESS_KIND), 1, MPI_INTEGER, win, req, ierr)
  call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
  call MPI_ACCUMULATE(one, 1, MPI_INTEGER, mod(me + 1, np), &
                      0_MPI_ADDRESS_KIND, 1, MPI_INTEGER, MPI_SUM, win, ierr)
  call MPI_WIN_UNLOCK(mod(me + 1, np), win, ierr)
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  call MPI_WIN_LOCK(MPI_LOCK_SHARED, me, 0, win, ierr)
  call check(a(np + 2) == mod(me - 1 + np, np), 'rput')
  call check(a(1) == merge(np + 1, 1, me == 0), 'accumulate')
  call MPI_WIN_UNLOCK(me, win, ierr)
  call MPI_WIN_FREE(win, ierr)

  call MPI_WIN_ALLOCATE_SHARED(32_MPI_ADDRESS_KIND, 8, MPI_INFO_NULL, &
                               MPI_COMM_SELF, bp, win, ierr)
  call check(ierr == MPI_SUCCESS, 'win_allocate_shared on MPI_COMM_SELF')
  call MPI_WIN_SHARED_QUERY(win, 0, qsz, du, qbp, ierr)
  call check(qsz == 32 .and. du == 8 .and. qbp == bp, 'win_shared_query')
  call c_f_pointer(transfer(qbp, cp), sh, [4])
  sh = 2.5d0
  call MPI_WIN_FREE(win, ierr)
  call report('rma3')
end subroutine rma3

! A generalized request's procedures.
subroutine gquery(extra, status, ierr)
  USE_MPI
  implicit none
  INC_MPI
  integer(kind=MPI_ADDRESS_KIND) :: extra
  integer :: status(MPI_STATUS_SIZE), ierr
  call MPI_STATUS_SET_ELEMENTS(status, MPI_INTEGER, int(extra), ierr)
  call MPI_STATUS_SET_CANCELLED(status, .false., ierr)
  status(MPI_SOURCE) = MPI_UNDEFINED
  status(MPI_TAG) = 99
end subroutine gquery

subroutine gfree(extra, ierr)
  USE_MPI
  use seen3
  implicit none
  INC_MPI
  integer(kind=MPI_ADDRESS_KIND) :: extra
  integer :: ierr
  nfree = nfree + int(extra)
  ierr = MPI_SUCCESS
end subroutine gfree

subroutine gcancel(extra, complete, ierr)
  implicit none
  integer(kind=8) :: extra
  logical :: complete
  integer :: ierr
  ierr = 0
  if (complete .or. extra < 0) ierr = 1
end subroutine gcancel

! The version, matched probes (MPROBE/MRECV, IMPROBE/IMRECV, the
! no-process message), a generalized request, REQUEST_GET_STATUS.
subroutine ext3()
  USE_MPI
  use harness
  use seen3
  implicit none
  INC_MPI
  external :: gquery, gfree, gcancel
  integer :: ierr, v, sv, rlen, nxt, prv, msg, st(MPI_STATUS_SIZE), cnt
  integer :: buf(64), rb(64), req, i, x
  integer(kind=MPI_ADDRESS_KIND) :: extra
  logical :: flag
  character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: lib

  call MPI_GET_VERSION(v, sv, ierr)
  call check(v == 3 .and. sv == 1 .and. v == MPI_VERSION .and. &
             sv == MPI_SUBVERSION, 'MPI 3.1')
  lib = repeat('x', len(lib))
  call MPI_GET_LIBRARY_VERSION(lib, rlen, ierr)
  call check(rlen > 0 .and. len_trim(lib) == rlen, 'get_library_version')

  nxt = mod(me + 1, np)
  prv = mod(me - 1 + np, np)
  buf = [(me * 10 + i, i = 1, 64)]
  call MPI_ISEND(buf, me + 1, MPI_INTEGER, nxt, 50, MPI_COMM_WORLD, req, ierr)
  call MPI_MPROBE(prv, 50, MPI_COMM_WORLD, msg, st, ierr)
  call MPI_GET_COUNT(st, MPI_INTEGER, cnt, ierr)
  call check(cnt == prv + 1 .and. st(MPI_SOURCE) == prv, 'mprobe status')
  call MPI_MRECV(rb, cnt, MPI_INTEGER, msg, st, ierr)
  call check(msg == MPI_MESSAGE_NULL .and. &
             all(rb(1:cnt) == [(prv * 10 + i, i = 1, cnt)]), 'mrecv')
  call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
  x = me
  call MPI_ISEND(x, 1, MPI_INTEGER, nxt, 51, MPI_COMM_WORLD, req, ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_IMPROBE(prv, 51, MPI_COMM_WORLD, flag, msg, st, ierr)
  end do
  call MPI_IMRECV(v, 1, MPI_INTEGER, msg, i, ierr)
  call MPI_WAIT(i, st, ierr)
  call check(v == prv .and. st(MPI_TAG) == 51, 'improbe and imrecv')
  ! REQUEST_GET_STATUS leaves the request to be freed by WAIT
  flag = .false.
  do while (.not. flag)
    call MPI_REQUEST_GET_STATUS(req, flag, st, ierr)
  end do
  call check(req /= MPI_REQUEST_NULL, 'request_get_status keeps the request')
  call MPI_WAIT(req, st, ierr)
  call MPI_MPROBE(MPI_PROC_NULL, 0, MPI_COMM_WORLD, msg, st, ierr)
  call check(msg == MPI_MESSAGE_NO_PROC, 'MPI_MESSAGE_NO_PROC')
  call MPI_MRECV(rb, 1, MPI_INTEGER, msg, st, ierr)
  call check(st(MPI_SOURCE) == MPI_PROC_NULL .and. msg == MPI_MESSAGE_NULL, &
             'mrecv of no process')

  nfree = 0
  extra = 3
  call MPI_GREQUEST_START(gquery, gfree, gcancel, extra, req, ierr)
  call MPI_TEST(req, flag, st, ierr)
  call check(.not. flag, 'generalized request not done before complete')
  call MPI_GREQUEST_COMPLETE(req, ierr)
  call MPI_WAIT(req, st, ierr)
  call MPI_GET_COUNT(st, MPI_INTEGER, cnt, ierr)
  call MPI_TEST_CANCELLED(st, flag, ierr)
  call check(req == MPI_REQUEST_NULL .and. cnt == 3 .and. &
             st(MPI_TAG) == 99 .and. .not. flag, 'generalized request status')
  call check(nfree == 3, 'generalized request freed once')
  call report('mprobe-greq-version')
end subroutine ext3

! MPI-IO: the MPI-3.1 nonblocking collectives IWRITE_AT_ALL and
! IREAD_AT_ALL, the shared pointer (SEEK_SHARED, WRITE_ORDERED), a split
! collective, the individual pointer's position.
subroutine io3()
  USE_MPI
  use harness
  implicit none
  INC_MPI
  integer :: ierr, fh, req, st(MPI_STATUS_SIZE), cnt, i, ints(0:63)
  integer(kind=MPI_OFFSET_KIND) :: off, fsz
  double precision :: d(4), e(4)
  character(len=64) :: fname

  write (fname, '(3a,i0,a)') 'fmpi3-', PROG, '-', np, '.dat'
  if (me == 0) call MPI_FILE_DELETE(fname, MPI_INFO_NULL, ierr)
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  call MPI_FILE_OPEN(MPI_COMM_WORLD, fname, MPI_MODE_CREATE + MPI_MODE_RDWR, &
                     MPI_INFO_NULL, fh, ierr)
  call check(ierr == MPI_SUCCESS, 'file_open')
  d = [(me * 10 + i, i = 1, 4)]
  off = me * 32
  call MPI_FILE_IWRITE_AT_ALL(fh, off, d, 4, MPI_DOUBLE_PRECISION, req, ierr)
  call MPI_WAIT(req, st, ierr)
  call MPI_GET_COUNT(st, MPI_DOUBLE_PRECISION, cnt, ierr)
  call check(ierr == MPI_SUCCESS .and. cnt == 4, 'iwrite_at_all')
  call MPI_FILE_SYNC(fh, ierr)
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  call MPI_FILE_SYNC(fh, ierr)
  call MPI_FILE_GET_SIZE(fh, fsz, ierr)
  call check(fsz == 32 * np, 'file size')
  e = 0
  off = mod(me + 1, np) * 32
  call MPI_FILE_IREAD_AT_ALL(fh, off, e, 4, MPI_DOUBLE_PRECISION, req, ierr)
  call MPI_WAIT(req, st, ierr)
  call check(all(e == [(mod(me + 1, np) * 10 + i, i = 1, 4)]), &
             'iread_at_all of the next rank''s')
  ! the shared pointer after the doubles: one INTEGER each, rank order
  call MPI_FILE_SEEK_SHARED(fh, int(32 * np, MPI_OFFSET_KIND), MPI_SEEK_SET, &
                            ierr)
  i = me
  call MPI_FILE_WRITE_ORDERED(fh, i, 1, MPI_INTEGER, st, ierr)
  call MPI_FILE_SYNC(fh, ierr)
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  call MPI_FILE_SYNC(fh, ierr)
  ints = -1
  call MPI_FILE_READ_AT_ALL(fh, int(32 * np, MPI_OFFSET_KIND), ints, np, &
                            MPI_INTEGER, st, ierr)
  call check(all(ints(0:np - 1) == [(i, i = 0, np - 1)]), 'write_ordered')
  ! a split collective through the individual pointer
  call MPI_FILE_SEEK(fh, int(me * 32, MPI_OFFSET_KIND), MPI_SEEK_SET, ierr)
  e = 0
  call MPI_FILE_READ_ALL_BEGIN(fh, e, 4, MPI_DOUBLE_PRECISION, ierr)
  call MPI_FILE_READ_ALL_END(fh, e, st, ierr)
  call MPI_FILE_GET_POSITION(fh, off, ierr)
  call check(all(e == d) .and. off == me * 32 + 32, 'read_all_begin/end')
  call MPI_FILE_CLOSE(fh, ierr)
  call check(fh == MPI_FILE_NULL, 'file_close')
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  if (me == 0) call MPI_FILE_DELETE(fname, MPI_INFO_NULL, ierr)
  call report('io3')
end subroutine io3
