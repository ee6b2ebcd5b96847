/* SPDX-License-Identifier: MIT */
/*
 * lwk_srun.c: srun on a Slurm-managed LWK cluster, a SPANK plugin
 * (docs/slurm.md; Slurm's spank(8)).
 *
 *   plugstack.conf:  required /PATH/lwk_srun.so yod=/PATH/yod cluster=DIR
 *
 * Each compute node is a Slurm node whose slurmd runs on the service host
 * (`slurmd -N nidNNNNN`), so Slurm starts a step's tasks there, where
 * they cannot run the node program.  In every step srun launches the
 * plugin turns the step's task 0 into yod, over exactly the step's nodes
 * (yod reads SLURM_STEP_NODELIST, yod/slurm.c) with the step's task count
 * as its ranks:
 *
 *   srun -n 4 prog args   ->   task 0: yod -sz 4 -- prog args
 *                              (-vn when a node has more than one task;
 *                              -label with srun --label)
 *
 * and the other tasks end at once with status 0: their nodes' ranks are
 * yod's.  So srun stays Slurm's own: it makes the step (Slurm picks the
 * nodes inside the allocation; outside one srun allocates them), forwards
 * stdin to task 0 (yod gives it to rank 0), prints yod's output, signals
 * yod on scancel and at the time limit (yod kills the job and frees the
 * nodes), and exits with yod's status.
 *
 * The job's other steps (its batch script; salloc's interactive step
 * where that is configured) are left as they are, but get
 * LWK_CLUSTER=DIR, so a yod they run finds the cluster whose nodes the
 * job holds.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <slurm/slurm.h>
#include <slurm/spank.h>

SPANK_PLUGIN(lwk_srun, 1);

#define ARGS_MAX    64          /* yod takes a program and 31 arguments */

static const char *yod, *dir;

/* yod=PATH cluster=DIR from plugstack.conf. */
static int plugin_args(int ac, char **av)
{
    for (int i = 0; i < ac; i++) {
        if (!strncmp(av[i], "yod=", 4))
            yod = av[i] + 4;
        else if (!strncmp(av[i], "cluster=", 8))
            dir = av[i] + 8;
        else {
            slurm_error("lwk_srun: unknown argument %s (give yod=PATH "
                        "cluster=DIR)", av[i]);
            return -1;
        }
    }
    if (!yod || !dir) {
        slurm_error("lwk_srun: give yod=PATH and cluster=DIR in "
                    "plugstack.conf");
        return -1;
    }
    return 0;
}

/* A job variable's value, or "" (buf holds it). */
static const char *job_env(spank_t sp, const char *name, char *buf, int len)
{
    if (spank_getenv(sp, name, buf, len) != ESPANK_SUCCESS)
        buf[0] = 0;
    return buf;
}

/* srun finds a program without a '/' on the job's PATH, as a shell
   does; yod takes paths.  The path found, or the name as given. */
static char *on_path(spank_t sp, char *prog)
{
    static char path[4096], dirs[8192];
    struct stat st;

    if (strchr(prog, '/') || !*job_env(sp, "PATH", dirs, sizeof(dirs)))
        return prog;
    for (char *d = strtok(dirs, ":"); d; d = strtok(NULL, ":")) {
        snprintf(path, sizeof(path), "%s/%s", *d ? d : ".", prog);
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
            access(path, X_OK) == 0)
            return path;
    }
    return prog;
}

/* Task 0 of a step: exec yod over the step's nodes. */
static void run_yod(spank_t sp, char **env)
{
    char ntasks[16], nnodes[16], label[16], *argv[ARGS_MAX + 8];
    char **prog;
    int argc, n = 0;

    if (spank_get_item(sp, S_JOB_ARGV, &argc, &prog) != ESPANK_SUCCESS ||
        argc < 1 || argc > ARGS_MAX) {
        slurm_error("lwk_srun: a program and at most %d arguments",
                    ARGS_MAX - 1);
        _exit(2);
    }
    job_env(sp, "SLURM_STEP_NUM_TASKS", ntasks, sizeof(ntasks));
    job_env(sp, "SLURM_STEP_NUM_NODES", nnodes, sizeof(nnodes));
    job_env(sp, "SLURM_LABELIO", label, sizeof(label));
    argv[n++] = (char *)yod;
    argv[n++] = "-sz";
    argv[n++] = ntasks;
    if (atoi(ntasks) > atoi(nnodes))
        argv[n++] = "-vn";
    if (label[0] && strcmp(label, "0"))
        argv[n++] = "-label";
    argv[n++] = "--";
    argv[n++] = on_path(sp, prog[0]);
    for (int i = 1; i < argc; i++)
        argv[n++] = prog[i];
    argv[n] = NULL;
    execve(yod, argv, env);
    slurm_error("lwk_srun: cannot run %s: %s", yod, strerror(errno));
    _exit(125);
}

int slurm_spank_task_init(spank_t sp, int ac, char **av)
{
    uint32_t step, task;
    char **env;

    if (spank_context() != S_CTX_REMOTE)
        return ESPANK_SUCCESS;
    if (plugin_args(ac, av) < 0 ||
        spank_setenv(sp, "LWK_CLUSTER", dir, 1) != ESPANK_SUCCESS ||
        spank_get_item(sp, S_JOB_STEPID, &step) != ESPANK_SUCCESS ||
        spank_get_item(sp, S_TASK_GLOBAL_ID, &task) != ESPANK_SUCCESS ||
        spank_get_item(sp, S_JOB_ENV, &env) != ESPANK_SUCCESS)
        return ESPANK_ERROR;
    if (step >= SLURM_MAX_NORMAL_STEP_ID)   /* batch, extern, salloc's */
        return ESPANK_SUCCESS;
    if (task != 0)
        _exit(0);
    run_yod(sp, env);
    return ESPANK_ERROR;
}
