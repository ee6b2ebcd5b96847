/* SPDX-License-Identifier: MIT */
/*
 * options.c: yod's command line, and mpiexec's mapped onto it.
 *
 * yod is also installed as mpiexec and mpirun: called by those names it
 * reads the options users of MPICH, Open MPI or Slurm type (-n, -host,
 * -env, -x, --timeout, -l) and turns them into yod's; an option it cannot
 * map is refused by name, never ignored.  Every bad option or value is
 * one line naming it and saying what is accepted, and status ST_USAGE.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profile.h"
#include "yod.h"

#define STR_(x)     #x
#define STR(x)      STR_(x)
#define NODES_RANGE "1.." STR(MAX_NODES)
#define RANKS_RANGE "1.." STR(MAX_RANKS)

struct opts o;

static const char *prog = "yod";        /* or mpiexec, mpirun */

/* The variables yod sets for every rank (launch.c build_args), and the
   PCT's: -env may not set them. */
static const char *const reserved[] = {
    "PTL_JOB_MAP", "PTL_JOB_SIZE", "PTL_JOB_ID", "PTL_PID", "LWK_YOD",
    "LWK_EXE", "PTL_JOB_RANK",
};

static const char yod_usage[] =
    "usage: yod [options] [--] PROG [ARGS...]\n"
    "  -sz N, -n N, -np N  run N ranks, one per node (default 1; with -vn\n"
    "                  one per CPU)\n"
    "  -nodes LIST     only these nids, e.g. 0,2,5-6; alone (no -sz), one\n"
    "                  rank per listed node\n"
    "  -t TIME         time limit: seconds (90, 2.5) or [[H:]M:]S (1:30);\n"
    "                  the job is killed and yod exits 124\n"
    "  -label          prefix each output line with [rank]\n"
    "  -wait           if too few nodes are free, wait for them\n"
    "  -keep           a rank that faults does not end the others (by\n"
    "                  default the first fault kills the job)\n"
    "  -kill-on-error  a rank that exits nonzero ends the job (mpiexec's\n"
    "                  default; yod's keeps ranks independent, as Cougar's)\n"
    "  -heap SIZE      heap per process, e.g. 16M (default: the node's free\n"
    "                  memory)\n"
    "  -stack SIZE     stack per process, e.g. 256K (default 1M)\n"
    "  -threads        threads mode: each rank's threads (pthreads, COP) run\n"
    "                  on its node's other CPUs, one per CPU (default: one\n"
    "                  CPU per rank, the others halted)\n"
    "  -coproc         message co-processor mode: CPU 1 of each node runs the\n"
    "                  Portals engine, so a rank's Portals calls and\n"
    "                  receives cost its CPU no trap or interrupt\n"
    "  -vn             virtual-node mode: one rank per CPU, each its own\n"
    "                  process (ranks on one node exchange messages in the\n"
    "                  kernel, never on the network); N ranks take\n"
    "                  ceil(N/CPUs) nodes\n"
    "  -env NAME=VAL   set NAME in every rank's environment; -env NAME\n"
    "                  passes yod's own value (repeatable; nothing else of\n"
    "                  yod's environment is passed)\n"
    "  -chroot DIR     the ranks' files only inside DIR, which they see as /\n"
    "                  (no .., absolute path or symlink leads out); they\n"
    "                  start in it\n"
    "  -io N           N I/O servers serve the ranks' files (yod and N-1\n"
    "                  processes, each its own station; default 1 or the\n"
    "                  cluster's, tools/cluster up --io N; docs/io.md)\n"
    "  -pfs DIR        DIR is the ranks' /pfs: striped parallel files over\n"
    "                  the I/O servers (default the cluster's, tools/cluster\n"
    "                  up --pfs DIR; docs/io.md)\n"
    "  -allow-root     run as root (refused by default: the ranks' file\n"
    "                  requests act with yod's rights; LWK_ALLOW_ROOT=1 too)\n"
    "  -core WHICH     core files of ranks that fault or abort (core.JOB.RANK\n"
    "                  here, within ulimit -c): first (default), all, none\n"
    "  -debug RANKS    stop these ranks (e.g. 0,2-3) before they start and\n"
    "                  serve each to gdb: yod prints the socket for gdb's\n"
    "                  `target remote` (docs/debugging.md)\n"
    "  -attach JOB RANK  stop RANK of your running job JOB for gdb (the\n"
    "                  job's yod serves it; prints the socket)\n"
    "  -stacks JOB     print every rank's stack of your running job JOB,\n"
    "                  grouped; the job goes on\n"
    "  -profile[=HZ]   sample each rank's program counter (1000 a second):\n"
    "                  gmon.out.RANK for gprof, a summary, and a\n"
    "                  program built with mpicc -mpiprof writes its MPI\n"
    "                  profile PROG.N.JOB.mpiP (docs/debugging.md)\n"
    "  -counters       each rank's cycles and instructions (user mode),\n"
    "                  where the CPU has an architectural PMU (KVM, real\n"
    "                  machines; QEMU's TCG has none: yod says so)\n"
    "A rank that calls MPI_Abort, abort(), fails an assert() or hits an NX\n"
    "fatal error ends the job on every node at once.\n"
    "Exit status: 0 every rank exited 0; else the highest rank status (a\n"
    "rank killed by a fault counts as 128+signal: page fault 139); an\n"
    "aborting rank's code; 124 time limit; 130/143 SIGINT/SIGTERM; 125 the\n"
    "job could not run or lost a node; 126 not a compute-node program; 127\n"
    "no such program; 74 its output could not be written (141: nothing\n"
    "reads it any more, as with yod ... | head); 2 bad usage.\n"
    "The cluster: $LWK_CLUSTER, else the one `tools/cluster up` last\n"
    "recorded in ${XDG_CONFIG_HOME:-~/.config}/lwk/cluster.  On one booted\n"
    "with --slurm, yod runs only inside a Slurm allocation (sbatch, salloc,\n"
    "srun), on its nodes (docs/slurm.md).\n"
    "  mpiexec -n 4 prog       srun -n 4 prog           yod -sz 4 prog\n"
    "  mpiexec -host 0,2 prog  srun -w nid[00000,00002] yod -nodes 0,2 prog\n"
    "  mpiexec -env A 1 prog   srun --export=A=1 prog   yod -env A=1 prog\n"
    "  mpiexec -l prog         srun --label prog        yod -label prog\n"
    "  mpiexec --timeout 60    srun -t 1 (minutes)      yod -t 60 (or 1:00)\n";

