/* SPDX-License-Identifier: MIT */
/*
 * sys/signal.h: newlib's, plus the sigaction flags portable programs name
 * (newlib defines only SA_NOCLDSTOP for this target).  A node delivers no
 * asynchronous signals: handlers run from raise() and kill() of the
 * process itself (libc/signal.c), so SA_RESTART has nothing to restart
 * and is accepted as a no-op (as siginterrupt); SA_RESETHAND and
 * SA_NODEFER are honoured.
 * SA_SIGINFO is not defined: newlib's struct sigaction has no
 * sa_sigaction, and a program that needs it should fail to compile.
 */
#ifndef LWK_SYS_SIGNAL_H
#define LWK_SYS_SIGNAL_H

#include_next <sys/signal.h>

#define SA_RESTART      0x10    /* (no-op: no call is ever interrupted) */
#define SA_NODEFER      0x20    /* the handler may be re-entered at once */
#define SA_RESETHAND    0x40    /* back to SIG_DFL when the handler runs */

#ifdef __cplusplus
extern "C" {
#endif
int siginterrupt(int sig, int flag);    /* (no call is ever interrupted) */
#ifdef __cplusplus
}
#endif

#endif
