/* The terminal table's layout (table.c): the width its lines keep within,
 * text folded at word boundaries, and columns sized from their content
 * that give way, in an order the table sets, to a note under the row when
 * a line would be too wide.  Widths are counted in characters of UTF-8
 * text (the program writes no wide characters of its own).  Every text
 * it writes, names from a saved run among them, is shown as
 * sb_text_visible (common/text.h) shows it, and measured so. */
#ifndef SB_LAYOUT_H
#define SB_LAYOUT_H

#include <stddef.h>
#include <stdio.h>

#define SB_LAYOUT_WIDTH 100      /* the width without $COLUMNS */
#define SB_LAYOUT_MIN_WIDTH 60   /* the narrowest a $COLUMNS is taken as */
#define SB_LAYOUT_MAX_WIDTH 1000 /* the widest */

/* $COLUMNS where it is a whole number, clamped to SB_LAYOUT_MIN_WIDTH..
 * SB_LAYOUT_MAX_WIDTH; else SB_LAYOUT_WIDTH. */
int sb_layout_width(void);

/* The columns UTF-8 text takes: the characters of its visible form. */
int sb_layout_text_width(const char *s);

/* text folded at spaces into lines of at most width columns, each ended
 * by a newline: the first line starts with `first`, the others with
 * `indent` spaces.  A space between two digits (a number grouped by
 * thousands) is not a place to fold; a word longer than a line is cut. */
void sb_layout_fold(FILE *out, int width, const char *first, int indent, const char *text);

/* A --help text on lines of at most width columns: as written where every
 * line fits, else each entry (an option or a status with its description
 * and the lines continuing it, or a paragraph) folded again, under its
 * description's column, or under the entry where that column is past half
 * the width. */
void sb_layout_help(FILE *out, int width, const char *text);

#define SB_LAYOUT_MAX_COLUMNS 48
#define SB_LAYOUT_MAX_GROUPS 16
#define SB_LAYOUT_CELL 128

/* One row's text, a cell per column. */
typedef struct sb_layout_cells {
    char cell[SB_LAYOUT_MAX_COLUMNS][SB_LAYOUT_CELL];
} sb_layout_cells;

typedef struct sb_layout_column {
    char heading[32];
    int gap;       /* spaces before it; the first column's is the row's indent */
    int right;     /* right-aligned: a number */
    int give_way;  /* 0: always in the row (the first column); else the order in which
                      columns leave a row too wide for the note under it, the highest
                      first, equal ones together */
    int noted;     /* named in the note when it gave way (else left out: a figure the
                      block says elsewhere) */
    char note[64]; /* the note's words before its value: "min" gives "min 0.1234" */
    char subject[24]; /* whose value it is, where columns share a note: "spread" of
                         devices A and B give "spread A 1.0%, B 2.0%" */
    char unit[12]; /* the note's words after its value: " ms" */
    int group;     /* the group label it stands under (sb_layout_add_group's number), or
                      0 for none */
    int fold;      /* > 0, for the last column only: its text folds at spaces within the
                      line, the lines after the first starting under it, and it counts as
                      at most this wide when the row is fitted */
    /* set by sb_layout_measure and sb_layout_fit */
    int width;     /* its widest cell or heading */
    int filled;    /* a cell of it is not empty; an empty column is not shown */
    int shown;     /* in the row */
} sb_layout_column;

typedef struct sb_layout {
    int width;       /* the line width to keep within */
    int ncolumns;
    sb_layout_column column[SB_LAYOUT_MAX_COLUMNS];
    int ngroups;
    char group[SB_LAYOUT_MAX_GROUPS][64];
    /* set by sb_layout_fit */
    int first_width; /* the first column's width in the row: a first cell wider
                        than it has a line of its own */
    int row_width[SB_LAYOUT_MAX_COLUMNS]; /* each column's width in the row: the first
                                             one's first_width, the first kept
                                             column of a group widened to its label */
} sb_layout;

/* An empty layout for lines of at most width columns. */
void sb_layout_init(sb_layout *l, int width);

/* Add a copy of c (its heading's width counted); its index, or -1 when
 * the layout is full. */
int sb_layout_add(sb_layout *l, const sb_layout_column *c);

/* Add a group label for columns to stand under; its number for their
 * group (1 for the first), or 0 when the layout has no room for more. */
int sb_layout_add_group(sb_layout *l, const char *label);

/* Widen the columns to one row's cells; every row is measured before the
 * layout is fitted. */
void sb_layout_measure(sb_layout *l, const sb_layout_cells *cells);

/* Choose the columns the row keeps: the filled ones, less those that give
 * way until the line fits; then the first column narrows if it must, and
 * a group's columns widen to its label.  Again after a change of width. */
void sb_layout_fit(sb_layout *l);

/* The group labels' line (where there are groups) and the headings' line. */
void sb_layout_heading(const sb_layout *l, FILE *out);

/* One row: the kept columns' cells aligned, trailing spaces dropped; a
 * first cell wider than its column on a line (folded) of its own first. */
void sb_layout_row(const sb_layout *l, const sb_layout_cells *cells, FILE *out);

/* The cells of the columns that gave way, in column order, those of one
 * note and rank together: "min 0.1234 ms; spread A 1.0%, B 2.0%" (empty
 * cells and "-" left out), into buf; "" when none did. */
void sb_layout_given_way(const sb_layout *l, const sb_layout_cells *cells, char *buf, size_t n);

#endif
