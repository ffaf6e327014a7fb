/* run.h: the main of every test program. CTest runs each test alone,
   naming it as the program's argument (tests/CMakeLists.txt); without an
   argument every test runs. A name that no test has fails, so that a test
   CTest lists but the program lacks never passes. */
#ifndef INIKIT_TESTS_RUN_H
#define INIKIT_TESTS_RUN_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

static int run_selected(const char *group, const struct CMUnitTest *tests, size_t n, int argc, char **argv)
{
    if (argc < 2)
        return _cmocka_run_group_tests(group, tests, n, NULL, NULL);
    for (size_t i = 0; i < n; i++) {
        if (strcmp(tests[i].name, argv[1]) == 0)
            return _cmocka_run_group_tests(group, &tests[i], 1, NULL, NULL);
    }
    fprintf(stderr, "%s: no test named %s\n", group, argv[1]);
    return 1;
}

#define RUN_SELECTED(group, tests, argc, argv) run_selected(group, tests, sizeof(tests) / sizeof((tests)[0]), argc, argv)

#endif
