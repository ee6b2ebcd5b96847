/* SPDX-License-Identifier: MIT */
/*
 * stacks.c: the job's stack summary (stacks.h), in the manner of Cray's
 * ATP and LLNL's STAT: every thread of every rank unwound, identical
 * backtraces grouped, one line per group:
 *
 *   ranks 0-2: MPI_Recv < halo_exchange (heat.c:49) < main (heat.c:72)
 *   rank 3: SIGSEGV in stencil (heat.c:32) < main (heat.c:73)
 *
 * Unwinding is elfutils' libdwfl's: the program's ELF file (its CFI, so
 * code without frame pointers unwinds too, and its DWARF lines), each
 * thread's registers from the rank's snapshot, and memory reads answered
 * from the thread's stack as its node sent it (from its stack pointer
 * up).  A backtrace is cut below the MPI call the program made (the
 * library's own frames say nothing to its user) and above main.
 */
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <stdarg.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gdbserver.h"
#include "rankdbg.h"
#include "stacks.h"
#include "yod.h"

#define FRAMES      64
#define STACK_MAX   (1u << 20)  /* bytes of a stack read, at most */
#define RED_ZONE    128         /* below rsp, still the function's */
#define LINE_MAX_   640

/* One thread's backtrace as text, and whose it is. */
struct taken {
    int rank, cpu, main;
    char text[LINE_MAX_];
};

static struct taken *taken;
static int ntaken, cap;

/* The memory of the rank being unwound: each thread's stack. */
static struct piece {
    uint64_t lo, hi;
    uint8_t *b;
} piece[YOD_DBG_THREADS];
static int npieces;
static const struct lwk_dbg_regs *cur;  /* the thread being unwound */
static Dwfl *dwfl;
static int dwfl_failed;

/* out (len bytes) += what fmt says, never past its end. */
static void add(char *out, size_t len, size_t *n, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void add(char *out, size_t len, size_t *n, const char *fmt, ...)
{
    va_list ap;
    int k;

    if (*n >= len)
        return;
    va_start(ap, fmt);
    k = vsnprintf(out + *n, len - *n, fmt, ap);
    va_end(ap);
    if (k > 0)
        *n = *n + (size_t)k < len ? *n + (size_t)k : len - 1;
}

/* ---- libdwfl's callbacks ------------------------------------------------ */

static pid_t no_threads(Dwfl *d, void *arg, void **thread_argp)
{
    (void)d;
    (void)arg;
    (void)thread_argp;
    return 0;                   /* threads are named: get_thread */
}

static bool any_thread(Dwfl *d, pid_t tid, void *arg, void **thread_argp)
{
    (void)d;
    (void)tid;
    (void)arg;
    *thread_argp = NULL;
    return true;
}

static bool read_word(Dwfl *d, Dwarf_Addr addr, Dwarf_Word *result,
                      void *arg)
{
    (void)d;
    (void)arg;
    for (int i = 0; i < npieces; i++)
        if (addr >= piece[i].lo && addr + 8 <= piece[i].hi) {
            memcpy(result, piece[i].b + (addr - piece[i].lo), 8);
            return true;
        }
    return false;               /* not the stack: unwinding ends there */
}

/* DWARF's x86-64 numbering: rax rdx rcx rbx rsi rdi rbp rsp r8..r15 rip. */
static bool initial_regs(Dwfl_Thread *t, void *arg)
{
    const struct lwk_dbg_regs *r = cur;
    Dwarf_Word w[17] = { r->rax, r->rdx, r->rcx, r->rbx, r->rsi, r->rdi,
                         r->rbp, r->rsp, r->r8, r->r9, r->r10, r->r11,
                         r->r12, r->r13, r->r14, r->r15, r->rip };

    (void)arg;
    return dwfl_thread_state_registers(t, 0, 17, w);
}

static const Dwfl_Thread_Callbacks thread_cb = {
    .next_thread = no_threads, .get_thread = any_thread,
    .memory_read = read_word, .set_initial_registers = initial_regs,
};

static char *debuginfo_path;
static const Dwfl_Callbacks dwfl_cb = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .debuginfo_path = &debuginfo_path,
};

/* The program as loaded: an ET_EXEC where it was linked, a static PIE
   where its auxiliary vector's AT_ENTRY says. */
