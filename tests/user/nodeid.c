/*
 * nodeid: the cluster tests' program (tools/cluster up --run).  Prints the
 * nid the kernel gave it (lwk_nid(), from the PCT's auxv) and the one the
 * launcher put in its environment (LWK_NID); they must agree.  Then ends
 * as argv[1] asks: "ok" (default) exit 0, "nid" exit with the nid, a
 * number exit with it, "fault" a null-pointer write, "spin" never.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lwk/lwk.h>

int main(int argc, char **argv)
{
    const char *how = argc > 1 ? argv[1] : "ok";
    const char *env = getenv("LWK_NID");
    long nid = lwk_nid();

    printf("nodeid: nid=%ld LWK_NID=%s\n", nid, env ? env : "(unset)");
    if (!env || atol(env) != nid) {
        printf("nodeid: LWK_NID does not match the kernel's nid\n");
        return 99;
    }
    fflush(stdout);
    if (!strcmp(how, "nid"))
        return (int)nid;
    if (!strcmp(how, "fault"))
        *(volatile int *)0 = 1;
    if (!strcmp(how, "spin"))
        for (volatile int spin = 1; spin;)
            ;
    return atoi(how);
}
