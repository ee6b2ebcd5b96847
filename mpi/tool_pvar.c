/* SPDX-License-Identifier: MIT */
/*
 * tool_pvar.c: the performance variables' calls of the MPI tool
 * information interface (MPI-3.1 14.3.7): sessions, handles, read,
 * write, reset.  Every variable is always on (continuous: starting or
 * stopping one is MPI_T_ERR_PVAR_NO_STARTSTOP).  A handle sees a counter
 * from where it was last reset or written to (its own base, so tools in
 * separate sessions do not disturb each other); levels and states are
 * read only.
 */
#include <stdlib.h>
#include <string.h>
#include "tool.h"

struct mpi_t_pvar_s {
    struct mpi_t_pvar_s *next;  /* the session's */
    int index;
    uint64_t base;              /* the counter's value the handle calls 0 */
};

struct mpi_t_session_s {
    struct mpi_t_pvar_s *handles;
};

int MPI_T_pvar_get_num(int *num)
{
    READY();
    if (num == NULL)
        return MPI_T_ERR_INVALID;
    *num = npvars;
    return MPI_SUCCESS;
}

int MPI_T_pvar_get_info(int i, char *name, int *name_len, int *verbosity,
                        int *var_class, MPI_Datatype *dt, MPI_T_enum *en,
                        char *desc, int *desc_len, int *bind, int *readonly,
                        int *continuous, int *atomic)
{
    READY();
    if (i < 0 || i >= npvars)
        return MPI_T_ERR_INVALID_INDEX;
    tool_str_out(pvars[i].name, name, name_len);
    tool_str_out(pvars[i].desc, desc, desc_len);
    if (verbosity != NULL)
        *verbosity = pvars[i].verbosity;
    if (var_class != NULL)
        *var_class = pvars[i].cls;
    if (dt != NULL)
        *dt = pvars[i].dt;
    if (en != NULL)
        *en = pvars[i].en;
    if (bind != NULL)
        *bind = MPI_T_BIND_NO_OBJECT;
    if (readonly != NULL)
        *readonly = pvars[i].readonly;
    if (continuous != NULL)
        *continuous = 1;
    if (atomic != NULL)
        *atomic = 1;            /* nothing changes it between two steps */
    return MPI_SUCCESS;
}

int MPI_T_pvar_get_index(const char *name, int var_class, int *index)
{
    READY();
    if (name == NULL || index == NULL)
        return MPI_T_ERR_INVALID;
    for (int i = 0; i < npvars; i++)
        if (pvars[i].cls == var_class && strcmp(pvars[i].name, name) == 0) {
            *index = i;
            return MPI_SUCCESS;
        }
    return MPI_T_ERR_INVALID_NAME;
}

int MPI_T_pvar_session_create(MPI_T_pvar_session *session)
{
    READY();
    if (session == NULL)
        return MPI_T_ERR_INVALID;
    if ((*session = calloc(1, sizeof(**session))) == NULL)
        return MPI_T_ERR_MEMORY;
    return MPI_SUCCESS;
}

int MPI_T_pvar_session_free(MPI_T_pvar_session *session)
{
    READY();
    if (session == NULL || *session == MPI_T_PVAR_SESSION_NULL)
        return MPI_T_ERR_INVALID_SESSION;
    while ((*session)->handles != NULL) {
        struct mpi_t_pvar_s *h = (*session)->handles;
        (*session)->handles = h->next;
        free(h);
    }
    free(*session);
    *session = MPI_T_PVAR_SESSION_NULL;
    return MPI_SUCCESS;
}

int MPI_T_pvar_handle_alloc(MPI_T_pvar_session s, int i, void *obj,
                            MPI_T_pvar_handle *handle, int *count)
{
    struct mpi_t_pvar_s *h;

    (void)obj;                  /* bound to no object */
    READY();
    if (s == MPI_T_PVAR_SESSION_NULL)
        return MPI_T_ERR_INVALID_SESSION;
    if (i < 0 || i >= npvars)
        return MPI_T_ERR_INVALID_INDEX;
    if (handle == NULL || count == NULL)
        return MPI_T_ERR_INVALID;
    if ((h = malloc(sizeof(*h))) == NULL)
        return MPI_T_ERR_MEMORY;
    *h = (struct mpi_t_pvar_s){ s->handles, i, 0 };
    s->handles = h;
    *handle = h;
    *count = 1;
    return MPI_SUCCESS;
}

/* Is h one of s's handles?  (MPI_T_ERR_INVALID_HANDLE otherwise) */
static int owned(MPI_T_pvar_session s, MPI_T_pvar_handle h)
{
    if (s == MPI_T_PVAR_SESSION_NULL)
        return MPI_T_ERR_INVALID_SESSION;
    for (struct mpi_t_pvar_s *x = s->handles; x != NULL; x = x->next)
        if (x == h)
            return MPI_SUCCESS;
    return MPI_T_ERR_INVALID_HANDLE;
}

