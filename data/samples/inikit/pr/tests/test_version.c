#include "run.h"

#include "inikit/ini.h"

static void reports_version_1_1_0(void **state)
{
    assert_string_equal(ini_version(), "1.1.0");
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(reports_version_1_1_0)};
    return RUN_SELECTED("version", tests, argc, argv);
}
