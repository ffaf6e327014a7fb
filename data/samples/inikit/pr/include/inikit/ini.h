/* inikit: read INI text, sections of key = value pairs. */
#ifndef INIKIT_INI_H
#define INIKIT_INI_H

/* An ini_handler receives each pair, with the section it is in ("" before
   the first section); a nonzero return stops the parse. */
typedef int (*ini_handler)(void *user, const char *section, const char *key, const char *value);

/* ini_parse_string calls handler for every pair of text, in order. It
   returns 0, or the number of the first line it cannot read or whose pair
   the handler refused. A ';' or '#' that begins a line or follows a blank
   begins a comment, which runs to the end of the line; a line of only
   blanks and comments holds nothing. */
int ini_parse_string(const char *text, ini_handler handler, void *user);

/* ini_version returns the library's version, "MAJOR.MINOR.PATCH". */
const char *ini_version(void);

#endif