static const char mpiexec_usage[] =
    "usage: %s [options] [--] PROG [ARGS...]     (yod under another name)\n"
    "  -n N, -np N            ranks, one per node (yod -sz N)\n"
    "  -host LIST, -hosts LIST, --host LIST\n"
    "                         nids to run on, e.g. 0,2-3 (yod -nodes);\n"
    "                         alone, one rank per nid\n"
    "  -env NAME VALUE, -genv NAME VALUE\n"
    "                         set NAME for every rank (yod -env NAME=VALUE)\n"
    "  -genvlist A,B          pass yod's A and B (yod -env A -env B)\n"
    "  -x NAME[=VALUE]        the same, Open MPI's way\n"
    "  -t T, --timeout T      time limit, seconds or [[H:]M:]S (yod -t)\n"
    "  -l, --label            prefix output lines with [rank] (yod -label)\n"
    "  --allow-run-as-root    run as root (yod -allow-root)\n"
    "A rank that exits nonzero ends the job (yod -kill-on-error), as with\n"
    "MPICH.  Other options are refused by name; yod -h tells the rest,\n"
    "including the exit statuses.\n";

static void usage(int status)
{
    FILE *f = status ? stderr : stdout;

    if (!strcmp(prog, "yod"))
        fputs(yod_usage, f);
    else
        fprintf(f, mpiexec_usage, prog);
    exit(status);
}

void bad(const char *opt, const char *val, const char *want)
{
    fprintf(stderr, "%s: %s %s: %s\n", prog, opt, val, want);
    exit(ST_USAGE);
}

