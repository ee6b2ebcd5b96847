/* SPDX-License-Identifier: MIT */
/*
 * gdbregs.c: the registers yod shows gdb (gdbregs.h).  The target
 * description names them in gdb's x86-64 features (core, sse, linux,
 * segments: the names and types gdb's amd64 support looks for), in the
 * order 'g' sends them.  The x87 and SSE registers come from the FXSAVE
 * image (Intel SDM Vol 1 10.5.1, table 10-2); gdb wants the full x87 tag
 * word, FXSAVE keeps one bit per register ("abridged"), so the tag of a
 * register in use is worked out from its value, as FSAVE would give it.
 */
#include <stddef.h>
#include <string.h>

#include "gdbregs.h"

#define REG64(name)     "<reg name=\"" name "\" bitsize=\"64\" type=\"int64\"/>"
#define REG32(name)     "<reg name=\"" name "\" bitsize=\"32\" type=\"int32\"/>"
#define ST(n)           "<reg name=\"st" n "\" bitsize=\"80\" type=\"i387_ext\"/>"
#define FPU(name)       "<reg name=\"" name "\" bitsize=\"32\" type=\"int\" " \
                        "group=\"float\"/>"
#define XMM(n)          "<reg name=\"xmm" n "\" bitsize=\"128\" type=\"vec128\"/>"
#define FLAG(name, bit) "<field name=\"" name "\" start=\"" bit "\" end=\"" \
                        bit "\"/>"

const char gdb_target_xml[] =
    "<?xml version=\"1.0\"?>"
    "<!DOCTYPE target SYSTEM \"gdb-target.dtd\">"
    "<target version=\"1.0\"><architecture>i386:x86-64</architecture>"
    "<feature name=\"org.gnu.gdb.i386.core\">"
    "<flags id=\"i386_eflags\" size=\"4\">"
    FLAG("CF", "0") FLAG("", "1") FLAG("PF", "2") FLAG("AF", "4")
    FLAG("ZF", "6") FLAG("SF", "7") FLAG("TF", "8") FLAG("IF", "9")
    FLAG("DF", "10") FLAG("OF", "11") FLAG("NT", "14") FLAG("RF", "16")
    FLAG("VM", "17") FLAG("AC", "18") FLAG("VIF", "19") FLAG("VIP", "20")
    FLAG("ID", "21") "</flags>"
    REG64("rax") REG64("rbx") REG64("rcx") REG64("rdx") REG64("rsi")
    REG64("rdi")
    "<reg name=\"rbp\" bitsize=\"64\" type=\"data_ptr\"/>"
    "<reg name=\"rsp\" bitsize=\"64\" type=\"data_ptr\"/>"
    REG64("r8") REG64("r9") REG64("r10") REG64("r11") REG64("r12")
    REG64("r13") REG64("r14") REG64("r15")
    "<reg name=\"rip\" bitsize=\"64\" type=\"code_ptr\"/>"
    "<reg name=\"eflags\" bitsize=\"32\" type=\"i386_eflags\"/>"
    REG32("cs") REG32("ss") REG32("ds") REG32("es") REG32("fs") REG32("gs")
    ST("0") ST("1") ST("2") ST("3") ST("4") ST("5") ST("6") ST("7")
    FPU("fctrl") FPU("fstat") FPU("ftag") FPU("fiseg") FPU("fioff")
    FPU("foseg") FPU("fooff") FPU("fop")
    "</feature>"
    "<feature name=\"org.gnu.gdb.i386.sse\">"
    "<vector id=\"v4f\" type=\"ieee_single\" count=\"4\"/>"
    "<vector id=\"v2d\" type=\"ieee_double\" count=\"2\"/>"
    "<vector id=\"v16i8\" type=\"int8\" count=\"16\"/>"
    "<vector id=\"v8i16\" type=\"int16\" count=\"8\"/>"
    "<vector id=\"v4i32\" type=\"int32\" count=\"4\"/>"
    "<vector id=\"v2i64\" type=\"int64\" count=\"2\"/>"
    "<union id=\"vec128\"><field name=\"v4_float\" type=\"v4f\"/>"
    "<field name=\"v2_double\" type=\"v2d\"/>"
    "<field name=\"v16_int8\" type=\"v16i8\"/>"
    "<field name=\"v8_int16\" type=\"v8i16\"/>"
    "<field name=\"v4_int32\" type=\"v4i32\"/>"
    "<field name=\"v2_int64\" type=\"v2i64\"/>"
    "<field name=\"uint128\" type=\"uint128\"/></union>"
    "<flags id=\"i386_mxcsr\" size=\"4\">"
    FLAG("IE", "0") FLAG("DE", "1") FLAG("ZE", "2") FLAG("OE", "3")
    FLAG("UE", "4") FLAG("PE", "5") FLAG("DAZ", "6") FLAG("IM", "7")
    FLAG("DM", "8") FLAG("ZM", "9") FLAG("OM", "10") FLAG("UM", "11")
    FLAG("PM", "12") FLAG("FZ", "15") "</flags>"
    "<reg name=\"xmm0\" bitsize=\"128\" type=\"vec128\" regnum=\"40\"/>"
    XMM("1") XMM("2") XMM("3") XMM("4") XMM("5") XMM("6") XMM("7")
    XMM("8") XMM("9") XMM("10") XMM("11") XMM("12") XMM("13") XMM("14")
    XMM("15")
    "<reg name=\"mxcsr\" bitsize=\"32\" type=\"i386_mxcsr\" group=\"vector\"/>"
    "</feature>"
    "<feature name=\"org.gnu.gdb.i386.linux\">"
    "<reg name=\"orig_rax\" bitsize=\"64\" type=\"int\" regnum=\"57\"/>"
    "</feature>"
    "<feature name=\"org.gnu.gdb.i386.segments\">"
    "<reg name=\"fs_base\" bitsize=\"64\" type=\"int\"/>"
    "<reg name=\"gs_base\" bitsize=\"64\" type=\"int\"/>"
    "</feature></target>";

