/* SPDX-License-Identifier: MIT */
/*
 * fuzz_frame.c: libFuzzer target for everything a received frame touches:
 * the parser (with its checksum) and then the whole receive path of a lib
 * (reliability, matching, landing data, responses) with the checksum
 * switched off so the fuzzer gets past it.  The target station has a
 * priority entry, an overflow entry and an atomic/get entry posted.
 *
 * Built with -DPTL_FUZZ_SEEDS it is instead a program that writes a seed
 * corpus of valid frames into the directory given as argument; with
 * -DPTL_FUZZ_REPLAY, a program that runs the target once on each file
 * named (to replay a corpus under ASan/UBSan built by gcc).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "portals4.h"
#include "ptl_host.h"
#include "ptl_wire.h"

#define NID 2
#define PID 20

static uint64_t fake_now;
static uint8_t target_mem[8192];

static int f_tx(void *c, const struct ptl_iov *iov, int n)
{
    (void)c;
    for (int i = 0; i < n; i++)     /* touch every byte, like a NIC would */
        for (size_t j = 0; j < iov[i].len; j += 64)
            fake_now += ((const uint8_t *)iov[i].base)[j] & 1;
    return 0;
}
static uint64_t f_now(void *c) { (void)c; return fake_now += 1000; }
static int f_check(void *c, const void *a, uint64_t l, int w)
{
    (void)c, (void)w;
    return l && a == NULL;
}
static void f_out(void *c, void *d, const void *s, size_t l)
{
    (void)c;
    memcpy(d, s, l);
}
static void f_in(void *c, void *d, const void *s, size_t l)
{
    (void)c;
    memcpy(d, s, l);
}
static void *f_salloc(void *c, size_t l) { (void)c; return calloc(1, l); }
static void f_sfree(void *c, void *p, size_t l) { (void)c, (void)l; free(p); }
static int f_wait(void *c, uint64_t d) { (void)c, (void)d; return 1; }

static const struct ptl_host_ops fops = {
    .tx = f_tx, .now_ns = f_now, .check = f_check, .copy_out = f_out,
    .copy_in = f_in, .shared_alloc = f_salloc, .shared_free = f_sfree,
    .wait = f_wait,
};

static void post(ptl_handle_ni_t ni, ptl_pt_index_t pt, void *buf,
                 size_t len, ptl_match_bits_t bits, unsigned opts,
                 ptl_list_t list)
{
    ptl_me_t me = { .start = buf, .length = len, .ct_handle = PTL_CT_NONE,
                    .uid = PTL_UID_ANY, .options = opts,
                    .match_id = { .phys = { PTL_NID_ANY, PTL_PID_ANY } },
                    .match_bits = bits };
    ptl_handle_me_t h;

    PtlMEAppend(ni, pt, &me, list, NULL, &h);
}

__attribute__((unused)) static struct ptl_lib *make_lib(void **mem)
{
    struct ptl_lib_params p = { .nid = NID, .pid = PID, .epoch = 77,
        .max_entries = 16, .max_uh = 8, .max_mds = 4, .max_cts = 4,
        .max_eqs = 2, .max_pt_index = 3, .max_trig = 4, .max_msgs = 16,
        .max_peers = 4, .window = 8, .no_checksum = true };
    size_t n = ptl_lib_mem_size(&p);
    struct ptl_lib *lib;
    ptl_handle_ni_t ni;
    ptl_handle_eq_t eq;
    ptl_pt_index_t pt;

    *mem = aligned_alloc(64, (n + 63) & ~(size_t)63);
    if (ptl_lib_create(0, &p, &fops, NULL, *mem, n, &lib) != PTL_OK)
        abort();
    PtlNIInit(0, PTL_NI_MATCHING | PTL_NI_PHYSICAL, PID, NULL, NULL, &ni);
    PtlEQAlloc(ni, 8, &eq);
    PtlPTAlloc(ni, PTL_PT_FLOWCTRL, eq, 0, &pt);
    post(ni, pt, target_mem, 2048, 1, PTL_ME_OP_PUT | PTL_ME_USE_ONCE,
         PTL_PRIORITY_LIST);
    post(ni, pt, target_mem + 2048, 4096, 2, PTL_ME_OP_PUT | PTL_ME_OP_GET,
         PTL_PRIORITY_LIST);
    post(ni, pt, target_mem + 6144, 2048, 0,
         PTL_ME_OP_PUT | PTL_ME_MANAGE_LOCAL, PTL_OVERFLOW_LIST);
    return lib;
}

