/*
 * The GDB Remote Serial Protocol as yod reads it (yod/gdbrsp.c) and the
 * registers it shows gdb (yod/gdbregs.c): framing with checksums and
 * escapes, acknowledgements and the interrupt byte; every packet
 * argument parser with good input and with malformed input (refused,
 * never read past its end); the x87 tag word and the FXSAVE fields
 * round-tripping through gdb's numbering.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gdbregs.h"
#include "gdbrsp.h"

/* Feed a whole string; the last event that is not RSP_NONE. */
static enum rsp_event feed(struct rsp_reader *r, const char *s, size_t n)
{
    enum rsp_event last = RSP_NONE, e;

    for (size_t i = 0; i < n; i++)
        if ((e = rsp_feed(r, (uint8_t)s[i])) != RSP_NONE)
            last = e;
    return last;
}

static void framing(void **st)
{
    struct rsp_reader r;
    char out[64];

    (void)st;
    rsp_reader_init(&r);
    assert_int_equal(feed(&r, "$g#67", 5), RSP_PACKET);
    assert_string_equal(r.buf, "g");
    assert_int_equal(feed(&r, "+", 1), RSP_ACK);
    assert_int_equal(feed(&r, "-", 1), RSP_NAK);
    assert_int_equal(feed(&r, "\x03", 1), RSP_INTERRUPT_EV);
    /* Our own frame reads back. */
    size_t n = rsp_frame(out, sizeof(out), "qSupported", 10);
    assert_true(n > 0);
    assert_int_equal(feed(&r, out, n), RSP_PACKET);
    assert_string_equal(r.buf, "qSupported");
    /* A frame too small for its payload is refused, not overrun. */
    assert_int_equal(rsp_frame(out, 5, "abcdef", 6), 0);
}

static void bad_checksums(void **st)
{
    struct rsp_reader r;

    (void)st;
    rsp_reader_init(&r);
    assert_int_equal(feed(&r, "$g#68", 5), RSP_BAD);
    assert_int_equal(feed(&r, "$g#zz", 5), RSP_BAD);
    /* The reader is not stuck after a bad one. */
    assert_int_equal(feed(&r, "$g#67", 5), RSP_PACKET);
    /* A new '$' in a packet starts over. */
    assert_int_equal(feed(&r, "$gar$g#67", 9), RSP_PACKET);
    assert_string_equal(r.buf, "g");
}

static void escapes(void **st)
{
    struct rsp_reader r;
    char out[64];
    const uint8_t bin[] = { 'X', '$', '#', '}', '*', 0, 0xff };

    (void)st;
    rsp_reader_init(&r);
    size_t n = rsp_frame(out, sizeof(out), bin, sizeof(bin));
    assert_int_equal(n, 1 + 7 + 4 + 3);      /* 4 bytes escaped */
    assert_int_equal(feed(&r, out, n), RSP_PACKET);
    assert_int_equal(r.len, sizeof(bin));
    assert_memory_equal(r.buf, bin, sizeof(bin));
    /* An escape left open at the end of a packet is malformed. */
    assert_int_equal(feed(&r, "$a}#de", 6), RSP_BAD);
}

static void overlong(void **st)
{
    struct rsp_reader *r = malloc(sizeof(*r));
    char *big = malloc(RSP_MAX + 10);
    uint8_t sum = 0;
    char tail[4];

    (void)st;
    rsp_reader_init(r);
    big[0] = '$';
    for (int i = 1; i <= RSP_MAX + 1; i++) {
        big[i] = 'a';
        sum = (uint8_t)(sum + 'a');
    }
    assert_int_equal(feed(r, big, RSP_MAX + 2), RSP_NONE);
    snprintf(tail, sizeof(tail), "#%02x", sum);
    assert_int_equal(feed(r, tail, 3), RSP_BAD);
    assert_int_equal(feed(r, "$g#67", 5), RSP_PACKET);
    free(big);
    free(r);
}

