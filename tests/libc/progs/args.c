/* SPDX-License-Identifier: MIT */
/*
 * args: prints argc, argv and envp as the PCT passed them, one per line, so
 * a test can compare them with what it asked for ("args: argv[1]=x").
 */
#define PROG "args"
#include <stdlib.h>

#include "check.h"

extern char **environ;

int main(int argc, char **argv, char **envp)
{
    int n = 0;

    printf("args: argc=%d\n", argc);
    for (int i = 0; i < argc; i++)
        printf("args: argv[%d]=%s\n", i, argv[i]);
    for (char **e = envp; *e; e++, n++)
        printf("args: envp[%d]=%s\n", n, *e);
    CHECK(argc >= 1);
    CHECK(argv[argc] == NULL);
    CHECK(environ == envp);
    if (n > 0) {
        /* getenv sees the same environment. */
        char name[64];
        const char *eq = strchr(envp[0], '=');
        size_t len = eq ? (size_t)(eq - envp[0]) : 0;
        if (eq && len < sizeof name) {
            memcpy(name, envp[0], len);
            name[len] = '\0';
            CHECK(getenv(name) && strcmp(getenv(name), eq + 1) == 0);
        }
    }
    return check_done();
}
