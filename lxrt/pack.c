/*
 * pack: an ELF executable reduced to what a node loads (kernel/elf.c
 * elf_pack, as yod sends programs): the build packs the Linux runtime
 * with it before the PCT carries it.   pack IN OUT
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "elf.h"

int main(int argc, char **argv)
{
    struct elf_image img;
    const char *why;
    FILE *f;
    char *buf, *out;
    long n, m;

    if (argc != 3 || !(f = fopen(argv[1], "rb")) ||
        fseek(f, 0, SEEK_END) < 0 || (n = ftell(f)) <= 0) {
        fprintf(stderr, "pack: usage: pack IN OUT (IN a readable ELF)\n");
        return 2;
    }
    rewind(f);
    if (!(buf = malloc((size_t)n)) || fread(buf, 1, (size_t)n, f) != (size_t)n)
        return 1;
    fclose(f);
    if (elf_parse(buf, (uint64_t)n, LWK_APP_BASE, LWK_STACK_TOP, &img,
                  &why) < 0) {
        fprintf(stderr, "pack: %s: %s\n", argv[1], why);
        return 1;
    }
    m = (long)elf_packed_size(buf, (uint64_t)n, &img);
    if (!(out = malloc((size_t)m)))
        return 1;
    elf_pack(buf, (uint64_t)n, &img, out);
    if (!(f = fopen(argv[2], "wb")) || fwrite(out, 1, (size_t)m, f) !=
        (size_t)m || fclose(f) != 0) {
        perror(argv[2]);
        return 1;
    }
    return 0;
}