static void numbers(void **st)
{
    const char *p = "1f,";
    uint64_t v;
    uint8_t b[4];
    char hex[9];

    (void)st;
    assert_int_equal(rsp_num(&p, &v), 0);
    assert_int_equal(v, 0x1f);
    assert_int_equal(*p, ',');
    p = ",";
    assert_int_equal(rsp_num(&p, &v), -1);
    p = "ffffffffffffffff";
    assert_int_equal(rsp_num(&p, &v), 0);
    assert_true(v == UINT64_MAX);
    p = "10000000000000000";                  /* 65 bits */
    assert_int_equal(rsp_num(&p, &v), -1);
    assert_int_equal(rsp_unhex("0aFf", 4, b), 0);
    assert_int_equal(b[0], 0x0a);
    assert_int_equal(b[1], 0xff);
    assert_int_equal(rsp_unhex("0a0", 3, b), -1);
    assert_int_equal(rsp_unhex("0g", 2, b), -1);
    rsp_hex(hex, "\x01\xab", 2);
    assert_string_equal(hex, "01ab");
}

static void mem_args(void **st)
{
    uint64_t addr, len;
    const char *data;

    (void)st;
    assert_int_equal(rsp_parse_mem("400000,10", &addr, &len, NULL), 0);
    assert_true(addr == 0x400000 && len == 16);
    assert_int_equal(rsp_parse_mem("10,2:abcd", &addr, &len, &data), 0);
    assert_string_equal(data, "abcd");
    assert_int_equal(rsp_parse_mem("400000", &addr, &len, NULL), -1);
    assert_int_equal(rsp_parse_mem("400000,", &addr, &len, NULL), -1);
    assert_int_equal(rsp_parse_mem(",10", &addr, &len, NULL), -1);
    assert_int_equal(rsp_parse_mem("4,10x", &addr, &len, NULL), -1);
    assert_int_equal(rsp_parse_mem("4,10", &addr, &len, &data), -1);
    assert_int_equal(rsp_parse_mem("", &addr, &len, NULL), -1);
}

static void bp_args(void **st)
{
    uint64_t t, a, k;

    (void)st;
    assert_int_equal(rsp_parse_bp("0,400261,1", &t, &a, &k), 0);
    assert_true(t == 0 && a == 0x400261 && k == 1);
    assert_int_equal(rsp_parse_bp("0,400261,1;X3,abc", &t, &a, &k), 0);
    assert_int_equal(rsp_parse_bp("0,400261", &t, &a, &k), -1);
    assert_int_equal(rsp_parse_bp("0,,1", &t, &a, &k), -1);
    assert_int_equal(rsp_parse_bp("0,1,1x", &t, &a, &k), -1);
}

static void tids(void **st)
{
    int64_t t;

    (void)st;
    assert_int_equal(rsp_parse_tid("-1", &t), 0);
    assert_int_equal(t, -1);
    assert_int_equal(rsp_parse_tid("0", &t), 0);
    assert_int_equal(t, 0);
    assert_int_equal(rsp_parse_tid("2", &t), 0);
    assert_int_equal(t, 2);
    assert_int_equal(rsp_parse_tid("p1.3", &t), 0);
    assert_int_equal(t, 3);
    assert_int_equal(rsp_parse_tid("p1", &t), 0);
    assert_int_equal(t, -1);
    assert_int_equal(rsp_parse_tid("", &t), -1);
    assert_int_equal(rsp_parse_tid("2x", &t), -1);
    assert_int_equal(rsp_parse_tid("p1.", &t), -1);
}

static void vcont(void **st)
{
    struct rsp_action a[RSP_ACTIONS];

    (void)st;
    assert_int_equal(rsp_parse_vcont(";c", a, RSP_ACTIONS), 1);
    assert_true(a[0].op == 'c' && a[0].tid == -1 && a[0].sig == 0);
    assert_int_equal(rsp_parse_vcont(";s:2;c", a, RSP_ACTIONS), 2);
    assert_true(a[0].op == 's' && a[0].tid == 2 && a[1].tid == -1);
    assert_int_equal(rsp_parse_vcont(";C0b:1;c", a, RSP_ACTIONS), 2);
    assert_true(a[0].op == 'c' && a[0].sig == 11);
    assert_int_equal(rsp_parse_vcont(";S05", a, RSP_ACTIONS), 1);
    assert_true(a[0].op == 's' && a[0].sig == 5);
    assert_int_equal(rsp_parse_vcont("", a, RSP_ACTIONS), -1);
    assert_int_equal(rsp_parse_vcont(";", a, RSP_ACTIONS), -1);
    assert_int_equal(rsp_parse_vcont(";t", a, RSP_ACTIONS), -1);
    assert_int_equal(rsp_parse_vcont(";C", a, RSP_ACTIONS), -1);
    assert_int_equal(rsp_parse_vcont(";C00", a, RSP_ACTIONS), -1);
    assert_int_equal(rsp_parse_vcont(";c:", a, RSP_ACTIONS), -1);
    assert_int_equal(rsp_parse_vcont(";cx", a, RSP_ACTIONS), -1);
    assert_int_equal(rsp_parse_vcont(";c;c;c", a, 2), -1);     /* too many */
}

