/*
 * SipHash-2-4 (yod/siphash.c) against the reference vectors of the
 * SipHash paper (Aumasson and Bernstein, 2012; its appendix gives key
 * 00 01 .. 0f and message 00 01 .. 0e; the reference code's table covers
 * every message 00 01 .. (n-1) for n = 0..63, same key).  Also: hashing a
 * message in pieces, at every split, gives the same result; a one-bit
 * change of key or message changes it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "siphash.h"

static const uint64_t vectors[64] = {
    0x726fdb47dd0e0e31ull, 0x74f839c593dc67fdull, 0x0d6c8009d9a94f5aull,
    0x85676696d7fb7e2dull, 0xcf2794e0277187b7ull, 0x18765564cd99a68dull,
    0xcbc9466e58fee3ceull, 0xab0200f58b01d137ull, 0x93f5f5799a932462ull,
    0x9e0082df0ba9e4b0ull, 0x7a5dbbc594ddb9f3ull, 0xf4b32f46226bada7ull,
    0x751e8fbc860ee5fbull, 0x14ea5627c0843d90ull, 0xf723ca908e7af2eeull,
    0xa129ca6149be45e5ull, 0x3f2acc7f57c29bdbull, 0x699ae9f52cbe4794ull,
    0x4bc1b3f0968dd39cull, 0xbb6dc91da77961bdull, 0xbed65cf21aa2ee98ull,
    0xd0f2cbb02e3b67c7ull, 0x93536795e3a33e88ull, 0xa80c038ccd5ccec8ull,
    0xb8ad50c6f649af94ull, 0xbce192de8a85b8eaull, 0x17d835b85bbb15f3ull,
    0x2f2e6163076bcfadull, 0xde4daaaca71dc9a5ull, 0xa6a2506687956571ull,
    0xad87a3535c49ef28ull, 0x32d892fad841c342ull, 0x7127512f72f27cceull,
    0xa7f32346f95978e3ull, 0x12e0b01abb051238ull, 0x15e034d40fa197aeull,
    0x314dffbe0815a3b4ull, 0x027990f029623981ull, 0xcadcd4e59ef40c4dull,
    0x9abfd8766a33735cull, 0x0e3ea96b5304a7d0ull, 0xad0c42d6fc585992ull,
    0x187306c89bc215a9ull, 0xd4a60abcf3792b95ull, 0xf935451de4f21df2ull,
    0xa9538f0419755787ull, 0xdb9acddff56ca510ull, 0xd06c98cd5c0975ebull,
    0xe612a3cb9ecba951ull, 0xc766e62cfcadaf96ull, 0xee64435a9752fe72ull,
    0xa192d576b245165aull, 0x0a8787bf8ecb74b2ull, 0x81b3e73d20b49b6full,
    0x7fa8220ba3b2eceaull, 0x245731c13ca42499ull, 0xb78dbfaf3a8d83bdull,
    0xea1ad565322a1a0bull, 0x60e61c23a3795013ull, 0x6606d7e446282b93ull,
    0x6ca4ecb15c5f91e1ull, 0x9f626da15c9625f3ull, 0xe51b38608ef25f57ull,
    0x958a324ceb064572ull,
};

static uint8_t kbytes[16], msg[64];

static struct sipkey key(void)
{
    for (int i = 0; i < 16; i++)
        kbytes[i] = (uint8_t)i;
    for (int i = 0; i < 64; i++)
        msg[i] = (uint8_t)i;
    return sipkey_from_bytes(kbytes);
}

/* The paper's own example: 15 bytes, in its appendix. */
static void paper_example(void **s)
{
    struct sipkey k = key();

    (void)s;
    assert_int_equal(k.k0, 0x0706050403020100ull);
    assert_int_equal(k.k1, 0x0f0e0d0c0b0a0908ull);
    assert_int_equal(siphash24(&k, msg, 15), 0xa129ca6149be45e5ull);
}

static void all_vectors(void **s)
{
    struct sipkey k = key();

    (void)s;
    for (size_t n = 0; n < 64; n++)
        assert_int_equal(siphash24(&k, msg, n), vectors[n]);
}

/* Pieces at every split point, and in three pieces, match the whole
   (the word-at-a-time path and the byte path meet at every offset). */
static void in_pieces(void **s)
{
    struct sipkey k = key();

    (void)s;
    for (size_t n = 0; n < 64; n++)
        for (size_t a = 0; a <= n; a++)
            for (size_t b = a; b <= n; b++) {
                struct siphash h;
                siphash_init(&h, &k);
                siphash_update(&h, msg, a);
                siphash_update(&h, msg + a, b - a);
                siphash_update(&h, msg + b, n - b);
                assert_int_equal(siphash_final(&h), vectors[n]);
            }
}

/* Any one bit of the key or the message changes the MAC. */
static void one_bit(void **s)
{
    struct sipkey k = key();
    uint64_t want = vectors[63];

    (void)s;
    for (int bit = 0; bit < 128; bit++) {
        struct sipkey x = k;
        if (bit < 64)
            x.k0 ^= 1ull << bit;
        else
            x.k1 ^= 1ull << (bit - 64);
        assert_true(siphash24(&x, msg, 63) != want);
    }
    for (int bit = 0; bit < 63 * 8; bit++) {
        msg[bit / 8] ^= (uint8_t)(1 << bit % 8);
        assert_true(siphash24(&k, msg, 63) != want);
        msg[bit / 8] ^= (uint8_t)(1 << bit % 8);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(paper_example),
        cmocka_unit_test(all_vectors),
        cmocka_unit_test(in_pieces),
        cmocka_unit_test(one_bit),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
