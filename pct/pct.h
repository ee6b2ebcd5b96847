/*
 * The process control thread: the user-level program on every node that
 * owns policy (what runs, where in memory, in which order) while the
 * Q-Kernel only provides the mechanisms (proc_* system calls).
 */
#ifndef PCT_H
#define PCT_H

#include <stddef.h>
#include <stdint.h>
#include "elf.h"
#include "siphash.h"
#include "uapi/abi.h"

#define PCT_MAX_JOBS    16
#define PCT_MAX_ARGS    32
#define PCT_HEAP_ALL    (~0ULL)         /* heap: the biggest region there is */

struct pct_sym;

/* How a job uses the node's CPUs (cpus.c). */
enum { PCT_MODE_ONE, PCT_MODE_THREADS, PCT_MODE_COPROC, PCT_MODE_VN };

struct job {
    int pid;                    /* 0: not loaded */
    int prio;                   /* higher runs first */
    const char *name;
    int module;                 /* boot module index; -1: from yod */
    int scratch_pid;            /* from yod: the process holding the image */
    int rank, size;             /* in the job (0 of 1 for boot modules) */
    int local;                  /* its index on this node: virtual-node
                                   mode runs it on CPU `local` (cpus.c) */
    int image_shared;           /* more ranks load from the image after
                                   this one: pct_load keeps it */
    int heap_share;             /* PCT_HEAP_ALL: the free memory is
                                   shared by this many ranks (0: 1) */
    char rank_env[24];          /* PTL_JOB_RANK=r */
    char pid_env[24];           /* PTL_PID=pid, the job map's */
    uint32_t ptl_pid;           /* that pid: the kernel lets it open no
                                   other (0: a boot module's, any) */
    uint64_t cpu_mask;          /* CPUs its mode got besides its own:
                                   threads' CPUs, the engine's (cpus.c) */
    int mode;                   /* PCT_MODE_*; -1: an unknown mode= word */
    const char *mode_word;      /* a boot module's mode=WORD, or NULL */
    const void *image;          /* its image; NULL once given back */
    uint64_t image_size;
    struct pct_sym *syms;       /* function names, kept for fault reports */
    uint32_t nsyms;
    struct elf_image elf;
    int argc;
    char *argv[PCT_MAX_ARGS + 1];
    int envc;
    char *envp[PCT_MAX_ARGS + 1];
    uint64_t stack_lo;          /* lowest stack address: overflow check */
    struct lwk_proc_map map;    /* its regions, here and in it */
    uint64_t auxv;              /* its auxiliary vector (in its stack) */
    uint64_t mem;               /* bytes its regions take (heap included) */
    struct sipkey yod_key;      /* from yod: the rank's key (auxv) */
    char why[160];              /* pct_load failed: why (also on the log) */
    int done;
    struct lwk_run_result last;
    uint32_t profile_hz;        /* yod -profile: the sampling rate; 0 not */
    int counters;               /* yod -counters: 1 counted, -1 the CPU
                                   cannot (no PMU), 0 not asked */
    struct lwk_prof prof;       /* its histogram, at the heap's end */
};

/* profile.c (yod -profile): the heap the program is told of, its end
   set aside for rank j's histogram (j->prof) if j->profile_hz asks; and,
   once j->pid is made, its sampling and counting started. */
uint64_t profile_reserve(struct job *j, uint64_t heap_va, uint64_t heap);
void profile_loaded(struct job *j);

/* load.c: create the process for `j` and make it ready to run; `heap`
   may be PCT_HEAP_ALL.  The boot module is given back either way. */
int pct_load(struct job *j, uint64_t heap, uint64_t stack, uint64_t nid);
/* load.c's steps, shared with linux.c: the regions of `d` (or a message
   saying what did not fit); the heap at `va`, up to `max` bytes. */
long pct_create(struct job *j, const struct lwk_proc_desc *d,
                struct lwk_proc_map *m);
long pct_add_heap(struct job *j, long pid, uint64_t va, uint64_t heap,
                  uint64_t max, uint64_t flags);
/* linux.c: pct_load for a static Linux program (no PT_LWK), beside the
   runtime (lxrt/, docs/LINUX.md). */
