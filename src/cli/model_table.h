/* The tables `simtbench model` prints, laid out within $COLUMNS (the
 * report's layout, report/layout.h): one warp's lanes, and every access
 * of a variant's kernel with the model's totals per launch. */
#ifndef SB_MODEL_TABLE_H
#define SB_MODEL_TABLE_H

#include <stdio.h>

#include "cli/model_variant.h"
#include "model.h"

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

#endif