static void xfer(void **st)
{
    char obj[16], annex[16], out[16];
    uint64_t off, len;

    (void)st;
    assert_int_equal(rsp_parse_xfer("features:read:target.xml:0,ffb", obj,
                                    sizeof(obj), annex, sizeof(annex), &off,
                                    &len), 0);
    assert_string_equal(obj, "features");
    assert_string_equal(annex, "target.xml");
    assert_true(off == 0 && len == 0xffb);
    assert_int_equal(rsp_parse_xfer("auxv:read::10,20", obj, sizeof(obj),
                                    annex, sizeof(annex), &off, &len), 0);
    assert_string_equal(annex, "");
    assert_int_equal(rsp_parse_xfer("auxv:write::0,1", obj, sizeof(obj),
                                    annex, sizeof(annex), &off, &len), -1);
    assert_int_equal(rsp_parse_xfer("auxv:read:0,1", obj, sizeof(obj),
                                    annex, sizeof(annex), &off, &len), -1);
    assert_int_equal(rsp_parse_xfer("averyveryverylongobject:read::0,1",
                                    obj, sizeof(obj), annex, sizeof(annex),
                                    &off, &len), -1);
    /* Answers: 'm' while more follows, 'l' with the last of it. */
    assert_int_equal(rsp_xfer_reply(out, sizeof(out), "abcdef", 6, 0, 4), 5);
    assert_memory_equal(out, "mabcd", 5);
    assert_int_equal(rsp_xfer_reply(out, sizeof(out), "abcdef", 6, 4, 4), 3);
    assert_memory_equal(out, "lef", 3);
    assert_int_equal(rsp_xfer_reply(out, sizeof(out), "abcdef", 6, 99, 4), 1);
    assert_memory_equal(out, "l", 1);
    assert_int_equal(rsp_xfer_reply(out, 3, "abcdef", 6, 0, 6), 3);
    assert_memory_equal(out, "mab", 3);
}

/* ---- registers ----------------------------------------------------------- */

static void regs_round_trip(void **st)
{
    struct lwk_dbg_regs r, back;
    uint8_t g[GDB_G_BYTES], one[16];

    (void)st;
    memset(&r, 0, sizeof(r));
    r.rax = 0x1122334455667788ull;
    r.r15 = 15;
    r.rip = 0x400261;
    r.rflags = 0x246;
    r.cs = 0x2b;
    r.ss = 0x23;
    r.fs_base = 0x7000;
    r.fpu[0] = 0x7f;                    /* FCW 0x037f */
    r.fpu[1] = 0x03;
    r.fpu[24] = 0x80;                   /* MXCSR 0x1f80 */
    r.fpu[25] = 0x1f;
    for (int i = 0; i < 16; i++)
        r.fpu[160 + 16 * 3 + i] = (uint8_t)(i + 1);    /* xmm3 */
    assert_int_equal(gdbregs_all(&r, g), GDB_G_BYTES);
    assert_int_equal(g[0], 0x88);       /* rax, little-endian */
    assert_int_equal(gdbregs_get(&r, 16, one), 8);      /* rip */
    assert_int_equal(one[0], 0x61);
    assert_int_equal(gdbregs_get(&r, 17, one), 4);      /* eflags */
    assert_int_equal(one[0], 0x46);
    assert_int_equal(gdbregs_get(&r, 32, one), 4);      /* fctrl */
    assert_int_equal(one[0] | one[1] << 8, 0x37f);
    assert_int_equal(gdbregs_get(&r, 43, one), 16);     /* xmm3 */
    assert_int_equal(one[15], 16);
    assert_int_equal(gdbregs_get(&r, 56, one), 4);      /* mxcsr */
    assert_int_equal(one[0] | one[1] << 8, 0x1f80);
    assert_int_equal(gdbregs_get(&r, 58, one), 8);      /* fs_base */
    assert_int_equal(one[1], 0x70);
    assert_int_equal(gdbregs_get(&r, GDB_NREGS, one), -1);
    assert_int_equal(gdbregs_get(&r, -1, one), -1);
    memset(&back, 0, sizeof(back));
    back.cs = 0x2b;
    back.ss = 0x23;
    assert_int_equal(gdbregs_set_all(&back, g, GDB_G_BYTES), 0);
    assert_memory_equal(&back, &r, offsetof(struct lwk_dbg_regs, fpu));
    assert_memory_equal(back.fpu + 160, r.fpu + 160, 256);
    assert_int_equal(gdbregs_set_all(&back, g, GDB_G_BYTES - 1), -1);
    /* A register of the wrong size, or none, is refused. */
    assert_int_equal(gdbregs_set(&back, 0, one, 4), -1);
    assert_int_equal(gdbregs_set(&back, 99, one, 8), -1);
    /* cs is not a program's to change. */
    memset(one, 0, sizeof(one));
    assert_int_equal(gdbregs_set(&back, 18, one, 4), 0);
    assert_int_equal(back.cs, 0x2b);
}

