#include "report/layout.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

int sb_layout_width(void)
{
    const char *s = getenv("COLUMNS");
    if (!s || !*s)
        return SB_LAYOUT_WIDTH;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || end == s)
        return SB_LAYOUT_WIDTH;
    return v < SB_LAYOUT_MIN_WIDTH ? SB_LAYOUT_MIN_WIDTH
           : v > SB_LAYOUT_MAX_WIDTH ? SB_LAYOUT_MAX_WIDTH
                                     : (int)v;
}

/* A UTF-8 continuation byte: part of the character before it. */
static int continuation(unsigned char c)
{
    return (c & 0xC0) == 0x80;
}

/* Whether s shows as it is: no control character, no byte past ASCII
 * (which might be invalid UTF-8 or a C1 control). */
static int plain(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p >= 0x7f)
            return 0;
    return 1;
}

/* s as the terminal is to show it (sb_text_visible): s itself where it is
 * plain, else a copy to free. */
static char *visible(const char *s, char **to_free)
{
    *to_free = NULL;
    if (plain(s))
        return (char *)s;
    size_t n = sb_text_visible_size(s);
    char *v = malloc(n);
    if (!v)
        return (char *)""; /* out of memory: nothing rather than raw bytes */
    *to_free = v;
    return (char *)sb_text_visible(s, v, n);
}

/* s on out as sb_text_visible shows it. */
static void put_visible(const char *s, FILE *out)
{
    char *to_free;
    fputs(visible(s, &to_free), out);
    free(to_free);
}

int sb_layout_text_width(const char *s)
{
    char *to_free;
    int n = 0;
    for (const char *p = visible(s, &to_free); *p; p++)
        n += !continuation((unsigned char)*p);
    free(to_free);
    return n;
}

/* Whether the space at p may end a line: not inside a grouped number. */
static int breakable(const char *text, const char *p)
{
    return !(p > text && isdigit((unsigned char)p[-1]) && isdigit((unsigned char)p[1]));
}

/* How many bytes of p go on a line of `room` columns: all of it when it
 * fits, else up to the last space it may fold at, else as many whole
 * characters as fit (at least one). */
static size_t line_bytes(const char *text, const char *p, int room)
{
    int cols = 0;
    size_t fold = 0, cut = 0;
    const char *q = p;
    for (; *q; q++) {
        if (continuation((unsigned char)*q))
            continue;
        if (*q == ' ' && breakable(text, q))
            fold = (size_t)(q - p);
        if (cols == room)
            break;
        cols++;
        cut = (size_t)(q - p);
    }
    if (!*q)
        return (size_t)(q - p);
    if (*q == ' ' && breakable(text, q))
        return (size_t)(q - p);
    if (fold > 0)
        return fold;
    /* No space to fold at: cut after the last whole character that fits. */
    while (p[cut + 1] && continuation((unsigned char)p[cut + 1]))
        cut++;
    return cut + 1;
}

/* raw folded as sb_layout_fold folds it, the first line starting at
 * column lead (what is before it already written). */
static void fold_from(FILE *out, int width, int lead, int indent, const char *raw)
{
    char *to_free;
    const char *text = visible(raw, &to_free), *p = text;
    while (*p == ' ')
        p++;
    for (;;) {
        int room = width - lead > 1 ? width - lead : 1;
        size_t len = line_bytes(text, p, room), shown = len;
        while (shown > 0 && p[shown - 1] == ' ')
            shown--;
        fwrite(p, 1, shown, out);
        fputc('\n', out);
        p += len;
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        fprintf(out, "%*s", indent, "");
        lead = indent;
    }
    free(to_free);
}

void sb_layout_fold(FILE *out, int width, const char *first, int indent, const char *text)
{
    put_visible(first, out);
    fold_from(out, width, sb_layout_text_width(first), indent, text);
}

/* ------------------------------------------------------------ columns */

void sb_layout_init(sb_layout *l, int width)
{
    memset(l, 0, sizeof *l);
    l->width = width;
}

