/* SPDX-License-Identifier: MIT */
/*
 * rt_cpuinfo.c: the node's /proc/cpuinfo, one block per CPU the process
 * runs on (the online ones: rt_procfiles.c), in Linux's x86 format.  All
 * a node's CPUs are alike, so each block is what CPUID says on this one;
 * the clock rate is the TSC's, as the kernel measured it (the clock page).
 * The flags are Linux's names for the CPUID bits, in its order, less the
 * ones the node's kernel does not enable (AVX needs the OS to save its
 * registers: XCR0).  The topology fields (physical id, core id, apicid)
 * are left out: the node does not know them.
 */
#include <string.h>
#include <lwk/syscall.h>

#include "rt_proc.h"

struct regs { uint32_t a, b, c, d; };

static struct regs cpuid(uint32_t leaf, uint32_t sub)
{
    struct regs r;

    __asm__ volatile("cpuid" : "=a"(r.a), "=b"(r.b), "=c"(r.c), "=d"(r.d)
                     : "a"(leaf), "c"(sub));
    return r;
}

/* Linux's names for each bit of a CPUID register, "-" for none
   (arch/x86/include/asm/cpufeatures.h), in the order of its words. */
static const struct {
    uint32_t leaf;
    char reg;                   /* b c d */
    const char *names;
} flag_words[] = {
    { 1, 'd', "fpu vme de pse tsc msr pae mce cx8 apic - sep mtrr pge mca "
              "cmov pat pse36 pn clflush - dts acpi mmx fxsr sse sse2 ss "
              "ht tm ia64 pbe" },
    { 0x80000001, 'd', "- - - - - - - - - - - syscall - - - - - - - mp "
                       "nx - mmxext - - fxsr_opt pdpe1gb rdtscp - lm "
                       "3dnowext 3dnow" },
    { 1, 'c', "pni pclmulqdq dtes64 monitor ds_cpl vmx smx est tm2 ssse3 "
              "cid sdbg fma cx16 xtpr pdcm - pcid dca sse4_1 sse4_2 "
              "x2apic movbe popcnt tsc_deadline_timer aes xsave - avx "
              "f16c rdrand hypervisor" },
    { 0x80000001, 'c', "lahf_lm cmp_legacy svm extapic cr8_legacy abm "
                       "sse4a misalignsse 3dnowprefetch osvw ibs xop "
                       "skinit wdt - lwp fma4 tce - nodeid_msr - tbm "
                       "topoext perfctr_core perfctr_nb - bpext ptsc "
                       "perfctr_llc mwaitx" },
    { 7, 'b', "fsgsbase tsc_adjust sgx bmi1 hle avx2 - smep bmi2 erms "
              "invpcid rtm cqm - mpx rdt_a avx512f avx512dq rdseed adx "
              "smap avx512ifma - clflushopt clwb intel_pt avx512pf "
              "avx512er avx512cd sha_ni avx512bw avx512vl" },
    { 7, 'c', "- avx512vbmi umip pku ospke waitpkg avx512_vbmi2 - gfni "
              "vaes vpclmulqdq avx512_vnni avx512_bitalg - "
              "avx512_vpopcntdq - - - - - - - rdpid - bus_lock_detect "
              "cldemote - movdiri movdir64b enqcmd sgx_lc" },
    { 7, 'd', "- - avx512_4vnniw avx512_4fmaps fsrm - - - "
              "avx512_vp2intersect - md_clear - - - serialize - tsxldtrk "
              "- pconfig arch_lbr - - amx_bf16 avx512_fp16 amx_tile "
              "amx_int8 - - flush_l1d arch_capabilities" },
};

/* Registers only an OS that saves them makes usable (XCR0: bits 1-2 the
   AVX state, 5-7 AVX-512's, 17-18 AMX's). */
static int usable(const char *name, size_t len, uint64_t xcr0)
{
    static const char *const ymm[] = { "avx", "avx2", "fma", "fma4", "f16c",
                                       "xop" };

    if (!strncmp(name, "avx512", 6))
        return (xcr0 & 0xe6) == 0xe6;
    if (!strncmp(name, "amx", 3))
        return (xcr0 & 0x60006) == 0x60006;
    for (size_t i = 0; i < sizeof(ymm) / sizeof(ymm[0]); i++)
        if (strlen(ymm[i]) == len && !strncmp(name, ymm[i], len))
            return (xcr0 & 6) == 6;
    return 1;
}

