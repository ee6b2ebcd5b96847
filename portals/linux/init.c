/* SPDX-License-Identifier: MIT */
/*
 * init.c: PtlInit and PtlFini on Linux: interface 0 opened from the
 * environment (portals/README.md lists the variables), reference counted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "portals4.h"
#include "ptl_linux.h"
#include "ptl_tp.h"
#include "ptl_wire.h"

static int init_count;

static unsigned long env_num(const char *name, unsigned long dflt)
{
    const char *v = getenv(name);
    char *end;
    unsigned long n;

    if (v == NULL || *v == '\0')
        return dflt;
    n = strtoul(v, &end, 0);
    return *end == '\0' ? n : dflt;
}

static int open_from_env(void)
{
    const char *spec = getenv("PTL_IFACE");
    struct ptl_lib_params p;

    if (spec == NULL || ptl_linux_lib(0) != NULL)
        return PTL_OK;      /* tests open their own interfaces */
    if (getenv("PTL_NID") == NULL) {
        fprintf(stderr, "portals: PTL_IFACE set but PTL_NID missing\n");
        return PTL_FAIL;
    }
    ptl_lib_params_default(&p);
    p.nid = (ptl_nid_t)env_num("PTL_NID", 0);
    p.pid = (ptl_pid_t)env_num("PTL_PID", PTL_PID_ANY);
    p.mtu = (uint32_t)env_num("PTL_MTU", PTL_MTU_DEFAULT);
    p.uid = (ptl_uid_t)env_num("PTL_UID", getuid());
    p.jid = (ptl_jid_t)env_num("PTL_JID", 0);
    p.epoch = ptl_linux_new_epoch();
    p.born = ptl_linux_born();
    /* Table sizes: a Linux run can use a compute node's (kernel/portals.c)
     * and show on Linux, quickly, what would fail only on the nodes. */
    p.max_entries = (uint32_t)env_num("PTL_MAX_ENTRIES", p.max_entries);
    p.max_uh = (uint32_t)env_num("PTL_MAX_UH", p.max_uh);
    p.max_mds = (uint32_t)env_num("PTL_MAX_MDS", p.max_mds);
    p.max_msgs = (uint32_t)env_num("PTL_MAX_MSGS", p.max_msgs);
    p.max_eqs = (uint32_t)env_num("PTL_MAX_EQS", p.max_eqs);
    p.max_cts = (uint32_t)env_num("PTL_MAX_CTS", p.max_cts);
    p.max_peers = (uint32_t)env_num("PTL_MAX_PEERS", p.max_peers);
    ptl_linux_link_defaults(spec, p.mtu, &p);
    return ptl_linux_iface_open_params(0, spec, &p);
}

int PtlInit(void)
{
    int rc = PTL_OK;

    ptl_host_lock();
    if (init_count == 0)
        rc = open_from_env();
    if (rc == PTL_OK)
        init_count++;
    ptl_host_unlock();
    return rc;
}

void PtlFini(void)
{
    ptl_host_lock();
    if (init_count > 0 && --init_count == 0)
        ptl_linux_iface_close(0);
    ptl_host_unlock();
}