static uint64_t load_bias(const struct yod_dbg_info *info)
{
    uint64_t v[2];
    GElf_Ehdr eh;
    Elf *e;
    int fd = open(o.argv[0], O_RDONLY | O_CLOEXEC);
    uint64_t entry = 0, bias = 0;

    for (uint64_t a = info->auxv; a && read_word(NULL, a, &v[0], NULL) &&
                                  read_word(NULL, a + 8, &v[1], NULL) && v[0];
         a += 16)
        if (v[0] == 9)          /* AT_ENTRY */
            entry = v[1];
    elf_version(EV_CURRENT);
    if (fd >= 0 && (e = elf_begin(fd, ELF_C_READ, NULL))) {
        if (gelf_getehdr(e, &eh) && eh.e_type == ET_DYN && entry)
            bias = entry - eh.e_entry;
        elf_end(e);
    }
    if (fd >= 0)
        close(fd);
    return bias;
}

static int open_program(const struct yod_dbg_info *info)
{
    if (dwfl || dwfl_failed)
        return dwfl ? 0 : -1;
    if (!(dwfl = dwfl_begin(&dwfl_cb)))
        goto fail;
    dwfl_report_begin(dwfl);
    if (!dwfl_report_elf(dwfl, "prog", o.argv[0], -1, load_bias(info),
                         false) ||
        dwfl_report_end(dwfl, NULL, NULL) != 0 ||
        !dwfl_attach_state(dwfl, NULL, 1, &thread_cb, NULL)) {
        dwfl_end(dwfl);
        dwfl = NULL;
        goto fail;
    }
    return 0;
fail:
    dwfl_failed = 1;
    fprintf(stderr, "yod: cannot read %s to unwind its stacks: %s\n",
            o.argv[0], dwfl_errmsg(-1));
    return -1;
}

/* ---- a backtrace -------------------------------------------------------- */

struct frame {
    const char *name, *file;
    int line;
    uint64_t pc;
};

struct trace {
    struct frame f[FRAMES];
    int n;
};

/* Where pc is in code inlined into the function its symbol names, the
   line of that function is the outermost inlined call's, not the line
   in the inlined code (abort's, not that of the system call inlined in
   it).  dwarf_getscopes gives the scopes at pc, the innermost inlined
   instance first (after any lexical blocks), then its abstract origin's;
   dwarf_getscopes_die the chain of instances that one is nested in, out
   to the function. */
static void inlined_at(Dwfl_Module *m, Dwarf_Addr pc, struct frame *f)
{
    Dwarf_Addr bias;
    Dwarf_Die *cu = dwfl_module_addrdie(m, pc, &bias);
    Dwarf_Die *scopes = NULL, *chain = NULL;
    Dwarf_Attribute a;
    Dwarf_Files *files;
    Dwarf_Word file, line;
    int n = cu ? dwarf_getscopes(cu, pc - bias, &scopes) : 0, k = 0;

    while (k < n && dwarf_tag(&scopes[k]) != DW_TAG_inlined_subroutine)
        k++;                    /* past lexical blocks */
    n = k < n ? dwarf_getscopes_die(&scopes[k], &chain) : 0;
    for (int i = n - 1; i >= 0; i--)    /* the outermost first */
        if (dwarf_tag(&chain[i]) == DW_TAG_inlined_subroutine) {
            if (!dwarf_formudata(dwarf_attr(&chain[i], DW_AT_call_file, &a),
                                 &file) &&
                !dwarf_formudata(dwarf_attr(&chain[i], DW_AT_call_line, &a),
                                 &line) &&
                !dwarf_getsrcfiles(cu, &files, NULL) &&
                (f->file = dwarf_filesrc(files, file, NULL, NULL)))
                f->line = (int)line;
            break;
        }
    free(chain);
    free(scopes);
}

static int on_frame(Dwfl_Frame *state, void *arg)
{
    struct trace *t = arg;
    struct frame *f = &t->f[t->n];
    Dwarf_Addr pc;
    bool activation;
    Dwfl_Module *m;
    Dwfl_Line *l;

    if (!dwfl_frame_pc(state, &pc, &activation))
        return DWARF_CB_ABORT;
    if (!activation)
        pc--;                   /* a return address: the call is before it */
    *f = (struct frame){ .pc = pc };
    if ((m = dwfl_addrmodule(dwfl, pc))) {
        f->name = dwfl_module_addrname(m, pc);
        /* MPI_X is a weak alias of PMPI_X (the profiling interface): the
           program called MPI_X. */
        if (f->name && !strncmp(f->name, "PMPI_", 5))
            f->name++;
        if ((l = dwfl_module_getsrc(m, pc)))
            f->file = dwfl_lineinfo(l, NULL, &f->line, NULL, NULL, NULL);
        inlined_at(m, pc, f);
    }
    t->n++;
    if (f->name && !strcmp(f->name, "main"))
        return DWARF_CB_ABORT;  /* what calls main says nothing */
    return t->n < FRAMES ? DWARF_CB_OK : DWARF_CB_ABORT;
}

