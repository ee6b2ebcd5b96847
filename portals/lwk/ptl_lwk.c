/* SPDX-License-Identifier: MIT */
/*
 * ptl_lwk.c: Portals 4 for programs on the compute nodes (linked by
 * lwkcc).  The engine is in the Q-Kernel; each call here is one `ptl`
 * system call with its arguments as an array of words (the operation list
 * is lwk/uapi/ptlcalls.def).
 *
 * Event queues and counters are the exception (ptl_lwk_wait.c): the
 * kernel writes them into memory this library gave it at PtlInit, so
 * PtlEQGet and PtlCTGet are plain loads, and the waits spin on that
 * memory, sleeping in the kernel (ptl_wait) only until the next network
 * event or their deadline.
 *
 * In message co-processor mode (the area's head says `engine`: another
 * CPU of the node runs the engine) a call is posted in that memory
 * instead and its result awaited there, and the waits only spin: the
 * program's CPU takes no trap for the network (lwk/uapi/abi.h,
 * struct lwk_ptl_head).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lwk/syscall.h>
#include <lwk/uapi/abi.h>

#include "portals4.h"
#include "ptl_eqring.h"

#include "ptl_lwk.h"

struct ptl_lwk_state ptl_lwk_st;

/* Post the call in the command ring and spin until the engine's CPU has
   run it. */
static long ring_call(int op, const uint64_t *a)
{
    struct lwk_ptl_head *h = ptl_lwk_st.head;
    uint64_t req = h->cmd.req + 1;

    h->cmd.op = (uint64_t)op;
    h->cmd.args = (uint64_t)(uintptr_t)a;
    __atomic_store_n(&h->cmd.req, req, __ATOMIC_RELEASE);
    while (__atomic_load_n(&h->cmd.done, __ATOMIC_ACQUIRE) != req)
        __builtin_ia32_pause();
    return h->cmd.rc;
}

int ptl_lwk_engine_polls(void)
{
    return ptl_lwk_st.head && __atomic_load_n(&ptl_lwk_st.head->engine, __ATOMIC_RELAXED);
}

int ptl_lwk_call(int op, const uint64_t *a)
{
    long rc = ptl_lwk_engine_polls() ? ring_call(op, a) : lwk_sys_ptl(op, (long)a);

    if (rc >= 0)
        return (int)rc;
    return rc == -EFAULT ? PTL_ARG_INVALID : PTL_FAIL;
}


static uint64_t P(ptl_process_t id)
{
    uint64_t w;

    memcpy(&w, &id, sizeof(w));
    return w;
}

/* ---- setup ------------------------------------------------------------- */

/* The process may already have an area: a Linux program's copy of this
   library (built for glibc, docs/LINUX.md) and its runtime's copy (which
   talks to yod) share the process's one Portals endpoint, whichever made
   PtlInit first.  Then the rings and the wake count are there. */
static int adopt_area(void)
{
    uint64_t uva = 0, len = 0;

    if (lwk_sys_ptl(PTLOP_Area, (long)(const uint64_t[]){ U(&uva), U(&len) })
        != PTL_OK || !uva)
        return 0;
    ptl_lwk_st.shm = (void *)(uintptr_t)uva;
    return 1;
}

int PtlInit(void)
{
    const char *kb = getenv("PTL_SHM_KB");
    size_t len = kb ? (size_t)strtoul(kb, NULL, 0) << 10 : SHM_DEFAULT;
    int rc;

    if (ptl_lwk_st.refs++)
        return PTL_OK;
    if (adopt_area())
        goto ready;
    if (len < 4096 || !(ptl_lwk_st.shm = aligned_alloc(4096, len))) {
        ptl_lwk_st.refs = 0;
        return PTL_NO_SPACE;
    }
    rc = (int)lwk_sys_ptl(PTLOP_Setup, (long)(const uint64_t[]){ U(ptl_lwk_st.shm), len });
    if (rc == -ENODEV)
        fprintf(stderr, "PtlInit: this node has no network interface "
                "(boot it with a virtio-net NIC)\n");
    if (rc == -EEXIST)
        fprintf(stderr, "PtlInit: this process's Portals area is elsewhere "
                "and the kernel would not say where (a kernel without the "
                "ptl Area call: use one build on every node)\n");
    if (rc != PTL_OK) {
        rc = rc < 0 ? PTL_FAIL : rc;
        free(ptl_lwk_st.shm);
        ptl_lwk_st.refs = 0;
        return rc;
    }
ready:
    ptl_lwk_st.head = ptl_lwk_st.shm;
    ptl_lwk_st.wake = &ptl_lwk_st.head->wake;
    return PTL_OK;
}

