/* SPDX-License-Identifier: MIT */
/*
 * typeinfo.c: what a datatype remembers of how it was made, for
 * MPI_Type_get_envelope/_contents (each constructor records its
 * combiner and arguments, types retained), its true extent, its name,
 * and MPI_Type_dup.
 */
#include <stdlib.h>
#include <string.h>
#include "mpi_impl.h"

struct dt_make {
    int comb;
    int ni, na, nt;
    int *ints;
    MPI_Aint *aints;
    MPI_Datatype *types;
};

void rec_init(struct rec *r, int comb)
{
    memset(r, 0, sizeof(*r));
    r->comb = comb;
    r->ok = true;
}

static void *grow(void *p, int have, int more, size_t each, bool *ok)
{
    void *n;

    if (!*ok || more == 0)
        return p;
    if ((n = realloc(p, ((size_t)have + (size_t)more) * each)) == NULL)
        *ok = false;
    return n ? n : p;
}

void rec_ints(struct rec *r, const int *v, int n)
{
    r->ints = grow(r->ints, r->ni, n, sizeof(int), &r->ok);
    if (r->ok && n > 0) {
        memcpy(r->ints + r->ni, v, (size_t)n * sizeof(int));
        r->ni += n;
    }
}

void rec_aints(struct rec *r, const MPI_Aint *v, int n)
{
    r->aints = grow(r->aints, r->na, n, sizeof(MPI_Aint), &r->ok);
    if (r->ok && n > 0) {
        memcpy(r->aints + r->na, v, (size_t)n * sizeof(MPI_Aint));
        r->na += n;
    }
}

void rec_types(struct rec *r, const MPI_Datatype *v, int n)
{
    r->types = grow(r->types, r->nt, n, sizeof(MPI_Datatype), &r->ok);
    if (r->ok && n > 0) {
        memcpy(r->types + r->nt, v, (size_t)n * sizeof(MPI_Datatype));
        r->nt += n;
    }
}

static void make_free(struct dt_make *m)
{
    if (m == NULL)
        return;
    for (int i = 0; i < m->nt; i++)
        dt_release(m->types[i]);
    free(m->ints);
    free(m->aints);
    free(m->types);
    free(m);
}

/* Give the new type *t (made with rc) its record r; the record's arrays
 * are taken over or freed.  Returns rc, or MPI_ERR_NO_MEM (the type is
 * then freed too). */
int rec_keep(int rc, MPI_Datatype *t, struct rec *r)
{
    struct dt_make *m = NULL;

    if (rc == MPI_SUCCESS && r->ok && (m = malloc(sizeof(*m))) != NULL) {
        *m = (struct dt_make){ r->comb, r->ni, r->na, r->nt, r->ints,
                               r->aints, r->types };
        for (int i = 0; i < m->nt; i++)
            dt_retain(m->types[i]);
        (*t)->make = m;
        return MPI_SUCCESS;
    }
    free(r->ints);
    free(r->aints);
    free(r->types);
    if (rc == MPI_SUCCESS) {
        dt_release(*t);
        rc = MPI_ERR_NO_MEM;
    }
    if (t != NULL)
        *t = MPI_DATATYPE_NULL; /* a failed constructor's new type */
    return rc;
}

/* dt_release's part: the record and the name. */
void dt_forget(MPI_Datatype dt)
{
    make_free(dt->make);
    free(dt->name);
}

#define TERR(rc, name) mpi_err(MPI_COMM_WORLD, rc, name)  /* once */


int MPI_Type_get_envelope(MPI_Datatype dt, int *ni, int *na, int *nt,
                          int *combiner)
{
    int rc = dt_check_any(dt);

    if (rc == MPI_SUCCESS && (!ni || !na || !nt || !combiner))
        rc = MPI_ERR_ARG;
    if (rc != MPI_SUCCESS)
        return TERR(rc, "MPI_Type_get_envelope");
    if (dt->make == NULL) {
        *ni = *na = *nt = 0;
        *combiner = MPI_COMBINER_NAMED;
        return MPI_SUCCESS;
    }
    *ni = dt->make->ni;
    *na = dt->make->na;
    *nt = dt->make->nt;
    *combiner = dt->make->comb;
    return MPI_SUCCESS;
}

/* The types handed out are new references (the caller frees derived
 * ones with MPI_Type_free), as the standard says. */
