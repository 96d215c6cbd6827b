#include "exec/ptx_summary.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The body of `.entry name(...) ... { ... }`: PTX holds every kernel of the
 * source, and only the variant's own one says anything about the variant. */
static int find_entry(const char *ptx, const char *entry, const char **begin, const char **end)
{
    size_t len = strlen(entry);
    for (const char *p = strstr(ptx, ".entry"); p; p = strstr(p + 6, ".entry")) {
        const char *q = p + 6;
        while (*q == ' ' || *q == '\t')
            q++;
        if (strncmp(q, entry, len) != 0)
            continue;
        q += len;
        if (*q != '(' && !isspace((unsigned char)*q))
            continue; /* a longer name sharing the prefix */
        const char *open = strchr(q, '{');
        if (!open)
            return -1;
        int depth = 0;
        for (const char *c = open; *c; c++) {
            if (*c == '{')
                depth++;
            else if (*c == '}' && --depth == 0) {
                *begin = open + 1;
                *end = c;
                return 0;
            }
        }
        return -1;
    }
    return -1;
}

static int in_list(const char *tok, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(tok, *list) == 0)
            return 1;
    return 0;
}

/* An element type: b8..b128, u/s/f 8..64, f16x2, bf16, bf16x2, e4m3... */
static int is_type(const char *t)
{
    if (strcmp(t, "pred") == 0)
        return 1;
    if (!strchr("bsuf", t[0]) && strncmp(t, "bf16", 4) != 0)
        return 0;
    const char *d = t[0] == 'b' && t[1] == 'f' ? t + 2 : t + 1;
    if (!isdigit((unsigned char)*d))
        return 0;
    while (isdigit((unsigned char)*d))
        d++;
    return *d == '\0' || strcmp(d, "x2") == 0;
}

/* Normalise one memory opcode; 0 with the name in out, -1 when it is not one
 * the summary counts (parameters, constants, arithmetic, branches). */
static int normalise(const char *opcode, char *out, size_t n)
{
    static const char *const accesses[] = {"ld", "ldu", "st", "atom", "red", NULL};
    static const char *const atomic_ops[] = {"add", "min", "max", "inc", "dec", "and", "or",
                                             "xor", "exch", "cas", NULL};
    char buf[96], *save = NULL;
    if (strlen(opcode) >= sizeof buf)
        return -1;
    strcpy(buf, opcode);
    char *tok[16];
    int ntok = 0;
    for (char *t = strtok_r(buf, ".", &save); t && ntok < 16; t = strtok_r(NULL, ".", &save))
        tok[ntok++] = t;
    if (ntok == 0)
        return -1;

    if (strcmp(tok[0], "bar") == 0 || strcmp(tok[0], "barrier") == 0) {
        /* bar.sync and barrier.sync.aligned are the same block barrier;
           bar.warp.sync orders nothing in memory. */
        if (ntok < 2 || strcmp(tok[1], "warp") == 0)
            return -1;
        snprintf(out, n, "bar.%s", tok[1]);
        return 0;
    }
    if (strcmp(tok[0], "membar") == 0 || strcmp(tok[0], "fence") == 0 ||
        strcmp(tok[0], "cp") == 0) {
        int len = snprintf(out, n, "%s", opcode);
        return len > 0 && (size_t)len < n ? 0 : -1;
    }
    if (!in_list(tok[0], accesses))
        return -1;

    const char *space = "generic", *vec = "", *type = "", *atomic = "";
    int nc = 0, vol = 0;
    for (int i = 1; i < ntok; i++) {
        const char *t = tok[i];
        if (strcmp(t, "global") == 0 || strcmp(t, "local") == 0)
            space = t;
        else if (strncmp(t, "shared", 6) == 0) /* shared, shared::cta, shared::cluster */
            space = "shared";
        else if (strcmp(t, "param") == 0 || strcmp(t, "const") == 0)
            return -1; /* kernel arguments and constants: not the memory under test */
        else if (strcmp(t, "nc") == 0)
            nc = 1;
        else if (strcmp(t, "volatile") == 0)
            vol = 1;
        else if (t[0] == 'v' && isdigit((unsigned char)t[1]))
            vec = t;
        else if (in_list(t, atomic_ops))
            atomic = t;
        else if (is_type(t))
            type = t;
        /* Cache operators (.ca .cg .cs .lu .cv .wb .wt), eviction hints
           (.L1::..., .L2::...), scopes and orderings: the same access. */
    }
    int len = snprintf(out, n, "%s.%s%s%s%s%s%s%s%s%s", tok[0], space, vol ? ".volatile" : "",
                       nc ? ".nc" : "", *atomic ? "." : "", atomic, *vec ? "." : "", vec,
                       *type ? "." : "", type);
    return len > 0 && (size_t)len < n ? 0 : -1;
}

