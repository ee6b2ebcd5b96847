/* SPDX-License-Identifier: MIT */
/*
 * badaddr: a compute-node program that hands the kernel's Portals engine
 * addresses and lengths it must refuse: kernel addresses, addresses no
 * region of this process covers (where another process's memory would be
 * in its own address space), lengths running past a region, read-only
 * text as a place to write, handles of another endpoint, and a scribbled
 * event-queue ring.  Every call must fail with PTL_ARG_INVALID (or the
 * documented code) and write nothing; the process, the node and the
 * engine must go on working: a final put to itself must arrive intact.
 * Prints one line per check and "badaddr: OK" if all held.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "portals4.h"
#include "ptl_eqring.h"

/* The node library says where an EQ's ring is (for this test). */
struct ptl_eq_ring *ptl_lwk_ring(ptl_handle_eq_t h);

#define KERNEL_ADDR   ((void *)0xFFFFFFFF80100000ull)  /* kernel image */
#define PHYSMAP_ADDR  ((void *)0xFFFF800000100000ull)  /* all of RAM */
#define UNMAPPED      ((void *)0x0000100000000000ull)  /* the PCT sees apps here */
#define ROUND(p)      ((void *)(p))

static int failures;

static void expect(const char *what, int got, int want)
{
    printf("%s %s (got %d, want %d)\n", got == want ? "ok  " : "FAIL", what,
           got, want);
    if (got != want)
        failures++;
}

static void check_true(const char *what, int cond)
{
    printf("%s %s\n", cond ? "ok  " : "FAIL", what);
    if (!cond)
        failures++;
}

/* A function whose code we also try to receive into. */
static int victim(int x)
{
    return x * 3 + 1;
}

