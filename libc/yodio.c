/* SPDX-License-Identifier: MIT */
/*
 * yodio.c: under yod (LWK_YOD=NID:PID in the environment), what a program
 * writes to stdout and stderr goes to yod over Portals instead of the
 * node's console; everything else stays with the console table.  The
 * protocol is in yod/yod_proto.h.  Portals opens at the first write, on a
 * physical NI of the program's own pid (PTL_PID), so the job's logical NI
 * (ptl_job.h) is not disturbed; each chunk is acknowledged before write
 * returns, because the kernel drops a process's traffic when it exits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lwk/lwk.h>
#include <portals4.h>

#include "libc_internal.h"
#include "yod_proto.h"

static struct lwk_io_ops yod_ops;
static enum { CLOSED, OPENING, OPEN, BROKEN } state;
static ptl_process_t yod;
static ptl_handle_ni_t ni;
static ptl_handle_eq_t eq;
static ptl_handle_md_t md;
static char bounce[YOD_IO_CHUNK];

static int open_channel(void)
{
    const char *p = getenv("PTL_PID");
    ptl_pid_t pid = p ? (ptl_pid_t)strtoul(p, NULL, 0) : PTL_PID_ANY;
    ptl_md_t d = { .start = bounce, .length = sizeof(bounce),
                   .ct_handle = PTL_CT_NONE };

    if (PtlInit() != PTL_OK)
        return -1;
    if (PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_PHYSICAL, pid,
                  NULL, NULL, &ni) != PTL_OK ||
        PtlEQAlloc(ni, 8, &eq) != PTL_OK)
        return -1;
    d.eq_handle = eq;
    return PtlMDBind(ni, &d, &md) == PTL_OK ? 0 : -1;
}

/* One chunk to yod; wait for its acknowledgement. */
static int put_chunk(int fd, const char *buf, size_t len)
{
    ptl_hdr_data_t hdr = (ptl_hdr_data_t)lwk_rank() << 8 | (unsigned)fd;
    ptl_event_t ev;

    memcpy(bounce, buf, len);
    if (PtlPut(md, 0, len, PTL_ACK_REQ, yod, YOD_PT_IO, 0, 0, NULL, hdr)
        != PTL_OK)
        return -1;
    do {
        if (PtlEQWait(eq, &ev) != PTL_OK)
            return -1;
    } while (ev.type != PTL_EVENT_ACK);
    return ev.ni_fail_type == PTL_NI_OK ? 0 : -1;
}

static long yod_write(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    size_t done = 0;

    if (fd != 1 && fd != 2)
        return -EBADF;
    if (state == CLOSED) {
        state = OPENING;        /* Portals' own messages go to the console */
        state = open_channel() == 0 ? OPEN : BROKEN;
    }
    if (state != OPEN)
        return lwk_io_console.write(fd, buf, len);
    while (done < len) {
        size_t n = len - done < YOD_IO_CHUNK ? len - done : YOD_IO_CHUNK;
        if (put_chunk(fd, p + done, n) < 0) {
            state = BROKEN;     /* yod is gone: the console has the rest */
            return lwk_io_console.write(fd, p + done, len - done) + done;
        }
        done += n;
    }
    return (long)done;
}

/* LWK_YOD=NID:PID: send stdout and stderr there. */
void lwk_yod_io_setup(const char *where)
{
    char *end;
    unsigned long nid = strtoul(where, &end, 0);

    if (*end != ':')
        return;
    yod.phys.nid = (ptl_nid_t)nid;
    yod.phys.pid = (ptl_pid_t)strtoul(end + 1, NULL, 0);
    yod_ops = lwk_io_console;
    yod_ops.write = yod_write;
    lwk_io = &yod_ops;
}
