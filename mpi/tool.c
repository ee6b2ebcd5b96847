/* SPDX-License-Identifier: MIT */
/*
 * tool.c: the MPI tool information interface (MPI-3.1 14.3): what
 * profilers and tuning tools call to list and read the library's
 * variables (tool_vars.c) by name and index, before MPI_Init as after
 * MPI_Finalize.  Calls return MPI_T_ERR_* codes themselves (no error
 * handler is involved), MPI_T_ERR_NOT_INITIALIZED outside
 * MPI_T_init_thread/MPI_T_finalize.  Strings are copied as the standard
 * says: at most *len characters with the terminating NUL, and *len set
 * to the whole string's length with it.
 */
#include <stdlib.h>
#include <string.h>
#include "tool.h"

int tool_inits;                 /* MPI_T_init_thread calls not finalized */

int MPI_T_init_thread(int required, int *provided)
{
    if (provided == NULL)
        return MPI_T_ERR_INVALID;
    /* the library's calls are for one thread at a time, MPI_T's too */
    *provided = required < MPI_THREAD_SERIALIZED ? required
                                                 : MPI_THREAD_SERIALIZED;
    tool_inits++;
    return MPI_SUCCESS;
}

int MPI_T_finalize(void)
{
    READY();
    tool_inits--;
    return MPI_SUCCESS;
}

void tool_str_out(const char *s, char *out, int *len)
{
    int n = (int)strlen(s) + 1;

    if (out != NULL && len != NULL && *len > 0) {
        int k = n < *len ? n : *len;
        memcpy(out, s, (size_t)k - 1);
        out[k - 1] = '\0';
    }
    if (len != NULL)
        *len = n;
}

/* ---- enumerations ---- */

int MPI_T_enum_get_info(MPI_T_enum e, int *num, char *name, int *name_len)
{
    READY();
    if (e == MPI_T_ENUM_NULL)
        return MPI_T_ERR_INVALID_HANDLE;
    if (num != NULL)
        *num = e->n;
    tool_str_out(e->name, name, name_len);
    return MPI_SUCCESS;
}

int MPI_T_enum_get_item(MPI_T_enum e, int index, int *value, char *name,
                        int *name_len)
{
    READY();
    if (e == MPI_T_ENUM_NULL)
        return MPI_T_ERR_INVALID_HANDLE;
    if (index < 0 || index >= e->n)
        return MPI_T_ERR_INVALID_ITEM;
    if (value != NULL)
        *value = e->items[index].value;
    tool_str_out(e->items[index].name, name, name_len);
    return MPI_SUCCESS;
}

/* ---- control variables ---- */

struct mpi_t_cvar_s {
    int index;
};

int MPI_T_cvar_get_num(int *num)
{
    READY();
    if (num == NULL)
        return MPI_T_ERR_INVALID;
    *num = ncvars;
    return MPI_SUCCESS;
}

int MPI_T_cvar_get_info(int i, char *name, int *name_len, int *verbosity,
                        MPI_Datatype *dt, MPI_T_enum *en, char *desc,
                        int *desc_len, int *bind, int *scope)
{
    READY();
    if (i < 0 || i >= ncvars)
        return MPI_T_ERR_INVALID_INDEX;
    tool_str_out(cvars[i].name, name, name_len);
    tool_str_out(cvars[i].desc, desc, desc_len);
    if (verbosity != NULL)
        *verbosity = cvars[i].verbosity;
    if (dt != NULL)
        *dt = MPI_INT;
    if (en != NULL)
        *en = MPI_T_ENUM_NULL;
    if (bind != NULL)
        *bind = MPI_T_BIND_NO_OBJECT;
    if (scope != NULL)
        *scope = cvars[i].scope;
    return MPI_SUCCESS;
}

int MPI_T_cvar_get_index(const char *name, int *index)
{
    READY();
    if (name == NULL || index == NULL)
        return MPI_T_ERR_INVALID;
    for (int i = 0; i < ncvars; i++)
        if (strcmp(cvars[i].name, name) == 0) {
            *index = i;
            return MPI_SUCCESS;
        }
    return MPI_T_ERR_INVALID_NAME;
}

int MPI_T_cvar_handle_alloc(int i, void *obj, MPI_T_cvar_handle *handle,
                            int *count)
{
    (void)obj;                  /* bound to no object */
    READY();
    if (i < 0 || i >= ncvars)
        return MPI_T_ERR_INVALID_INDEX;
    if (handle == NULL || count == NULL)
        return MPI_T_ERR_INVALID;
    if ((*handle = malloc(sizeof(**handle))) == NULL)
        return MPI_T_ERR_MEMORY;
    (*handle)->index = i;
    *count = 1;
    return MPI_SUCCESS;
}

