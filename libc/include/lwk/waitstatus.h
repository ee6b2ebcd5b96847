/* SPDX-License-Identifier: MIT */
/*
 * lwk/waitstatus.h: the wait status macros, for <stdlib.h> and
 * <sys/wait.h>.  Token for token newlib's <sys/wait.h> definitions, so
 * either header may come first (a status: exit code << 8, or the signal
 * number; a node process has no children, but system()'s result and
 * statuses read from elsewhere decode the same way).
 */
#ifndef LWK_WAITSTATUS_H
#define LWK_WAITSTATUS_H

#define WNOHANG 1
#define WUNTRACED 2
#define WIFEXITED(w)	(((w) & 0xff) == 0)
#define WIFSIGNALED(w)	(((w) & 0x7f) > 0 && (((w) & 0x7f) < 0x7f))
#define WIFSTOPPED(w)	(((w) & 0xff) == 0x7f)
#define WEXITSTATUS(w)	(((w) >> 8) & 0xff)
#define WTERMSIG(w)	((w) & 0x7f)
#define WSTOPSIG	WEXITSTATUS
#define WCOREDUMP(w)    ((w) & 0x80)
#define WIFCONTINUED(w) ((w) == 0xffff)
#define WSTOPPED        WUNTRACED
#define WEXITED         4
#define WCONTINUED      8
#define WNOWAIT         0x01000000

#endif
