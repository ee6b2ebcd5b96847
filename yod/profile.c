/* SPDX-License-Identifier: MIT */
/*
 * profile.c: yod -profile's service side (profile.h).  Each rank's node
 * samples its program counter into a histogram in the rank's memory
 * (pct/profile.c, kernel/profile.c) and keeps the rank at its end; yod
 * reads the histogram through the node's window (rankdbg.c), writes it
 * as gmon.out.RANK (gmon.c) and adds it to the job's total, whose
 * functions, named by libdwfl from the program's symbols, the summary
 * lists.  All ranks run one program, so their bins line up.
 */
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <limits.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmon.h"
#include "profile.h"
#include "rankdbg.h"
#include "yod.h"

#define TOP         10          /* functions the summary lists */

static uint64_t *total;         /* the job's bins, summed */
static struct lwk_prof shape;   /* theirs (lo, shift) */
static uint64_t nbins, samples;
static int nranks, first_rank = -1, last_rank;

static uint64_t bins_of(const struct lwk_prof *p)
{
    return (p->hi - p->lo + (1ull << p->shift) - 1) >> p->shift;
}

/* The job's total takes this rank's bins (the first sets the shape). */
static void add_up(const struct lwk_prof *p, const uint16_t *b, uint64_t n)
{
    if (!total) {
        if (!(total = calloc(n, sizeof(*total))))
            return;
        shape = *p;
        nbins = n;
    }
    if (p->lo != shape.lo || p->shift != shape.shift || n != nbins)
        return;                 /* cannot be: one program */
    for (uint64_t i = 0; i < n; i++) {
        total[i] += b[i];
        samples += b[i];
    }
}

/* yod -counters: each rank's counts (NULL until one came), and how many
   ranks' CPUs could not count. */
static struct lwk_counts *counts;
static int *counted, uncounted;

static void counters_take(int rank, const struct yod_dbg_info *info)
{
    if (info->counters < 0)
        uncounted++;
    if (info->counters <= 0 || rank < 0 || rank >= o.size)
        return;
    if (!counts && (!(counts = calloc((size_t)o.size, sizeof(*counts))) ||
                    !(counted = calloc((size_t)o.size, sizeof(*counted)))))
        return;
    counts[rank] = info->counts;
    counted[rank] = 1;
}

static void counters_report(void)
{
    struct lwk_counts all = { 0 };

    if (!o.counters)
        return;
    if (uncounted)
        fprintf(stderr, "yod: -counters: %d rank%s ran on CPUs without an "
                "architectural PMU (CPUID leaf 0xA reports no fixed "
                "counters, as under QEMU's TCG; KVM and real machines have "
                "them): no counts for %s\n", uncounted,
                uncounted == 1 ? "" : "s", uncounted == 1 ? "it" : "them");
    for (int r = 0; counts && r < o.size; r++) {
        if (!counted[r])
            continue;
        fprintf(stderr, "yod: counters: rank %d: %lu cycles, %lu "
                "instructions (%.2f per cycle), user mode\n", r,
                (unsigned long)counts[r].cycles,
                (unsigned long)counts[r].instructions,
                counts[r].cycles ? (double)counts[r].instructions /
                                   (double)counts[r].cycles : 0);
        all.cycles += counts[r].cycles;
        all.instructions += counts[r].instructions;
    }
    if (counts)
        fprintf(stderr, "yod: counters: all ranks: %lu cycles, %lu "
                "instructions\n", (unsigned long)all.cycles,
                (unsigned long)all.instructions);
}

void profile_take(int rank, const struct yod_dbg_info *info)
{
    const struct lwk_prof *p = &info->prof;
    uint64_t n = p->bins && p->hi > p->lo && p->shift <= 16 ? bins_of(p) : 0;
    uint16_t *b;
    char path[32];
    struct gmon_hist h;

    if (o.counters)
        counters_take(rank, info);
    if (!o.profile_hz)
        return;
    if (!n || n > (LWK_REGION_MAX >> 1)) {
        fprintf(stderr, "yod: rank %d: no profile: its node did not sample "
                "it (see the node's log)\n", rank);
        return;
    }
    if (!(b = malloc(n * 2)) ||
        rankdbg_read(rank, info, p->bins, b, n * 2) != (long)(n * 2)) {
        fprintf(stderr, "yod: rank %d: no profile: cannot read its "
                "histogram: %s\n", rank, b ? rankdbg_why() : "out of memory");
        free(b);
        return;
    }
    h = (struct gmon_hist){ .lo = p->lo, .shift = p->shift,
                            .hz = info->prof_hz, .nbins = n, .bins = b };
    snprintf(path, sizeof(path), "gmon.out.%d", rank);
    if (gmon_write_file(path, &h) < 0)
        fprintf(stderr, "yod: rank %d: cannot write %s: %s\n", rank, path,
                strerror(errno));
    else {
        nranks++;
        if (first_rank < 0 || rank < first_rank)
            first_rank = rank;
        if (rank > last_rank)
            last_rank = rank;
    }
    add_up(p, b, n);
    free(b);
}

