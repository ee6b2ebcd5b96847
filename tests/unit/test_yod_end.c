/* SPDX-License-Identifier: MIT */
/*
 * test_yod_end: yod/end.c, which rank's end ended the job, what yod says
 * and its status, whatever order the nodes' reports arrived in.  A rank
 * that gave up because its peer was gone (EXIT peer >= 0) must not be
 * named, nor its status be the job's, when that peer ended abnormally: an
 * abort, a fault, a nonzero exit, or any exit while still in the parallel
 * job (no MPI_Finalize).  Such an exit ends the job in every mode.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "uapi/abi.h"
#include "yod.h"

/* What end.c uses of the rest of yod. */
struct opts o;
struct node *job[MAX_RANKS];
volatile int stop_signal;
static struct node n[8];
static char said[4096];

static void setup_job(int size)
{
    memset(n, 0, sizeof(n));
    memset(&end, 0, sizeof(end));
    memset(&o, 0, sizeof(o));
    o.size = size;
    for (int r = 0; r < size; r++) {
        n[r].rank = r;
        n[r].nid = 10 + r;
        job[r] = &n[r];
    }
}

/* Rank r's end is heard now. */
static void heard(int r, uint32_t reason, int status, int peer,
                  const char *text)
{
    n[r].exit = (struct yod_msg){ .type = YOD_EXIT, .reason = reason,
                                  .status = status, .peer = peer };
    snprintf(n[r].exit.text, sizeof(n[r].exit.text), "%s", text);
    n[r].exited = 1;
    end_of_rank(&n[r]);
}

static void killed(int r)
{
    heard(r, 0, 0, -1, "killed by yod");
}

/* Rank r exits with `status` while still in its parallel job (no
   MPI_Finalize): the kernel's left_job.  1 if yod must end the job. */
static int left(int r, int status)
{
    n[r].exit = (struct yod_msg){ .type = YOD_EXIT, .reason = LWK_STOP_EXIT,
                                  .status = status, .peer = -1,
                                  .left_job = 1 };
    n[r].exited = 1;
    return end_of_rank(&n[r]);
}

/* report(), with what it printed in `said`. */
static int run_report(void)
{
    FILE *f = tmpfile(), *saved = stderr;
    size_t len;
    int status;

    assert_non_null(f);
    stderr = f;
    status = report();
    stderr = saved;
    rewind(f);
    len = fread(said, 1, sizeof(said) - 1, f);
    said[len] = 0;
    fclose(f);
    return status;
}

/* MPI_Abort on rank 1; rank 3's message to it failed and its abort is
   heard first. */
static void abort_named_not_its_consequence(void **state)
{
    (void)state;
    setup_job(4);
    heard(3, LWK_STOP_ABORT, 1, 1, "message to rank 1 failed");
    heard(1, LWK_STOP_ABORT, 17, -1, "MPI_Abort with error code 17");
    killed(0);
    killed(2);
    assert_int_equal(run_report(), 17);
    assert_string_equal(said, "yod: rank 1 (nid 11) aborted: MPI_Abort "
                        "with error code 17; job killed\n");
}

/* The same in the other order. */
static void abort_heard_first(void **state)
{
    (void)state;
    setup_job(4);
    heard(1, LWK_STOP_ABORT, 17, -1, "MPI_Abort with error code 17");
    heard(3, LWK_STOP_ABORT, 1, 1, "message to rank 1 failed");
    killed(0);
    killed(2);
    assert_int_equal(run_report(), 17);
    assert_string_equal(said, "yod: rank 1 (nid 11) aborted: MPI_Abort "
                        "with error code 17; job killed\n");
}

/* The peer just exited (0): the rank that could not reach it is the
   cause. */
static void peer_that_exited_is_no_cause(void **state)
{
    (void)state;
    setup_job(3);
    heard(1, LWK_STOP_EXIT, 0, -1, "");
    heard(2, LWK_STOP_ABORT, 1, 1, "message to rank 1 failed");
    killed(0);
    assert_int_equal(run_report(), 1);
    assert_string_equal(said, "yod: rank 2 (nid 12) aborted: message to "
                        "rank 1 failed; job killed\n");
}

