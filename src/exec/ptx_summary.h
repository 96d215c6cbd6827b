/* What a kernel's PTX does with memory: static counts of its global,
 * shared, local and generic loads and stores (with vector width and element
 * type), atomics, barriers and fences.  Two APIs that compiled the same
 * source into different memory instructions (ld.global.nc against
 * ld.global, one v4 load against four scalar ones, a generic load where the
 * space was lost) explain a timing difference better than any guess.
 *
 * Beside the memory instructions it counts the kernel's instructions and
 * its reads of %envreg registers: OpenCL's get_group_id() adds a
 * driver-provided work-group offset read from %envreg (a constant-bank
 * load in SASS), which CUDA's blockIdx does not; in a kernel that does
 * little per thread those extra instructions before the first address can
 * be formed show up in the time although the memory instructions agree.
 *
 * The summary has a text form, "4 x ld.global.nc.f32, 1 x bar.sync; 48
 * instructions, 2 x %envreg", kinds in sorted order, which result records
 * carry and which parses back (the part after ';' is optional). */
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
    int instructions;           /* every instruction of the kernel (static); 0: not counted */
    int envreg;                 /* instructions that read an %envreg register */
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

/* 1 when a and b have the same memory instructions; 2 when they differ only
 * in element types of the same width (ld.shared.v4.u32 against
 * ld.shared.v4.f32: the same 16-byte access), with the typed difference in
 * buf; else 0 with the kinds whose counts differ in buf:
 * "cuda: 4 x ld.global.nc.f32; opencl: 4 x ld.global.f32". */
int sb_ptx_summary_diff(const sb_ptx_summary *a, const char *a_name, const sb_ptx_summary *b,
                        const char *b_name, char *buf, size_t n);

/* The same comparison on two text forms (0, 1 or 2); -1 when either does not
 * parse. */
int sb_ptx_text_diff(const char *a, const char *a_name, const char *b, const char *b_name,
                     char *buf, size_t n);

/* What else differs when the memory instructions agree: 1 with
 * "cuda 40 instructions; opencl 46, 2 of them %envreg reads (the work-group
 * offset)" in buf when the instruction counts differ, 0 when they agree or
 * either side has none counted, -1 when either text does not parse. */
int sb_ptx_text_other(const char *a, const char *a_name, const char *b, const char *b_name,
                      char *buf, size_t n);

#endif
