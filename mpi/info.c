/* SPDX-License-Identifier: MIT */
/*
 * info.c: info objects (MPI_Info_*): ordered lists of (key, value)
 * strings that programs pass to window, file and communicator calls.
 * The library reads none of the hints it is given (it has no use for
 * them yet), so an info is kept only for MPI_*_get_info to give back.
 * MPI_INFO_ENV holds what the standard suggests and the library knows:
 * the host and the thread level (not the command and its arguments).
 */
#include <stdlib.h>
#include <string.h>
#include "mpi_impl.h"

struct kv {
    char *key, *val;
    struct kv *next;            /* in insertion order */
};

struct mpi_info_s {
    int refs;
    bool builtin;
    struct kv *head;
};

struct mpi_info_s mpi_info_env_ = { .refs = 1, .builtin = true };

static int info_check(MPI_Info info)
{
    return info == MPI_INFO_NULL || info->refs <= 0 ? MPI_ERR_INFO
                                                    : MPI_SUCCESS;
}

static int key_check(const char *key)
{
    if (key == NULL || key[0] == 0)
        return MPI_ERR_INFO_KEY;
    return strlen(key) > MPI_MAX_INFO_KEY ? MPI_ERR_INFO_KEY : MPI_SUCCESS;
}

static struct kv **find(MPI_Info info, const char *key)
{
    struct kv **pp = &info->head;

    while (*pp != NULL && strcmp((*pp)->key, key) != 0)
        pp = &(*pp)->next;
    return pp;
}

#define IERR(rc, name) mpi_err(MPI_COMM_WORLD, rc, name)  /* once */

int MPI_Info_create(MPI_Info *info)
{
    MPI_Info i;

    if (info == NULL)
        return IERR(MPI_ERR_ARG, "MPI_Info_create");
    *info = MPI_INFO_NULL;
    if ((i = calloc(1, sizeof(*i))) == NULL)
        return IERR(MPI_ERR_NO_MEM, "MPI_Info_create");
    i->refs = 1;
    *info = i;
    return MPI_SUCCESS;
}

/* Set key to val (a copy), replacing an earlier value. */
int info_set(MPI_Info info, const char *key, const char *val)
{
    struct kv **pp = find(info, key), *kv = *pp;
    char *v = strdup(val);

    if (v == NULL)
        return MPI_ERR_NO_MEM;
    if (kv == NULL) {
        if ((kv = calloc(1, sizeof(*kv))) == NULL ||
            (kv->key = strdup(key)) == NULL) {
            free(kv);
            free(v);
            return MPI_ERR_NO_MEM;
        }
        *pp = kv;
    }
    free(kv->val);
    kv->val = v;
    return MPI_SUCCESS;
}

int MPI_Info_set(MPI_Info info, const char *key, const char *value)
{
    int rc = info_check(info);

    if (rc == MPI_SUCCESS && info->builtin)
        rc = MPI_ERR_INFO;              /* MPI_INFO_ENV is read-only */
    if (rc == MPI_SUCCESS)
        rc = key_check(key);
    if (rc == MPI_SUCCESS && (value == NULL ||
                              strlen(value) > MPI_MAX_INFO_VAL))
        rc = MPI_ERR_INFO_VALUE;
    if (rc == MPI_SUCCESS)
        rc = info_set(info, key, value);
    return IERR(rc, "MPI_Info_set");
}

int MPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value,
                 int *flag)
{
    int rc = info_check(info);
    struct kv *kv;

    if (rc == MPI_SUCCESS)
        rc = key_check(key);
    if (rc == MPI_SUCCESS && (valuelen < 0 || flag == NULL ||
                              (value == NULL && valuelen > 0)))
        rc = MPI_ERR_ARG;
    if (rc != MPI_SUCCESS)
        return IERR(rc, "MPI_Info_get");
    kv = *find(info, key);
    *flag = kv != NULL;
    if (kv != NULL && value != NULL) { /* truncated to valuelen chars */
        strncpy(value, kv->val, (size_t)valuelen);
        value[valuelen] = 0;
    }
    return MPI_SUCCESS;
}

int MPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen,
                          int *flag)
{
    int rc = info_check(info);
    struct kv *kv;

    if (rc == MPI_SUCCESS)
        rc = key_check(key);
    if (rc == MPI_SUCCESS && (valuelen == NULL || flag == NULL))
        rc = MPI_ERR_ARG;
    if (rc != MPI_SUCCESS)
        return IERR(rc, "MPI_Info_get_valuelen");
    kv = *find(info, key);
    *flag = kv != NULL;
    if (kv != NULL)
        *valuelen = (int)strlen(kv->val);
    return MPI_SUCCESS;
}

