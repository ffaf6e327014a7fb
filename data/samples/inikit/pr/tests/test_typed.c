#include "run.h"

#include "inikit/doc.h"

static const char text[] =
    "[limits]\n"
    "retries = 3\n"
    "offset = -42\n"
    "huge = 99999999999999999999999\n"
    "half = 1.5\n"
    "empty =\n"
    "[flags]\n"
    "a = yes\nb = ON\nc = 1\nd = True\n"
    "e = no\nf = Off\ng = 0\nh = FALSE\n"
    "maybe = perhaps\n";

static void reads_longs(void **state)
{
    (void)state;
    ini_doc doc;
    assert_int_equal(ini_load(&doc, text), 0);
    long n = 7;
    assert_int_equal(ini_get_long(&doc, "limits", "retries", &n), 0);
    assert_int_equal(n, 3);
    assert_int_equal(ini_get_long(&doc, "limits", "offset", &n), 0);
    assert_int_equal(n, -42);
}

static void refuses_bad_longs(void **state)
{
    (void)state;
    ini_doc doc;
    assert_int_equal(ini_load(&doc, text), 0);
    long n = 7;
    assert_int_equal(ini_get_long(&doc, "limits", "huge", &n), INI_BAD_VALUE);
    assert_int_equal(ini_get_long(&doc, "limits", "half", &n), INI_BAD_VALUE);
    assert_int_equal(ini_get_long(&doc, "limits", "empty", &n), INI_BAD_VALUE);
    assert_int_equal(n, 7);
}

static void reads_bool_words(void **state)
{
    (void)state;
    ini_doc doc;
    assert_int_equal(ini_load(&doc, text), 0);
    const char *keys = "abcdefgh";
    for (int i = 0; i < 8; i++) {
        char key[2] = {keys[i], '\0'};
        int b = -1;
        assert_int_equal(ini_get_bool(&doc, "flags", key, &b), 0);
        assert_int_equal(b, i < 4);
    }
}

static void refuses_bad_bools(void **state)
{
    (void)state;
    ini_doc doc;
    assert_int_equal(ini_load(&doc, text), 0);
    int b = -1;
    assert_int_equal(ini_get_bool(&doc, "flags", "maybe", &b), INI_BAD_VALUE);
    assert_int_equal(ini_get_bool(&doc, "limits", "retries", &b), INI_BAD_VALUE);
    assert_int_equal(b, -1);
}

static void missing_keys_are_reported(void **state)
{
    (void)state;
    ini_doc doc;
    assert_int_equal(ini_load(&doc, text), 0);
    long n = 7;
    int b = -1;
    assert_int_equal(ini_get_long(&doc, "limits", "none", &n), INI_MISSING);
    assert_int_equal(ini_get_bool(&doc, "nowhere", "a", &b), INI_MISSING);
    assert_int_equal(n, 7);
    assert_int_equal(b, -1);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_longs),
        cmocka_unit_test(refuses_bad_longs),
        cmocka_unit_test(reads_bool_words),
        cmocka_unit_test(refuses_bad_bools),
        cmocka_unit_test(missing_keys_are_reported),
    };
    return RUN_SELECTED("typed", tests, argc, argv);
}
