#include "run.h"

#include "inikit/ini.h"

/* collect appends "section.key=value;" for every pair to the buffer user
   points to. */
static int collect(void *user, const char *section, const char *key, const char *value)
{
    char *out = user;
    size_t n = strlen(out);
    snprintf(out + n, 1024 - n, "%s.%s=%s;", section, key, value);
    return 0;
}

static int refuse_port(void *user, const char *section, const char *key, const char *value)
{
    (void)section;
    (void)value;
    (*(int *)user)++;
    return strcmp(key, "port") == 0;
}

static void reads_pairs_in_order(void **state)
{
    (void)state;
    char out[1024] = "";
    assert_int_equal(ini_parse_string("name = inikit\n  level=3  \n", collect, out), 0);
    assert_string_equal(out, ".name=inikit;.level=3;");
}

static void reads_sections(void **state)
{
    (void)state;
    char out[1024] = "";
    assert_int_equal(ini_parse_string("a=1\n[server]\nhost = example.org\n[ client ]\nretries = 2", collect, out), 0);
    assert_string_equal(out, ".a=1;server.host=example.org;client.retries=2;");
}

static void skips_blank_and_comment_lines(void **state)
{
    (void)state;
    char out[1024] = "";
    assert_int_equal(ini_parse_string("\n; a comment\n   \n# another\nk = v\n", collect, out), 0);
    assert_string_equal(out, ".k=v;");
}

static void reports_the_bad_line(void **state)
{
    (void)state;
    char out[1024] = "";
    assert_int_equal(ini_parse_string("a = 1\nno pair here\nb = 2\n", collect, out), 2);
    assert_int_equal(ini_parse_string("[open\n", collect, out), 1);
    assert_int_equal(ini_parse_string("x = 1\n\n= 2\n", collect, out), 3);
}

static void handler_stops_the_parse(void **state)
{
    (void)state;
    int calls = 0;
    assert_int_equal(ini_parse_string("host = a\nport = 80\nuser = b\n", refuse_port, &calls), 2);
    assert_int_equal(calls, 2);
}

static void strips_inline_comments(void **state)
{
    char out[1024] = "";
    assert_int_equal(ini_parse_string("a = 1 ; one\nb = 2\t# two\nc = 3;4\n", collect, out), 0);
    assert_string_equal(out, ".a=1;.b=2;.c=3;4;");
}

static void keeps_marks_inside_words(void **state)
{
    char out[1024] = "";
    assert_int_equal(ini_parse_string("url = http://example.org/#top\nlist = a;b;c\n", collect, out), 0);
    assert_string_equal(out, ".url=http://example.org/#top;.list=a;b;c;");
}

static void strips_comment_after_section(void **state)
{
    char out[1024] = "";
    assert_int_equal(ini_parse_string("[db] ; the main one\nuser = me # not root\n", collect, out), 0);
    assert_string_equal(out, "db.user=me;");
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_pairs_in_order),
        cmocka_unit_test(reads_sections),
        cmocka_unit_test(skips_blank_and_comment_lines),
        cmocka_unit_test(reports_the_bad_line),
        cmocka_unit_test(handler_stops_the_parse),
        cmocka_unit_test(strips_inline_comments),
        cmocka_unit_test(keeps_marks_inside_words),
        cmocka_unit_test(strips_comment_after_section),
    };
    return RUN_SELECTED("parse", tests, argc, argv);
}