int pct_load_linux(struct job *j, uint64_t heap, uint64_t stack,
                   uint64_t nid);
uint64_t pct_lxrt_split(const struct job *j, const void **rt,
                        uint64_t *rt_len);
/* Where the auxiliary vector is on a stack ustack_build made (sp). */
uint64_t pct_auxv_at(const struct job *j, uint64_t sp);
/* The end of pct_load for both kinds: record and say what was loaded. */
void pct_loaded(struct job *j, long pid, const struct lwk_proc_map *m,
                uint64_t heap_va, uint64_t heap);
/* "pct: NAME: cannot run: WHY" on the log, WHY kept in j->why. */
void pct_cannot_run(struct job *j, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void pct_release_image(struct job *j);
/* A buffer of `size` bytes for an image yod sends (j->image), or NULL. */
void *pct_image_buffer(struct job *j, uint64_t size);
/* The process has ended (exit, abort or fault), as opposed to a yield or
   the end of its quantum. */
static inline int pct_ended(const struct lwk_run_result *r)
{
    return r->reason == LWK_STOP_EXIT || r->reason == LWK_STOP_FAULT ||
           r->reason == LWK_STOP_ABORT;
}

/* cpus.c: the CPU policy.  A mode's name to PCT_MODE_* (-1 unknown), and
   back; give the job's process the CPUs its mode asks for. */
int pct_mode_parse(const char *s);
const char *pct_mode_name(int mode);
void pct_cpus_assign(struct job *j, long pid);
/* The CPUs j's process runs on (a mask), and the node's count: its
   auxiliary vector's AT_LWK_CPUS and AT_LWK_NCPUS. */
uint64_t pct_cpus_own(const struct job *j);
uint64_t pct_ncpus(void);
/* The job is over: what its mode took goes back (before proc_destroy). */
void pct_cpus_release(struct job *j);
/* Virtual-node mode: the ranks a node with `ncpus` CPUs runs, at most. */
int pct_vn_max(uint64_t ncpus);
/* At START: a rank with index > 0 gets its CPU (proc_place); 0 or -1. */
int pct_cpus_place(struct job *j);
/* What j's process and mode use of the node's CPUs, for STATE: cpu[c]
   (YOD_CPU_BYTE) for each CPU c it holds. */
void pct_cpus_uses(const struct job *j, uint64_t ncpus, uint8_t *cpu);
/* report.c: one line per process end, with the fault explained. */
void pct_report(const struct job *j);
void pct_describe(const struct job *j, char *buf, size_t len);
/* The status a process ended with: exit's or abort's, or for a fault
   128 + the signal Linux would have sent (a page fault 139). */
int pct_status(const struct lwk_run_result *r);
/* modline.c: a boot module's command line "PATH WORD ..." (percent-
   encoded words) into j's argv, envp and priority; modifies `line`,
   which j then points into.  0, or -1 after pct_cannot_run. */
int pct_parse_module(struct job *j, char *line);
/* Is the file name (after the last '/') of a module line's first word
   `file`?  "pct.elf", "/boot/pct.elf" and iPXE's "tftp://10.77.0.1/pct.elf"
   all name pct.elf. */
int pct_module_is(const char *line, const char *file);
/* pct.c: the value of a "key=value" word on the kernel command line
   ("" for a bare "key"), or NULL. */
const char *pct_opt(const char *key);
/* auth.c: the service partition's nids (pct.service), at start; and
   module i (mapped: m) if it is the cluster's secret, cluster.key: taken
   and its memory given back (1), else 0. */
void pct_auth_setup(void);
int pct_auth_module(int i, const struct lwk_module *m);
/* serve.c: with no boot-module program, serve yod's requests forever. */
void pct_serve(const struct lwk_node_info *node, uint64_t heap,
               uint64_t stack, uint64_t quantum);
/* symbols.c: copy the function names out of the job's image (if the
   PCT's heap has room); the function containing `addr`, or NULL. */
void pct_keep_symbols(struct job *j);
const char *pct_symbol(const struct job *j, uint64_t addr, uint64_t *offset);
void pct_drop_symbols(struct job *j);

#endif