int MPI_T_pvar_handle_free(MPI_T_pvar_session s, MPI_T_pvar_handle *handle)
{
    struct mpi_t_pvar_s **pp;
    int rc;

    READY();
    if (handle == NULL)
        return MPI_T_ERR_INVALID_HANDLE;
    if ((rc = owned(s, *handle)) != MPI_SUCCESS)
        return rc;
    for (pp = &s->handles; *pp != *handle; pp = &(*pp)->next)
        ;
    *pp = (*handle)->next;
    free(*handle);
    *handle = MPI_T_PVAR_HANDLE_NULL;
    return MPI_SUCCESS;
}

/* Always on: there is nothing to start or stop. */
static int startstop(MPI_T_pvar_session s, MPI_T_pvar_handle h)
{
    READY();
    if (h == MPI_T_PVAR_ALL_HANDLES)
        return s ? MPI_SUCCESS : MPI_T_ERR_INVALID_SESSION;
    int rc = owned(s, h);
    return rc ? rc : MPI_T_ERR_PVAR_NO_STARTSTOP;
}

int MPI_T_pvar_start(MPI_T_pvar_session s, MPI_T_pvar_handle h)
{
    return startstop(s, h);
}

int MPI_T_pvar_stop(MPI_T_pvar_session s, MPI_T_pvar_handle h)
{
    return startstop(s, h);
}

static void value_out(const struct mpi_t_pvar_s *h, void *buf)
{
    const struct pvar *v = &pvars[h->index];
    uint64_t x = v->read() - (v->readonly ? 0 : h->base);

    if (v->dt == MPI_INT)
        *(int *)buf = (int)x;
    else
        *(unsigned long long *)buf = x;
}

int MPI_T_pvar_read(MPI_T_pvar_session s, MPI_T_pvar_handle h, void *buf)
{
    int rc;

    READY();
    if ((rc = owned(s, h)) != MPI_SUCCESS)
        return rc;
    if (buf == NULL)
        return MPI_T_ERR_INVALID;
    value_out(h, buf);
    return MPI_SUCCESS;
}

/* A counter's handle reads `value` from now on. */
static int set_base(struct mpi_t_pvar_s *h, uint64_t value)
{
    if (pvars[h->index].readonly)
        return MPI_T_ERR_PVAR_NO_WRITE;
    h->base = pvars[h->index].read() - value;
    return MPI_SUCCESS;
}

int MPI_T_pvar_write(MPI_T_pvar_session s, MPI_T_pvar_handle h,
                     const void *buf)
{
    int rc;

    READY();
    if ((rc = owned(s, h)) != MPI_SUCCESS)
        return rc;
    if (buf == NULL)
        return MPI_T_ERR_INVALID;
    return set_base(h, *(const unsigned long long *)buf);
}

int MPI_T_pvar_reset(MPI_T_pvar_session s, MPI_T_pvar_handle h)
{
    int rc;

    READY();
    if (h == MPI_T_PVAR_ALL_HANDLES) {      /* every writable one */
        if (s == MPI_T_PVAR_SESSION_NULL)
            return MPI_T_ERR_INVALID_SESSION;
        for (struct mpi_t_pvar_s *x = s->handles; x != NULL; x = x->next)
            if (!pvars[x->index].readonly)
                set_base(x, 0);
        return MPI_SUCCESS;
    }
    if ((rc = owned(s, h)) != MPI_SUCCESS)
        return rc;
    return set_base(h, 0);
}

int MPI_T_pvar_readreset(MPI_T_pvar_session s, MPI_T_pvar_handle h,
                         void *buf)
{
    int rc;

    READY();
    if ((rc = owned(s, h)) != MPI_SUCCESS)
        return rc;
    if (buf == NULL)
        return MPI_T_ERR_INVALID;
    if (pvars[h->index].readonly)
        return MPI_T_ERR_PVAR_NO_WRITE;
    value_out(h, buf);
    return set_base(h, 0);
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_T_pvar_get_num)
PMPI(MPI_T_pvar_get_info)
PMPI(MPI_T_pvar_get_index)
PMPI(MPI_T_pvar_session_create)
PMPI(MPI_T_pvar_session_free)
PMPI(MPI_T_pvar_handle_alloc)
PMPI(MPI_T_pvar_handle_free)
PMPI(MPI_T_pvar_start)
PMPI(MPI_T_pvar_stop)
PMPI(MPI_T_pvar_read)
PMPI(MPI_T_pvar_write)
PMPI(MPI_T_pvar_reset)
PMPI(MPI_T_pvar_readreset)
