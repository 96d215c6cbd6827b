/* Text a backend copies out of an API into a fixed-size field.
 *
 * A device string longer than its field is cut, and a cut must not split
 * a UTF-8 character: a report then carries an invalid byte sequence,
 * which JSON writers refuse. */
#ifndef SB_TEXT_H
#define SB_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* How many bytes of s to keep so that at most max_bytes remain and the
 * cut falls between two UTF-8 characters: strlen(s) when it fits.  A
 * string that is not UTF-8 (a run of more continuation bytes than a
 * character has) is cut at max_bytes. */
size_t sb_utf8_cut(const char *s, size_t max_bytes);

/* Copies src into dst of n bytes (n > 0), always NUL-terminated, cut with
 * sb_utf8_cut when longer than n - 1 bytes; NULL src gives "".  Returns 1
 * when src was cut, else 0. */
int sb_utf8_copy(char *dst, size_t n, const char *src);

/* A device's 16-byte UUID as 8-4-4-4-12 lower-case hexadecimal digits
 * into dst (37 bytes suffice); "" where all 16 bytes are 0 (an API that
 * has no UUID to give) or dst is too small. */
void sb_uuid_text(const unsigned char bytes[16], char *dst, size_t n);

/* s as a terminal shows it rather than obeys it (a saved run's names are
 * untrusted): into dst of n bytes (n > 0), always NUL-terminated, cut
 * only between whole characters or escapes.  \n, \r, \t as such, every
 * other control character, DEL and each byte of invalid UTF-8 as \xHH
 * (ESC is \x1B), the C1 controls U+0080..U+009F as \u0080..\u009F.
 * NULL s gives "".  Returns dst. */
const char *sb_text_visible(const char *s, char *dst, size_t n);

/* "PROG: MESSAGE" and a newline on f, the message as sb_text_visible
 * shows it: an error that quotes a name from a saved run or a command
 * line puts no control character on the terminal. */
void sb_text_message(FILE *f, const char *prog, const char *message);

/* The bytes sb_text_visible needs for all of s, its NUL included. */
size_t sb_text_visible_size(const char *s);

#endif