int MPI_Info_delete(MPI_Info info, const char *key)
{
    int rc = info_check(info);
    struct kv **pp, *kv;

    if (rc == MPI_SUCCESS && info->builtin)
        rc = MPI_ERR_INFO;
    if (rc == MPI_SUCCESS)
        rc = key_check(key);
    if (rc == MPI_SUCCESS && *(pp = find(info, key)) == NULL)
        rc = MPI_ERR_INFO_NOKEY;
    if (rc != MPI_SUCCESS)
        return IERR(rc, "MPI_Info_delete");
    kv = *pp;
    *pp = kv->next;
    free(kv->key);
    free(kv->val);
    free(kv);
    return MPI_SUCCESS;
}

int MPI_Info_get_nkeys(MPI_Info info, int *nkeys)
{
    int rc = info_check(info), n = 0;

    if (rc == MPI_SUCCESS && nkeys == NULL)
        rc = MPI_ERR_ARG;
    if (rc != MPI_SUCCESS)
        return IERR(rc, "MPI_Info_get_nkeys");
    for (struct kv *kv = info->head; kv != NULL; kv = kv->next)
        n++;
    *nkeys = n;
    return MPI_SUCCESS;
}

int MPI_Info_get_nthkey(MPI_Info info, int n, char *key)
{
    int rc = info_check(info);
    struct kv *kv = rc ? NULL : info->head;

    for (int i = 0; kv != NULL && i < n; i++)
        kv = kv->next;
    if (rc == MPI_SUCCESS && (n < 0 || kv == NULL || key == NULL))
        rc = MPI_ERR_ARG;
    if (rc != MPI_SUCCESS)
        return IERR(rc, "MPI_Info_get_nthkey");
    strcpy(key, kv->key);
    return MPI_SUCCESS;
}

/* A copy of info (MPI_INFO_NULL gives MPI_INFO_NULL): what windows,
 * files and communicators keep. */
int info_copy(MPI_Info info, MPI_Info *out)
{
    MPI_Info n;
    int rc = MPI_SUCCESS;

    *out = MPI_INFO_NULL;
    if (info == MPI_INFO_NULL)
        return MPI_SUCCESS;
    if ((n = calloc(1, sizeof(*n))) == NULL)
        return MPI_ERR_NO_MEM;
    n->refs = 1;
    for (struct kv *kv = info->head; kv != NULL && rc == MPI_SUCCESS;
         kv = kv->next)
        rc = info_set(n, kv->key, kv->val);
    if (rc != MPI_SUCCESS) {
        info_free(n);
        return rc;
    }
    *out = n;
    return MPI_SUCCESS;
}

void info_free(MPI_Info info)
{
    if (info == MPI_INFO_NULL || info->builtin)
        return;
    while (info->head != NULL) {
        struct kv *kv = info->head;
        info->head = kv->next;
        free(kv->key);
        free(kv->val);
        free(kv);
    }
    info->refs = 0;
    free(info);
}

/* An empty info if kept is MPI_INFO_NULL (MPI_*_get_info never returns
 * MPI_INFO_NULL), else a copy the caller frees. */
int info_give(MPI_Info kept, MPI_Info *out)
{
    if (out == NULL)
        return MPI_ERR_ARG;
    *out = MPI_INFO_NULL;
    if (kept == MPI_INFO_NULL)
        return MPI_Info_create(out);
    return info_copy(kept, out);
}

int MPI_Info_dup(MPI_Info info, MPI_Info *newinfo)
{
    int rc = info_check(info);

    if (newinfo == NULL)
        rc = rc ? rc : MPI_ERR_ARG;
    else
        *newinfo = MPI_INFO_NULL;
    if (rc == MPI_SUCCESS)
        rc = info_copy(info, newinfo);
    return IERR(rc, "MPI_Info_dup");
}

int MPI_Info_free(MPI_Info *info)
{
    if (info == NULL || info_check(*info) != MPI_SUCCESS || (*info)->builtin)
        return IERR(MPI_ERR_INFO, "MPI_Info_free");
    info_free(*info);
    *info = MPI_INFO_NULL;
    return MPI_SUCCESS;
}

/* MPI_INFO_ENV: filled once at MPI_Init. */
void info_env_init(const char *host, const char *thread_level)
{
    if (host != NULL && host[0])
        info_set(&mpi_info_env_, "host", host);
    info_set(&mpi_info_env_, "thread_level", thread_level);
}

/* profiling names (mpi_impl.h: PMPI) */
PMPI(MPI_Info_create)
PMPI(MPI_Info_set)
PMPI(MPI_Info_get)
PMPI(MPI_Info_get_valuelen)
PMPI(MPI_Info_delete)
PMPI(MPI_Info_get_nkeys)
PMPI(MPI_Info_get_nthkey)
PMPI(MPI_Info_dup)
PMPI(MPI_Info_free)
