/* SPDX-License-Identifier: MIT */
/*
 * stacks.h: every rank's stack, grouped by identical backtraces, with
 * file:line (the job's abnormal end, yod -stacks JOB).  Unwound on the
 * service side by elfutils' libdwfl from each thread's registers and the
 * rank's stack bytes, which the rank's node sends (yod_debug.h).
 */
#ifndef YOD_STACKS_H
#define YOD_STACKS_H

#include "yod_debug.h"

/* Rank `rank` (stopped, its snapshot `info`): its threads' stacks, kept
   for the summary.  `sig`: the signal it died of (the thread that took
   its fault or abort is shown "SIGSEGV in ..."), 0 if it did not. */
void stacks_take(int rank, const struct yod_dbg_info *info, int sig);
/* Every rank still running (not yet taken): stopped and taken.  `resume`:
   then let each go on (yod -stacks), else they stay stopped (the job is
   about to be killed). */
void stacks_take_live(int resume);
/* The summary, a line per group ("  ranks 0-2,4: MPI_Recv < ... "),
   malloc'd; NULL if nothing was taken.  It forgets what it took. */
char *stacks_summary(void);
/* The job ended abnormally: the summary on stderr, after yod's lines. */
void stacks_report(void);

#endif