int MPI_Type_get_contents(MPI_Datatype dt, int max_i, int max_a, int max_t,
                          int *ints, MPI_Aint *aints, MPI_Datatype *types)
{
    struct dt_make *m;
    int rc = dt_check_any(dt);

    if (rc == MPI_SUCCESS && dt->make == NULL)
        rc = MPI_ERR_TYPE;          /* a named type has no contents */
    m = rc ? NULL : dt->make;
    if (rc == MPI_SUCCESS && (max_i < m->ni || max_a < m->na ||
                              max_t < m->nt))
        rc = MPI_ERR_ARG;
    if (rc != MPI_SUCCESS)
        return TERR(rc, "MPI_Type_get_contents");
    if (m->ni)
        memcpy(ints, m->ints, (size_t)m->ni * sizeof(int));
    if (m->na)
        memcpy(aints, m->aints, (size_t)m->na * sizeof(MPI_Aint));
    for (int i = 0; i < m->nt; i++) {
        types[i] = m->types[i];
        dt_retain(types[i]);
    }
    return MPI_SUCCESS;
}

int MPI_Type_get_true_extent(MPI_Datatype dt, MPI_Aint *lb, MPI_Aint *ext)
{
    int rc = dt_check_any(dt);

    if (rc == MPI_SUCCESS && (lb == NULL || ext == NULL))
        rc = MPI_ERR_ARG;
    if (rc != MPI_SUCCESS)
        return TERR(rc, "MPI_Type_get_true_extent");
    *lb = dt->true_lb;
    *ext = dt->true_ub - dt->true_lb;
    return MPI_SUCCESS;
}

/* A copy with the same layout; committed if dt is. */
int MPI_Type_dup(MPI_Datatype dt, MPI_Datatype *newt)
{
    MPI_Aint zero = 0;
    int one = 1, rc = dt_check_any(dt);
    struct rec r;

    if (rc == MPI_SUCCESS && newt == NULL)
        rc = MPI_ERR_ARG;
    if (rc == MPI_SUCCESS)
        rc = dt_build(1, &one, &zero, dt, newt);
    if (rc == MPI_SUCCESS) {
        /* the same bounds, markers and all */
        (*newt)->lb = dt->lb;
        (*newt)->ub = dt->ub;
        (*newt)->lb_marked = dt->lb_marked;
        (*newt)->ub_marked = dt->ub_marked;
        (*newt)->committed = dt->committed;
    }
    rec_init(&r, MPI_COMBINER_DUP);
    rec_types(&r, &dt, 1);
    if ((rc = rec_keep(rc, newt, &r)) == MPI_SUCCESS &&
        (rc = type_attr_copy_all(dt, *newt)) != MPI_SUCCESS) {
        type_attr_delete_all(*newt);    /* a copy callback failed */
        dt_release(*newt);
        *newt = MPI_DATATYPE_NULL;
    }
    return TERR(rc, "MPI_Type_dup");
}

/* ---- names ---- */


/* Copy name into *slot (NULL, or a string to replace). */
int name_set(char **slot, const char *name)
{
    char *n;

    if (name == NULL)
        return MPI_ERR_ARG;
    if ((n = malloc(MPI_MAX_OBJECT_NAME)) == NULL)
        return MPI_ERR_NO_MEM;
    strncpy(n, name, MPI_MAX_OBJECT_NAME - 1);     /* longer: truncated */
    n[MPI_MAX_OBJECT_NAME - 1] = 0;
    free(*slot);
    *slot = n;
    return MPI_SUCCESS;
}

int name_get(const char *name, char *out, int *len)
{
    if (out == NULL || len == NULL)
        return MPI_ERR_ARG;
    strcpy(out, name ? name : "");
    *len = (int)strlen(out);
    return MPI_SUCCESS;
}

static const char *dt_name(MPI_Datatype dt)
{
    if (dt->name != NULL || !dt->builtin)
        return dt->name;
    for (int b = 0; b < B_NBUILTIN; b++)
        if (dt_basic(b) == dt)
            return dt_basic_name(b);
    return NULL;
}

int MPI_Type_set_name(MPI_Datatype dt, const char *name)
{
    int rc = dt_check_any(dt);

    if (rc == MPI_SUCCESS)
        rc = name_set(&dt->name, name);
    return TERR(rc, "MPI_Type_set_name");
}

int MPI_Type_get_name(MPI_Datatype dt, char *name, int *len)
{
    int rc = dt_check_any(dt);

    if (rc == MPI_SUCCESS)
        rc = name_get(dt_name(dt), name, len);
    return TERR(rc, "MPI_Type_get_name");
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Type_get_envelope)
PMPI(MPI_Type_get_contents)
PMPI(MPI_Type_get_true_extent)
PMPI(MPI_Type_dup)
PMPI(MPI_Type_set_name)
PMPI(MPI_Type_get_name)