/* The op name is a kind's first member, so a kind compares as its name. */
static int by_op(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

static int add_kind(sb_ptx_summary *s, const char *op, int count)
{
    for (int i = 0; i < s->nkinds; i++)
        if (strcmp(s->kind[i].op, op) == 0) {
            s->kind[i].count += count;
            return 0;
        }
    if (s->nkinds == SB_PTX_MAX_KINDS || strlen(op) >= SB_PTX_OP_LEN)
        return -1;
    snprintf(s->kind[s->nkinds].op, SB_PTX_OP_LEN, "%s", op);
    s->kind[s->nkinds++].count = count;
    return 0;
}

static void sort_kinds(sb_ptx_summary *s)
{
    qsort(s->kind, (size_t)s->nkinds, sizeof s->kind[0], by_op);
}

int sb_ptx_summarize(const char *ptx, const char *entry, sb_ptx_summary *out, char *err, size_t n)
{
    memset(out, 0, sizeof *out);
    const char *begin = ptx, *end = ptx + strlen(ptx);
    if (entry && find_entry(ptx, entry, &begin, &end)) {
        snprintf(err, n, "no kernel entry %s in the PTX", entry);
        return -1;
    }
    for (const char *line = begin; line < end;) {
        const char *eol = memchr(line, '\n', (size_t)(end - line));
        if (!eol)
            eol = end;
        const char *p = line;
        line = eol + 1;
        while (p < eol && isspace((unsigned char)*p))
            p++;
        if (p < eol && *p == '@') { /* a predicate guard: @%p1 or @!%p1 */
            while (p < eol && !isspace((unsigned char)*p))
                p++;
            while (p < eol && isspace((unsigned char)*p))
                p++;
        }
        char opcode[96];
        size_t k = 0;
        while (p < eol && !isspace((unsigned char)*p) && *p != ';' && k + 1 < sizeof opcode)
            opcode[k++] = *p++;
        opcode[k] = '\0';
        /* Directives, labels, comments and braces start with no letter or end in ':'. */
        if (k == 0 || !isalpha((unsigned char)opcode[0]) || opcode[k - 1] == ':')
            continue;
        out->instructions++;
        for (const char *c = p; c + 7 <= eol; c++)
            if (strncmp(c, "%envreg", 7) == 0) {
                out->envreg++;
                break;
            }
        char op[SB_PTX_OP_LEN];
        if (normalise(opcode, op, sizeof op) == 0 && add_kind(out, op, 1)) {
            snprintf(err, n, "more than %d kinds of memory instruction", SB_PTX_MAX_KINDS);
            return -1;
        }
    }
    sort_kinds(out);
    return 0;
}

int sb_ptx_summary_format(const sb_ptx_summary *s, char *buf, size_t n)
{
    size_t used = 0;
    if (n == 0)
        return -1;
    buf[0] = '\0';
    if (s->nkinds == 0) {
        if (snprintf(buf, n, "none") >= (int)n)
            return -1;
        used = 4;
    }
    for (int i = 0; i < s->nkinds; i++) {
        int len = snprintf(buf + used, n - used, "%s%d x %s", i ? ", " : "", s->kind[i].count,
                           s->kind[i].op);
        if (len < 0 || (size_t)len >= n - used) {
            buf[0] = '\0';
            return -1;
        }
        used += (size_t)len;
    }
    if (s->instructions > 0) {
        const char *noun = s->instructions == 1 ? "instruction" : "instructions";
        int len = s->envreg ? snprintf(buf + used, n - used, "; %d %s, %d x %%envreg",
                                       s->instructions, noun, s->envreg)
                            : snprintf(buf + used, n - used, "; %d %s", s->instructions, noun);
        if (len < 0 || (size_t)len >= n - used) {
            buf[0] = '\0';
            return -1;
        }
        used += (size_t)len;
    }
    return (int)used;
}

/* The optional tail of the text form: "48 instructions" or
 * "48 instructions, 2 x %envreg". */
static int parse_tail(const char *p, sb_ptx_summary *out)
{
    char *end;
    long count = strtol(p, &end, 10);
    const char *noun = count == 1 ? " instruction" : " instructions";
    if (end == p || count <= 0 || strncmp(end, noun, strlen(noun)) != 0)
        return -1;
    out->instructions = (int)count;
    p = end + strlen(noun);
    if (*p == '\0')
        return 0;
    if (strncmp(p, ", ", 2) != 0)
        return -1;
    long env = strtol(p + 2, &end, 10);
    if (end == p + 2 || env < 0 || env > count || strcmp(end, " x %envreg") != 0)
        return -1;
    out->envreg = (int)env;
    return 0;
}

int sb_ptx_summary_parse(const char *text, sb_ptx_summary *out)
{
    memset(out, 0, sizeof *out);
    const char *tail = strstr(text, "; ");
    char head[1024];
    size_t hlen = tail ? (size_t)(tail - text) : strlen(text);
    if (hlen >= sizeof head)
        return -1;
    memcpy(head, text, hlen);
    head[hlen] = '\0';
    if (tail && parse_tail(tail + 2, out))
        return -1;
    if (strcmp(head, "none") == 0)
        return 0;
    const char *p = head;
    while (*p) {
        char *end;
        long count = strtol(p, &end, 10);
        if (end == p || count <= 0 || strncmp(end, " x ", 3) != 0)
            return -1;
        p = end + 3;
        size_t len = strcspn(p, ",;");
        char op[SB_PTX_OP_LEN];
        if (len == 0 || len >= sizeof op)
            return -1;
        memcpy(op, p, len);
        op[len] = '\0';
        if (add_kind(out, op, (int)count))
            return -1;
        p += len;
        if (*p == ',') {
            if (p[1] != ' ' || !p[2])
                return -1;
            p += 2;
        }
    }
    sort_kinds(out);
    return 0;
}

static int count_of(const sb_ptx_summary *s, const char *op)
{
    for (int i = 0; i < s->nkinds; i++)
        if (strcmp(s->kind[i].op, op) == 0)
            return s->kind[i].count;
    return 0;
}

/* One side of a difference: that side's counts of the kinds that differ. */
static size_t side(const sb_ptx_summary *self, const sb_ptx_summary *other, const char *name,
                   char *buf, size_t n)
{
    size_t used = (size_t)snprintf(buf, n, "%s:", name);
    int listed = 0;
    const sb_ptx_summary *both[2] = {self, other};
    /* Walk the kinds of both sides so a kind missing on this side still
       leaves it out, and each differing kind is named once, in order. */
    sb_ptx_summary all;
    memset(&all, 0, sizeof all);
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < both[s]->nkinds; i++)
            add_kind(&all, both[s]->kind[i].op, 0);
    sort_kinds(&all);
    for (int i = 0; i < all.nkinds && used < n; i++) {
        int mine = count_of(self, all.kind[i].op), theirs = count_of(other, all.kind[i].op);
        if (mine == theirs || mine == 0)
            continue;
        used += (size_t)snprintf(buf + used, n - used, "%s %d x %s", listed ? "," : "", mine,
                                 all.kind[i].op);
        listed++;
    }
    if (!listed && used < n)
        used += (size_t)snprintf(buf + used, n - used, " none");
    return used < n ? used : n;
}

