/* SPDX-License-Identifier: MIT */
/* strtod: string to number conversions, their end pointers and errno. */
#define PROG "strtod"
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "check.h"

int main(void)
{
    char *end, buf[64];
    double d;

    CHECK(strtod("3.25e2", &end) == 325.0 && *end == '\0');
    CHECK(strtod("  -0.5xyz", &end) == -0.5 && strcmp(end, "xyz") == 0);
    CHECK(strtod("0x1p-2", NULL) == 0.25);
    CHECK(isinf(strtod("inf", NULL)));
    CHECK(isnan(strtod("nan", NULL)));
    CHECK(strtof("1.5", NULL) == 1.5f);
    errno = 0;
    CHECK(strtod("1e400", NULL) == HUGE_VAL && errno == ERANGE);
    CHECK(atof("2.5") == 2.5);

    /* %.17g round-trips every double. */
    d = 0.1 + 0.2;
    snprintf(buf, sizeof buf, "%.17g", d);
    CHECK(strtod(buf, NULL) == d);
    printf("strtod: 0.1+0.2 = %s\n", buf);
    d = DBL_MIN / 3;    /* subnormal */
    snprintf(buf, sizeof buf, "%.17g", d);
    CHECK(strtod(buf, NULL) == d);

    CHECK(strtol("-1234", NULL, 10) == -1234);
    CHECK(strtol("ff", NULL, 16) == 255);
    CHECK(strtoul("0777", NULL, 0) == 0777);
    CHECK(strtoull("18446744073709551615", NULL, 10) == ULLONG_MAX);
    errno = 0;
    CHECK(strtol("99999999999999999999", NULL, 10) == LONG_MAX &&
          errno == ERANGE);
    CHECK(atoi("42") == 42);
    return check_done();
}
