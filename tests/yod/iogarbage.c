/* SPDX-License-Identifier: MIT */
/*
 * iogarbage.c: iotest's "garbage" mode: malformed, unsigned and replayed
 * requests sent straight to the portal of the rank's I/O server, which
 * must answer EINVAL, ENOSYS or EBADF or drop them, and then still serve.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <lwk/lwk.h>
#include <lwk/uapi/abi.h>
#include <portals4.h>

#include "iotest.h"
#include "yod_proto.h"

static struct {
    ptl_handle_ni_t ni;
    ptl_handle_eq_t eq;
    ptl_handle_md_t md;
    ptl_process_t yod;
    struct yod_file_req q;
    struct yod_file_ans a;
    struct sipkey key;          /* this rank's (auxv), as libc has it */
} g;

/* Send `len` bytes of g.q; the answer's err (protocol code), or -1 if
   none comes within 2 s, -2 if yod did not take the message. */
static int raw_request(size_t len)
{
    ptl_event_t ev;
    unsigned which;
    int acked = 0;

    g.a.seq = 0xdead;
    if (PtlPut(g.md, 0, len, PTL_ACK_REQ, g.yod, YOD_PT_FILE, 0, 0, NULL, 0)
        != PTL_OK)
        return -2;
    while (PtlEQPoll(&g.eq, 1, 2000, &ev, &which) == PTL_OK) {
        if (ev.type == PTL_EVENT_ACK && ev.ni_fail_type != PTL_NI_OK)
            return -2;
        acked |= ev.type == PTL_EVENT_ACK;
        if (ev.type == PTL_EVENT_PUT && acked)
            return (int)g.a.err;
    }
    return -1;
}

/* The same, signed with this rank's key, as libc signs its requests. */
static int signed_request(size_t len)
{
    g.q.mac = yod_file_mac(&g.key, &g.q, len);
    return raw_request(len);
}

/* The protocol's code for a newlib errno. */
static int code(int e)
{
    static const int list[] = {
#define E(x) x,
        YOD_ERRNO_LIST(E)
#undef E
    };

    for (unsigned i = 0; i < sizeof(list) / sizeof(list[0]); i++)
        if (list[i] == e)
            return (int)i + 1;
    return -100;
}

/* Before libc opens its own channel on the same pid: nothing is printed
   until the NI is closed again. */
int do_garbage(void)
{
    const char *y = getenv("LWK_YOD");
    ptl_me_t me = { .start = &g.a, .length = sizeof(g.a),
                    .ct_handle = PTL_CT_NONE, .uid = PTL_UID_ANY,
                    .ignore_bits = ~0ull, .options = PTL_ME_OP_PUT };
    ptl_md_t md = { .start = &g.q, .length = sizeof(g.q),
                    .ct_handle = PTL_CT_NONE };
    ptl_handle_me_t h;
    ptl_pt_index_t pt;
    int r[8];
    unsigned nid, pid;

    if (!y || PtlInit() != PTL_OK ||
        PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_PHYSICAL,
                  (ptl_pid_t)atoi(getenv("PTL_PID")), NULL, NULL, &g.ni)
        != PTL_OK ||
        PtlEQAlloc(g.ni, 16, &g.eq) != PTL_OK ||
        PtlPTAlloc(g.ni, 0, g.eq, YOD_PT_FILE, &pt) != PTL_OK)
        return 100;
    /* LWK_YOD=YOD,SERVER,...: this rank's server (yod_proto.h) */
    if (yod_io_station(y, (int)rank, &nid, &pid) < 0)
        return 102;
    g.yod.phys.nid = (ptl_nid_t)nid;
    g.yod.phys.pid = (ptl_pid_t)pid;
    me.match_id = g.yod;
    md.eq_handle = g.eq;
    if (PtlMEAppend(g.ni, YOD_PT_FILE, &me, PTL_PRIORITY_LIST, NULL, &h)
        != PTL_OK || PtlMDBind(g.ni, &md, &g.md) != PTL_OK)
        return 101;
    g.key.k0 = lwk_getauxval(AT_LWK_YOD_KEY0, 0);
    g.key.k1 = lwk_getauxval(AT_LWK_YOD_KEY1, 0);
    g.q = (struct yod_file_req){ .op = YOD_F_STAT, .seq = 1, .rank = rank,
                                 .path_len = 10 };
    memcpy(g.q.path, ".", 2);
    r[0] = signed_request(YOD_FILE_REQ_HDR + 2);    /* lengths disagree */
    g.q.op = 99;
    g.q.seq = 2;
    g.q.path_len = 0;
    r[1] = signed_request(YOD_FILE_REQ_HDR);        /* no such operation */
    r[2] = raw_request(8);                      /* too short: dropped */
    g.q.rank = 77;
    g.q.seq = 3;
    r[3] = signed_request(YOD_FILE_REQ_HDR);    /* not this rank: dropped */
    g.q = (struct yod_file_req){ .op = YOD_F_READ, .seq = 4, .rank = rank,
                                 .fd = 40,
                                 .len = 10 };
    r[4] = signed_request(YOD_FILE_REQ_HDR);    /* fd not open */
    g.q = (struct yod_file_req){ .op = YOD_F_STAT, .seq = 5, .rank = rank,
                                 .path_len = 2 };
    memcpy(g.q.path, ".", 2);
    g.q.mac = 12345;
    r[5] = raw_request(YOD_FILE_REQ_HDR + 2);   /* not signed: dropped */
    r[6] = signed_request(YOD_FILE_REQ_HDR + 2);    /* yod still serves */
    r[7] = raw_request(YOD_FILE_REQ_HDR + 2);   /* played again: dropped */
    PtlMEUnlink(h);
    PtlMDRelease(g.md);
    PtlPTFree(g.ni, pt);
    PtlEQFree(g.eq);
    PtlNIFini(g.ni);
    PtlFini();
    check(r[0] == code(EINVAL), "inconsistent lengths: EINVAL");
    check(r[1] == code(ENOSYS), "unknown operation: ENOSYS");
    check(r[2] == -1, "8-byte request: no answer");
    check(r[3] == -1, "another rank's number: no answer");
    check(r[4] == code(EBADF), "read of an fd not open: EBADF");
    check(r[5] == -1, "a request with a wrong MAC: no answer");
    check(r[6] == 0, "a good request after them: answered");
    check(r[7] == -1, "the same request again (replayed): no answer");
    return fails;
}
