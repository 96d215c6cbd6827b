/* The tables `simtbench model` prints, laid out within $COLUMNS (the
 * report's layout, report/layout.h): one warp's lanes, and every access
 * of a variant's kernel with the model's totals per launch. */
#ifndef SB_MODEL_TABLE_H
#define SB_MODEL_TABLE_H

#include <stdio.h>

#include "cli/model_variant.h"
#include "model.h"
#include "report/layout.h"

/* text as comment lines of at most width columns, each starting "# ",
 * folded at spaces. */
void sb_model_comment(FILE *out, int width, const char *text);

/* "EXP/VARIANT at RxC, for N multiprocessors: every access its kernel
 * executes": the --variant output's header, table and JSON alike. */
void sb_model_variant_header(const sb_model_variant *m, long units, char *buf, size_t n);

/* Every lane of p's warp: its address, word index, banks, phase, sector
 * and segment, indented under the row it belongs to. */
void sb_model_lanes_table(FILE *out, const sb_pattern *p);

/* The accesses of m's plan, each with its lanes where `lanes`, then the
 * totals t of one launch beside the counters they are held against. */
void sb_model_variant_table(FILE *out, const sb_model_variant *m, const sb_access_totals *t,
                            long units, int lanes);

/* The pattern table's columns for a space (sb_space): into *n how many. */
const sb_layout_column *sb_model_pattern_columns(int space, int *n);

/* One row of the pattern table: label, then the model's figures for p. */
void sb_model_pattern_cells(const char *label, const sb_pattern *p, sb_layout_cells *c);

/* Writes t as a JSON string. */
void sb_model_json_string(FILE *out, const char *t);

/* One row's JSON object, its closing brace left to the caller: the
   pattern, the prediction, the summary and (lanes) every lane. */
void sb_model_json_row_open(FILE *out, const char *label, const sb_pattern *p, int lanes);

#endif
