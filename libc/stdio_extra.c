/* SPDX-License-Identifier: MIT */
/*
 * stdio_extra.c: the stdio calls newlib 3.3 declares but leaves out for
 * this target: getline and getdelim (its __getline and __getdelim under
 * the POSIX names), the stream locks, and ctermid.  newlib is built
 * here without its stream locks (threads share stdio: docs/SMP.md), so
 * taking a stream's lock is what newlib's own stdio does, nothing.
 */
#include <stdio.h>

ssize_t getdelim(char **line, size_t *cap, int delim, FILE *f)
{
    return __getdelim(line, cap, delim, f);
}

ssize_t getline(char **line, size_t *cap, FILE *f)
{
    return __getline(line, cap, f);
}

void flockfile(FILE *f)
{
    (void)f;
}

void funlockfile(FILE *f)
{
    (void)f;
}

int ftrylockfile(FILE *f)
{
    (void)f;
    return 0;
}

/* The name of the controlling terminal: a node process has none; POSIX
   lets ctermid name one that cannot be opened. */
char *ctermid(char *buf)
{
    static char name[L_ctermid] = "/dev/tty";

    return buf ? __builtin_strcpy(buf, name) : name;
}