#ifndef PTL_FUZZ_SEEDS

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct ptl_whdr h;
    const uint8_t *payload;
    void *mem;
    struct ptl_lib *lib;

    fake_now = 0;
    ptl_wire_parse(data, size, &h, &payload, 0);
    lib = make_lib(&mem);
    /* the same bytes twice: the second time they are a duplicate */
    ptl_lib_rx(lib, data, size);
    ptl_lib_rx(lib, data, size);
    ptl_lib_progress(lib);
    ptl_lib_destroy(lib);
    free(mem);
    return 0;
}

#ifdef PTL_FUZZ_REPLAY
int main(int argc, char **argv)
{
    static uint8_t buf[1 << 17];

    for (int i = 1; i < argc; i++) {
        FILE *fp = fopen(argv[i], "rb");
        size_t n;

        if (fp == NULL)
            continue;
        n = fread(buf, 1, sizeof(buf), fp);
        fclose(fp);
        LLVMFuzzerTestOneInput(buf, n);
    }
    printf("replayed %d inputs\n", argc - 1);
    return 0;
}
#endif

#else

/* flags: extra header flags (PTL_WF_RESP: an ACK of msg 0x10000 rides) */
static void seed_flags(const char *dir, const char *name, uint8_t type,
                       uint32_t seq, uint64_t bits, uint32_t len,
                       uint32_t total, uint8_t flags)
{
    static uint8_t f[PTL_FRAME_HLEN + PTL_WIRE_RLEN + 4096];
    struct ptl_whdr h = { .type = type, .flags = PTL_WF_SEQ | flags,
        .resp = { .msg_id = 0x10000, .mlength = 4 }, .src_nid = 1,
        .src_pid = 10, .dst_nid = NID, .dst_pid = PID, .epoch = 5,
        .seq = seq, .match_bits = bits, .rlength = total, .total = total,
        .frag_len = len, .msg_id = 0x10000, .atomic_op = PTL_SUM,
        .atomic_type = PTL_UINT32_T, .ack_req = PTL_ACK_REQ };
    char path[512];
    FILE *fp;

    if (type == PTL_W_LACK)
        h.flags = 0;
    ptl_wire_encode(f, &h, 0);
    memset(f + ptl_wire_hlen(h.flags), 0x5a, len);
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    if ((fp = fopen(path, "wb")) == NULL)
        exit(1);
    fwrite(f, 1, ptl_wire_hlen(h.flags) + len, fp);
    fclose(fp);
}

static void seed(const char *dir, const char *name, uint8_t type,
                 uint32_t seq, uint64_t bits, uint32_t len, uint32_t total)
{
    seed_flags(dir, name, type, seq, bits, len, total, 0);
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return 1;
    seed(argv[1], "put", PTL_W_PUT, 0, 1, 100, 100);
    seed(argv[1], "put-frag", PTL_W_PUT, 0, 2, 1000, 3000);
    seed(argv[1], "put-overflow", PTL_W_PUT, 0, 9, 64, 64);
    seed(argv[1], "get", PTL_W_GET, 0, 2, 0, 0);
    seed(argv[1], "atomic", PTL_W_ATOMIC, 0, 2, 8, 8);
    seed(argv[1], "fetch", PTL_W_FETCH, 0, 2, 8, 8);
    seed(argv[1], "swap", PTL_W_SWAP, 0, 2, 36, 36);
    seed(argv[1], "ack", PTL_W_ACK, 0, 0, 0, 0);
    seed(argv[1], "reply", PTL_W_REPLY, 0, 0, 16, 16);
    seed(argv[1], "lack", PTL_W_LACK, 0, 0, 0, 0);
    seed_flags(argv[1], "put-with-ack", PTL_W_PUT, 0, 1, 100, 100,
               PTL_WF_RESP);
    return 0;
}

#endif