/* A fault is the cause; the others' aborts are its consequences. */
static void fault_then_consequences(void **state)
{
    (void)state;
    setup_job(3);
    heard(2, LWK_STOP_ABORT, 1, 0, "message to rank 0 failed");
    heard(0, LWK_STOP_FAULT, 139, -1, "killed: page fault at 0x10");
    killed(1);
    assert_int_equal(run_report(), 139);
    assert_string_equal(said, "yod: rank 0 (nid 10) faulted (yod -keep "
                        "lets the others run on); job killed\n"
                        "yod: rank 0 (nid 10) killed: page fault at 0x10\n");
}

/* A chain: 3 gave up on 2, 2 on 1, 1 aborted by itself. */
static void chain_of_consequences(void **state)
{
    (void)state;
    setup_job(4);
    heard(3, LWK_STOP_ABORT, 1, 2, "message to rank 2 failed");
    heard(2, LWK_STOP_ABORT, 1, 1, "message to rank 1 failed");
    heard(1, LWK_STOP_ABORT, 9, -1, "on purpose");
    killed(0);
    assert_int_equal(run_report(), 9);
    assert_string_equal(said, "yod: rank 1 (nid 11) aborted: on purpose; "
                        "job killed\n");
}

/* -kill-on-error: the nonzero exit is the cause, status the highest. */
static void kill_on_error_exit(void **state)
{
    (void)state;
    setup_job(3);
    o.kill_on_error = 1;
    heard(2, LWK_STOP_EXIT, 5, -1, "");
    killed(0);
    killed(1);
    assert_int_equal(run_report(), 5);
    assert_string_equal(said, "yod: rank 2 (nid 12) exited with status 5 "
                        "(-kill-on-error); job killed\n");
}

/* Independent ranks: no cause; a line per nonzero exit, the highest. */
static void mixed_exits_highest(void **state)
{
    (void)state;
    setup_job(3);
    heard(0, LWK_STOP_EXIT, 0, -1, "");
    heard(2, LWK_STOP_EXIT, 20, -1, "");
    heard(1, LWK_STOP_EXIT, 10, -1, "");
    assert_int_equal(run_report(), 20);
    assert_string_equal(said, "yod: rank 1 (nid 11) exited with status 10\n"
                        "yod: rank 2 (nid 12) exited with status 20\n");
}

/* The last rank aborts after the others ended well: nothing was killed. */
static void abort_with_nothing_left(void **state)
{
    (void)state;
    setup_job(2);
    heard(0, LWK_STOP_EXIT, 0, -1, "");
    heard(1, LWK_STOP_ABORT, 134, -1, "abort() called");
    assert_int_equal(run_report(), 134);
    assert_string_equal(said, "yod: rank 1 (nid 11) aborted: abort() "
                        "called\n");
}

/* Rank 1 _exit(3)s after MPI_Init; rank 0's message to it in
   MPI_Finalize failed, and that abort is heard first: rank 1 is the cause,
   3 the status, whatever the order. */
static void left_job_is_the_cause(void **state)
{
    (void)state;
    setup_job(2);
    heard(0, LWK_STOP_ABORT, 1, 1, "message to rank 1 failed");
    assert_int_equal(left(1, 3), 1);
    assert_int_equal(run_report(), 3);
    assert_string_equal(said, "yod: rank 1 (nid 11) left the parallel job "
                        "without finalizing (exit status 3)\n");
    setup_job(2);
    assert_int_equal(left(1, 3), 1);
    heard(0, LWK_STOP_ABORT, 1, 1, "message to rank 1 failed");
    assert_int_equal(run_report(), 3);
}

/* The same end with the others still running: they are killed for it,
   in every mode (-kill-on-error, -keep: a clean exit is no fault). */
static void left_job_ends_it_in_every_mode(void **state)
{
    (void)state;
    for (int mode = 0; mode < 3; mode++) {
        setup_job(3);
        o.kill_on_error = mode == 1;
        o.keep = mode == 2;
        assert_int_equal(left(2, 3), 1);
        killed(0);
        killed(1);
        assert_int_equal(run_report(), 3);
        assert_string_equal(said, "yod: rank 2 (nid 12) left the parallel "
                            "job without finalizing (exit status 3); job "
                            "killed\n");
    }
}

/* Leaving with 0 is no success: the others could not finish. */
static void left_job_with_zero_fails(void **state)
{
    (void)state;
    setup_job(2);
    assert_int_equal(left(1, 0), 1);
    killed(0);
    assert_int_equal(run_report(), 1);
    assert_string_equal(said, "yod: rank 1 (nid 11) left the parallel job "
                        "without finalizing (exit status 0); job killed\n");
}

