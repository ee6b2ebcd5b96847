/* SPDX-License-Identifier: MIT */
/*
 * slurm.h: yod inside a Slurm allocation (slurm.c; docs/slurm.md).  On a
 * cluster booted with `tools/cluster up --slurm` yod runs only in an
 * allocation of that cluster, on the allocation's nodes.
 */
#ifndef YOD_SLURM_H
#define YOD_SLURM_H

#define SLURM_NIDS_MAX  4096    /* nodes a list may name */

/* After cluster_find(): if the cluster is Slurm's, the allocation yod
   runs in (the step's nodes under srun, else the job's), or a one-line
   error naming salloc and sbatch (die) if there is none or it is another
   cluster's. */
void slurm_allocation(void);
/* May the job use this nid?  (1 on a cluster that is not Slurm's.) */
int slurm_allows(unsigned nid);
/* "Slurm job 12's allocation (nid[00000-00001])", NULL without Slurm. */
const char *slurm_what(void);
/* Nodes in the allocation; -1 without Slurm. */
int slurm_nodes(void);
/* Expand a Slurm hostlist of nidNNNNN names ("nid[00000-00003,00007],
   nid00010") into nids[], at most max: how many, or -1 if it is not
   one. */
int slurm_hostlist(const char *list, unsigned *nids, int max);

#endif
