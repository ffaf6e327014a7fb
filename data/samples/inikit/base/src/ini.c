#include "inikit/ini.h"

#include <ctype.h>
#include <string.h>

/* The longest line the parser reads, with its end. */
#define INI_MAX_LINE 512

/* trim removes the blanks around s, in place, and returns its first
   character. */
static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1]))
        end--;
    *end = '\0';
    return s;
}

/* parse_line reads one line: a section header, copied into section, or a
   pair, pointed to by key and value. It returns 1 for a pair, 0 for a line
   without one and -1 for a line it cannot read. */
static int parse_line(char *line, char *section, char **key, char **value)
{
    char *s = trim(line);
    if (*s == '\0' || *s == ';' || *s == '#')
        return 0;
    if (*s == '[') {
        char *end = strchr(s, ']');
        if (end == NULL || end[1] != '\0')
            return -1;
        *end = '\0';
        strcpy(section, trim(s + 1));
        return 0;
    }
    char *eq = strchr(s, '=');
    if (eq == NULL || eq == s)
        return -1;
    *eq = '\0';
    *key = trim(s);
    *value = trim(eq + 1);
    return 1;
}

int ini_parse_string(const char *text, ini_handler handler, void *user)
{
    char section[INI_MAX_LINE] = "";
    char line[INI_MAX_LINE];
    int number = 0;
    while (*text != '\0') {
        size_t n = strcspn(text, "\n");
        number++;
        if (n >= sizeof line)
            return number;
        memcpy(line, text, n);
        line[n] = '\0';
        text += n;
        if (*text == '\n')
            text++;
        char *key, *value;
        int got = parse_line(line, section, &key, &value);
        if (got < 0 || (got == 1 && handler(user, section, key, value) != 0))
            return number;
    }
    return 0;
}

const char *ini_version(void)
{
    return "1.0.0";
}
