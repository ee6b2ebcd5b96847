! f77legacy.f: what older Fortran codes do that gfortran 10 and later
! reject unless mpifort says otherwise, as MPICH's mpifort does: a BOZ
! constant written X'...' in DATA (NPB 3.4's randi8.f) and one routine
! called with buffers of two types in one file (every mpif.h program).
! Rank 0 broadcasts an INTEGER*8 and a DOUBLE PRECISION; every rank
! checks both against 2**46 - 1, computed here without the BOZ.
      PROGRAM F77LEGACY
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR, ME, NP, IBAD, NBAD
      INTEGER*8 MASK, IWANT
      DOUBLE PRECISION X
      SAVE MASK
      DATA MASK/X'00003FFFFFFFFFFF'/
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      IWANT = 2_8**46 - 1
      X = 0.0D0
      IF (ME .EQ. 0) X = DBLE(MASK)
      IF (ME .NE. 0) MASK = 0
      CALL MPI_BCAST(MASK, 1, MPI_INTEGER8, 0, MPI_COMM_WORLD, IERR)
      CALL MPI_BCAST(X, 1, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD,
     &               IERR)
      IBAD = 0
      IF (MASK .NE. IWANT .OR. X .NE. DBLE(IWANT)) IBAD = 1
      IF (IAND(MASK * 5_8, MASK) .NE. IAND(IWANT * 5_8, IWANT))
     &    IBAD = 1
      CALL MPI_ALLREDUCE(IBAD, NBAD, 1, MPI_INTEGER, MPI_SUM,
     &                   MPI_COMM_WORLD, IERR)
      IF (ME .EQ. 0) THEN
         IF (NBAD .EQ. 0) THEN
            WRITE (*, '(A,I0,A)') 'PASS mpif.f77legacy.n', NP,
     &           '.boz-and-two-buffer-types'
         ELSE
            WRITE (*, '(A,I0,A)') 'FAIL mpif.f77legacy.n', NP,
     &           '.boz-and-two-buffer-types'
         END IF
      END IF
      CALL MPI_FINALIZE(IERR)
      END
