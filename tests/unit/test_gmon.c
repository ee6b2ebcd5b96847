/*
 * yod's gmon.out writer (yod/gmon.c), read back as gprof reads the file
 * (binutils' gprof/gmon_io.c): the "gmon" header with version 1, then a
 * GMON_TAG_TIME_HIST record whose low and high pc span whole bins, the
 * bin count, the rate and "seconds", then the bins in order; histograms
 * gmon cannot say refused; a failed write reported.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gmon.h"

/* h written to memory: its bytes and their number. */
static unsigned char *written(const struct gmon_hist *h, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);

    assert_non_null(f);
    assert_int_equal(gmon_write(f, h), 0);
    assert_int_equal(fclose(f), 0);
    return (unsigned char *)buf;
}

static uint64_t u64_at(const unsigned char *b, size_t off)
{
    uint64_t v;

    memcpy(&v, b + off, 8);
    return v;
}

static uint32_t u32_at(const unsigned char *b, size_t off)
{
    uint32_t v;

    memcpy(&v, b + off, 4);
    return v;
}

static void header_and_record(void **st)
{
    static const uint16_t bins[5] = { 0, 7, 65535, 0, 1 };
    struct gmon_hist h = { .lo = 0x400100, .shift = 2, .hz = 1000,
                           .nbins = 5, .bins = bins };
    size_t len;
    unsigned char *b = written(&h, &len);

    (void)st;
    /* 20 header, 1 tag, 8+8+4+4+15+1 histogram header, 2 per bin */
    assert_int_equal(len, 20 + 1 + 40 + 5 * 2);
    assert_memory_equal(b, "gmon", 4);
    assert_int_equal(u32_at(b, 4), 1);
    for (int i = 8; i < 20; i++)
        assert_int_equal(b[i], 0);
    assert_int_equal(b[20], 0);                     /* GMON_TAG_TIME_HIST */
    assert_int_equal(u64_at(b, 21), 0x400100);      /* low pc */
    assert_int_equal(u64_at(b, 29), 0x400100 + 5 * 4);  /* whole bins */
    assert_int_equal(u32_at(b, 37), 5);
    assert_int_equal(u32_at(b, 41), 1000);
    assert_string_equal((const char *)b + 45, "seconds");
    assert_int_equal(b[60], 's');
    assert_memory_equal(b + 61, bins, sizeof(bins));
    free(b);
}

/* A text whose length is not a whole number of bins: high pc is still
   low plus whole bins (gprof divides the span by the count). */
static void bin_sizes(void **st)
{
    uint16_t bins[3] = { 1, 2, 3 };
    struct gmon_hist h = { .lo = 0x1000, .shift = 4, .hz = 100, .nbins = 3,
                           .bins = bins };
    size_t len;
    unsigned char *b = written(&h, &len);

    (void)st;
    assert_int_equal(u64_at(b, 29) - u64_at(b, 21), 3 * 16);
    assert_int_equal(u32_at(b, 41), 100);
    free(b);
}

static void refused(void **st)
{
    uint16_t bins[1] = { 0 };
    struct gmon_hist none = { .lo = 0x1000, .shift = 2, .hz = 100,
                              .nbins = 0, .bins = bins };
    struct gmon_hist past_top = { .lo = UINT64_MAX - 8, .shift = 2,
                                  .hz = 100, .nbins = 4, .bins = bins };
    struct gmon_hist too_many = { .lo = 0, .shift = 0, .hz = 100,
                                  .nbins = 1ull << 32, .bins = bins };
    FILE *f = fopen("/dev/null", "w");

    (void)st;
    assert_non_null(f);
    errno = 0;
    assert_int_equal(gmon_write(f, &none), -1);
    assert_int_equal(errno, EINVAL);
    errno = 0;
    assert_int_equal(gmon_write(f, &past_top), -1);
    assert_int_equal(errno, EINVAL);
    errno = 0;
    assert_int_equal(gmon_write(f, &too_many), -1);
    assert_int_equal(errno, EINVAL);
    fclose(f);
}

/* A full disk: gmon_write_file says so. */
static void write_fails(void **st)
{
    static uint16_t bins[4096];
    struct gmon_hist h = { .lo = 0x1000, .shift = 2, .hz = 1000,
                           .nbins = 4096, .bins = bins };

    (void)st;
    errno = 0;
    assert_int_equal(gmon_write_file("/dev/full", &h), -1);
    assert_int_equal(errno, ENOSPC);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(header_and_record), cmocka_unit_test(bin_sizes),
        cmocka_unit_test(refused), cmocka_unit_test(write_fails),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