static int is_mpi(const char *name)
{
    return name && (!strncmp(name, "MPI_", 4) || !strncmp(name, "mpi_", 4));
}

static const char *signame(int sig)
{
    static const char *const n[] = { [4] = "SIGILL", [5] = "SIGTRAP",
        [6] = "SIGABRT", [7] = "SIGBUS", [8] = "SIGFPE", [11] = "SIGSEGV" };
    return sig > 0 && sig < 12 && n[sig] ? n[sig] : "a signal";
}

/* "SIG in f (file:line) < g (file:line) < main (file:line)". */
static void format(const struct trace *t, int sig, char *out, size_t len)
{
    int first = 0;
    size_t n = 0;

    for (int i = t->n - 1; i >= 0; i--)
        if (is_mpi(t->f[i].name)) {
            first = i;          /* the program's outermost MPI call */
            break;
        }
    out[0] = 0;
    if (sig)
        add(out, len, &n, "%s in ", signame(sig));
    if (!t->n)
        add(out, len, &n, "(no frames: %s)", dwfl_errmsg(-1));
    for (int i = first; i < t->n; i++) {
        const struct frame *f = &t->f[i];
        const char *file = f->file ? strrchr(f->file, '/') : NULL;
        const char *sep = i > first ? " < " : "";
        if (!f->name)
            add(out, len, &n, "%s%#lx", sep, (unsigned long)f->pc);
        else if (f->file && !is_mpi(f->name))
            add(out, len, &n, "%s%s (%s:%d)", sep, f->name,
                file ? file + 1 : f->file, f->line);
        else
            add(out, len, &n, "%s%s", sep, f->name);
    }
}

/* ---- taking a rank's stacks --------------------------------------------- */

static void drop_pieces(void)
{
    for (int i = 0; i < npieces; i++)
        free(piece[i].b);
    npieces = 0;
}

/* Thread i's stack, from a little below its stack pointer to the end of
   the region it is in (at most STACK_MAX). */
static void read_stack(int rank, const struct yod_dbg_info *in, int i)
{
    uint64_t sp = in->regs[i].rsp, lo = sp - RED_ZONE, hi = 0;
    struct piece *p = &piece[npieces];
    long got;

    for (int r = 0; r < LWK_NREGIONS; r++)
        if (in->size[r] && sp >= in->va[r] && sp <= in->va[r] + in->size[r]) {
            hi = in->va[r] + in->size[r];
            lo = lo < in->va[r] ? in->va[r] : lo;
        }
    if (!hi)
        return;
    if (hi - lo > STACK_MAX)
        hi = lo + STACK_MAX;
    if (!(p->b = malloc(hi - lo)))
        return;
    got = rankdbg_read(rank, in, lo, p->b, hi - lo);
    if (got <= 0) {
        free(p->b);
        return;
    }
    p->lo = lo;
    p->hi = lo + (uint64_t)got;
    npieces++;
}

static void keep(int rank, int cpu, int main, const char *text)
{
    if (ntaken == cap) {
        struct taken *t = realloc(taken, (cap ? 2 * cap : 64) *
                                         sizeof(*taken));
        if (!t)
            return;
        taken = t;
        cap = cap ? 2 * cap : 64;
    }
    taken[ntaken] = (struct taken){ .rank = rank, .cpu = cpu, .main = main };
    snprintf(taken[ntaken++].text, LINE_MAX_, "%s", text);
}

