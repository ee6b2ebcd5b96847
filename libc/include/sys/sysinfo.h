/* SPDX-License-Identifier: MIT */
/*
 * sys/sysinfo.h: the GNU calls programs size themselves by (glibc's
 * <sys/sysinfo.h>; newlib has none).  On a node: the CPUs and memory
 * this process has (libc/sysconf.c), the time since the node booted.
 */
#ifndef LWK_SYS_SYSINFO_H
#define LWK_SYS_SYSINFO_H

#ifdef __cplusplus
extern "C" {
#endif

struct sysinfo {
    long uptime;                /* seconds since boot */
    unsigned long loads[3];     /* 1, 5, 15 minute load averages (x 65536) */
    unsigned long totalram;     /* memory, in mem_unit bytes */
    unsigned long freeram;
    unsigned long sharedram;
    unsigned long bufferram;
    unsigned long totalswap;
    unsigned long freeswap;
    unsigned short procs;       /* processes */
    unsigned long totalhigh;
    unsigned long freehigh;
    unsigned int mem_unit;      /* bytes in the unit of the sizes above */
};

int sysinfo(struct sysinfo *info);
int get_nprocs(void);
int get_nprocs_conf(void);
long get_phys_pages(void);
long get_avphys_pages(void);

#ifdef __cplusplus
}
#endif

#endif