static int int_arg(const char *opt, const char *val, int lo, int hi,
                   const char *want)
{
    char *end;
    long x = strtol(val, &end, 10);

    if (!*val || *end || x < lo || x > hi)
        bad(opt, val, want);
    return (int)x;
}

/* Bytes, with an optional K, M or G suffix. */
static uint64_t size_arg(const char *opt, const char *val)
{
    const char *want = "give a size in bytes with an optional K, M or G "
                       "suffix, at least 4K (e.g. 64M)";
    char *end;
    unsigned long long x = strtoull(val, &end, 10);
    int shift = 0;

    if (*end == 'K' || *end == 'k')
        shift = 10;
    else if (*end == 'M' || *end == 'm')
        shift = 20;
    else if (*end == 'G' || *end == 'g')
        shift = 30;
    if (end == val || !isdigit((unsigned char)*val) || end[shift ? 1 : 0] ||
        x > (1ull << 40) >> shift || (x << shift) < 4096)
        bad(opt, val, want);
    return (uint64_t)x << shift;
}

/* Seconds ("90", "2.5") or [[H:]M:]S ("1:30", "0:05", "1:00:00"), as
   mpiexec, srun and timeout(1) users write them. */
static double time_arg(const char *opt, const char *val)
{
    const char *want = "give seconds (90, 2.5) or [[H:]M:]S (1:30, 0:05, "
                       "1:00:00), more than 0";
    const char *p = val;
    double t = 0;
    int fields = 0;

    for (;;) {
        char *end;
        double x;
        if (!isdigit((unsigned char)*p))
            bad(opt, val, want);
        x = strtod(p, &end);
        fields++;
        if (*end == ':') {
            if (memchr(p, '.', end - p) || fields == 3)
                bad(opt, val, want);    /* only the seconds have a fraction */
            t = (t + x) * 60;
            p = end + 1;
            continue;
        }
        if (*end || (fields > 1 && x >= 60))
            bad(opt, val, want);
        t += x;
        break;
    }
    if (t <= 0 || t > 1e7)
        bad(opt, val, want);
    return t;
}

/* NAME=VALUE, or NAME: yod's own value. */
static char *env_arg(const char *opt, const char *val)
{
    size_t n = strcspn(val, "=");
    const char *own;
    char *s;

    if (n == 0 || !(isalpha((unsigned char)val[0]) || val[0] == '_'))
        bad(opt, val, "give NAME=VALUE or NAME (a variable yod has)");
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)val[i]) && val[i] != '_')
            bad(opt, val, "a name is letters, digits and _");
    for (size_t i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++)
        if (strlen(reserved[i]) == n && !strncmp(val, reserved[i], n))
            bad(opt, val, "yod sets this variable itself");
    if (o.nenv == YOD_WORDS_MAX - 7)
        bad(opt, val, "too many variables (at most 25)");
    if (val[n] == '=')
        return strdup(val);
    if (!(own = getenv(val)))
        bad(opt, val, "there is no such variable here; give NAME=VALUE");
    if (!(s = malloc(n + strlen(own) + 2)))
        bad(opt, val, "out of memory");
    sprintf(s, "%s=%s", val, own);
    return s;
}

static void add_env(const char *opt, const char *val)
{
    o.env[o.nenv++] = env_arg(opt, val);
}

/* -chroot DIR: a directory yod can search. */
static const char *dir_arg(const char *opt, const char *val)
{
    struct stat st;
    char want[160];

    errno = 0;
    if (stat(val, &st) < 0 || !S_ISDIR(st.st_mode) || access(val, X_OK) < 0) {
        snprintf(want, sizeof(want), "%s; give a directory the ranks' files "
                 "are to stay in", errno ? strerror(errno) : "not a directory");
        bad(opt, val, want);
    }
    return val;
}

/* The value after option argv[*i], or a one-line error. */
static const char *value(int argc, char **argv, int *i, const char *want)
{
    if (*i + 1 >= argc)
        bad(argv[*i], "(nothing)", want);
    return argv[++*i];
}

static int is(const char *a, const char *x, const char *y, const char *z)
{
    return !strcmp(a, x) || (y && !strcmp(a, y)) || (z && !strcmp(a, z));
}

