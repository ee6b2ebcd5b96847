/* SPDX-License-Identifier: MIT */
/*
 * bigbss: a compute-node program whose .bss (256 MiB) is larger than a
 * test node's memory (128 MiB), for tests/qemu/suite-yod: the PCT must
 * refuse it and yod must say why in one line.
 */
static char big[256u << 20];

int main(void)
{
    big[sizeof(big) - 1] = 1;
    return big[0];
}