void PtlFini(void)
{
    if (ptl_lwk_st.refs > 0)
        ptl_lwk_st.refs--;
    /* The kernel keeps writing into the shared area until the process
       ends, so it is never freed. */
}

void PtlAbort(void)
{
    exit(1);
}

/* ---- network interfaces --------------------------------------------------- */

int PtlNIInit(ptl_interface_t iface, unsigned int options, ptl_pid_t pid,
              const ptl_ni_limits_t *desired, ptl_ni_limits_t *actual,
              ptl_handle_ni_t *ni)
{
    return CALL(NIInit, iface, options, pid, U(desired), U(actual), U(ni));
}

/* The kernel does not wait inside the call (it would hold the node's CPU
   while peers drain): it says until when to wait, then we ask again. */
int PtlNIFini(ptl_handle_ni_t ni)
{
    uint64_t until = 0;
    int rc;

    while ((rc = CALL(NIFini, ni, U(&until))) == PTL_OK && until != 0)
        ptl_lwk_wait_news(until, __atomic_load_n(ptl_lwk_st.wake, __ATOMIC_ACQUIRE));
    return rc;
}

int PtlNIStatus(ptl_handle_ni_t ni, ptl_sr_index_t reg, ptl_sr_value_t *v)
{
    return CALL(NIStatus, ni, reg, U(v));
}

int PtlNIHandle(ptl_handle_any_t h, ptl_handle_ni_t *ni)
{
    return CALL(NIHandle, h, U(ni));
}

int PtlSetMap(ptl_handle_ni_t ni, ptl_size_t n, const ptl_process_t *map)
{
    return CALL(SetMap, ni, n, U(map));
}

int PtlGetMap(ptl_handle_ni_t ni, ptl_size_t n, ptl_process_t *map,
              ptl_size_t *actual)
{
    return CALL(GetMap, ni, n, U(map), U(actual));
}

int PtlGetUid(ptl_handle_ni_t ni, ptl_uid_t *uid)
{
    return CALL(GetUid, ni, U(uid));
}

int PtlGetId(ptl_handle_ni_t ni, ptl_process_t *id)
{
    return CALL(GetId, ni, U(id));
}

int PtlGetPhysId(ptl_handle_ni_t ni, ptl_process_t *id)
{
    return CALL(GetPhysId, ni, U(id));
}

int PtlGetJid(ptl_handle_ni_t ni, ptl_jid_t *jid)
{
    return CALL(GetJid, ni, U(jid));
}

int PtlHandleIsEqual(ptl_handle_any_t a, ptl_handle_any_t b)
{
    return a == b;
}

/* ---- portal table, MDs, list entries -------------------------------------- */

int PtlPTAlloc(ptl_handle_ni_t ni, unsigned int options, ptl_handle_eq_t eq,
               ptl_pt_index_t want, ptl_pt_index_t *got)
{
    return CALL(PTAlloc, ni, options, eq, want, U(got));
}

int PtlPTFree(ptl_handle_ni_t ni, ptl_pt_index_t pt)
{
    return CALL(PTFree, ni, pt);
}

int PtlPTDisable(ptl_handle_ni_t ni, ptl_pt_index_t pt)
{
    return CALL(PTDisable, ni, pt);
}

int PtlPTEnable(ptl_handle_ni_t ni, ptl_pt_index_t pt)
{
    return CALL(PTEnable, ni, pt);
}

int PtlMDBind(ptl_handle_ni_t ni, const ptl_md_t *md, ptl_handle_md_t *h)
{
    return CALL(MDBind, ni, U(md), U(h));
}

int PtlMDRelease(ptl_handle_md_t md)
{
    return CALL(MDRelease, md);
}

int PtlLEAppend(ptl_handle_ni_t ni, ptl_pt_index_t pt, const ptl_le_t *le,
                ptl_list_t list, void *uptr, ptl_handle_le_t *h)
{
    return CALL(LEAppend, ni, pt, U(le), list, U(uptr), U(h));
}

int PtlLEUnlink(ptl_handle_le_t h)
{
    return CALL(LEUnlink, h);
}