/* The program and its arguments start at argv[i]. */
static void program_at(int argc, char **argv, int i)
{
    if (i >= argc) {
        fprintf(stderr, "%s: no program given\n", prog);
        usage(ST_USAGE);
    }
    if (argc - i > YOD_WORDS_MAX)
        bad(argv[i], "...", "a program takes at most 31 arguments");
    o.argv = argv + i;
}

static int core_arg(const char *opt, const char *val)
{
    if (!strcmp(val, "first"))
        return CORE_FIRST;
    if (!strcmp(val, "all"))
        return CORE_ALL;
    if (!strcmp(val, "none"))
        return CORE_NONE;
    bad(opt, val, "give first (the first rank that faults or aborts), all "
        "or none");
    return CORE_NONE;
}

/* -attach JOB RANK, -stacks JOB: a request to a running job's yod
   (jobctl.c); nothing may follow. */
static void ask_job(int argc, char **argv, int *i, const char *what)
{
    const char *opt = argv[*i];
    static char req[64];
    int rank;

    int with_rank = !strcmp(what, "attach");

    if (*i + 1 + with_rank >= argc)
        bad(opt, *i + 1 < argc ? argv[*i + 1] : "(nothing)", with_rank
            ? "give JOB RANK: a job id, as showmesh names it, and a rank"
            : "give JOB: a job id, as showmesh names it");
    o.ask_job = (unsigned)int_arg(opt, argv[++*i], 1, 0x7fffffff,
                                  "give a job id, as showmesh names it");
    rank = with_rank ? int_arg(opt, argv[++*i], 0, MAX_RANKS - 1,
                               "give a rank, 0..511, after the job id") : 0;
    snprintf(req, sizeof(req), with_rank ? "%s %d" : "%s", what, rank);
    o.ask = req;
    if (*i + 1 < argc)
        bad(opt, argv[*i + 1], "nothing may follow");
}

static const char *size_word = "";     /* -sz's value, for errors */
static int explicit_size;

/* -nodes alone: one rank per listed node; with a size, that many of them. */
static void settle_size(void)
{
    int listed = o.nodes ? nodes_list_count() : 0;
    char want[80];

    /* mpiexec without -n inside a Slurm job: one rank per node of the
       allocation, as MPICH's under Slurm (slurm.c, once the cluster is
       known to be Slurm's). */
    if (!o.size && !o.nodes && strcmp(prog, "yod") && getenv("SLURM_JOB_ID"))
        return;
    if (!o.size)
        o.size = o.nodes ? listed : 1;
    if (o.size > MAX_NODES && o.mode != YOD_MODE_VN) {
        snprintf(want, sizeof(want), "at most %d ranks, one per node (more "
                 "with -vn, one per CPU)", MAX_NODES);
        bad(o.nodes && !explicit_size ? "-nodes" : "-sz",
            o.nodes && !explicit_size ? o.nodes : size_word, want);
    }
    if (o.nodes && o.size > listed && o.mode != YOD_MODE_VN) {
        snprintf(want, sizeof(want), "lists %d node%s, fewer than the %d "
                 "ranks asked", listed, listed == 1 ? "" : "s", o.size);
        bad("-nodes", o.nodes, want);
    }
}

