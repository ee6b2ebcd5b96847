/*
 * The kernel command line: space-separated key=value words (value may be
 * double-quoted); a word without '=' is a flag with value "".  The loader
 * may put the image path first; it is just one more flag.
 */
#ifndef CMDLINE_H
#define CMDLINE_H

#include <stdint.h>
#include <stdbool.h>

#define CMDLINE_MAX_ARGS    32
#define CMDLINE_KEY_LEN     32
#define CMDLINE_VAL_LEN     128

struct cmdline {
    int n;
    bool truncated;             /* something did not fit: words or lengths */
    struct {
        char key[CMDLINE_KEY_LEN];
        char val[CMDLINE_VAL_LEN];
    } arg[CMDLINE_MAX_ARGS];
};

void cmdline_parse(struct cmdline *cl, const char *s);
const char *cmdline_get(const struct cmdline *cl, const char *key);
/* The value as an unsigned number (decimal, 0x hex, K/M/G suffix), or
   `def` if absent; -EINVAL (and *out untouched) if present but not a number. */
int cmdline_get_u64(const struct cmdline *cl, const char *key, uint64_t def,
                    uint64_t *out);

/* A rate in parts per million: "5" or "5%" is five percent, "0.25" a
   quarter percent (at most four decimals: 1 ppm), "250ppm" 250 ppm.  `def`
   if absent; -EINVAL (and *out untouched) if malformed or above 100%. */
int cmdline_get_ppm(const struct cmdline *cl, const char *key, uint32_t def,
                    uint32_t *out);

extern struct cmdline kernel_cmdline;

#endif
