#include "run.h"

#include "inikit/doc.h"

static ini_doc doc;

static void gets_values_by_section(void **state)
{
    assert_int_equal(ini_load(&doc, "name = top\n[server]\nname = web ; the front\n[client]\nname = cli\n"), 0);
    assert_int_equal(doc.count, 3);
    assert_string_equal(ini_get(&doc, "", "name"), "top");
    assert_string_equal(ini_get(&doc, "server", "name"), "web");
    assert_string_equal(ini_get(&doc, "client", "name"), "cli");
}

static void later_value_wins(void **state)
{
    assert_int_equal(ini_load(&doc, "[a]\nk = 1\n[b]\nk = 2\n[a]\nk = 3\n"), 0);
    assert_string_equal(ini_get(&doc, "a", "k"), "3");
    assert_string_equal(ini_get(&doc, "b", "k"), "2");
}

static void missing_key_is_null(void **state)
{
    assert_int_equal(ini_load(&doc, "[a]\nk = 1\n"), 0);
    assert_null(ini_get(&doc, "a", "other"));
    assert_null(ini_get(&doc, "", "k"));
}

static void load_refuses_too_many_pairs(void **state)
{
    char text[(INI_DOC_MAX + 1) * 12] = "";
    for (int i = 0; i <= INI_DOC_MAX; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "k%d = %d\n", i, i);
    assert_int_equal(ini_load(&doc, text), INI_DOC_MAX + 1);
    assert_int_equal(doc.count, INI_DOC_MAX);
}

static void load_refuses_long_text(void **state)
{
    /* A value of INI_TEXT_MAX - 1 characters fits; a key one longer does not. */
    char text[3 * INI_TEXT_MAX] = "a = ";
    memset(text + 4, 'v', INI_TEXT_MAX - 1);
    strcpy(text + 4 + INI_TEXT_MAX - 1, "\n");
    memset(text + strlen(text), 'k', INI_TEXT_MAX);
    strcat(text, " = 1\n");
    assert_int_equal(ini_load(&doc, text), 2);
    assert_int_equal(strlen(ini_get(&doc, "", "a")), INI_TEXT_MAX - 1);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gets_values_by_section),     cmocka_unit_test(later_value_wins),
        cmocka_unit_test(missing_key_is_null),        cmocka_unit_test(load_refuses_too_many_pairs),
        cmocka_unit_test(load_refuses_long_text),
    };
    return RUN_SELECTED("doc", tests, argc, argv);
}