int MPI_T_cvar_handle_free(MPI_T_cvar_handle *handle)
{
    READY();
    if (handle == NULL || *handle == MPI_T_CVAR_HANDLE_NULL)
        return MPI_T_ERR_INVALID_HANDLE;
    free(*handle);
    *handle = MPI_T_CVAR_HANDLE_NULL;
    return MPI_SUCCESS;
}

int MPI_T_cvar_read(MPI_T_cvar_handle h, void *buf)
{
    READY();
    if (h == MPI_T_CVAR_HANDLE_NULL)
        return MPI_T_ERR_INVALID_HANDLE;
    if (buf == NULL)
        return MPI_T_ERR_INVALID;
    *(int *)buf = *cvars[h->index].var;
    return MPI_SUCCESS;
}

int MPI_T_cvar_write(MPI_T_cvar_handle h, const void *buf)
{
    const struct cvar *c;
    int v;

    READY();
    if (h == MPI_T_CVAR_HANDLE_NULL)
        return MPI_T_ERR_INVALID_HANDLE;
    if (buf == NULL)
        return MPI_T_ERR_INVALID;
    c = &cvars[h->index];
    if (c->scope == MPI_T_SCOPE_CONSTANT || c->scope == MPI_T_SCOPE_READONLY)
        return MPI_T_ERR_CVAR_SET_NEVER;
    v = *(const int *)buf;
    if (v < c->min || v > c->max)
        return MPI_T_ERR_INVALID;       /* out of the variable's range */
    *c->var = v;
    return MPI_SUCCESS;
}

/* ---- categories ---- */

int MPI_T_category_get_num(int *num)
{
    READY();
    if (num == NULL)
        return MPI_T_ERR_INVALID;
    *num = ncats;
    return MPI_SUCCESS;
}

int MPI_T_category_get_info(int i, char *name, int *name_len, char *desc,
                            int *desc_len, int *num_cvars, int *num_pvars,
                            int *num_categories)
{
    READY();
    if (i < 0 || i >= ncats)
        return MPI_T_ERR_INVALID_INDEX;
    tool_str_out(cats[i].name, name, name_len);
    tool_str_out(cats[i].desc, desc, desc_len);
    if (num_cvars != NULL)
        *num_cvars = cats[i].ncv;
    if (num_pvars != NULL)
        *num_pvars = cats[i].npv;
    if (num_categories != NULL)
        *num_categories = 0;
    return MPI_SUCCESS;
}

int MPI_T_category_get_index(const char *name, int *index)
{
    READY();
    if (name == NULL || index == NULL)
        return MPI_T_ERR_INVALID;
    for (int i = 0; i < ncats; i++)
        if (strcmp(cats[i].name, name) == 0) {
            *index = i;
            return MPI_SUCCESS;
        }
    return MPI_T_ERR_INVALID_NAME;
}

static int list_out(const int *v, int n, int len, int *indices)
{
    if (len > 0 && indices == NULL)
        return MPI_T_ERR_INVALID;
    for (int k = 0; k < n && k < len; k++)
        indices[k] = v[k];
    return MPI_SUCCESS;
}

int MPI_T_category_get_cvars(int i, int len, int *indices)
{
    READY();
    if (i < 0 || i >= ncats)
        return MPI_T_ERR_INVALID_INDEX;
    return list_out(cats[i].cvars, cats[i].ncv, len, indices);
}

int MPI_T_category_get_pvars(int i, int len, int *indices)
{
    READY();
    if (i < 0 || i >= ncats)
        return MPI_T_ERR_INVALID_INDEX;
    return list_out(cats[i].pvars, cats[i].npv, len, indices);
}

int MPI_T_category_get_categories(int i, int len, int *indices)
{
    READY();
    if (i < 0 || i >= ncats)
        return MPI_T_ERR_INVALID_INDEX;
    return list_out(NULL, 0, len, indices);     /* none has subcategories */
}

int MPI_T_category_changed(int *stamp)
{
    READY();
    if (stamp == NULL)
        return MPI_T_ERR_INVALID;
    *stamp = 0;                 /* the categories never change */
    return MPI_SUCCESS;
}

/* profiling names (mpi_impl.h: PMPI); the performance variables' calls
 * are tool_pvar.c */
PMPI(MPI_T_init_thread)
PMPI(MPI_T_finalize)
PMPI(MPI_T_enum_get_info)
PMPI(MPI_T_enum_get_item)
PMPI(MPI_T_cvar_get_num)
PMPI(MPI_T_cvar_get_info)
PMPI(MPI_T_cvar_get_index)
PMPI(MPI_T_cvar_handle_alloc)
PMPI(MPI_T_cvar_handle_free)
PMPI(MPI_T_cvar_read)
PMPI(MPI_T_cvar_write)
PMPI(MPI_T_category_get_num)
PMPI(MPI_T_category_get_info)
PMPI(MPI_T_category_get_index)
PMPI(MPI_T_category_get_cvars)
PMPI(MPI_T_category_get_pvars)
PMPI(MPI_T_category_get_categories)
PMPI(MPI_T_category_changed)
