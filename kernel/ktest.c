/*
 * The in-kernel test runner (see include/ktest.h for the output format).
 */
#define LOG_PREFIX "ktest"
#include "kernel.h"
#include "console.h"
#include "ktest.h"
#include "lib.h"
#include "printf.h"

extern const struct ktest __ktests_start[], __ktests_end[];

static bool failed;
static char why[160];

void ktest_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (failed)
        return;                 /* report the first failure of a test */
    failed = true;
    n = ksnprintf(why, sizeof(why), "%s:%d: ", file, line);
    va_start(ap, fmt);
    kvsnprintf(why + n, sizeof(why) - n, fmt, ap);
    va_end(ap);
}

/* Does one comma-separated word of `spec` select test `t`? */
static bool word_selects(const char *w, size_t n, const struct ktest *t)
{
    size_t ls = strlen(t->suite);

    if (n == 3 && !strncmp(w, "all", 3))
        return !t->manual;
    if (n == ls && !strncmp(w, t->suite, n))
        return true;
    return n > ls && w[ls] == '.' && !strncmp(w, t->suite, ls) &&
           strlen(t->name) == n - ls - 1 && !strncmp(w + ls + 1, t->name, n - ls - 1);
}

/* Selected by some word and not excluded by a "-word" (test=net,-net.x:
   all of net but x). */
static bool selected(const char *spec, const struct ktest *t)
{
    bool yes = false;

    while (*spec) {
        const char *end = strchr(spec, ',');
        size_t n = end ? (size_t)(end - spec) : strlen(spec);
        if (*spec == '-' && n > 1 && word_selects(spec + 1, n - 1, t))
            return false;
        if (*spec != '-' && word_selects(spec, n, t))
            yes = true;
        spec += n + (end ? 1 : 0);
    }
    return yes;
}

int ktest_run(const char *spec)
{
    int pass = 0, fail = 0;

    for (const struct ktest *t = __ktests_start; t < __ktests_end; t++) {
        if (!selected(spec, t))
            continue;
        failed = false;
        t->fn();
        if (failed) {
            kprintf("KTEST %s.%s FAIL (%s)\n", t->suite, t->name, why);
            fail++;
        } else {
            kprintf("KTEST %s.%s ok\n", t->suite, t->name);
            pass++;
        }
    }
    if (pass + fail == 0)
        kprintf("KTEST no test matches test=%s\n", spec);
    kprintf("KTEST DONE pass=%d fail=%d\n", pass, fail);
    return pass + fail == 0 ? 1 : fail;
}
