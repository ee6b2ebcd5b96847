/* SPDX-License-Identifier: MIT */
/*
 * nodelist.c: yod's lists of nids ("0,2-3"), as -nodes, -debug and a
 * Slurm allocation give them: checked once when read, then asked which
 * nids they hold.  A list is a string kept as the user wrote it; every
 * query walks it (lists are short, and a span is bounded below).
 */
#include <ctype.h>
#include <stdlib.h>

#include "yod.h"

/* "0,2-3": nids and ranges, ascending within a range. */
const char *nodes_arg(const char *opt, const char *val)
{
    const char *p = val;

    for (;;) {
        char *end;
        unsigned long a = strtoul(p, &end, 10), b = a;
        if (end == p || !isdigit((unsigned char)*p))
            break;
        if (*end == '-') {
            p = end + 1;
            b = strtoul(p, &end, 10);
            if (end == p || !isdigit((unsigned char)*p) || b < a)
                break;
        }
        if (b > 0xffffffffUL)
            break;
        if (!*end)
            return val;
        if (*end != ',')
            break;
        p = end + 1;
    }
    bad(opt, val, "give nids and ranges separated by commas, e.g. 0,2-3");
    return NULL;
}

int nodes_listed(unsigned nid)
{
    return !o.nodes || list_has(o.nodes, nid);
}

/* Is x in a list nodes_arg accepted ("0,2-3")? */
int list_has(const char *p, unsigned x)
{
    unsigned nid = x;

    while (*p) {
        char *end;
        unsigned long a = strtoul(p, &end, 10), b = a;
        if (*end == '-')
            b = strtoul(end + 1, &end, 10);
        if (nid >= a && nid <= b)
            return 1;
        if (*end != ',')
            break;
        p = end + 1;
    }
    return 0;
}

/* The lowest and highest nid -nodes names. */
void nodes_list_span(unsigned *lo, unsigned *hi)
{
    const char *p = o.nodes;

    *lo = ~0u;
    *hi = 0;
    while (*p) {
        char *end;
        unsigned long a = strtoul(p, &end, 10), b = a;
        if (*end == '-')
            b = strtoul(end + 1, &end, 10);
        *lo = a < *lo ? (unsigned)a : *lo;
        *hi = b > *hi ? (unsigned)b : *hi;
        if (*end != ',')
            break;
        p = end + 1;
    }
    if (*hi - *lo > 1000000)
        bad("-nodes", o.nodes, "a list spans at most a million nids");
}

/* How many distinct nids -nodes names (ranges may overlap). */
int nodes_list_count(void)
{
    unsigned lo, hi;
    int n = 0;

    nodes_list_span(&lo, &hi);
    for (unsigned long nid = lo; nid <= hi; nid++)
        n += nodes_listed((unsigned)nid);
    return n;
}
