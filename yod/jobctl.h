/* SPDX-License-Identifier: MIT */
/*
 * jobctl.h: what other commands of the same user ask a running job's yod
 * (yod -attach JOB RANK, yod -stacks JOB): only the job's own yod speaks
 * to its PCTs, so the others ask it, through a unix socket in the user's
 * private directory.
 */
#ifndef YOD_JOBCTL_H
#define YOD_JOBCTL_H

/* The user's private directory for yod's sockets ($XDG_RUNTIME_DIR/lwk,
   else /tmp/lwk-UID; mode 0700, made if needed): NULL, with a line
   said, if it cannot be had or another user could reach into it. */
const char *jobctl_dir(void);
/* The job's socket (yod.JOBID.ctl), answered from the event loop; gone
   at the end of the job. */
void jobctl_open(void);
void jobctl_poll(void);
void jobctl_close(void);
/* yod -attach JOB RANK, yod -stacks JOB: ask job `jobid`'s yod and
   print its answer; the exit status. */
int jobctl_ask(unsigned jobid, const char *request);

#endif
