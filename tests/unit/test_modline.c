/*
 * Host tests of the PCT's boot-module command line (pct/modline.c): the
 * percent-encoding tools/lwkrun writes, the PCT's own words, and what it
 * refuses.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "pct.h"

static struct job j;
static char line[1024];

/* load.c's, which modline.c reports with: keep the reason. */
void pct_cannot_run(struct job *job, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(job->why, sizeof(job->why), fmt, ap);
    va_end(ap);
}

static int parse(const char *text)
{
    memset(&j, 0, sizeof(j));
    snprintf(line, sizeof(line), "%s", text);
    return pct_parse_module(&j, line);
}

static void plain_words_and_pct_words(void **s)
{
    (void)s;
    assert_int_equal(parse("build/x/prio.elf low prio=5 env=HOME=/h two"), 0);
    assert_string_equal(j.name, "prio.elf");
    assert_int_equal(j.argc, 3);
    assert_string_equal(j.argv[0], "build/x/prio.elf");
    assert_string_equal(j.argv[1], "low");
    assert_string_equal(j.argv[2], "two");
    assert_null(j.argv[3]);
    assert_int_equal(j.prio, 5);
    assert_int_equal(j.envc, 1);
    assert_string_equal(j.envp[0], "HOME=/h");
    assert_null(j.envp[1]);
}

/* What lwkrun writes for: 'a b' 'c,d' "it's" '' '100%' 'é' 'prio=3',
   and -e 'K=x y'. */
static void encoded_words_decode_exactly(void **s)
{
    (void)s;
    assert_int_equal(parse("p a%20b c%2Cd it%27s %00 100%25 %C3%a9 prio%3D3 "
                           "env=K%3Dx%20y"), 0);
    assert_int_equal(j.argc, 8);
    assert_string_equal(j.argv[1], "a b");
    assert_string_equal(j.argv[2], "c,d");
    assert_string_equal(j.argv[3], "it's");
    assert_string_equal(j.argv[4], "");
    assert_string_equal(j.argv[5], "100%");
    assert_string_equal(j.argv[6], "\xc3\xa9");
    assert_string_equal(j.argv[7], "prio=3");   /* an argument, not a priority */
    assert_int_equal(j.prio, 0);
    assert_string_equal(j.envp[0], "K=x y");
}

/* The path is the file the loader read: never decoded. */
static void path_is_as_given(void **s)
{
    (void)s;
    assert_int_equal(parse("dir%20x/a%41.elf %41"), 0);
    assert_string_equal(j.argv[0], "dir%20x/a%41.elf");
    assert_string_equal(j.name, "a%41.elf");
    assert_string_equal(j.argv[1], "A");
}

static void bad_escapes_are_refused(void **s)
{
    static const char *const bad[] = {
        "p 50%", "p 5%0", "p %zz", "p a%00b", "p %000", "p env=K=%g1",
    };

    (void)s;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(parse(bad[i]), -1);
        assert_non_null(strstr(j.why, "bad %-escape"));
        assert_non_null(strstr(j.why, "write '%' as %25"));
    }
}

static void too_many_words_are_refused(void **s)
{
    char text[1024] = "p";

    (void)s;
    for (int i = 1; i < PCT_MAX_ARGS; i++)
        strcat(text, " a");
    assert_int_equal(parse(text), 0);
    assert_int_equal(j.argc, PCT_MAX_ARGS);
    strcat(text, " one-more");
    assert_int_equal(parse(text), -1);
    assert_non_null(strstr(j.why, "more than 32 arguments"));
    strcpy(text, "p");
    for (int i = 0; i <= PCT_MAX_ARGS; i++)
        strcat(text, " env=A=1");
    assert_int_equal(parse(text), -1);
    assert_non_null(strstr(j.why, "more than 32 environment entries"));
}

static void module_named_by_its_file_name(void **s)
{
    (void)s;
    assert_true(pct_module_is("cluster.key", "cluster.key"));
    assert_true(pct_module_is("tftp://10.77.0.1/cluster.key", "cluster.key"));
    assert_true(pct_module_is("/boot/pct.elf pct.elf", "pct.elf"));
    assert_false(pct_module_is("cluster.key.old", "cluster.key"));
    assert_false(pct_module_is("prog cluster.key", "cluster.key"));
    assert_false(pct_module_is("tftp://h/x/", "cluster.key"));
    assert_false(pct_module_is("pct", "pct.elf"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plain_words_and_pct_words),
        cmocka_unit_test(encoded_words_decode_exactly),
        cmocka_unit_test(path_is_as_given),
        cmocka_unit_test(bad_escapes_are_refused),
        cmocka_unit_test(module_named_by_its_file_name),
        cmocka_unit_test(too_many_words_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
