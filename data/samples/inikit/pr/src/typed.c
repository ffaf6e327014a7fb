#include "inikit/doc.h"

#include <errno.h>
#include <stdlib.h>
#include <strings.h>

int ini_get_long(const ini_doc *doc, const char *section, const char *key, long *out)
{
    const char *v = ini_get(doc, section, key);
    if (v == NULL)
        return INI_MISSING;
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (end == v || *end != '\0' || errno == ERANGE)
        return INI_BAD_VALUE;
    *out = n;
    return 0;
}

/* one_of reports whether v is one of the four words, in any case. */
static int one_of(const char *v, const char *const words[4])
{
    for (int i = 0; i < 4; i++) {
        if (strcasecmp(v, words[i]) == 0)
            return 1;
    }
    return 0;
}

int ini_get_bool(const ini_doc *doc, const char *section, const char *key, int *out)
{
    static const char *const truths[4] = {"true", "yes", "on", "1"};
    static const char *const falsehoods[4] = {"false", "no", "off", "0"};
    const char *v = ini_get(doc, section, key);
    if (v == NULL)
        return INI_MISSING;
    if (one_of(v, truths))
        *out = 1;
    else if (one_of(v, falsehoods))
        *out = 0;
    else
        return INI_BAD_VALUE;
    return 0;
}
