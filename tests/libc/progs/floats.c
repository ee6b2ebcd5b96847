/* SPDX-License-Identifier: MIT */
/* floats: printf/snprintf of float and double in every format. */
#define PROG "floats"
#include <float.h>
#include <math.h>

#include "check.h"

static char buf[128];

#define FMT(want, ...)                          \
    do {                                        \
        snprintf(buf, sizeof buf, __VA_ARGS__); \
        CHECK_STR(buf, want);                   \
    } while (0)

int main(void)
{
    volatile double pi = 3.14159265358979;
    volatile float f = 0.1f;

    printf("pi is about %f, %.10g, %e\n", pi, pi, pi);
    FMT("3.141593", "%f", pi);
    FMT("3.142", "%.3f", pi);
    FMT("  3.14", "%6.2f", pi);
    FMT("3.14  |", "%-6.2f|", pi);
    FMT("+3.1", "%+.1f", pi);
    FMT("3.141593e+00", "%e", pi);
    FMT("1.000000e-10", "%e", 1e-10);
    FMT("0.0001", "%g", 0.0001);
    FMT("1e+20", "%g", 1e20);
    FMT("0.1", "%g", (double)f);
    FMT("0.100000001490116", "%.15f", (double)f);
    FMT("-0", "%.0f", -0.0);
    FMT("inf -inf nan", "%f %f %f", HUGE_VAL, -HUGE_VAL, NAN);
    FMT("INF", "%F", INFINITY);
    FMT("0x1p+0", "%a", 1.0);
    FMT("1.7976931348623157e+308", "%.17g", DBL_MAX);
    FMT("2.2250738585072014e-308", "%.17g", DBL_MIN);
    FMT("123456789012", "%.0f", 123456789012.0);
    FMT("0.5", "%.1f", 0.5);
    FMT("2", "%.0f", 2.5);       /* round half to even */
    return check_done();
}
