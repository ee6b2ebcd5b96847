/* SPDX-License-Identifier: MIT */
/* hello: the smallest program: stdio to the console, exit status 0. */
#include <stdio.h>
#include <string.h>

int main(void)
{
    const char *msg = "hello, world";
    int n = printf("%s\n", msg);

    if (n != (int)strlen(msg) + 1) {
        printf("hello: FAIL printf returned %d\n", n);
        return 1;
    }
    puts("hello: OK");
    return 0;
}
