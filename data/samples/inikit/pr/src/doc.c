#include "inikit/doc.h"

#include <string.h>

static int fits(const char *s)
{
    return strlen(s) < INI_TEXT_MAX;
}

/* add_entry is ini_load's handler: it refuses a pair that does not fit. */
static int add_entry(void *user, const char *section, const char *key, const char *value)
{
    ini_doc *doc = user;
    if (doc->count == INI_DOC_MAX || !fits(section) || !fits(key) || !fits(value))
        return 1;
    ini_entry *e = &doc->entries[doc->count++];
    strcpy(e->section, section);
    strcpy(e->key, key);
    strcpy(e->value, value);
    return 0;
}

int ini_load(ini_doc *doc, const char *text)
{
    doc->count = 0;
    return ini_parse_string(text, add_entry, doc);
}

const char *ini_get(const ini_doc *doc, const char *section, const char *key)
{
    for (int i = doc->count - 1; i >= 0; i--) {
        const ini_entry *e = &doc->entries[i];
        if (strcmp(e->section, section) == 0 && strcmp(e->key, key) == 0)
            return e->value;
    }
    return NULL;
}