/* A rank that finalized and then exited 3 is its own business: the
   others run on, and the status is the highest. */
static void finalized_exit_ends_only_itself(void **state)
{
    (void)state;
    setup_job(2);
    heard(1, LWK_STOP_EXIT, 3, -1, "");
    assert_int_equal(n[1].ended_at, 1);
    heard(0, LWK_STOP_EXIT, 0, -1, "");
    assert_int_equal(run_report(), 3);
    assert_string_equal(said, "yod: rank 1 (nid 11) exited with status 3\n");
}

/* -keep: the fault does not end the job, but a rank that gave up on the
   faulted one is its consequence: the status is the fault's. */
static void keep_fault_then_consequence(void **state)
{
    (void)state;
    setup_job(3);
    o.keep = 1;
    heard(1, LWK_STOP_FAULT, 139, -1, "killed: page fault at 0x10");
    heard(0, LWK_STOP_ABORT, 1, 1, "message to rank 1 failed");
    killed(2);
    assert_int_equal(run_report(), 139);
    assert_string_equal(said, "yod: rank 1 (nid 11) killed: page fault at "
                        "0x10\n");
}

/* A nonzero exit (finalized, default mode) that another rank gave up on:
   its status, not the consequence's 1. */
static void exit_then_consequence(void **state)
{
    (void)state;
    setup_job(3);
    heard(1, LWK_STOP_EXIT, 5, -1, "");
    heard(2, LWK_STOP_ABORT, 1, 1, "message to rank 1 failed");
    killed(0);
    assert_int_equal(run_report(), 5);
    assert_string_equal(said, "yod: rank 1 (nid 11) exited with status 5; "
                        "job killed\n");
}

/* Rank 2 dies of an invalid instruction while ranks 0 and 3 of its node
   use its memory (SMARTMAP): once it is freed they fault there, and their
   PCT names rank 2 as the peer.  Rank 2's end is the cause and its status
   the job's, whichever report comes first; their lines are still shown. */
static void faults_on_a_gone_peers_memory(void **state)
{
    (void)state;
    for (int order = 0; order < 2; order++) {
        setup_job(4);
        if (order)
            heard(3, LWK_STOP_FAULT, 139, 2, "killed: page fault: gone");
        heard(2, LWK_STOP_FAULT, 132, -1, "killed: invalid opcode");
        heard(0, LWK_STOP_FAULT, 139, 2, "killed: page fault: gone");
        if (!order)
            heard(3, LWK_STOP_FAULT, 139, 2, "killed: page fault: gone");
        killed(1);
        assert_int_equal(run_report(), 132);
        assert_string_equal(said, "yod: rank 2 (nid 12) faulted (yod -keep "
                            "lets the others run on); job killed\n"
                            "yod: rank 0 (nid 10) killed: page fault: gone\n"
                            "yod: rank 2 (nid 12) killed: invalid opcode\n"
                            "yod: rank 3 (nid 13) killed: page fault: gone\n");
    }
}

/* A fault that names no peer is the rank's own: the highest status. */
static void own_faults_count(void **state)
{
    (void)state;
    setup_job(3);
    heard(2, LWK_STOP_FAULT, 132, -1, "killed: invalid opcode");
    heard(0, LWK_STOP_FAULT, 139, -1, "killed: page fault at 0x10");
    killed(1);
    assert_int_equal(run_report(), 139);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(abort_named_not_its_consequence),
        cmocka_unit_test(abort_heard_first),
        cmocka_unit_test(peer_that_exited_is_no_cause),
        cmocka_unit_test(fault_then_consequences),
        cmocka_unit_test(chain_of_consequences),
        cmocka_unit_test(kill_on_error_exit),
        cmocka_unit_test(mixed_exits_highest),
        cmocka_unit_test(abort_with_nothing_left),
        cmocka_unit_test(left_job_is_the_cause),
        cmocka_unit_test(left_job_ends_it_in_every_mode),
        cmocka_unit_test(left_job_with_zero_fails),
        cmocka_unit_test(finalized_exit_ends_only_itself),
        cmocka_unit_test(keep_fault_then_consequence),
        cmocka_unit_test(exit_then_consequence),
        cmocka_unit_test(faults_on_a_gone_peers_memory),
        cmocka_unit_test(own_faults_count),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