/* FXSAVE's abridged tag: bit per physical register; gdb wants FSAVE's
   two bits, worked out from the values (SDM Vol 1 8.1.7). */
static void x87_tags(void **st)
{
    struct lwk_dbg_regs r;
    uint8_t one[4];
    uint32_t tag;

    (void)st;
    memset(&r, 0, sizeof(r));
    /* TOP = 6: st0 is physical 6, st1 physical 7. */
    r.fpu[3] = 6 << 3;
    r.fpu[4] = 0xC0;                    /* physical 6 and 7 in use */
    /* st0 = 1.0: exponent 0x3fff, integer bit set: valid (0). */
    r.fpu[32 + 7] = 0x80;
    r.fpu[32 + 8] = 0xff;
    r.fpu[32 + 9] = 0x3f;
    /* st1 = +0: zero (1). */
    assert_int_equal(gdbregs_get(&r, 34, one), 4);
    tag = (uint32_t)(one[0] | one[1] << 8);
    assert_int_equal(tag, 0x4fff);      /* 01 00 then six empty (11) */
    /* gdb writes it back: in use where the tag is not 3. */
    one[0] = 0xff;
    one[1] = 0x0f;                      /* physical 6: valid, 7: zero */
    assert_int_equal(gdbregs_set(&r, 34, one, 4), 0);
    assert_int_equal(r.fpu[4], 0xC0);
    /* An infinity is special (2). */
    r.fpu[32 + 9] = 0x7f;
    assert_int_equal(gdbregs_get(&r, 34, one), 4);
    assert_int_equal((one[1] >> 4) & 3, 2);
}

static void target_xml(void **st)
{
    (void)st;
    /* The feature names gdb's amd64 support requires, and every register
       gdb counts in 'g'. */
    assert_non_null(strstr(gdb_target_xml, "org.gnu.gdb.i386.core"));
    assert_non_null(strstr(gdb_target_xml, "org.gnu.gdb.i386.sse"));
    assert_non_null(strstr(gdb_target_xml, "<architecture>i386:x86-64"));
    int regs = 0;
    for (const char *p = gdb_target_xml; (p = strstr(p, "<reg ")); p++)
        regs++;
    assert_int_equal(regs, GDB_NREGS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(framing), cmocka_unit_test(bad_checksums),
        cmocka_unit_test(escapes), cmocka_unit_test(overlong),
        cmocka_unit_test(numbers), cmocka_unit_test(mem_args),
        cmocka_unit_test(bp_args), cmocka_unit_test(tids),
        cmocka_unit_test(vcont), cmocka_unit_test(xfer),
        cmocka_unit_test(regs_round_trip), cmocka_unit_test(x87_tags),
        cmocka_unit_test(target_xml),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
