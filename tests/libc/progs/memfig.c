/* SPDX-License-Identifier: MIT */
/*
 * memfig: how much memory a program gets.  mallocs 1 MiB blocks, then
 * smaller ones, until malloc returns NULL (it must return NULL, not crash),
 * touches every byte (all of it must be present), frees it all and checks
 * that memory can be allocated again.  Prints the figure in MiB.
 */
#define PROG "memfig"
#include <stdlib.h>

#include <lwk/lwk.h>

#include "check.h"

struct blk {
    struct blk *next;
};

int main(void)
{
    struct blk *list = NULL;
    size_t total = 0, blocks = 0;
    void *again;

    for (size_t sz = 1 << 20; sz >= 64; sz /= 2) {
        struct blk *b;

        while ((b = malloc(sz)) != NULL) {
            memset(b, 0xa5, sz);
            b->next = list;
            list = b;
            total += sz;
            blocks++;
        }
    }
    printf("memfig: malloc gave %zu bytes (%zu MiB) in %zu blocks; "
           "heap region %lu MiB\n", total, total >> 20, blocks,
           lwk_proc->heap_size >> 20);
    CHECK(malloc(1 << 20) == NULL);
    CHECK(total > 0);
    while (list) {
        struct blk *next = list->next;
        free(list);
        list = next;
    }
    again = malloc(total / 2);
    CHECK(again != NULL);
    free(again);
    return check_done();
}