static void yod_args(int argc, char **argv)
{
    int i;

    for (i = 1; i < argc && argv[i][0] == '-'; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            i++;
            break;
        } else if (is(a, "-h", "--help", "-help")) {
            usage(0);
        } else if (!strcmp(a, "-label")) {
            o.label = 1;
        } else if (!strcmp(a, "-wait")) {
            o.wait = 1;
        } else if (!strcmp(a, "-keep")) {
            o.keep = 1;
        } else if (!strcmp(a, "-kill-on-error")) {
            o.kill_on_error = 1;
        } else if (!strcmp(a, "-threads")) {
            o.mode = YOD_MODE_THREADS;
        } else if (!strcmp(a, "-coproc")) {
            o.mode = YOD_MODE_COPROC;
        } else if (!strcmp(a, "-vn")) {
            o.mode = YOD_MODE_VN;
        } else if (is(a, "-sz", "-n", "-np")) {
            size_word = value(argc, argv, &i, RANKS_RANGE);
            explicit_size = 1;
            o.size = int_arg(a, size_word, 1, MAX_RANKS,
                             "give a number of ranks, " RANKS_RANGE
                             " (above " STR(MAX_NODES) " with -vn)");
        } else if (!strcmp(a, "-nodes")) {
            o.nodes = nodes_arg(a, value(argc, argv, &i, "e.g. 0,2-3"));
        } else if (!strcmp(a, "-t")) {
            o.timeout = time_arg(a, value(argc, argv, &i, "e.g. 90 or 1:30"));
        } else if (!strcmp(a, "-heap")) {
            o.heap = size_arg(a, value(argc, argv, &i, "a size, e.g. 16M"));
        } else if (!strcmp(a, "-stack")) {
            o.stack = size_arg(a, value(argc, argv, &i, "a size, e.g. 1M"));
        } else if (!strcmp(a, "-env")) {
            add_env(a, value(argc, argv, &i, "NAME=VALUE"));
        } else if (!strcmp(a, "-chroot")) {
            o.chroot = dir_arg(a, value(argc, argv, &i, "a directory"));
        } else if (!strcmp(a, "-pfs")) {
            o.pfs = value(argc, argv, &i, "a directory");
        } else if (!strcmp(a, "-io")) {
            o.io = int_arg(a, value(argc, argv, &i, "1..16"), 1,
                           YOD_IO_SERVERS_MAX, "give a number of I/O "
                           "servers, 1..16");
        } else if (!strcmp(a, "-allow-root")) {
            o.allow_root = 1;
        } else if (!strcmp(a, "-core")) {
            o.core = core_arg(a, value(argc, argv, &i, "first, all or none"));
        } else if (!strcmp(a, "-debug")) {
            o.debug = nodes_arg(a, value(argc, argv, &i, "ranks, e.g. 0,2-3"));
        } else if (!strcmp(a, "-profile")) {
            o.profile_hz = PROFILE_HZ;
        } else if (!strcmp(a, "-counters")) {
            o.counters = 1;
        } else if (!strncmp(a, "-profile=", 9)) {
            o.profile_hz = (uint32_t)int_arg("-profile", a + 9, 1,
                                             LWK_PROF_HZ_MAX, "give samples "
                                             "a second, 1..10000");
        } else if (!strcmp(a, "-attach")) {
            ask_job(argc, argv, &i, "attach");
            return;
        } else if (!strcmp(a, "-stacks")) {
            ask_job(argc, argv, &i, "stacks");
            return;
        } else {
            fprintf(stderr, "yod: unknown option %s (yod -h lists them)\n",
                    a);
            exit(ST_USAGE);
        }
    }
    program_at(argc, argv, i);
}

/* What a user of another launcher may try that has no meaning here. */
static const char *unmapped(const char *a)
{
    static const struct { const char *opt, *why; } no[] = {
        { "-ppn", "one rank per node here: use -n" },
        { "-npernode", "one rank per node here: use -n" },
        { "--map-by", "one rank per node here: use -n" },
        { "-f", "no host files: give nids with -host LIST" },
        { "-hostfile", "no host files: give nids with -host LIST" },
        { "--hostfile", "no host files: give nids with -host LIST" },
        { "-machinefile", "no host files: give nids with -host LIST" },
        { "-genvall", "a rank gets only what you pass: use -genvlist A,B "
                      "or -x NAME" },
        { "-genvnone", "a rank gets only what you pass already" },
        { "-configfile", "one program per job (no MPMD)" },
        { ":", "one program per job (no MPMD)" },
        { "-wdir", "the ranks start in mpiexec's directory: cd there" },
        { "-bind-to", "a process has its node's CPU to itself" },
    };

    for (size_t k = 0; k < sizeof(no) / sizeof(no[0]); k++)
        if (!strcmp(a, no[k].opt))
            return no[k].why;
    return "not an option this mpiexec knows";
}

