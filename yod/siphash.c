/* SPDX-License-Identifier: MIT */
/*
 * siphash.c: SipHash-2-4 (siphash.h): two compression rounds per 8-byte
 * word, four finalisation rounds, a 64-bit result.  Written from the
 * paper's description (section 2): the state is four words initialised
 * from the key and the constants "somepseudorandomlygeneratedbytes"; the
 * last word carries the message length in its top byte.
 */
#include "siphash.h"

static uint64_t rotl(uint64_t x, int b)
{
    return x << b | x >> (64 - b);
}

static void sipround(struct siphash *h)
{
    h->v0 += h->v1; h->v1 = rotl(h->v1, 13); h->v1 ^= h->v0;
    h->v0 = rotl(h->v0, 32);
    h->v2 += h->v3; h->v3 = rotl(h->v3, 16); h->v3 ^= h->v2;
    h->v0 += h->v3; h->v3 = rotl(h->v3, 21); h->v3 ^= h->v0;
    h->v2 += h->v1; h->v1 = rotl(h->v1, 17); h->v1 ^= h->v2;
    h->v2 = rotl(h->v2, 32);
}

static void compress(struct siphash *h, uint64_t m)
{
    h->v3 ^= m;
    sipround(h);
    sipround(h);
    h->v0 ^= m;
}

void siphash_init(struct siphash *h, const struct sipkey *k)
{
    h->v0 = k->k0 ^ 0x736f6d6570736575ull;
    h->v1 = k->k1 ^ 0x646f72616e646f6dull;
    h->v2 = k->k0 ^ 0x6c7967656e657261ull;
    h->v3 = k->k1 ^ 0x7465646279746573ull;
    h->tail = 0;
    h->len = 0;
}

static uint64_t word(const uint8_t *p)
{
    uint64_t w = 0;

    for (int i = 7; i >= 0; i--)
        w = w << 8 | p[i];
    return w;
}

/* Bytes are taken little-endian into words, whatever the host's order;
   whole words at a time while the message is word-aligned (a frame's
   payload: output, a path), byte by byte otherwise. */
void siphash_update(struct siphash *h, const void *data, size_t len)
{
    const uint8_t *p = data;
    size_t i = 0;

    for (; !(h->len & 7) && len - i >= 8; i += 8, h->len += 8)
        compress(h, word(p + i));
    for (; i < len; i++) {
        unsigned at = h->len++ & 7;
        h->tail |= (uint64_t)p[i] << (8 * at);
        if (at == 7) {
            compress(h, h->tail);
            h->tail = 0;
        }
    }
}

uint64_t siphash_final(struct siphash *h)
{
    compress(h, h->tail | h->len << 56);
    h->v2 ^= 0xff;
    for (int i = 0; i < 4; i++)
        sipround(h);
    return h->v0 ^ h->v1 ^ h->v2 ^ h->v3;
}

uint64_t siphash24(const struct sipkey *k, const void *data, size_t len)
{
    struct siphash h;

    siphash_init(&h, k);
    siphash_update(&h, data, len);
    return siphash_final(&h);
}

struct sipkey sipkey_from_bytes(const uint8_t b[16])
{
    return (struct sipkey){ word(b), word(b + 8) };
}
