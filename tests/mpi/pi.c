/* SPDX-License-Identifier: MIT */
/* The classic: pi by midpoint integration of 4/(1+x^2), the interval
 * split over ranks (cyclic), summed with MPI_Reduce and broadcast n. */
#include <math.h>
#include "mpitest.h"

int main(int argc, char **argv)
{
    int n = 0;
    double h, sum = 0, mypi, pi = 0;

    t_init(&argc, &argv, "pi");
    if (t_rank == 0)
        n = 1000000;
    MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
    h = 1.0 / n;
    for (int i = t_rank + 1; i <= n; i += t_size) {
        double x = h * (i - 0.5);
        sum += 4.0 / (1.0 + x * x);
    }
    mypi = h * sum;
    MPI_Reduce(&mypi, &pi, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (t_rank == 0)
        CHECK(fabs(pi - M_PI) < 1e-10);
    MPI_Bcast(&pi, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    CHECK(fabs(pi - M_PI) < 1e-10);
    t_report("integration");
    return t_finish();
}
