/* SPDX-License-Identifier: MIT */
/*
 * libgen.c: POSIX basename and dirname (<libgen.h>), which newlib leaves
 * out for this target.  Both may write into the path they are given and
 * return "." or "/" for the edge cases, as POSIX says.
 */
#include <libgen.h>
#include <string.h>

/* The last component, trailing slashes dropped. */
char *__xpg_basename(char *path)
{
    char *end, *start;

    if (!path || !*path)
        return ".";
    end = path + strlen(path);
    while (end > path + 1 && end[-1] == '/')
        *--end = 0;
    if (end == path + 1 && *path == '/')
        return path;
    start = strrchr(path, '/');
    return start ? start + 1 : path;
}

/* Everything before the last component, trailing slashes dropped. */
char *dirname(char *path)
{
    char *end;

    if (!path || !*path)
        return ".";
    end = path + strlen(path) - 1;
    while (end > path && *end == '/')
        end--;
    while (end >= path && *end != '/')
        end--;
    if (end < path)
        return ".";
    while (end > path && *end == '/')
        end--;
    end[1] = 0;
    return path;
}