static void flags(struct lx_text *t)
{
    uint32_t max = cpuid(0, 0).a, ext = cpuid(0x80000000, 0).a;
    uint64_t xcr0 = 0;
    const char *sep = "";

    if (cpuid(1, 0).c >> 27 & 1) {      /* OSXSAVE: the OS set up XCR0 */
        uint32_t lo, hi;
        __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        xcr0 = (uint64_t)hi << 32 | lo;
    }
    for (size_t w = 0; w < sizeof(flag_words) / sizeof(flag_words[0]); w++) {
        uint32_t leaf = flag_words[w].leaf, bits;
        const char *p = flag_words[w].names;
        struct regs r;

        if (leaf >= 0x80000000 ? leaf > ext : leaf > max)
            continue;
        r = cpuid(leaf, 0);
        bits = flag_words[w].reg == 'b' ? r.b : flag_words[w].reg == 'c'
                                                 ? r.c : r.d;
        for (int bit = 0; bit < 32 && *p; bit++) {
            size_t len = strcspn(p, " ");

            if ((bits >> bit & 1) && !(len == 1 && *p == '-') &&
                usable(p, len, xcr0)) {
                lx_say(t, "%s%.*s", sep, (int)len, p);
                sep = " ";
            }
            p += len + (p[len] == ' ');
        }
    }
}

/* The brand string, without the spaces some CPUs put in front. */
static void model_name(char name[49])
{
    uint32_t *w = (uint32_t *)name;

    memset(name, 0, 49);
    if (cpuid(0x80000000, 0).a < 0x80000004) {
        strcpy(name, "unknown");
        return;
    }
    for (uint32_t i = 0; i < 3; i++) {
        struct regs r = cpuid(0x80000002 + i, 0);
        w[i * 4] = r.a, w[i * 4 + 1] = r.b, w[i * 4 + 2] = r.c,
        w[i * 4 + 3] = r.d;
    }
    while (name[0] == ' ')
        memmove(name, name + 1, 48);
}

/* The TSC's rate in kHz, from the clock page's ns per tick. */
static unsigned long tsc_khz(void)
{
    struct lwk_clock c = { 0 };

    if (lwk_sys_clock_params((long)&c) < 0 || !c.ns_mult)
        return 0;
    return (unsigned long)(((unsigned __int128)1000000 << 32) / c.ns_mult);
}

void lx_cpuinfo(struct lx_text *t, long n)
{
    struct regs v = cpuid(0, 0), s = cpuid(1, 0);
    uint32_t family = s.a >> 8 & 0xf, model = s.a >> 4 & 0xf;
    uint32_t ext = cpuid(0x80000000, 0).a;
    unsigned long khz = tsc_khz();
    char vendor[13], name[49];
    uint64_t cpus = lx_cpus();

    memcpy(vendor, &v.b, 4);
    memcpy(vendor + 4, &v.d, 4);
    memcpy(vendor + 8, &v.c, 4);
    vendor[12] = 0;
    if (family == 0xf)
        family += s.a >> 20 & 0xff;
    if (family == 6 || family >= 0xf)
        model |= (s.a >> 16 & 0xf) << 4;
    model_name(name);
    for (int c = 0; c < 64; c++) {
        if (!(cpus >> c & 1))
            continue;
        lx_say(t, "processor\t: %d\nvendor_id\t: %s\ncpu family\t: %u\n"
               "model\t\t: %u\nmodel name\t: %s\nstepping\t: %u\n", c,
               vendor, family, model, name, s.a & 0xf);
        lx_say(t, "cpu MHz\t\t: %lu.%03lu\n", khz / 1000, khz % 1000);
        if (ext >= 0x80000006)
            lx_say(t, "cache size\t: %u KB\n", cpuid(0x80000006, 0).c >> 16);
        lx_say(t, "fpu\t\t: yes\nfpu_exception\t: yes\ncpuid level\t: %u\n"
               "wp\t\t: yes\nflags\t\t: ", v.a);
        flags(t);
        lx_say(t, "\nbogomips\t: %lu.%02lu\nclflush size\t: %u\n"
               "cache_alignment\t: %u\n", khz * 2 / 1000, khz * 2 % 1000 / 10,
               (s.b >> 8 & 0xff) * 8, (s.b >> 8 & 0xff) * 8);
        if (ext >= 0x80000008) {
            uint32_t a = cpuid(0x80000008, 0).a;
            lx_say(t, "address sizes\t: %u bits physical, %u bits virtual\n",
                   a & 0xff, a >> 8 & 0xff);
        }
        lx_say(t, "power management:\n\n");
    }
}