int PtlLESearch(ptl_handle_ni_t ni, ptl_pt_index_t pt, const ptl_le_t *le,
                ptl_search_op_t op, void *uptr)
{
    return CALL(LESearch, ni, pt, U(le), op, U(uptr));
}

int PtlMEAppend(ptl_handle_ni_t ni, ptl_pt_index_t pt, const ptl_me_t *me,
                ptl_list_t list, void *uptr, ptl_handle_me_t *h)
{
    return CALL(MEAppend, ni, pt, U(me), list, U(uptr), U(h));
}

int PtlMEUnlink(ptl_handle_me_t h)
{
    return CALL(MEUnlink, h);
}

int PtlMESearch(ptl_handle_ni_t ni, ptl_pt_index_t pt, const ptl_me_t *me,
                ptl_search_op_t op, void *uptr)
{
    return CALL(MESearch, ni, pt, U(me), op, U(uptr));
}

/* ---- data movement --------------------------------------------------------- */

int PtlPut(ptl_handle_md_t md, ptl_size_t loff, ptl_size_t len,
           ptl_ack_req_t ack, ptl_process_t tgt, ptl_pt_index_t pt,
           ptl_match_bits_t bits, ptl_size_t roff, void *uptr,
           ptl_hdr_data_t hdr)
{
    return CALL(Put, md, loff, len, ack, P(tgt), pt, bits, roff, U(uptr),
                hdr);
}

int PtlGet(ptl_handle_md_t md, ptl_size_t loff, ptl_size_t len,
           ptl_process_t tgt, ptl_pt_index_t pt, ptl_match_bits_t bits,
           ptl_size_t roff, void *uptr)
{
    return CALL(Get, md, loff, len, P(tgt), pt, bits, roff, U(uptr));
}

int PtlAtomic(ptl_handle_md_t md, ptl_size_t loff, ptl_size_t len,
              ptl_ack_req_t ack, ptl_process_t tgt, ptl_pt_index_t pt,
              ptl_match_bits_t bits, ptl_size_t roff, void *uptr,
              ptl_hdr_data_t hdr, ptl_op_t op, ptl_datatype_t dt)
{
    return CALL(Atomic, md, loff, len, ack, P(tgt), pt, bits, roff, U(uptr),
                hdr, op, dt);
}

int PtlFetchAtomic(ptl_handle_md_t gmd, ptl_size_t goff, ptl_handle_md_t pmd,
                   ptl_size_t poff, ptl_size_t len, ptl_process_t tgt,
                   ptl_pt_index_t pt, ptl_match_bits_t bits, ptl_size_t roff,
                   void *uptr, ptl_hdr_data_t hdr, ptl_op_t op,
                   ptl_datatype_t dt)
{
    return CALL(FetchAtomic, gmd, goff, pmd, poff, len, P(tgt), pt, bits,
                roff, U(uptr), hdr, op, dt);
}

int PtlSwap(ptl_handle_md_t gmd, ptl_size_t goff, ptl_handle_md_t pmd,
            ptl_size_t poff, ptl_size_t len, ptl_process_t tgt,
            ptl_pt_index_t pt, ptl_match_bits_t bits, ptl_size_t roff,
            void *uptr, ptl_hdr_data_t hdr, const void *operand,
            ptl_op_t op, ptl_datatype_t dt)
{
    return CALL(Swap, gmd, goff, pmd, poff, len, P(tgt), pt, bits, roff,
                U(uptr), hdr, U(operand), op, dt);
}

int PtlAtomicSync(void)
{
    return ptl_lwk_call(PTLOP_AtomicSync, NULL);
}

int PtlStartBundle(ptl_handle_ni_t ni)
{
    return CALL(StartBundle, ni);
}

int PtlEndBundle(ptl_handle_ni_t ni)
{
    return CALL(EndBundle, ni);
}

/* ---- triggered operations ----------------------------------------------------- */

int PtlTriggeredPut(ptl_handle_md_t md, ptl_size_t loff, ptl_size_t len,
                    ptl_ack_req_t ack, ptl_process_t tgt, ptl_pt_index_t pt,
                    ptl_match_bits_t bits, ptl_size_t roff, void *uptr,
                    ptl_hdr_data_t hdr, ptl_handle_ct_t tct,
                    ptl_size_t threshold)
{
    return CALL(TriggeredPut, md, loff, len, ack, P(tgt), pt, bits, roff,
                U(uptr), hdr, tct, threshold);
}

