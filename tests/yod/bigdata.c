/* SPDX-License-Identifier: MIT */
/*
 * bigdata: a compute-node program with 8 MiB of initialised data (pseudo-
 * random bytes made at build time, tests/yod/bigdata.py), for loading
 * tests and the launch-time benchmark (tests/qemu/suite-yodfan,
 * tests/bench/yod/run).  Each rank checks the CRC-32 of all of it
 * against the one computed when it was built, so a chunk lost, repeated
 * or misplaced on the way (yod -> PCT -> PCT ...) is caught.
 *
 *   bigdata          check; "bigdata: rank R of N: 8388608 bytes, crc32
 *                    0x... ok", exit 0 (exit 1 and "BAD" if it differs)
 *   bigdata quiet    the same check, no output (the benchmark)
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <lwk/lwk.h>
#include "bigdata.h"            /* BIGDATA_BYTES, BIGDATA_CRC, BIGDATA_BIN */

/* In .data, not .rodata or .bss: the loader copies it like any data. */
__asm__(".section .data\n.balign 64\n.globl blob\nblob:\n"
        ".incbin \"" BIGDATA_BIN "\"\n.globl blob_end\nblob_end:\n.previous");
extern const unsigned char blob[], blob_end[];

static uint32_t crc32(const unsigned char *p, size_t n)
{
    static uint32_t table[256];
    uint32_t c = 0xFFFFFFFFu;

    if (!table[1])
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t v = i;
            for (int k = 0; k < 8; k++)
                v = v & 1 ? 0xEDB88320u ^ (v >> 1) : v >> 1;
            table[i] = v;
        }
    while (n--)
        c = table[(c ^ *p++) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

int main(int argc, char **argv)
{
    size_t n = (size_t)(blob_end - blob);
    uint32_t crc = crc32(blob, n);
    int ok = n == BIGDATA_BYTES && crc == BIGDATA_CRC;

    if (!ok || argc < 2 || strcmp(argv[1], "quiet"))
        printf("bigdata: rank %ld of %ld: %zu bytes, crc32 %#x %s\n",
               lwk_rank(), lwk_size(), n, crc,
               ok ? "ok" : "BAD (built with a different one)");
    return ok ? 0 : 1;
}
