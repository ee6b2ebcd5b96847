/* SPDX-License-Identifier: MIT */
/*
 * test_slurm_hostlist: yod/slurm.c's reading of Slurm's hostlists of
 * compute-node names (SLURM_JOB_NODELIST, SLURM_STEP_NODELIST): the
 * forms Slurm writes for nidNNNNN names expand to exactly their nids,
 * and anything else is refused (-1), never half read.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "slurm.h"
#include "yod.h"

/* What slurm.c uses of the rest of yod. */
const char *cluster = "/nonexistent";
struct opts o;

void die(const char *fmt, ...)
{
    (void)fmt;
    fail_msg("die() called");
    abort();
}

static unsigned got[SLURM_NIDS_MAX];

/* list expands to want[0..n-1], in that order. */
static void expands(const char *list, const unsigned *want, int n)
{
    int k = slurm_hostlist(list, got, SLURM_NIDS_MAX);

    if (k != n)
        fail_msg("%s: %d nids, want %d", list, k, n);
    for (int i = 0; i < n; i++)
        if (got[i] != want[i])
            fail_msg("%s: nid %d is %u, want %u", list, i, got[i], want[i]);
}

static void single_names(void **state)
{
    (void)state;
    expands("nid00003", (unsigned[]){ 3 }, 1);
    expands("nid00000", (unsigned[]){ 0 }, 1);
    expands("nid00001,nid00007", (unsigned[]){ 1, 7 }, 2);
    expands("nid123456", (unsigned[]){ 123456 }, 1);
}

static void brackets(void **state)
{
    (void)state;
    expands("nid[00000-00003]", (unsigned[]){ 0, 1, 2, 3 }, 4);
    expands("nid[00001,00003]", (unsigned[]){ 1, 3 }, 2);
    expands("nid[00000-00001,00003],nid00010",
            (unsigned[]){ 0, 1, 3, 10 }, 4);
    expands("nid[00005]", (unsigned[]){ 5 }, 1);
    /* Names past five digits: Slurm puts them in brackets of their own. */
    expands("nid[99998-99999],nid[100000-100001]",
            (unsigned[]){ 99998, 99999, 100000, 100001 }, 4);
    expands("nid[00254-00255],nid00000", (unsigned[]){ 254, 255, 0 }, 3);
}

static void every_node_of_a_big_list(void **state)
{
    (void)state;
    assert_int_equal(slurm_hostlist("nid[00000-00255]", got, 256), 256);
    for (unsigned i = 0; i < 256; i++)
        assert_int_equal(got[i], i);
}

static void refused(void **state)
{
    static const char *const bad[] = {
        "", "nid", "node00001", "nid0000x", "nid00001,", ",nid00001",
        "nid[", "nid[00001", "nid[00001-", "nid[-00003]", "nid[00003-00001]",
        "nid[00001]x", "nid[00001],,nid00002", "nid[00001-00002-00003]",
        "nid[a-b]", "nid 00001", "NID00001", "nid99999999999",
        "nid[00000-4294967296]", "nid00001 ",
    };
    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        if (slurm_hostlist(bad[i], got, SLURM_NIDS_MAX) != -1)
            fail_msg("'%s' was taken", bad[i]);
}

static void too_many(void **state)
{
    (void)state;
    assert_int_equal(slurm_hostlist("nid[00000-00004]", got, 4), -1);
    assert_int_equal(slurm_hostlist("nid[00000-00003],nid00009", got, 4), -1);
    assert_int_equal(slurm_hostlist("nid[00000-00003]", got, 4), 4);
    assert_int_equal(slurm_hostlist("nid[0-4294967295]", got,
                                    SLURM_NIDS_MAX), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(single_names),
        cmocka_unit_test(brackets),
        cmocka_unit_test(every_node_of_a_big_list),
        cmocka_unit_test(refused),
        cmocka_unit_test(too_many),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