enum {
    R_RIP = 16, R_EFLAGS, R_CS, R_SS, R_DS, R_ES, R_FS, R_GS, R_ST0,
    R_FCTRL = 32, R_FSTAT, R_FTAG, R_FISEG, R_FIOFF, R_FOSEG, R_FOOFF, R_FOP,
    R_XMM0, R_MXCSR = 56, R_ORIG_RAX, R_FS_BASE, R_GS_BASE,
};
_Static_assert(R_GS_BASE + 1 == GDB_NREGS, "register count");
/* gdb's first 17 registers are struct lwk_dbg_regs's first 17 words. */
_Static_assert(offsetof(struct lwk_dbg_regs, rip) == 16 * 8, "order");

/* FXSAVE offsets (SDM Vol 1 table 10-2). */
#define FX_FCW      0
#define FX_FSW      2
#define FX_FTW      4
#define FX_FOP      6
#define FX_FIP      8
#define FX_FCS      12
#define FX_FDP      16
#define FX_FDS      20
#define FX_MXCSR    24
#define FX_ST(i)    (32 + 16 * (i))
#define FX_XMM(i)   (160 + 16 * (i))

static uint32_t fx16(const struct lwk_dbg_regs *r, int off)
{
    return (uint32_t)r->fpu[off] | (uint32_t)r->fpu[off + 1] << 8;
}

/* The tag FSAVE gives an x87 register in use: 0 valid, 1 zero, 2 special
   (NaN, infinity, denormal, unnormal). */
static unsigned tag_of(const uint8_t *st)
{
    unsigned exp = (unsigned)(st[9] & 0x7F) << 8 | st[8];
    int integer = st[7] & 0x80, frac = 0;

    for (int i = 0; i < 8; i++)
        frac |= i < 7 ? st[i] : st[i] & 0x7F;
    if (exp == 0x7FFF)
        return 2;
    if (exp == 0)
        return !frac && !integer ? 1 : 2;
    return integer ? 0 : 2;
}

/* The full tag word: two bits per physical register (3: empty). */
static uint32_t full_tag(const struct lwk_dbg_regs *r)
{
    unsigned top = fx16(r, FX_FSW) >> 11 & 7;
    uint32_t tag = 0;

    for (unsigned phys = 0; phys < 8; phys++) {
        unsigned t = 3;
        if (r->fpu[FX_FTW] >> phys & 1)
            t = tag_of(&r->fpu[FX_ST((phys - top) & 7)]);
        tag |= t << (2 * phys);
    }
    return tag;
}

static int put(uint8_t *out, uint64_t v, int size)
{
    for (int i = 0; i < size; i++)
        out[i] = (uint8_t)(v >> (8 * i));
    return size;
}

static uint64_t take(const uint8_t *in, int size)
{
    uint64_t v = 0;

    for (int i = 0; i < size; i++)
        v |= (uint64_t)in[i] << (8 * i);
    return v;
}

static int size_of(int n)
{
    if (n < 0 || n >= GDB_NREGS)
        return -1;
    if (n <= R_RIP || n >= R_ORIG_RAX)
        return 8;
    if (n >= R_ST0 && n < R_FCTRL)
        return 10;
    if (n >= R_XMM0 && n < R_MXCSR)
        return 16;
    return 4;
}

