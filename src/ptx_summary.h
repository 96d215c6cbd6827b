/* What a kernel's PTX does with memory: static counts of its global,
 * shared, local and generic loads and stores (with vector width and element
 * type), atomics, barriers and fences.  Two APIs that compiled the same
 * source into different memory instructions (ld.global.nc against
 * ld.global, one v4 load against four scalar ones, a generic load where the
 * space was lost) explain a timing difference better than any guess.
 *
 * The summary has a text form, "4 x ld.global.nc.f32, 1 x bar.sync", kinds
 * in sorted order, which result records carry and which parses back. */
#ifndef SB_PTX_SUMMARY_H
#define SB_PTX_SUMMARY_H

#include <stddef.h>

#define SB_PTX_MAX_KINDS 48
#define SB_PTX_OP_LEN 40

typedef struct sb_ptx_summary {
    int nkinds;
    struct {
        char op[SB_PTX_OP_LEN]; /* normalised opcode: "ld.global.nc.v4.f32", "bar.sync" */
        int count;              /* occurrences in the kernel's text (static, not executed) */
    } kind[SB_PTX_MAX_KINDS];   /* sorted by op */
} sb_ptx_summary;

/* Summarise the memory instructions of the kernel `entry` in PTX text (NULL
 * entry: the whole text); 0, or -1 with a message in err when the entry is
 * not in the PTX. */
int sb_ptx_summarize(const char *ptx, const char *entry, sb_ptx_summary *out, char *err,
                     size_t n);

/* The text form ("none" for a kernel without memory instructions); snprintf's
 * return, or -1 when buf is too small (buf then holds ""). */
int sb_ptx_summary_format(const sb_ptx_summary *s, char *buf, size_t n);

/* Parse the text form back; 0, or -1 when the text is not one. */
int sb_ptx_summary_parse(const char *text, sb_ptx_summary *out);

/* 1 when a and b have the same memory instructions; else 0 with the kinds
 * whose counts differ in buf: "cuda: 4 x ld.global.nc.f32; opencl: 4 x ld.global.f32". */
int sb_ptx_summary_diff(const sb_ptx_summary *a, const char *a_name, const sb_ptx_summary *b,
                        const char *b_name, char *buf, size_t n);

/* The same comparison on two text forms; -1 when either does not parse. */
int sb_ptx_text_diff(const char *a, const char *a_name, const char *b, const char *b_name,
                     char *buf, size_t n);

#endif
