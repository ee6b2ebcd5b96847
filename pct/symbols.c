/*
 * Function names from an ELF image's symbol table, for fault reports.
 * The image is untrusted: every offset is checked.
 */
#include <stdint.h>
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

#define SHT_SYMTAB  2
#define STT_FUNC    2

static int in_file(uint64_t size, uint64_t off, uint64_t len)
{
    return off <= size && len <= size - off;
}

const char *elf_symbol(const void *image, uint64_t size, uint64_t addr,
                       uint64_t *offset)
{
    const uint8_t *b = image;
    uint64_t shoff;
    uint16_t shnum, shentsize;

    if (size < 64)
        return NULL;
    memcpy(&shoff, b + 40, 8);
    memcpy(&shentsize, b + 58, 2);
    memcpy(&shnum, b + 60, 2);
    if (shentsize != sizeof(struct shdr) ||
        !in_file(size, shoff, (uint64_t)shnum * sizeof(struct shdr)))
        return NULL;
    const struct shdr *sh = (const void *)(b + shoff);
    for (int i = 0; i < shnum; i++) {
        if (sh[i].type != SHT_SYMTAB || sh[i].link >= shnum ||
            !in_file(size, sh[i].offset, sh[i].size))
            continue;
        const struct shdr *str = &sh[sh[i].link];
        const struct sym *s = (const void *)(b + sh[i].offset);
        if (!in_file(size, str->offset, str->size))
            return NULL;
        for (uint64_t k = 0; k < sh[i].size / sizeof(*s); k++) {
            if ((s[k].info & 15) != STT_FUNC || addr < s[k].value ||
                addr - s[k].value >= (s[k].size ? s[k].size : 1) ||
                s[k].name >= str->size)
                continue;
            *offset = addr - s[k].value;
            const char *name = (const char *)b + str->offset + s[k].name;
            return memchr(name, 0, str->size - s[k].name) ? name : NULL;
        }
    }
    return NULL;
}
