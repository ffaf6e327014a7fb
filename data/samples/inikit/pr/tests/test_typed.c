#include "run.h"

#include "inikit/doc.h"

static ini_doc doc;
static long n;
static int b;

/* load reads the document every test looks up in. */
static void load(void)
{
    assert_int_equal(ini_load(&doc, "[limits]\nretries = 3\noffset = -42\nhuge = 99999999999999999999\n"
                                    "half = 1.5\nempty =\n[flags]\na = yes\nb = ON\nc = 1\nd = True\n"
                                    "e = no\nf = Off\ng = 0\nh = FALSE\nmaybe = perhaps\n"), 0);
    n = 7;
    b = -1;
}

static void reads_longs(void **state)
{
    load();
    assert_int_equal(ini_get_long(&doc, "limits", "retries", &n), 0);
    assert_int_equal(n, 3);
    assert_int_equal(ini_get_long(&doc, "limits", "offset", &n), 0);
    assert_int_equal(n, -42);
}

static void refuses_bad_longs(void **state)
{
    load();
    assert_int_equal(ini_get_long(&doc, "limits", "huge", &n), INI_BAD_VALUE);
    assert_int_equal(ini_get_long(&doc, "limits", "half", &n), INI_BAD_VALUE);
    assert_int_equal(ini_get_long(&doc, "limits", "empty", &n), INI_BAD_VALUE);
    assert_int_equal(n, 7);
}

static void reads_bool_words(void **state)
{
    load();
    for (const char *key = "abcdefgh"; *key != '\0'; key++) {
        assert_int_equal(ini_get_bool(&doc, "flags", (char[]){*key, '\0'}, &b), 0);
        assert_int_equal(b, *key < 'e');
    }
}

static void refuses_bad_bools(void **state)
{
    load();
    assert_int_equal(ini_get_bool(&doc, "flags", "maybe", &b), INI_BAD_VALUE);
    assert_int_equal(ini_get_bool(&doc, "limits", "retries", &b), INI_BAD_VALUE);
    assert_int_equal(b, -1);
}

static void missing_keys_are_reported(void **state)
{
    load();
    assert_int_equal(ini_get_long(&doc, "limits", "none", &n), INI_MISSING);
    assert_int_equal(ini_get_bool(&doc, "nowhere", "a", &b), INI_MISSING);
    assert_true(n == 7 && b == -1);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_longs),       cmocka_unit_test(refuses_bad_longs),
        cmocka_unit_test(reads_bool_words),  cmocka_unit_test(refuses_bad_bools),
        cmocka_unit_test(missing_keys_are_reported),
    };
    return RUN_SELECTED("typed", tests, argc, argv);
}
