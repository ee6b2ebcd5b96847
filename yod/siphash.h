/* SPDX-License-Identifier: MIT */
/*
 * siphash.h: SipHash-2-4 (Aumasson and Bernstein, "SipHash: a fast
 * short-input PRF", 2012), the keyed MAC on what yod and the PCTs say
 * (yod_proto.h, "Authentication").  Made for short messages: a control
 * message costs about as much as copying it.  Pure C with no library
 * calls, so one file serves yod (Linux), the PCT and the node's C
 * library; tests/unit/test_siphash.c checks it against the paper's
 * vectors.
 */
#ifndef YOD_SIPHASH_H
#define YOD_SIPHASH_H

#include <stddef.h>
#include <stdint.h>

/* The 128-bit key as two little-endian words: key bytes 0-7 and 8-15. */
struct sipkey {
    uint64_t k0, k1;
};

/* The running state, to hash a message given in pieces (a header and
   the path strings after it, a frame's fields and its payload). */
struct siphash {
    uint64_t v0, v1, v2, v3;
    uint64_t tail;              /* bytes not yet a whole word */
    uint64_t len;               /* bytes so far */
};

void siphash_init(struct siphash *h, const struct sipkey *k);
void siphash_update(struct siphash *h, const void *data, size_t len);
uint64_t siphash_final(struct siphash *h);

/* The whole message at once. */
uint64_t siphash24(const struct sipkey *k, const void *data, size_t len);

/* The key in 16 bytes, as the paper writes keys (k0 from bytes 0-7). */
struct sipkey sipkey_from_bytes(const uint8_t b[16]);

#endif
