/* SPDX-License-Identifier: MIT */
/* A Portals area must be the process's own memory (tests/qemu/suite-
 * smartmap).  In a SMARTMAP group (yod -vn) a rank reaches the other
 * ranks' memory, but the kernel keeps writing into a process's Portals
 * area for its endpoint's whole life: an area in another rank's memory
 * would be written after that rank's end, when the memory is free and
 * may hold the kernel's own tables.  The rank in slot 1 asks for an area
 * in slot 0's `area`, while slot 0 waits: the kernel must refuse it
 * (-EFAULT).  Prints "smartarea: refused (-14)", exit 0; "smartarea:
 * accepted (RC)", exit 1.  Usage: yod -vn -sz 2 -nodes 0 smartarea */
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <lwk/smartmap.h>
#include <lwk/syscall.h>

enum {
#define PTLCALL(num, name, nargs) PTLOP_##name = (num),
#include <lwk/uapi/ptlcalls.def>
#undef PTLCALL
};

static uint8_t area[64 * 1024] __attribute__((aligned(4096)));
static volatile int done;       /* slot 1 sets slot 0's when it has asked */

int main(void)
{
    struct lwk_smartmap g;
    uint64_t a[2];
    long rc;

    if (lwk_smartmap_group(&g) < 0 || g.self < 0) {
        printf("smartarea: not in a SMARTMAP group (run it with yod -vn)\n");
        return 2;
    }
    if (g.self == 0) {          /* stay, so that slot 0 is mapped */
        for (time_t t0 = time(NULL); !done;)
            if (time(NULL) - t0 > 60)
                return 3;
        return 0;
    }
    if (g.self != 1)
        return 0;
    a[0] = (uint64_t)(uintptr_t)lwk_smartmap_addr(0, area);
    a[1] = sizeof(area);
    rc = lwk_sys_ptl(PTLOP_Setup, (long)a);
    printf("smartarea: %s (%ld)\n", rc < 0 ? "refused" : "accepted", rc);
    fflush(stdout);
    *(volatile int *)lwk_smartmap_addr(0, (const void *)&done) = 1;
    return rc < 0 ? 0 : 1;
}