static void mpiexec_args(int argc, char **argv)
{
    int i;

    o.kill_on_error = 1;        /* MPICH's mpiexec ends the job then */
    for (i = 1; i < argc && argv[i][0] == '-'; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            i++;
            break;
        } else if (is(a, "-h", "--help", "-help")) {
            usage(0);
        } else if (is(a, "-n", "-np", NULL)) {
            o.size = int_arg(a, value(argc, argv, &i, NODES_RANGE), 1,
                             MAX_NODES, "give a number of ranks, "
                             NODES_RANGE);
        } else if (is(a, "-host", "-hosts", "--host")) {
            o.nodes = nodes_arg(a, value(argc, argv, &i, "nids, e.g. 0,2-3"));
        } else if (is(a, "-env", "-genv", NULL)) {
            const char *name = value(argc, argv, &i, "NAME VALUE");
            const char *val = value(argc, argv, &i, "NAME VALUE");
            char *s = malloc(strlen(name) + strlen(val) + 2);
            if (!s || strchr(name, '='))
                bad(a, name, "give a NAME and then its VALUE");
            sprintf(s, "%s=%s", name, val);
            add_env(a, s);
            free(s);
        } else if (!strcmp(a, "-genvlist")) {
            char *list = strdup(value(argc, argv, &i, "A,B"));
            for (char *n = strtok(list, ","); n; n = strtok(NULL, ","))
                add_env(a, n);
        } else if (!strcmp(a, "-x")) {
            add_env(a, value(argc, argv, &i, "NAME[=VALUE]"));
        } else if (is(a, "-t", "--timeout", "-timeout")) {
            o.timeout = time_arg(a, value(argc, argv, &i, "e.g. 90 or 1:30"));
        } else if (is(a, "-l", "--label", "-label")) {
            o.label = 1;
        } else if (!strcmp(a, "--allow-run-as-root")) {
            o.allow_root = 1;
        } else {
            fprintf(stderr, "%s: %s: %s (%s -h lists what is)\n", prog, a,
                    unmapped(a), prog);
            exit(ST_USAGE);
        }
    }
    if (i < argc && !strcmp(argv[i], ":"))
        bad(":", "...", unmapped(":"));
    program_at(argc, argv, i);
    for (int k = i + 1; k < argc; k++)
        if (!strcmp(argv[k], ":"))
            bad(":", "...", unmapped(":"));
}

/* -debug names ranks of the job. */
static void check_debug(void)
{
    char want[80];

    for (unsigned r = (unsigned)o.size; o.debug && r < MAX_RANKS; r++)
        if (list_has(o.debug, r)) {
            snprintf(want, sizeof(want), "rank %u is not in a job of %d "
                     "rank%s", r, o.size, o.size == 1 ? "" : "s");
            bad("-debug", o.debug, want);
        }
}

/* The ranks' file requests act with yod's rights on this machine: as
   root, with every right.  Refused unless asked for by name. */
static void refuse_root(void)
{
    const char *env = getenv("LWK_ALLOW_ROOT");

    if (geteuid() != 0 || o.allow_root || (env && !strcmp(env, "1")))
        return;
    fprintf(stderr, "%s: refusing to run as root: the job's file requests "
            "would act with root's rights on this machine; run it as an "
            "ordinary user, or give %s (or LWK_ALLOW_ROOT=1)\n", prog,
            strcmp(prog, "yod") ? "--allow-run-as-root" : "-allow-root");
    exit(ST_USAGE);
}

void parse_args(int argc, char **argv)
{
    const char *base = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1
                                             : argv[0];

    if (!strcmp(base, "mpiexec") || !strcmp(base, "mpirun")) {
        prog = base;
        mpiexec_args(argc, argv);
    } else {
        yod_args(argc, argv);
    }
    if (o.ask)
        return;                 /* no program: a question for another yod */
    settle_size();
    refuse_root();
    check_debug();
    if (o.profile_hz && o.nenv > YOD_WORDS_MAX - 8) {
        fprintf(stderr, "%s: -profile passes LWK_MPIPROF too: at most 24 "
                "-env variables with it\n", prog);
        exit(ST_USAGE);
    }
}
