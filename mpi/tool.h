/* SPDX-License-Identifier: MIT */
/*
 * tool.h: the MPI tool information interface's variables (tool_vars.c)
 * as its calls (tool.c) see them.
 */
#ifndef MPI_TOOL_H
#define MPI_TOOL_H

#include "mpi_impl.h"
#include "proto.h"
#include "nbc.h"

/* A control variable: an int of the library, settable within [min, max]
 * unless its scope is MPI_T_SCOPE_CONSTANT. */
struct cvar {
    const char *name, *desc;
    int verbosity, scope;
    int *var;
    int min, max;
};

struct enum_item {
    int value;
    const char *name;
};
struct mpi_t_enum_s {
    const char *name;
    int n;
    const struct enum_item *items;
};

/* A performance variable: always on (continuous); a counter may be
 * reset or written (a handle's own view of it), a level or state not. */
struct pvar {
    const char *name, *desc;
    int verbosity, cls;
    MPI_Datatype dt;            /* MPI_UNSIGNED_LONG_LONG or MPI_INT */
    MPI_T_enum en;
    bool readonly;
    uint64_t (*read)(void);
};

struct category {
    const char *name, *desc;
    const int *cvars;
    int ncv;
    const int *pvars;
    int npv;
};

extern int tool_inits;          /* tool.c */
#define READY() do { if (tool_inits == 0) \
                         return MPI_T_ERR_NOT_INITIALIZED; } while (0)
void tool_str_out(const char *s, char *out, int *len);

extern const struct cvar cvars[];
extern const int ncvars;
extern const struct pvar pvars[];
extern const int npvars;
extern const struct category cats[];
extern const int ncats;

#endif