void stacks_take(int rank, const struct yod_dbg_info *in, int sig)
{
    static pid_t tid;
    char text[LINE_MAX_];

    drop_pieces();
    for (uint32_t i = 0; i < in->nthreads; i++)
        read_stack(rank, in, (int)i);
    if (open_program(in) < 0)
        return;
    for (uint32_t i = 0; i < in->nthreads; i++) {
        struct trace t = { .n = 0 };
        int died = in->ev[i].why == LWK_DBG_FAULTED ||
                   in->ev[i].why == LWK_DBG_ABORTED;
        cur = &in->regs[i];
        dwfl_getthread_frames(dwfl, ++tid, on_frame, &t);
        format(&t, died ? sig : 0, text, sizeof(text));
        keep(rank, (int)in->cpu[i], in->cpu[i] == in->main_cpu, text);
    }
    drop_pieces();
}

static int was_taken(int rank)
{
    for (int i = 0; i < ntaken; i++)
        if (taken[i].rank == rank)
            return 1;
    return 0;
}

void stacks_take_live(int resume)
{
    struct yod_dbg_info *in = malloc(sizeof(*in));
    const struct node *silent = NULL;   /* did not answer: not asked again */

    for (int r = 0; in && r < o.size; r++) {
        struct node *n = job[r];
        if (n->exited || n->down || was_taken(r) || leader_of(n) == silent)
            continue;
        if (rankdbg_snap(r, in) < 0) {
            if (!n->exited)     /* else it ended meanwhile: no news */
                fprintf(stderr, "yod: rank %d (nid %u): no stack: %s\n", r,
                        n->nid, rankdbg_why());
            if (!leader_of(n)->got.type)
                silent = leader_of(n);
            continue;
        }
        stacks_take(r, in, 0);
        /* A rank gdb holds stays as gdb has it. */
        if (resume && !gdbserver_has(r) &&
            rankdbg_op(r, YOD_DBG_CONT, 0, in->threads, 0, 0) < 0)
            fprintf(stderr, "yod: rank %d: cannot let it go on: %s\n", r,
                    rankdbg_why());
    }
    free(in);
}

/* ---- the summary --------------------------------------------------------- */

static int same(const struct taken *a, const struct taken *b)
{
    return a->main == b->main && (a->main || a->cpu == b->cpu) &&
           !strcmp(a->text, b->text);
}

/* "0-2,4,6-7": the ranks whose entry is the same as g's. */
static void ranks_of(const struct taken *g, char *out, size_t len,
                     int *count)
{
    size_t n = 0;
    int run = -2, last = -2;

    *count = 0;
    out[0] = 0;
    for (int i = 0; i <= ntaken; i++) {
        int r = i < ntaken && same(&taken[i], g) ? taken[i].rank : -1;
        if (i < ntaken && r < 0)
            continue;
        if (r >= 0 && r == last + 1) {
            last = r;
            (*count)++;
            continue;
        }
        if (run >= 0)
            add(out, len, &n, last > run ? "%s%d-%d" : "%s%d", n ? "," : "",
                run, last);
        run = last = r;
        *count += r >= 0;
    }
}

static int by_rank(const void *a, const void *b)
{
    const struct taken *x = a, *y = b;

    return x->rank != y->rank ? x->rank - y->rank : x->cpu - y->cpu;
}

char *stacks_summary(void)
{
    size_t len = 256 + (size_t)ntaken * (LINE_MAX_ + 600), n = 0;
    char *out = ntaken ? malloc(len) : NULL;
    char *done = ntaken ? calloc((size_t)ntaken, 1) : NULL;

    if (!out || !done) {
        free(out);
        free(done);
        ntaken = 0;
        return NULL;
    }
    qsort(taken, (size_t)ntaken, sizeof(*taken), by_rank);
    for (int i = 0; i < ntaken; i++) {
        char ranks[512];
        int count;
        if (done[i])
            continue;
        ranks_of(&taken[i], ranks, sizeof(ranks), &count);
        for (int k = i; k < ntaken; k++)
            done[k] |= same(&taken[k], &taken[i]);
        add(out, len, &n, "  rank%s %s", count > 1 ? "s" : "", ranks);
        if (!taken[i].main)
            add(out, len, &n, ", thread %d", taken[i].cpu + 1);
        add(out, len, &n, ": %s\n", taken[i].text);
    }
    free(done);
    ntaken = 0;
    return out;
}

void stacks_report(void)
{
    char *s = stacks_summary();
    char *line, *save = NULL;

    if (!s)
        return;
    fprintf(stderr, "yod: the ranks' stacks when the job ended:\n");
    for (line = strtok_r(s, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save))
        fprintf(stderr, "yod: %s\n", line);
    free(s);
}
