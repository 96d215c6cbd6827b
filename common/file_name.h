/* File names made from strings a program does not choose: experiment and
 * variant names from a saved run, a device's label.  Such a string may
 * hold a '/', a newline, a control character, a leading '-' that a shell
 * reads as an option, or be "..": none of that reaches a name.
 *
 * A name is made of parts joined by a separator ('-' or '.'); each part
 * keeps ASCII letters, digits, '-' and '_', every other byte becomes '_',
 * and an empty part becomes the fallback given.  The name never starts
 * with '-' or '.', never holds '/', a control character, a space or a
 * ".." component, and is cut (never mid-part-separator) to fit. */
#ifndef SB_FILE_NAME_H
#define SB_FILE_NAME_H

#include <stddef.h>

/* Whether c may stand in a part as it is: [A-Za-z0-9_-]. */
int sb_file_name_char(int c);

/* The nparts parts joined by sep ('-' or '.'; anything else is '-') into
 * dst of n bytes (n > 0), always NUL-terminated; a NULL or empty part is
 * fallback (itself made safe, "x" when NULL or empty).  Returns dst. */
const char *sb_file_name(char *dst, size_t n, int sep, const char *const *parts, int nparts,
                         const char *fallback);

/* Whether name is one sb_file_name could make: not empty, no '/', no byte
 * outside printable ASCII, no leading '-' or '.', no ".." anywhere.  The
 * fuzz harness's oracle, and a check for names made elsewhere. */
int sb_file_name_is_safe(const char *name);

#endif
