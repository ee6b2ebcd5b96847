/* SPDX-License-Identifier: MIT */
/* math: libm functions against known values. */
#define PROG "math"
#include <math.h>

#include "check.h"

static int near(double got, double want)
{
    return fabs(got - want) <= 1e-12 * (fabs(want) > 1 ? fabs(want) : 1);
}

int main(void)
{
    volatile double two = 2.0, x = 0.5;

    CHECK(near(sqrt(two), 1.4142135623730951));
    CHECK(near(sin(M_PI / 6), 0.5));
    CHECK(near(cos(M_PI), -1.0));
    CHECK(near(tan(M_PI / 4), 1.0));
    CHECK(near(atan2(1.0, 1.0), M_PI / 4));
    CHECK(near(exp(1.0), M_E));
    CHECK(near(log(M_E), 1.0));
    CHECK(near(log10(1000.0), 3.0));
    CHECK(near(pow(two, 10.0), 1024.0));
    CHECK(near(pow(two, x), sqrt(2.0)));
    CHECK(near(cbrt(27.0), 3.0));
    CHECK(near(hypot(3.0, 4.0), 5.0));
    CHECK(near(fmod(10.5, 3.0), 1.5));
    CHECK(floor(-1.5) == -2.0 && ceil(-1.5) == -1.0);
    CHECK(round(2.5) == 3.0 && trunc(-2.7) == -2.0);
    CHECK(lround(-2.5) == -3);
    CHECK(fabsf(sinf(0.5f) - 0.47942554f) < 1e-6f);
    CHECK(isnan(sqrt(-1.0)) && isinf(1.0 / (x - x)));
    CHECK(near(ldexp(0.75, 4), 12.0));
    printf("math: sqrt(2) = %.15f\n", sqrt(two));
    return check_done();
}
