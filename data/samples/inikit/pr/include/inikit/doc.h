/* inikit documents: a whole INI text, loaded once and looked up by
   section and key (IKEP-2). */
#ifndef INIKIT_DOC_H
#define INIKIT_DOC_H

#include "inikit/ini.h"

/* The most pairs a document holds, and the longest section, key or value,
   with its end. */
#define INI_DOC_MAX 64
#define INI_TEXT_MAX 128

typedef struct {
    char section[INI_TEXT_MAX];
    char key[INI_TEXT_MAX];
    char value[INI_TEXT_MAX];
} ini_entry;

typedef struct {
    int count;
    ini_entry entries[INI_DOC_MAX];
} ini_doc;

/* What the typed lookups return besides 0. */
enum {
    INI_MISSING = -1,   /* the document has no such key */
    INI_BAD_VALUE = -2, /* the value is not of the type asked for */
};

/* ini_load reads text into doc, as ini_parse_string does. It returns 0, or
   the number of the first line it cannot read or whose pair does not fit:
   the INI_DOC_MAX + 1st pair, or a section, key or value of INI_TEXT_MAX
   characters or more. */
int ini_load(ini_doc *doc, const char *text);

/* ini_get returns the value of key in section ("" for the pairs before the
   first section), the last one when the key repeats, or NULL. */
const char *ini_get(const ini_doc *doc, const char *section, const char *key);

/* ini_get_long stores the value of key, a decimal integer in long's range,
   in *out and returns 0, or returns INI_MISSING or INI_BAD_VALUE. */
int ini_get_long(const ini_doc *doc, const char *section, const char *key, long *out);

/* ini_get_bool stores 1 for true, yes, on and 1, and 0 for false, no, off
   and 0, in any case, in *out and returns 0, or returns INI_MISSING or
   INI_BAD_VALUE. */
int ini_get_bool(const ini_doc *doc, const char *section, const char *key, int *out);

#endif
