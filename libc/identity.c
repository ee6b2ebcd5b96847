/* SPDX-License-Identifier: MIT */
/*
 * identity.c: who a process is.  A node has no users, groups, sessions or
 * terminals: a job's files are opened by yod as the user who ran it
 * (docs/SECURITY.md), so on the node every id is 0, as the Linux
 * personality says too (lxrt/rt_sys.c), and no id can change.  The
 * parent is the PCT (pid 1 on the Linux road as well); a process is its
 * own process group and session.  There is no user database: lookups
 * find nothing (NULL, errno untouched, as POSIX says of an entry not
 * found), and there is no login name (ENXIO: no terminal).
 */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include <lwk/lwk.h>

#include "libc_internal.h"

uid_t getuid(void) { return 0; }
uid_t geteuid(void) { return 0; }
gid_t getgid(void) { return 0; }
gid_t getegid(void) { return 0; }
pid_t getppid(void) { return 1; }      /* the PCT */
pid_t getpgrp(void) { return getpid(); }

/* No supplementary groups. */
int getgroups(int size, gid_t list[])
{
    (void)size, (void)list;
    return 0;
}

pid_t getpgid(pid_t pid)
{
    return pid == 0 || pid == getpid() ? getpid() : lwk_fail(ESRCH);
}

pid_t getsid(pid_t pid)
{
    return getpgid(pid);
}

/* Already a group and session leader: POSIX's EPERM for setsid. */
pid_t setsid(void)
{
    return lwk_fail(EPERM);
}

int setpgid(pid_t pid, pid_t pgid)
{
    if (pid != 0 && pid != getpid())
        return lwk_fail(ESRCH);
    return pgid == 0 || pgid == getpid() ? 0 : lwk_fail(EPERM);
}

/* Becoming who it is succeeds; anyone else, EPERM. */
static int same_id(unsigned id)
{
    return id == 0 ? 0 : lwk_fail(EPERM);
}

int setuid(uid_t uid) { return same_id(uid); }
int seteuid(uid_t uid) { return same_id(uid); }
int setgid(gid_t gid) { return same_id(gid); }
int setegid(gid_t gid) { return same_id(gid); }

char *getlogin(void)
{
    errno = ENXIO;
    return NULL;
}

int getlogin_r(char *name, size_t len)
{
    (void)name, (void)len;
    return ENXIO;
}

/* The node's id, as gethostname names the node by it. */
long gethostid(void)
{
    return lwk_nid();
}

struct passwd *getpwuid(uid_t uid)
{
    (void)uid;
    return NULL;
}

struct passwd *getpwnam(const char *name)
{
    (void)name;
    return NULL;
}

int getpwuid_r(uid_t uid, struct passwd *pw, char *buf, size_t len,
               struct passwd **result)
{
    (void)uid, (void)pw, (void)buf, (void)len;
    *result = NULL;
    return 0;
}

int getpwnam_r(const char *name, struct passwd *pw, char *buf, size_t len,
               struct passwd **result)
{
    (void)name, (void)pw, (void)buf, (void)len;
    *result = NULL;
    return 0;
}

struct group *getgrgid(gid_t gid)
{
    (void)gid;
    return NULL;
}

struct group *getgrnam(const char *name)
{
    (void)name;
    return NULL;
}
