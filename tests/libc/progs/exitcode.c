/* SPDX-License-Identifier: MIT */
/*
 * exitcode: exits with the status given as argv[1] (0 without one), through
 * the path named by argv[2]: "return" from main (default), "exit" or
 * "_exit".  The test checks the status the PCT reports, so this program
 * has no OK line of its own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int status = argc > 1 ? atoi(argv[1]) : 0;
    const char *how = argc > 2 ? argv[2] : "return";

    printf("exitcode: %s %d\n", how, status);
    if (strcmp(how, "exit") == 0)
        exit(status);
    if (strcmp(how, "_exit") == 0) {
        fflush(stdout);
        _exit(status);
    }
    return status;
}
