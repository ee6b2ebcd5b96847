/*
 * Function names from a program's ELF symbol table, for fault reports.
 * They are copied out when the program is loaded, because the image's
 * memory (its boot module) is given back right after.  The image is
 * untrusted: every offset is checked.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "pct.h"

struct shdr {
    uint32_t name, type;
    uint64_t flags, addr, offset, size;
    uint32_t link, info;
    uint64_t addralign, entsize;
};

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

#define SHT_SYMTAB  2
#define STT_FUNC    2

static int in_file(uint64_t size, uint64_t off, uint64_t len)
{
    return off <= size && len <= size - off;
}

/* The first symbol table of the image and its string table, both inside
   the image; 0, or -1 if there is none. */
static int find_symtab(const uint8_t *b, uint64_t size, const struct sym **s,
                       uint64_t *n, const char **str, uint64_t *strsize)
{
    uint64_t shoff;
    uint16_t shnum, shentsize;

    if (size < 64)
        return -1;
    memcpy(&shoff, b + 40, 8);
    memcpy(&shentsize, b + 58, 2);
    memcpy(&shnum, b + 60, 2);
    if (shentsize != sizeof(struct shdr) ||
        !in_file(size, shoff, (uint64_t)shnum * sizeof(struct shdr)))
        return -1;
    const struct shdr *sh = (const void *)(b + shoff);
    for (int i = 0; i < shnum; i++) {
        if (sh[i].type != SHT_SYMTAB || sh[i].link >= shnum ||
            !in_file(size, sh[i].offset, sh[i].size))
            continue;
        const struct shdr *st = &sh[sh[i].link];
        if (!in_file(size, st->offset, st->size))
            return -1;
        *s = (const void *)(b + sh[i].offset);
        *n = sh[i].size / sizeof(struct sym);
        *str = (const char *)b + st->offset;
        *strsize = st->size;
        return 0;
    }
    return -1;
}

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

    if (find_symtab(j->image, j->image_size, &s, &n, &str, &strsize) < 0)
        return;
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
