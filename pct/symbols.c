/*
 * Function names from a program's ELF symbol table, for fault reports.
 * They are copied out when the program is loaded, because the image's
 * memory (its boot module) is given back right after.  The image is
 * untrusted: every offset is checked.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "elf.h"
#include "pct.h"

struct sym {
    uint32_t name;
    uint8_t info, other;
    uint16_t shndx;
    uint64_t value, size;
};

struct pct_sym {                /* a kept function */
    uint64_t value, size;
    uint32_t name;              /* offset in the names after the array */
};

#define STT_FUNC    2

/* Length with its NUL of a function's name, or 0 if it is not one. */
static uint64_t func_name_len(const struct sym *s, const char *str,
                              uint64_t strsize)
{
    const char *end;

    if ((s->info & 15) != STT_FUNC || s->name >= strsize)
        return 0;
    end = memchr(str + s->name, 0, strsize - s->name);
    return end ? (uint64_t)(end - (str + s->name)) + 1 : 0;
}

void pct_keep_symbols(struct job *j)
{
    const struct sym *s;
    const char *str;
    uint64_t n, strsize, nfunc = 0, bytes = 0, len;

    struct elf_symtab t;

    if (elf_find_symtab(j->image, j->image_size, &t) < 0)
        return;
    s = (const void *)((const uint8_t *)j->image + t.sym_off);
    n = t.sym_size / sizeof(*s);
    str = (const char *)j->image + t.str_off;
    strsize = t.str_size;
    for (uint64_t k = 0; k < n; k++)
        if ((len = func_name_len(&s[k], str, strsize))) {
            nfunc++;
            bytes += len;
        }
    /* Too big for the PCT's heap: reports show "?" instead of names. */
    if (!nfunc || !(j->syms = malloc(nfunc * sizeof(*j->syms) + bytes)))
        return;
    char *names = (char *)(j->syms + nfunc);
    for (uint64_t k = 0, off = 0; k < n; k++) {
        if (!(len = func_name_len(&s[k], str, strsize)))
            continue;
        j->syms[j->nsyms++] = (struct pct_sym){ s[k].value, s[k].size, off };
        memcpy(names + off, str + s[k].name, len);
        off += len;
    }
}

const char *pct_symbol(const struct job *j, uint64_t addr, uint64_t *offset)
{
    const char *names = (const char *)(j->syms + j->nsyms);

    for (uint32_t k = 0; k < j->nsyms; k++) {
        const struct pct_sym *s = &j->syms[k];
        if (addr >= s->value && addr - s->value < (s->size ? s->size : 1)) {
            *offset = addr - s->value;
            return names + s->name;
        }
    }
    return NULL;
}

void pct_drop_symbols(struct job *j)
{
    free(j->syms);
    j->syms = NULL;
    j->nsyms = 0;
}
