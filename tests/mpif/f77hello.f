! f77hello.f: mpif.h in fixed-form FORTRAN 77: each rank adds its rank
! plus one; every rank checks the sum against N(N+1)/2.
      PROGRAM F77HELLO
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR, ME, NP, ISUM, IWANT
      DOUBLE PRECISION T0
      CALL MPI_INIT(IERR)
      T0 = MPI_WTIME()
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, ME, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      CALL MPI_ALLREDUCE(ME + 1, ISUM, 1, MPI_INTEGER, MPI_SUM,
     &                   MPI_COMM_WORLD, IERR)
      IWANT = NP * (NP + 1) / 2
      IF (ME .EQ. 0) THEN
         IF (ISUM .EQ. IWANT .AND. IERR .EQ. MPI_SUCCESS .AND.
     &       MPI_WTIME() .GE. T0) THEN
            WRITE (*, '(A,I0,A)') 'PASS mpif.f77hello.n', NP,
     &           '.allreduce'
         ELSE
            WRITE (*, '(A,I0,A)') 'FAIL mpif.f77hello.n', NP,
     &           '.allreduce'
         END IF
      END IF
      CALL MPI_FINALIZE(IERR)
      END