int sb_layout_add(sb_layout *l, const sb_layout_column *c)
{
    if (l->ncolumns >= SB_LAYOUT_MAX_COLUMNS)
        return -1;
    sb_layout_column *k = &l->column[l->ncolumns];
    *k = *c;
    k->width = sb_layout_text_width(k->heading);
    k->filled = k->shown = 0;
    return l->ncolumns++;
}

int sb_layout_add_group(sb_layout *l, const char *label)
{
    if (l->ngroups >= SB_LAYOUT_MAX_GROUPS)
        return 0;
    snprintf(l->group[l->ngroups], sizeof l->group[0], "%s", label);
    return ++l->ngroups;
}

void sb_layout_measure(sb_layout *l, const sb_layout_cells *cells)
{
    for (int c = 0; c < l->ncolumns; c++) {
        int w = sb_layout_text_width(cells->cell[c]);
        if (w > l->column[c].width)
            l->column[c].width = w;
        if (cells->cell[c][0])
            l->column[c].filled = 1;
    }
}

/* The spaces before a kept column: the widest gap of it and of the
 * columns that gave way since the last kept one, so that a group keeps
 * the gap that opens it. */
static int gap_before(const sb_layout *l, int c)
{
    int gap = l->column[c].gap;
    for (int k = c - 1; k >= 0 && !l->column[k].shown; k--)
        if (l->column[k].gap > gap)
            gap = l->column[k].gap;
    return gap;
}

/* Where each kept column starts, and the line's width; a column's width
 * is widths[c]. */
static int positions(const sb_layout *l, const int *widths, int *start)
{
    int at = 0;
    for (int c = 0; c < l->ncolumns; c++) {
        if (!l->column[c].shown)
            continue;
        at += gap_before(l, c);
        start[c] = at;
        at += widths[c];
    }
    return at;
}

/* The widths the row would have: the columns', the first one's as
 * fitted, and the first kept column of each group widened until the
 * group is as wide as its label.  The line's width. */
static int row_widths(const sb_layout *l, int *widths)
{
    int start[SB_LAYOUT_MAX_COLUMNS];
    for (int c = 0; c < l->ncolumns; c++) {
        const sb_layout_column *k = &l->column[c];
        widths[c] = c == 0 ? l->first_width : k->width;
        if (c > 0 && k->fold > 0 && widths[c] > k->fold)
            widths[c] = k->fold;
    }
    for (int g = 0; g < l->ngroups; g++) {
        int first = -1, end = 0;
        positions(l, widths, start);
        for (int c = 0; c < l->ncolumns; c++)
            if (l->column[c].shown && l->column[c].group == g + 1) {
                first = first < 0 ? c : first;
                end = start[c] + widths[c];
            }
        int short_by = first < 0 ? 0 : sb_layout_text_width(l->group[g]) - (end - start[first]);
        if (short_by > 0)
            widths[first] += short_by;
    }
    return positions(l, widths, start);
}

/* The widest rank of give_way among the kept columns; 0 when none is left
 * to give way. */
static int next_to_give_way(const sb_layout *l)
{
    int top = 0;
    for (int c = 1; c < l->ncolumns; c++)
        if (l->column[c].shown && l->column[c].give_way > top)
            top = l->column[c].give_way;
    return top;
}

void sb_layout_fit(sb_layout *l)
{
    int widths[SB_LAYOUT_MAX_COLUMNS];
    for (int c = 0; c < l->ncolumns; c++)
        l->column[c].shown = c == 0 || l->column[c].filled;
    /* Names past a third of the line go on a line of their own, before any
       figure gives way to them. */
    l->first_width = l->ncolumns ? l->column[0].width : 0;
    int third = l->width / 3;
    int heading = l->ncolumns ? sb_layout_text_width(l->column[0].heading) : 0;
    if (l->first_width > third)
        l->first_width = third > heading ? third : heading;
    int top;
    while (row_widths(l, widths) > l->width && (top = next_to_give_way(l)) > 0)
        for (int c = 1; c < l->ncolumns; c++)
            if (l->column[c].shown && l->column[c].give_way == top)
                l->column[c].shown = 0;
    int over = row_widths(l, widths) - l->width;
    if (over > 0 && l->ncolumns)
        l->first_width = l->first_width - over > 1 ? l->first_width - over : 1;
    row_widths(l, l->row_width);
}