/* ---- the summary ------------------------------------------------------- */

struct func {
    const char *name;
    uint64_t samples;
};

static int by_samples(const void *a, const void *b)
{
    const struct func *x = a, *y = b;

    return x->samples < y->samples ? 1 : x->samples > y->samples ? -1
           : strcmp(x->name, y->name);
}

static const Dwfl_Callbacks offline = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = dwfl_offline_section_address,
};

/* The total's functions, most samples first: *n of them (NULL if the
   program's symbols cannot be read). */
static struct func *functions(int *n)
{
    Dwfl *d = dwfl_begin(&offline);
    Dwfl_Module *m;
    struct func *f = NULL;
    int nf = 0, cap = 0;

    *n = 0;
    if (!d || !(m = dwfl_report_elf(d, "prog", o.argv[0], -1, 0, false)) ||
        dwfl_report_end(d, NULL, NULL) != 0) {
        if (d)
            dwfl_end(d);
        return NULL;
    }
    for (uint64_t i = 0; i < nbins; i++) {
        const char *name;
        if (!total[i])
            continue;
        name = dwfl_module_addrname(m, shape.lo + (i << shape.shift));
        name = name ? name : "(unknown)";
        if (nf && !strcmp(f[nf - 1].name, name)) {      /* the same one */
            f[nf - 1].samples += total[i];
            continue;
        }
        if (nf == cap && !(f = realloc(f, (cap = cap * 2 + 64) * sizeof(*f))))
            break;
        f[nf++] = (struct func){ strdup(name), total[i] };
    }
    dwfl_end(d);
    qsort(f, (size_t)nf, sizeof(*f), by_samples);
    *n = nf;
    return f;
}

/* The MPI profile that rank 0 of a program built with mpicc -mpiprof
   wrote at MPI_Finalize (mpi/mpiprof.c), if it did. */
static void mpi_profile(void)
{
    const char *base = strrchr(o.argv[0], '/');
    char path[PATH_MAX];

    snprintf(path, sizeof(path), "%s/%s.%d.%u.mpiP", o.chroot ? o.chroot
             : ".", base ? base + 1 : o.argv[0], o.size, jobid);
    if (access(path, F_OK) == 0)
        fprintf(stderr, "yod: profile: the MPI profile (calls and time per "
                "MPI function and rank) is in %s\n",
                o.chroot ? path : path + 2);
}

void profile_report(void)
{
    struct func *f;
    char files[48];
    int n;

    counters_report();
    if (!o.profile_hz)
        return;
    mpi_profile();
    if (!nranks)
        return;
    if (nranks > 1)
        snprintf(files, sizeof(files), "gmon.out.%d .. gmon.out.%d",
                 first_rank, last_rank);
    else
        snprintf(files, sizeof(files), "gmon.out.%d", first_rank);
    fprintf(stderr, "yod: profile: %lu samples of %d rank%s at %u Hz (%.2f "
            "s of CPU) in %s: gprof %s gmon.out.RANK\n",
            (unsigned long)samples, nranks, nranks == 1 ? "" : "s",
            o.profile_hz, (double)samples / o.profile_hz, files, o.argv[0]);
    if (!samples)
        return;
    if (!(f = functions(&n))) {
        fprintf(stderr, "yod: profile: cannot read %s's symbols: %s\n",
                o.argv[0], dwfl_errmsg(-1));
        return;
    }
    fprintf(stderr, "yod: profile: %% of samples, samples, function (all "
            "ranks):\n");
    for (int i = 0; i < n && i < TOP; i++)
        fprintf(stderr, "yod: %6.1f%% %8lu  %s\n",
                100.0 * (double)f[i].samples / (double)samples,
                (unsigned long)f[i].samples, f[i].name);
    for (int i = 0; i < n; i++)
        free((char *)f[i].name);
    free(f);
}