int main(void)
{
    static uint8_t buf[65536];
    ptl_handle_ni_t ni;
    ptl_handle_eq_t eq;
    ptl_handle_md_t md, all;
    ptl_handle_me_t meh;
    ptl_pt_index_t pt;
    ptl_process_t self;
    ptl_event_t ev;
    uint8_t text_before[64];

    memcpy(text_before, (const void *)victim, sizeof(text_before));
    expect("PtlInit", PtlInit(), PTL_OK);
    expect("PtlNIInit with a kernel address for the handle",
           PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_PHYSICAL,
                     9, NULL, NULL, KERNEL_ADDR), PTL_ARG_INVALID);
    expect("PtlNIInit with read-only text for the limits",
           PtlNIInit(PTL_IFACE_DEFAULT, PTL_NI_MATCHING | PTL_NI_PHYSICAL,
                     9, NULL, (ptl_ni_limits_t *)(void *)victim, &ni),
           PTL_ARG_INVALID);
    check_true("text unchanged after the refused write",
               memcmp(text_before, (const void *)victim,
                      sizeof(text_before)) == 0);
    expect("PtlNIInit", PtlNIInit(PTL_IFACE_DEFAULT,
                                  PTL_NI_MATCHING | PTL_NI_PHYSICAL, 9, NULL,
                                  NULL, &ni), PTL_OK);
    expect("PtlGetPhysId into the physmap",
           PtlGetPhysId(ni, PHYSMAP_ADDR), PTL_ARG_INVALID);
    expect("PtlGetPhysId", PtlGetPhysId(ni, &self), PTL_OK);
    expect("PtlEQAlloc", PtlEQAlloc(ni, 64, &eq), PTL_OK);
    expect("PtlPTAlloc", PtlPTAlloc(ni, 0, eq, PTL_PT_ANY, &pt), PTL_OK);

    /* Memory descriptors: the range must be ours. */
    ptl_md_t d = { .start = KERNEL_ADDR, .length = 4096,
                   .eq_handle = PTL_EQ_NONE, .ct_handle = PTL_CT_NONE };
    expect("PtlMDBind over the kernel", PtlMDBind(ni, &d, &md),
           PTL_ARG_INVALID);
    d.start = buf;
    d.length = 1ull << 62;
    expect("PtlMDBind with a length past the user half",
           PtlMDBind(ni, &d, &md), PTL_ARG_INVALID);
    expect("PtlMDBind with the descriptor in the kernel",
           PtlMDBind(ni, KERNEL_ADDR, &md), PTL_ARG_INVALID);

    /* An MD over the whole user half is allowed (MPI binds one): each
       operation is checked for the bytes it really moves. */
    d.start = NULL;
    d.length = 0x0000800000000000ull;
    d.eq_handle = eq;
    expect("PtlMDBind over the whole user address space",
           PtlMDBind(ni, &d, &all), PTL_OK);
    {   /* and over all of memory, as the spec allows */
        ptl_md_t m = d;
        ptl_handle_md_t h;
        m.length = PTL_SIZE_MAX;
        expect("PtlMDBind over all of memory (NULL, PTL_SIZE_MAX)",
               PtlMDBind(ni, &m, &h), PTL_OK);
        expect("PtlPut from unmapped memory through that",
               PtlPut(h, (ptl_size_t)UNMAPPED, 64, PTL_NO_ACK_REQ, self, pt,
                      0, 0, NULL, 0), PTL_ARG_INVALID);
        PtlMDRelease(h);
    }
    expect("PtlPut from unmapped memory through it",
           PtlPut(all, (ptl_size_t)UNMAPPED, 64, PTL_NO_ACK_REQ, self, pt, 0,
                  0, NULL, 0), PTL_ARG_INVALID);
    expect("PtlPut running past the end of a region",
           PtlPut(all, (ptl_size_t)buf, 1ull << 40, PTL_NO_ACK_REQ, self, pt,
                  0, 0, NULL, 0), PTL_ARG_INVALID);
    expect("PtlGet into read-only text",
           PtlGet(all, (ptl_size_t)(void *)victim, 64, self, pt, 0, 0, NULL),
           PTL_ARG_INVALID);

    /* Match entries: the kernel must never be a place data lands. */
    ptl_me_t me = { .start = KERNEL_ADDR, .length = 4096,
                    .ct_handle = PTL_CT_NONE, .uid = PTL_UID_ANY,
                    .match_id = { .phys = { PTL_NID_ANY, PTL_PID_ANY } },
                    .options = PTL_ME_OP_PUT };
    expect("PtlMEAppend over the kernel",
           PtlMEAppend(ni, pt, &me, PTL_PRIORITY_LIST, NULL, &meh),
           PTL_ARG_INVALID);
    me.start = (void *)victim;
    expect("PtlMEAppend over read-only text",
           PtlMEAppend(ni, pt, &me, PTL_PRIORITY_LIST, NULL, &meh),
           PTL_ARG_INVALID);
    me.start = UNMAPPED;
    expect("PtlMEAppend over unmapped memory",
           PtlMEAppend(ni, pt, &me, PTL_PRIORITY_LIST, NULL, &meh),
           PTL_ARG_INVALID);

    /* The PCT may name its window on the processes it made (kernel/proc.c
       window_ptr: fan-out loading exposes an image there); no one else
       may: every slot's every region, where this process's own regions
       and any other process's appear in the PCT, stays refused. */
    int window_refused = 1;
    for (uint64_t slot = 0; slot < 16; slot++)
        for (uint64_t reg = 0; reg < 4; reg++) {
            uint64_t va = 0x0000100000000000ull + slot * (64ull << 30) +
                          reg * (16ull << 30);
            me.start = (void *)va;
            if (PtlMEAppend(ni, pt, &me, PTL_PRIORITY_LIST, NULL, &meh) !=
                    PTL_ARG_INVALID ||
                PtlGet(all, (ptl_size_t)va, 64, self, pt, 0, 0, NULL) !=
                    PTL_ARG_INVALID)
                window_refused = 0;
        }
    check_true("MEAppend and Get over the PCT's window on every process "
               "refused", window_refused);

    /* Handles: another endpoint's (bits 22..27 name it) are not ours. */
    expect("PtlMDRelease of another endpoint's handle",
           PtlMDRelease((all & ~(63u << 22)) | ((((all >> 22) + 1) & 63) << 22)),
           PTL_ARG_INVALID);
    expect("PtlPut through a forged handle",
           PtlPut(0x1FFFFFFFu, 0, 1, PTL_NO_ACK_REQ, self, pt, 0, 0, NULL, 0),
           PTL_ARG_INVALID);

    /* Scribble over the ring header: the kernel keeps its own copy of
       where it writes, so events still land inside the ring. */
    struct ptl_eq_ring *r = ptl_lwk_ring(eq);
    uint32_t size = r->size;

    check_true("the ring is in our memory", r != NULL);
    r->size = 0xFFFFFFFFu;
    r->head = 0x123456789ull;
    me.start = buf;
    me.length = sizeof(buf);
    expect("PtlMEAppend over our buffer",
           PtlMEAppend(ni, pt, &me, PTL_PRIORITY_LIST, NULL, &meh), PTL_OK);
    for (unsigned i = 0; i < 256; i++)
        buf[32768 + i] = (uint8_t)(i * 7 + 3);
    expect("PtlPut to ourselves",
           PtlPut(all, (ptl_size_t)(buf + 32768), 256, PTL_NO_ACK_REQ, self,
                  pt, 0, 0, NULL, 0), PTL_OK);
    int got_put = 0;
    for (int spin = 0; spin < 100000000 && r->head == 0x123456789ull; spin++)
        ;                       /* the kernel publishes its own head */
    check_true("the kernel rewrote the scribbled head", r->head != 0x123456789ull);
    r->size = size;             /* our reader needs the real size back */
    while (!got_put) {
        int rc = PtlEQWait(eq, &ev);
        if (rc != PTL_OK) {
            expect("PtlEQWait", rc, PTL_OK);
            break;
        }
        got_put = ev.type == PTL_EVENT_PUT;
    }
    check_true("the put landed at the start of our buffer",
               got_put && ev.mlength == 256 && ev.start == buf &&
               memcmp(buf, buf + 32768, 256) == 0);
    check_true("text still unchanged",
               memcmp(text_before, (const void *)victim,
                      sizeof(text_before)) == 0 && victim(2) == 7);
    PtlNIFini(ni);
    PtlFini();
    if (failures) {
        printf("badaddr: %d checks failed\n", failures);
        return 1;
    }
    printf("badaddr: OK\n");
    return 0;
}