static int same_counts(const sb_ptx_summary *a, const sb_ptx_summary *b)
{
    int same = a->nkinds == b->nkinds;
    for (int i = 0; same && i < a->nkinds; i++)
        same = count_of(b, a->kind[i].op) == a->kind[i].count;
    return same;
}

/* The summary with each element type replaced by its width (f32, u32, s32
 * and b32 all become b32): what the memory system sees. */
static void by_width(const sb_ptx_summary *in, sb_ptx_summary *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < in->nkinds; i++) {
        char op[SB_PTX_OP_LEN];
        snprintf(op, sizeof op, "%s", in->kind[i].op);
        char *t = strrchr(op, '.');
        if (t && strchr("fusb", t[1]) && isdigit((unsigned char)t[2]))
            t[1] = 'b';
        add_kind(out, op, in->kind[i].count);
    }
}

int sb_ptx_summary_diff(const sb_ptx_summary *a, const char *a_name, const sb_ptx_summary *b,
                        const char *b_name, char *buf, size_t n)
{
    int same = same_counts(a, b);
    if (n)
        buf[0] = '\0';
    if (same || n == 0)
        return same;
    sb_ptx_summary wa, wb;
    by_width(a, &wa);
    by_width(b, &wb);
    if (same_counts(&wa, &wb))
        same = 2;
    size_t used = side(a, b, a_name, buf, n);
    if (used + 2 < n) {
        memcpy(buf + used, "; ", 3);
        side(b, a, b_name, buf + used + 2, n - used - 2);
    }
    return same;
}

int sb_ptx_text_diff(const char *a, const char *a_name, const char *b, const char *b_name,
                     char *buf, size_t n)
{
    sb_ptx_summary sa, sb;
    if (sb_ptx_summary_parse(a, &sa) || sb_ptx_summary_parse(b, &sb))
        return -1;
    return sb_ptx_summary_diff(&sa, a_name, &sb, b_name, buf, n);
}

int sb_ptx_text_other(const char *a, const char *a_name, const char *b, const char *b_name,
                      char *buf, size_t n)
{
    sb_ptx_summary sa, sb;
    if (n)
        buf[0] = '\0';
    if (sb_ptx_summary_parse(a, &sa) || sb_ptx_summary_parse(b, &sb))
        return -1;
    if (!sa.instructions || !sb.instructions || sa.instructions == sb.instructions)
        return 0;
    const sb_ptx_summary *side[2] = {&sa, &sb};
    const char *name[2] = {a_name, b_name};
    size_t used = 0;
    for (int i = 0; i < 2 && used < n; i++) {
        int len = side[i]->envreg
                      ? snprintf(buf + used, n - used,
                                 "%s%s %d instructions, %d of them %%envreg reads (the work-group "
                                 "offset)",
                                 i ? "; " : "", name[i], side[i]->instructions, side[i]->envreg)
                      : snprintf(buf + used, n - used, "%s%s %d instructions", i ? "; " : "",
                                 name[i], side[i]->instructions);
        if (len < 0)
            return -1;
        used += (size_t)len;
    }
    return 1;
}
