/* SPDX-License-Identifier: MIT */
/*
 * postmortem.h: a dead rank, read before it goes (postmortem.c).
 */
#ifndef YOD_POSTMORTEM_H
#define YOD_POSTMORTEM_H

/* Ranks whose ended process their node kept (yod_debug.h): their stacks
   (stacks.c), their core files as chosen (-core, ulimit -c), then
   RELEASE. */
void postmortem_held(void);

#endif
