/* SPDX-License-Identifier: MIT */
/*
 * profile.h: yod -profile and -counters (profile.c): each rank's
 * program-counter histogram, read from its node when it ends, as
 * gmon.out.RANK, and a summary over the ranks at the job's end; each
 * rank's cycles and instructions.
 */
#ifndef YOD_PROFILE_H
#define YOD_PROFILE_H

#include "yod_debug.h"

#define PROFILE_HZ  1000        /* yod -profile's rate (docs/debugging.md) */

/* Rank `rank` has ended and its node kept it (info: its snapshot): its
   histogram to gmon.out.RANK and into the job's total; its counts. */
void profile_take(int rank, const struct yod_dbg_info *info);
/* The summary: the functions with the most samples over all ranks; the
   counts of each rank (or that its CPU had no counters). */
void profile_report(void);

#endif
