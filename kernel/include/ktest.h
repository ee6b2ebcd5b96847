/*
 * In-kernel tests.  KTEST(suite, name) { ... } registers a test in the
 * .ktests section; `test=all` on the command line runs every test that is
 * not manual, `test=suite` or `test=suite.name` (comma-separated) picks
 * tests, including manual ones (those that must fail or stop the node,
 * used to test the harness itself); `-suite.name` leaves one out.
 *
 * Output, one line per test, then a sentinel that tests/qemu/run requires:
 *   KTEST <suite>.<name> ok
 *   KTEST <suite>.<name> FAIL (<file>:<line>: <what>)
 *   KTEST DONE pass=<n> fail=<m>
 */
#ifndef KTEST_H
#define KTEST_H

#include "kernel.h"

struct ktest {
    const char *suite, *name;
    void (*fn)(void);
    bool manual;
};

#define KTEST_DEFINE(suite_, name_, manual_)                                \
    static void ktest_fn_##suite_##_##name_(void);                          \
    static const struct ktest ktest_##suite_##_##name_                      \
        __attribute__((used, section(".ktests"), aligned(8))) = {           \
        #suite_, #name_, ktest_fn_##suite_##_##name_, manual_ };            \
    static void ktest_fn_##suite_##_##name_(void)

#define KTEST(suite, name)          KTEST_DEFINE(suite, name, false)
#define KTEST_MANUAL(suite, name)   KTEST_DEFINE(suite, name, true)

void ktest_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#define KEXPECT(c) \
    do { if (!(c)) ktest_fail(__FILE__, __LINE__, "%s", #c); } while (0)
#define KEXPECT_EQ(a, b)                                                    \
    do {                                                                    \
        uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);                    \
        if (a_ != b_)                                                       \
            ktest_fail(__FILE__, __LINE__, "%s == %s (%#lx != %#lx)",       \
                       #a, #b, a_, b_);                                     \
    } while (0)

/* Run the tests `spec` selects; returns the number that failed. */
int ktest_run(const char *spec);

#endif