/* Spaces owed before the next text; written only when text follows, so
 * that no line ends in spaces. */
static void pad(FILE *out, int *owed)
{
    if (*owed > 0)
        fprintf(out, "%*s", *owed, "");
    *owed = 0;
}

/* The kept cells in their columns, the first one left empty when `blank`. */
static void cells_line(const sb_layout *l, const sb_layout_cells *cells, int blank, FILE *out)
{
    int owed = 0, at = 0; /* at: the columns written */
    for (int c = 0; c < l->ncolumns; c++) {
        const sb_layout_column *k = &l->column[c];
        if (!k->shown)
            continue;
        int w = l->row_width[c];
        const char *text = c == 0 && blank ? "" : cells->cell[c];
        int room = w - sb_layout_text_width(text);
        owed += gap_before(l, c) + (k->right ? room : 0);
        if (k->fold > 0 && c > 0 && text[0]) {
            /* The last column: it ends the line, folded under its start. */
            at += owed;
            pad(out, &owed);
            fold_from(out, l->width, at, at, text);
            return;
        }
        if (text[0]) {
            at += owed + sb_layout_text_width(text);
            pad(out, &owed);
            put_visible(text, out);
        }
        owed += k->right ? 0 : room;
    }
    fputc('\n', out);
}

void sb_layout_row(const sb_layout *l, const sb_layout_cells *cells, FILE *out)
{
    if (!l->ncolumns)
        return;
    int wide = sb_layout_text_width(cells->cell[0]) > l->first_width, more = !wide;
    if (wide) {
        char indent[64];
        int gap = l->column[0].gap < 63 ? l->column[0].gap : 63;
        snprintf(indent, sizeof indent, "%*s", gap, "");
        sb_layout_fold(out, l->width, indent, gap + 2, cells->cell[0]);
    }
    for (int c = 1; c < l->ncolumns && !more; c++)
        more = l->column[c].shown && cells->cell[c][0];
    if (more)
        cells_line(l, cells, wide, out);
}

void sb_layout_heading(const sb_layout *l, FILE *out)
{
    if (l->ngroups > 0) {
        int start[SB_LAYOUT_MAX_COLUMNS], at = 0;
        positions(l, l->row_width, start);
        for (int g = 0; g < l->ngroups; g++)
            for (int c = 0; c < l->ncolumns; c++)
                if (l->column[c].shown && l->column[c].group == g + 1) {
                    if (start[c] > at)
                        fprintf(out, "%*s", start[c] - at, "");
                    put_visible(l->group[g], out);
                    at = (start[c] > at ? start[c] : at) + sb_layout_text_width(l->group[g]);
                    break;
                }
        fputc('\n', out);
    }
    sb_layout_cells headings;
    for (int c = 0; c < l->ncolumns; c++)
        snprintf(headings.cell[c], sizeof headings.cell[c], "%s", l->column[c].heading);
    sb_layout_row(l, &headings, out);
}

/* Whether column c gave way with a cell worth noting. */
static int to_note(const sb_layout *l, const sb_layout_cells *cells, int c)
{
    const sb_layout_column *k = &l->column[c];
    return !k->shown && k->noted && cells->cell[c][0] && strcmp(cells->cell[c], "-") != 0;
}