int PtlTriggeredGet(ptl_handle_md_t md, ptl_size_t loff, ptl_size_t len,
                    ptl_process_t tgt, ptl_pt_index_t pt,
                    ptl_match_bits_t bits, ptl_size_t roff, void *uptr,
                    ptl_handle_ct_t tct, ptl_size_t threshold)
{
    return CALL(TriggeredGet, md, loff, len, P(tgt), pt, bits, roff, U(uptr),
                tct, threshold);
}

int PtlTriggeredAtomic(ptl_handle_md_t md, ptl_size_t loff, ptl_size_t len,
                       ptl_ack_req_t ack, ptl_process_t tgt,
                       ptl_pt_index_t pt, ptl_match_bits_t bits,
                       ptl_size_t roff, void *uptr, ptl_hdr_data_t hdr,
                       ptl_op_t op, ptl_datatype_t dt, ptl_handle_ct_t tct,
                       ptl_size_t threshold)
{
    return CALL(TriggeredAtomic, md, loff, len, ack, P(tgt), pt, bits, roff,
                U(uptr), hdr, op, dt, tct, threshold);
}

int PtlTriggeredFetchAtomic(ptl_handle_md_t gmd, ptl_size_t goff,
                            ptl_handle_md_t pmd, ptl_size_t poff,
                            ptl_size_t len, ptl_process_t tgt,
                            ptl_pt_index_t pt, ptl_match_bits_t bits,
                            ptl_size_t roff, void *uptr, ptl_hdr_data_t hdr,
                            ptl_op_t op, ptl_datatype_t dt,
                            ptl_handle_ct_t tct, ptl_size_t threshold)
{
    return CALL(TriggeredFetchAtomic, gmd, goff, pmd, poff, len, P(tgt), pt,
                bits, roff, U(uptr), hdr, op, dt, tct, threshold);
}

int PtlTriggeredSwap(ptl_handle_md_t gmd, ptl_size_t goff,
                     ptl_handle_md_t pmd, ptl_size_t poff, ptl_size_t len,
                     ptl_process_t tgt, ptl_pt_index_t pt,
                     ptl_match_bits_t bits, ptl_size_t roff, void *uptr,
                     ptl_hdr_data_t hdr, const void *operand, ptl_op_t op,
                     ptl_datatype_t dt, ptl_handle_ct_t tct,
                     ptl_size_t threshold)
{
    return CALL(TriggeredSwap, gmd, goff, pmd, poff, len, P(tgt), pt, bits,
                roff, U(uptr), hdr, U(operand), op, dt, tct, threshold);
}

int PtlTriggeredMEAppend(ptl_handle_ni_t ni, ptl_pt_index_t pt,
                         const ptl_me_t *me, ptl_list_t list, void *uptr,
                         ptl_handle_me_t *h, ptl_handle_ct_t tct,
                         ptl_size_t threshold)
{
    return CALL(TriggeredMEAppend, ni, pt, U(me), list, U(uptr), U(h), tct,
                threshold);
}

int PtlTriggeredMEUnlink(ptl_handle_me_t h, ptl_handle_ct_t tct,
                         ptl_size_t threshold)
{
    return CALL(TriggeredMEUnlink, h, tct, threshold);
}

int PtlTriggeredLEAppend(ptl_handle_ni_t ni, ptl_pt_index_t pt,
                         const ptl_le_t *le, ptl_list_t list, void *uptr,
                         ptl_handle_le_t *h, ptl_handle_ct_t tct,
                         ptl_size_t threshold)
{
    return CALL(TriggeredLEAppend, ni, pt, U(le), list, U(uptr), U(h), tct,
                threshold);
}

int PtlTriggeredLEUnlink(ptl_handle_le_t h, ptl_handle_ct_t tct,
                         ptl_size_t threshold)
{
    return CALL(TriggeredLEUnlink, h, tct, threshold);
}

int PtlTriggeredCTInc(ptl_handle_ct_t ct, ptl_ct_event_t inc,
                      ptl_handle_ct_t tct, ptl_size_t threshold)
{
    return CALL(TriggeredCTInc, ct, inc.success, inc.failure, tct, threshold);
}

int PtlTriggeredCTSet(ptl_handle_ct_t ct, ptl_ct_event_t v,
                      ptl_handle_ct_t tct, ptl_size_t threshold)
{
    return CALL(TriggeredCTSet, ct, v.success, v.failure, tct, threshold);
}