int gdbregs_get(const struct lwk_dbg_regs *r, int n, uint8_t *out)
{
    const uint64_t *gpr = &r->rax;
    int size = size_of(n);

    if (size < 0)
        return -1;
    if (n <= R_RIP)
        return put(out, gpr[n], 8);
    if (n >= R_ST0 && n < R_FCTRL) {
        memcpy(out, &r->fpu[FX_ST(n - R_ST0)], 10);
        return 10;
    }
    if (n >= R_XMM0 && n < R_MXCSR) {
        memcpy(out, &r->fpu[FX_XMM(n - R_XMM0)], 16);
        return 16;
    }
    switch (n) {
    case R_EFLAGS: return put(out, r->rflags, 4);
    case R_CS: return put(out, r->cs, 4);
    case R_SS: return put(out, r->ss, 4);
    case R_FCTRL: return put(out, fx16(r, FX_FCW), 4);
    case R_FSTAT: return put(out, fx16(r, FX_FSW), 4);
    case R_FTAG: return put(out, full_tag(r), 4);
    case R_FISEG: return put(out, fx16(r, FX_FCS), 4);
    case R_FIOFF: return put(out, take(&r->fpu[FX_FIP], 4), 4);
    case R_FOSEG: return put(out, fx16(r, FX_FDS), 4);
    case R_FOOFF: return put(out, take(&r->fpu[FX_FDP], 4), 4);
    case R_FOP: return put(out, fx16(r, FX_FOP) & 0x7FF, 4);
    case R_MXCSR: return put(out, take(&r->fpu[FX_MXCSR], 4), 4);
    case R_ORIG_RAX: return put(out, (uint64_t)-1, 8);  /* no restart */
    case R_FS_BASE: return put(out, r->fs_base, 8);
    case R_GS_BASE: return put(out, r->gs_base, 8);
    default: return put(out, 0, size);  /* ds, es, fs, gs */
    }
}

static void fx_put(struct lwk_dbg_regs *r, int off, uint64_t v, int size)
{
    put(&r->fpu[off], v, size);
}

int gdbregs_set(struct lwk_dbg_regs *r, int n, const uint8_t *in,
                size_t len)
{
    uint64_t *gpr = &r->rax;
    int size = size_of(n);
    uint64_t v;

    if (size < 0 || len != (size_t)size)
        return -1;
    v = size <= 8 ? take(in, size) : 0;
    if (n <= R_RIP) {
        gpr[n] = v;
        return 0;
    }
    if (n >= R_ST0 && n < R_FCTRL) {
        memcpy(&r->fpu[FX_ST(n - R_ST0)], in, 10);
        return 0;
    }
    if (n >= R_XMM0 && n < R_MXCSR) {
        memcpy(&r->fpu[FX_XMM(n - R_XMM0)], in, 16);
        return 0;
    }
    switch (n) {
    case R_EFLAGS: r->rflags = v; break;
    case R_FCTRL: fx_put(r, FX_FCW, v, 2); break;
    case R_FSTAT: fx_put(r, FX_FSW, v, 2); break;
    case R_FTAG: {
        uint8_t ftw = 0;
        for (int phys = 0; phys < 8; phys++)
            if ((v >> (2 * phys) & 3) != 3)
                ftw |= (uint8_t)(1 << phys);
        r->fpu[FX_FTW] = ftw;
        break;
    }
    case R_FISEG: fx_put(r, FX_FCS, v, 2); break;
    case R_FIOFF: fx_put(r, FX_FIP, v, 4); break;
    case R_FOSEG: fx_put(r, FX_FDS, v, 2); break;
    case R_FOOFF: fx_put(r, FX_FDP, v, 4); break;
    case R_FOP: fx_put(r, FX_FOP, v & 0x7FF, 2); break;
    case R_MXCSR: fx_put(r, FX_MXCSR, v, 4); break;
    case R_FS_BASE: r->fs_base = v; break;
    default: break;             /* not a program's to change */
    }
    return 0;
}

size_t gdbregs_all(const struct lwk_dbg_regs *r, uint8_t *out)
{
    size_t n = 0;

    for (int i = 0; i < GDB_NREGS; i++)
        n += (size_t)gdbregs_get(r, i, out + n);
    return n;
}

int gdbregs_set_all(struct lwk_dbg_regs *r, const uint8_t *in, size_t len)
{
    size_t n = 0;

    if (len != GDB_G_BYTES)
        return -1;
    for (int i = 0; i < GDB_NREGS; i++) {
        gdbregs_set(r, i, in + n, (size_t)size_of(i));
        n += (size_t)size_of(i);
    }
    return 0;
}