void sb_layout_given_way(const sb_layout *l, const sb_layout_cells *cells, char *buf, size_t n)
{
    int done[SB_LAYOUT_MAX_COLUMNS] = {0};
    size_t used = 0;
    buf[0] = '\0';
    for (int c = 0; c < l->ncolumns; c++) {
        if (done[c] || !to_note(l, cells, c))
            continue;
        const char *note = l->column[c].note;
        int w = snprintf(buf + used, n - used, "%s%s", used ? "; " : "", note);
        used = w < 0 || (size_t)w >= n - used ? n - 1 : used + (size_t)w;
        /* This column and every later one of the same note that gave way with it. */
        for (int k = c, first = 1; k < l->ncolumns && used + 1 < n; k++) {
            const sb_layout_column *o = &l->column[k];
            if (done[k] || !to_note(l, cells, k) || strcmp(o->note, note) != 0 ||
                o->give_way != l->column[c].give_way)
                continue;
            done[k] = 1;
            w = snprintf(buf + used, n - used, "%s%s%s%s%s%s", first ? "" : ",",
                         first && !note[0] ? "" : " ", o->subject, o->subject[0] ? " " : "",
                         cells->cell[k], o->unit);
            used = w < 0 || (size_t)w >= n - used ? n - 1 : used + (size_t)w;
            first = 0;
        }
    }
}

/* ------------------------------------------------------------ help text */

/* The columns of line (up to its end or newline) that are spaces first. */
static int leading(const char *line)
{
    int n = 0;
    while (line[n] == ' ')
        n++;
    return n;
}

/* Where the description of an entry line starts: past the first run of
 * at least `gap` spaces after its first text (an option, a status), or
 * -1 when it has none. */
static int description_at(const char *line, int len, int gap)
{
    for (int i = leading(line); i < len; i++) {
        int run = 0;
        while (i + run < len && line[i + run] == ' ')
            run++;
        if (run >= gap && i + run < len)
            return i + run;
        i += run;
    }
    return -1;
}

/* One entry of a help text: its first line's prefix (the option, or
 * nothing), then the words of the line and of its continuation lines,
 * folded under the description's column, or under the entry on lines of
 * their own where that column is past half the width; `alone`: a line
 * no other continues (the usage line).  The bytes used. */
static size_t help_entry(FILE *out, int width, const char *p, int alone)
{
    int len = (int)strcspn(p, "\n"), lead = leading(p);
    int hang = description_at(p, len, lead ? 2 : 3);
    if (hang < 0)
        hang = lead;
    /* An indented line with no description (an example command) is a line
       of its own. */
    alone |= hang == lead && lead > 0;
    char prefix[256], text[4096];
    snprintf(prefix, sizeof prefix, "%.*s", hang < 255 ? hang : 255, p);
    size_t used = (size_t)snprintf(text, sizeof text, "%.*s", len - hang, p + hang);
    const char *q = p + len;
    /* Continuation lines: as indented as the description. */
    while (!alone && *q == '\n' && leading(q + 1) == hang && q[1 + hang] && q[1 + hang] != '\n' &&
           (hang > 0 || description_at(q + 1, (int)strcspn(q + 1, "\n"), 3) < 0)) {
        int more = (int)strcspn(q + 1, "\n");
        if (used < sizeof text)
            used += (size_t)snprintf(text + used, sizeof text - used, " %.*s", more - hang,
                                     q + 1 + hang);
        q += 1 + more;
    }
    if (hang > lead && hang > width / 2) {
        char indent[256];
        snprintf(indent, sizeof indent, "%*s", lead, "");
        sb_layout_fold(out, width, indent, lead + 4, prefix + lead); /* the entry alone */
        snprintf(prefix, sizeof prefix, "%*s", lead + 8, "");
        hang = lead + 8;
    }
    sb_layout_fold(out, width, prefix, hang, text);
    return (size_t)(q - p) + (*q == '\n');
}

void sb_layout_help(FILE *out, int width, const char *text)
{
    int fits = 1;
    for (const char *p = text; *p && fits; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != 0))
        fits = (int)strcspn(p, "\n") <= width;
    if (fits) {
        for (const char *p = text; *p;) {
            size_t len = strcspn(p, "\n");
            char line[4096];
            snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line ? len : sizeof line - 1), p);
            put_visible(line, out);
            if (p[len])
                fputc('\n', out);
            p += len + (p[len] != 0);
        }
        return;
    }
    for (const char *p = text; *p;) {
        if (*p == '\n') {
            fputc('\n', out);
            p++;
        } else {
            p += help_entry(out, width, p, p == text);
        }
    }
}
