/* Tests of the memory-access model against every figure of the study notes
 * (shared/seeds/000_*.txt: coalescing, transpose, banks; 002_*.txt: bank
 * conflicts, padding, swizzle, 8/16-byte elements), plus the general rules
 * behind them and the `simtbench model` command line. */
#include "test_util.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cmd_model.h"
#include "model.h"
#include "result.h"

/* ---- helpers --------------------------------------------------------- */

static sb_pattern linear(sb_space space, int word, long stride, long offset)
{
    sb_pattern p = sb_pattern_default();
    p.space = space;
    p.word_bytes = word;
    p.stride = stride;
    p.offset = offset;
    return p;
}

static sb_pattern tile(int rows, int cols, int pad, int swizzle, sb_walk walk, int index)
{
    sb_pattern p = sb_pattern_default();
    p.tile_rows = rows;
    p.tile_cols = cols;
    p.pad = pad;
    p.swizzle = swizzle;
    p.walk = walk;
    p.walk_index = index;
    return p;
}

static sb_global_cost global_of(sb_pattern p)
{
    sb_global_cost g;
    p.space = SB_SPACE_GLOBAL;
    assert_int_equal(sb_global_cost_of(&p, &g), 0);
    return g;
}

static sb_shared_cost shared_of(sb_pattern p)
{
    sb_shared_cost s;
    assert_int_equal(sb_shared_cost_of(&p, &s), 0);
    return s;
}

static int gcd(int a, int b)
{
    while (b) {
        int t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* ---- global memory: seed 000 figures --------------------------------- */

/* "連續 thread 取連續 4-byte word → 128 bytes → 4 個 32-byte transaction → 100%" */
static void seed_global_consecutive_4_sectors(void **state)
{
    (void)state;
    sb_global_cost g = global_of(linear(SB_SPACE_GLOBAL, 4, 1, 0));
    assert_int_equal(g.sectors, 4);
    assert_int_equal(g.segments, 1);
    assert_int_equal(g.requested_bytes, 128);
    assert_int_equal(g.unique_bytes, 128);
    assert_int_equal(g.transferred_bytes, 128);
    assert_true(g.efficiency == 1.0);
}

/* "相距 ≥32 bytes → 每 thread 1 個 transaction → 1024 bytes, 12.5%" for
   every stride of 8 words (32 bytes) and more. */
static void seed_global_worst_case_12_5_percent(void **state)
{
    (void)state;
    for (long s = 8; s <= 1024; s++) {
        sb_global_cost g = global_of(linear(SB_SPACE_GLOBAL, 4, s, 0));
        assert_int_equal(g.sectors, 32);
        assert_int_equal(g.transferred_bytes, 1024);
        assert_int_equal(g.unique_bytes, 128);
        assert_true(g.efficiency == 0.125);
    }
}

/* cuda_transpose writes c with stride ld: coalesced only while ld*4 < 32
   bytes; "ld > 32" is the pathological case. */
static void seed_global_transpose_write(void **state)
{
    (void)state;
    static const long lds[] = {33, 64, 100, 1024, 4096};
    for (size_t i = 0; i < sizeof lds / sizeof lds[0]; i++) {
        sb_global_cost g = global_of(linear(SB_SPACE_GLOBAL, 4, lds[i], 0));
        assert_int_equal(g.sectors, 32);
        assert_true(g.efficiency == 0.125);
    }
    /* the read of a walks a row: perfectly coalesced */
    assert_int_equal(global_of(linear(SB_SPACE_GLOBAL, 4, 1, 0)).sectors, 4);
}

/* Small strides: every lane's sector counted, 4 * S sectors up to 32. */
static void global_stride_sectors_enumerated(void **state)
{
    (void)state;
    for (long s = 1; s <= 8; s++) {
        sb_global_cost g = global_of(linear(SB_SPACE_GLOBAL, 4, s, 0));
        assert_int_equal(g.sectors, (int)(4 * s));
        assert_int_equal(g.segments, (int)s);
        assert_int_equal(g.transferred_bytes, (int)(128 * s));
        assert_true(g.efficiency == 1.0 / (double)s);
    }
    /* lines: 32 lanes 128 bytes apart or more each take their own line */
    assert_int_equal(global_of(linear(SB_SPACE_GLOBAL, 4, 32, 0)).segments, 32);
    assert_int_equal(global_of(linear(SB_SPACE_GLOBAL, 4, 16, 0)).segments, 16);
}

/* "以線性或排列 (permuted) 方式存取同一批 32-byte segment，就算合併" */
static void seed_global_permutation_inside_segment(void **state)
{
    (void)state;
    sb_pattern p = linear(SB_SPACE_GLOBAL, 4, 1, 0);
    p.perm = SB_PERM_REVERSE;
    sb_global_cost g = global_of(p);
    assert_int_equal(g.sectors, 4);
    assert_true(g.efficiency == 1.0);
    p.perm = SB_PERM_XOR;
    for (unsigned mask = 0; mask < 32; mask++) {
        p.perm_arg = mask;
        g = global_of(p);
        assert_int_equal(g.sectors, 4);
        assert_int_equal(g.unique_bytes, 128);
        assert_true(g.efficiency == 1.0);
    }
    p.perm = SB_PERM_RANDOM;
    for (unsigned seed = 0; seed < 200; seed++) {
        p.perm_arg = seed;
        g = global_of(p);
        assert_int_equal(g.sectors, 4);
        assert_true(g.efficiency == 1.0);
    }
}

/* The same permutations, one 128-byte segment per lane: worst case again. */
static void seed_global_permutation_spread(void **state)
{
    (void)state;
    static const sb_perm perms[] = {SB_PERM_NONE, SB_PERM_REVERSE, SB_PERM_XOR, SB_PERM_RANDOM};
    static const unsigned args[] = {0, 0, 13, 42};
    for (int i = 0; i < 4; i++) {
        sb_pattern p = linear(SB_SPACE_GLOBAL, 4, 1, 0);
        p.perm = perms[i];
        p.perm_arg = args[i];
        p.spread = 1;
        sb_global_cost g = global_of(p);
        assert_int_equal(g.sectors, 32);
        assert_int_equal(g.segments, 32);
        assert_int_equal(g.transferred_bytes, 1024);
        assert_true(g.efficiency == 0.125);
    }
}

/* Every lane on one word: one sector moves. */
static void seed_global_broadcast_1_sector(void **state)
{
    (void)state;
    sb_global_cost g = global_of(linear(SB_SPACE_GLOBAL, 4, 0, 0));
    assert_int_equal(g.sectors, 1);
    assert_int_equal(g.segments, 1);
    assert_int_equal(g.requested_bytes, 128);
    assert_int_equal(g.unique_bytes, 4);
    assert_int_equal(g.transferred_bytes, 32);
    assert_true(g.efficiency == 4.0 / 32.0);
}

/* k words after a 128-byte boundary: 4 sectors only when k is a multiple of
   8 (a whole sector); otherwise the warp straddles 5. */
static void global_misalignment_k_0_to_32(void **state)
{
    (void)state;
    for (long k = 0; k <= 32; k++) {
        sb_global_cost g = global_of(linear(SB_SPACE_GLOBAL, 4, 1, k));
        assert_int_equal(g.sectors, k % 8 == 0 ? 4 : 5);
        assert_int_equal(g.segments, k % 32 == 0 ? 1 : 2);
        assert_int_equal(g.unique_bytes, 128);
        assert_int_equal(g.transferred_bytes, g.sectors * 32);
    }
    assert_true(global_of(linear(SB_SPACE_GLOBAL, 4, 1, 1)).efficiency == 0.8);
}

/* 8- and 16-byte words at stride 1: 256 and 512 bytes, still 100%. */
static void global_wide_words(void **state)
{
    (void)state;
    sb_global_cost g8 = global_of(linear(SB_SPACE_GLOBAL, 8, 1, 0));
    assert_int_equal(g8.sectors, 8);
    assert_int_equal(g8.segments, 2);
    assert_int_equal(g8.requested_bytes, 256);
    assert_true(g8.efficiency == 1.0);
    sb_global_cost g16 = global_of(linear(SB_SPACE_GLOBAL, 16, 1, 0));
    assert_int_equal(g16.sectors, 16);
    assert_int_equal(g16.segments, 4);
    assert_int_equal(g16.requested_bytes, 512);
    assert_true(g16.efficiency == 1.0);
    /* 16-byte lanes 32 bytes apart: half of each sector used */
    sb_global_cost g = global_of(linear(SB_SPACE_GLOBAL, 16, 2, 0));
    assert_int_equal(g.sectors, 32);
    assert_true(g.efficiency == 0.5);
}

/* ---- shared memory: seed 000 and 002 figures ------------------------- */

static void seed_shared_stride_1_no_conflict(void **state)
{
    (void)state;
    sb_shared_cost s = shared_of(linear(SB_SPACE_SHARED, 4, 1, 0));
    assert_int_equal(s.ways, 1);
    assert_int_equal(s.wavefronts, 1);
    assert_int_equal(s.ideal_wavefronts, 1);
    assert_int_equal(s.conflicts, 0);
    assert_int_equal(s.broadcast, 0);
}

static void seed_shared_stride_2_two_way(void **state)
{
    (void)state;
    sb_shared_cost s = shared_of(linear(SB_SPACE_SHARED, 4, 2, 0));
    assert_int_equal(s.ways, 2);
    assert_int_equal(s.wavefronts, 2);
    assert_int_equal(s.conflicts, 1);
}

static void seed_shared_stride_3_no_conflict(void **state)
{
    (void)state;
    sb_shared_cost s = shared_of(linear(SB_SPACE_SHARED, 4, 3, 0));
    assert_int_equal(s.ways, 1);
    assert_int_equal(s.wavefronts, 1);
}

/* "stride = 2^k（k ≥ 1）→ 2^k-way conflict", capped at 32 banks. */
static void seed_shared_stride_pow2(void **state)
{
    (void)state;
    for (int k = 1; k <= 5; k++) {
        sb_shared_cost s = shared_of(linear(SB_SPACE_SHARED, 4, 1L << k, 0));
        assert_int_equal(s.ways, 1 << k);
        assert_int_equal(s.wavefronts, 1 << k);
    }
}

static void seed_shared_stride_32_and_64(void **state)
{
    (void)state;
    assert_int_equal(shared_of(linear(SB_SPACE_SHARED, 4, 32, 0)).ways, 32);
    assert_int_equal(shared_of(linear(SB_SPACE_SHARED, 4, 32, 0)).wavefronts, 32);
    assert_int_equal(shared_of(linear(SB_SPACE_SHARED, 4, 64, 0)).ways, 32);
    assert_int_equal(shared_of(linear(SB_SPACE_SHARED, 4, 64, 0)).wavefronts, 32);
}

/* The general rule for 4-byte words: ways = gcd(S, 32), every S 1..128. */
static void shared_gcd_rule_1_to_128(void **state)
{
    (void)state;
    for (int s = 1; s <= 128; s++) {
        sb_shared_cost c = shared_of(linear(SB_SPACE_SHARED, 4, s, 0));
        assert_int_equal(c.ways, gcd(s, 32));
        assert_int_equal(c.wavefronts, gcd(s, 32));
        /* a whole-warp shift moves every lane by the same bank count */
        for (long off = 1; off <= 40; off += 13)
            assert_int_equal(shared_of(linear(SB_SPACE_SHARED, 4, s, off)).ways, gcd(s, 32));
    }
}

/* tile[32][32]: a column walk is 32-way on every column, a row walk clean. */
static void seed_shared_tile_32x32(void **state)
{
    (void)state;
    for (int i = 0; i < 32; i++) {
        sb_shared_cost col = shared_of(tile(32, 32, 0, 0, SB_WALK_COLUMN, i));
        assert_int_equal(col.ways, 32);
        assert_int_equal(col.wavefronts, 32);
        sb_shared_cost row = shared_of(tile(32, 32, 0, 0, SB_WALK_ROW, i));
        assert_int_equal(row.ways, 1);
        assert_int_equal(row.wavefronts, 1);
    }
}

/* tile[32][33]: the padding column removes the conflict for both walks. */
static void seed_shared_tile_padded_32x33(void **state)
{
    (void)state;
    for (int i = 0; i < 32; i++) {
        assert_int_equal(shared_of(tile(32, 32, 1, 0, SB_WALK_COLUMN, i)).ways, 1);
        assert_int_equal(shared_of(tile(32, 32, 1, 0, SB_WALK_ROW, i)).ways, 1);
        assert_int_equal(shared_of(tile(32, 32, 1, 0, SB_WALK_COLUMN, i)).wavefronts, 1);
    }
    /* the note's arithmetic: element (r, c) at r*33 + c, bank (r + c) % 32 */
    uint64_t a[32];
    sb_pattern p = tile(32, 32, 1, 0, SB_WALK_COLUMN, 5);
    assert_int_equal(sb_pattern_addresses(&p, a), 0);
    for (int l = 0; l < 32; l++) {
        assert_int_equal(a[l], (uint64_t)(l * 33 + 5) * 4);
        assert_int_equal(sb_bank_of(a[l]), (l + 5) % 32);
    }
}

/* XOR swizzle of [32][32]: col ^ row spreads both walks over all banks. */
static void seed_shared_tile_swizzle(void **state)
{
    (void)state;
    for (int i = 0; i < 32; i++) {
        assert_int_equal(shared_of(tile(32, 32, 0, 1, SB_WALK_COLUMN, i)).ways, 1);
        assert_int_equal(shared_of(tile(32, 32, 0, 1, SB_WALK_ROW, i)).ways, 1);
    }
    uint64_t a[32];
    sb_pattern p = tile(32, 32, 0, 1, SB_WALK_COLUMN, 7);
    assert_int_equal(sb_pattern_addresses(&p, a), 0);
    for (int l = 0; l < 32; l++)
        assert_int_equal(a[l], (uint64_t)(l * 32 + (7 ^ l)) * 4);
    /* A warp walking a 16-row tile covers two columns, like a 2-D block
       with blockDim.x = 16: [16][16] is 8-way; a pad of 1 leaves 2-way
       (row 15 of column 1 sits at 15*17 + 1 = 256, bank 0, as row 0 of
       column 0 does); the swizzle clears it. */
    assert_int_equal(shared_of(tile(16, 16, 0, 0, SB_WALK_COLUMN, 0)).ways, 8);
    assert_int_equal(shared_of(tile(16, 16, 1, 0, SB_WALK_COLUMN, 0)).ways, 2);
    assert_int_equal(shared_of(tile(16, 16, 0, 1, SB_WALK_COLUMN, 0)).ways, 1);
    assert_int_equal(shared_of(tile(16, 16, 0, 0, SB_WALK_ROW, 0)).ways, 1);
}

/* "A[tid + 32]: 整体偏移，bank 也偏移，还是 32 个不同 bank" */
static void seed_shared_offset_32_no_conflict(void **state)
{
    (void)state;
    sb_shared_cost s = shared_of(linear(SB_SPACE_SHARED, 4, 1, 32));
    assert_int_equal(s.ways, 1);
    assert_int_equal(s.wavefronts, 1);
    uint64_t a[32];
    sb_pattern p = linear(SB_SPACE_SHARED, 4, 1, 32);
    assert_int_equal(sb_pattern_addresses(&p, a), 0);
    assert_int_equal(a[0], 128);
    assert_int_equal(a[31], 252);
}

/* "A[0]: 全部广播，无冲突" */
static void seed_shared_broadcast(void **state)
{
    (void)state;
    sb_shared_cost s = shared_of(linear(SB_SPACE_SHARED, 4, 0, 0));
    assert_int_equal(s.broadcast, 1);
    assert_int_equal(s.ways, 1);
    assert_int_equal(s.wavefronts, 1);
    assert_int_equal(s.conflicts, 0);
    /* and on any other word too */
    s = shared_of(linear(SB_SPACE_SHARED, 4, 0, 77));
    assert_int_equal(s.broadcast, 1);
    assert_int_equal(s.wavefronts, 1);
}

/* "8-byte 元素 ... warp 实际需要 2 周期" and "16 字节元素同理 → 4 周期" */
static void seed_shared_8_and_16_byte(void **state)
{
    (void)state;
    sb_shared_cost s8 = shared_of(linear(SB_SPACE_SHARED, 8, 1, 0));
    assert_int_equal(s8.wavefronts, 2);
    assert_int_equal(s8.ideal_wavefronts, 2);
    assert_int_equal(s8.ways, 1);
    assert_int_equal(s8.conflicts, 0);
    sb_shared_cost s16 = shared_of(linear(SB_SPACE_SHARED, 16, 1, 0));
    assert_int_equal(s16.wavefronts, 4);
    assert_int_equal(s16.ideal_wavefronts, 4);
    assert_int_equal(s16.ways, 1);
    assert_int_equal(s16.conflicts, 0);
    /* "double 地址 0 → bank 0 + bank 1; double 地址 8 → bank 2 + bank 3" */
    uint64_t a[32];
    sb_pattern p = linear(SB_SPACE_SHARED, 8, 1, 0);
    assert_int_equal(sb_pattern_addresses(&p, a), 0);
    assert_int_equal(sb_bank_of(a[0]), 0);
    assert_int_equal(sb_bank_of(a[1]), 2);
}

/* The phase rules beyond stride 1: each half- or quarter-warp is judged on
   its own, and its worst bank decides. */
static void shared_phase_rules(void **state)
{
    (void)state;
    /* 8-byte, stride 2: a half-warp covers banks 0,1,4,5,... twice: 2-way */
    sb_shared_cost c = shared_of(linear(SB_SPACE_SHARED, 8, 2, 0));
    assert_int_equal(c.ways, 2);
    assert_int_equal(c.wavefronts, 4);
    /* 8-byte, 16 elements (128 bytes) apart: 16 lanes of a half-warp on banks 0-1 */
    c = shared_of(linear(SB_SPACE_SHARED, 8, 16, 0));
    assert_int_equal(c.ways, 16);
    assert_int_equal(c.wavefronts, 32);
    /* 16-byte, 8 elements apart: a half-warp's 16 lanes on banks 0-3, 16
       distinct words each where its 64 words need 2 passes: 8-way */
    c = shared_of(linear(SB_SPACE_SHARED, 16, 8, 0));
    assert_int_equal(c.ways, 8);
    assert_int_equal(c.wavefronts, 32);
    /* 16-byte, stride 2: a half-warp spans 128 words, 4 a bank where 2
       passes would do: 2-way */
    c = shared_of(linear(SB_SPACE_SHARED, 16, 2, 0));
    assert_int_equal(c.ways, 2);
    assert_int_equal(c.wavefronts, 8);
    assert_int_equal(c.conflicts, 4);
    /* 16-byte, consecutive: 4 passes and no conflict */
    c = shared_of(linear(SB_SPACE_SHARED, 16, 1, 0));
    assert_int_equal(c.wavefronts, 4);
    assert_int_equal(c.conflicts, 0);
    assert_int_equal(c.ways, 1);
    /* broadcasts of wide words still take one pass per phase: a half-warp
       (the H200's matrix multiply: 2 wavefronts, RESULTS.md) */
    c = shared_of(linear(SB_SPACE_SHARED, 8, 0, 0));
    assert_int_equal(c.broadcast, 1);
    assert_int_equal(c.wavefronts, 2);
    assert_int_equal(c.ways, 1);
    c = shared_of(linear(SB_SPACE_SHARED, 16, 0, 3));
    assert_int_equal(c.broadcast, 1);
    assert_int_equal(c.wavefronts, 2);
    assert_int_equal(c.ways, 1);
    /* pairs of lanes on one element, 128 bytes between pairs: 8 distinct
       elements on banks 0-1 in each half-warp */
    sb_pattern p = linear(SB_SPACE_SHARED, 8, 16, 0);
    p.same = 2;
    c = shared_of(p);
    assert_int_equal(c.ways, 8);
    assert_int_equal(c.wavefronts, 16);
    /* phases that differ: groups of 20 lanes, so the first half-warp reads
       one element (1 pass) and the second two elements of banks 0-1 (2
       passes): 3 wavefronts, and ways is the worst phase, 2 */
    p.same = 20;
    c = shared_of(p);
    assert_int_equal(c.wavefronts, 3);
    assert_int_equal(c.ideal_wavefronts, 2);
    assert_int_equal(c.ways, 2);
    assert_int_equal(c.conflicts, 1);
    assert_int_equal(c.broadcast, 0);
}

/* "several lanes on one address": groups of k lanes share a word in bank 0,
   32/k distinct words -> 32/k ways; with stride 0, one broadcast. */
static void shared_same_rule(void **state)
{
    (void)state;
    for (int k = 1; k <= 32; k *= 2) {
        sb_pattern p = linear(SB_SPACE_SHARED, 4, 32, 0);
        p.same = k;
        sb_shared_cost c = shared_of(p);
        assert_int_equal(c.ways, 32 / k);
        assert_int_equal(c.wavefronts, 32 / k);
        assert_int_equal(c.broadcast, k == 32);
        p.stride = 0;
        c = shared_of(p);
        assert_int_equal(c.broadcast, 1);
        assert_int_equal(c.wavefronts, 1);
        /* shared words in different banks cost nothing */
        p.stride = 1;
        assert_int_equal(shared_of(p).ways, 1);
    }
    /* a group size that does not divide 32: ceil(32 / 3) = 11 words */
    sb_pattern p = linear(SB_SPACE_SHARED, 4, 32, 0);
    p.same = 3;
    assert_int_equal(shared_of(p).ways, 11);
    uint64_t a[32];
    p.same = 4;
    assert_int_equal(sb_pattern_addresses(&p, a), 0);
    assert_int_equal(a[3], 0);
    assert_int_equal(a[4], 128);
    assert_int_equal(a[31], 7 * 128);
}

/* Permutations inside the 32 banks cost nothing in shared memory either. */
static void shared_permutations(void **state)
{
    (void)state;
    sb_pattern p = linear(SB_SPACE_SHARED, 4, 1, 0);
    p.perm = SB_PERM_REVERSE;
    assert_int_equal(shared_of(p).ways, 1);
    p.perm = SB_PERM_XOR;
    for (unsigned m = 0; m < 32; m++) {
        p.perm_arg = m;
        assert_int_equal(shared_of(p).wavefronts, 1);
    }
    p.perm = SB_PERM_RANDOM;
    for (unsigned seed = 0; seed < 50; seed++) {
        p.perm_arg = seed;
        assert_int_equal(shared_of(p).wavefronts, 1);
    }
    /* spread: 128 bytes apart, all on bank 0 */
    p.perm = SB_PERM_REVERSE;
    p.perm_arg = 0;
    p.spread = 1;
    assert_int_equal(shared_of(p).ways, 32);
}

/* ---- permutations, addresses, predictions, formatting ----------------- */

static void perm_tables(void **state)
{
    (void)state;
    int t[32], u[32];
    assert_int_equal(sb_perm_table(SB_PERM_NONE, 0, t), 0);
    for (int l = 0; l < 32; l++)
        assert_int_equal(t[l], l);
    assert_int_equal(sb_perm_table(SB_PERM_REVERSE, 0, t), 0);
    for (int l = 0; l < 32; l++)
        assert_int_equal(t[l], 31 - l);
    assert_int_equal(sb_perm_table(SB_PERM_XOR, 5, t), 0);
    for (int l = 0; l < 32; l++)
        assert_int_equal(t[l], l ^ 5);
    assert_int_equal(sb_perm_table(SB_PERM_XOR, 32, t), -1);
    assert_int_equal(sb_perm_table((sb_perm)99, 0, t), -1);
    /* random: a permutation, the same for the same seed, not the identity */
    int differ = 0;
    for (unsigned seed = 0; seed < 20; seed++) {
        int seen[32] = {0};
        assert_int_equal(sb_perm_table(SB_PERM_RANDOM, seed, t), 0);
        assert_int_equal(sb_perm_table(SB_PERM_RANDOM, seed, u), 0);
        assert_memory_equal(t, u, sizeof t);
        for (int l = 0; l < 32; l++) {
            assert_in_range(t[l], 0, 31);
            seen[t[l]]++;
            differ += t[l] != l;
        }
        for (int l = 0; l < 32; l++)
            assert_int_equal(seen[l], 1);
    }
    assert_true(differ > 0);
    assert_int_equal(sb_perm_table(SB_PERM_RANDOM, 1, t), 0);
    assert_int_equal(sb_perm_table(SB_PERM_RANDOM, 2, u), 0);
    assert_memory_not_equal(t, u, sizeof t);
}

static void addresses(void **state)
{
    (void)state;
    uint64_t a[32];
    static const int words[] = {4, 8, 16};
    for (int w = 0; w < 3; w++) {
        sb_pattern p = linear(SB_SPACE_SHARED, words[w], 3, 2);
        assert_int_equal(sb_pattern_addresses(&p, a), 0);
        for (int l = 0; l < 32; l++)
            assert_int_equal(a[l], (uint64_t)(l * 3 + 2) * (uint64_t)words[w]);
    }
    sb_pattern p = linear(SB_SPACE_GLOBAL, 8, 1, 0);
    p.spread = 1; /* one 128-byte line per lane: 16 eight-byte words */
    assert_int_equal(sb_pattern_addresses(&p, a), 0);
    for (int l = 0; l < 32; l++)
        assert_int_equal(a[l], (uint64_t)l * 128);
    p = tile(32, 32, 0, 0, SB_WALK_ROW, 3);
    p.offset = 1;
    assert_int_equal(sb_pattern_addresses(&p, a), 0);
    for (int l = 0; l < 32; l++)
        assert_int_equal(a[l], (uint64_t)(3 * 32 + l + 1) * 4);
}

static void predictions_and_fields(void **state)
{
    (void)state;
    sb_pattern p = linear(SB_SPACE_SHARED, 4, 6, 0);
    sb_prediction r;
    assert_int_equal(sb_predict(&p, &r), 0);
    assert_int_equal(r.space, SB_SPACE_SHARED);
    assert_int_equal(r.word_bytes, 4);
    assert_int_equal(r.lanes, 32);
    assert_int_equal(r.ways, 2);
    assert_int_equal(r.wavefronts, 2);
    assert_int_equal(r.sectors, 24); /* the global view is filled too */
    /* every field is reachable by name and reads back the struct's value */
    size_t n = 0;
    int seen_ways = 0, seen_eff = 0;
    for (const sb_prediction_field *f; (f = sb_prediction_field_at(n)) != NULL; n++) {
        assert_non_null(f->name);
        assert_non_null(f->meaning);
        for (size_t m = 0; m < n; m++)
            assert_string_not_equal(sb_prediction_field_at(m)->name, f->name);
        if (strcmp(f->name, "ways") == 0) {
            seen_ways = 1;
            assert_true(sb_prediction_value(&r, f) == 2.0);
        }
        if (strcmp(f->name, "efficiency") == 0) {
            seen_eff = 1;
            assert_int_equal(f->type, SB_FIELD_DOUBLE);
            assert_true(sb_prediction_value(&r, f) == r.efficiency);
        }
    }
    assert_int_equal(n, 14);
    assert_true(seen_ways && seen_eff);
}

static void format_texts(void **state)
{
    (void)state;
    char buf[96];
    sb_prediction r;
    struct { sb_pattern p; const char *text; } cases[] = {
        {linear(SB_SPACE_GLOBAL, 4, 1, 0), "4 sectors/req, 100.0% used"},
        {linear(SB_SPACE_GLOBAL, 4, 8, 0), "32 sectors/req, 12.5% used"},
        {linear(SB_SPACE_GLOBAL, 4, 0, 0), "1 sector/req, 12.5% used"},
        {linear(SB_SPACE_SHARED, 4, 32, 0), "32-way, 32 wavefronts"},
        {linear(SB_SPACE_SHARED, 4, 6, 0), "2-way, 2 wavefronts"},
        {linear(SB_SPACE_SHARED, 4, 1, 0), "no conflict, 1 wavefront"},
        {linear(SB_SPACE_SHARED, 4, 0, 0), "broadcast, 1 wavefront"},
        {linear(SB_SPACE_SHARED, 16, 1, 0), "no conflict, 4 wavefronts"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(sb_predict(&cases[i].p, &r), 0);
        int len = sb_prediction_format(&r, buf, sizeof buf);
        assert_string_equal(buf, cases[i].text);
        assert_int_equal(len, (int)strlen(cases[i].text));
    }
    /* truncation: snprintf's rules, the full length returned */
    assert_int_equal(sb_predict(&cases[0].p, &r), 0);
    assert_int_equal(sb_prediction_format(&r, buf, 5), (int)strlen(cases[0].text));
    assert_string_equal(buf, "4 se");
    assert_int_equal(sb_prediction_format(NULL, buf, sizeof buf), -1);

    sb_pattern p = tile(32, 32, 1, 0, SB_WALK_COLUMN, 0);
    assert_true(sb_pattern_describe(&p, buf, sizeof buf) > 0);
    assert_non_null(strstr(buf, "tile[32][33]"));
    p = linear(SB_SPACE_SHARED, 4, 6, 0);
    sb_pattern_describe(&p, buf, sizeof buf);
    assert_string_equal(buf, "shared, 4-byte words, stride 6");
}

/* ---- invalid patterns ------------------------------------------------- */

static void invalid_patterns_rejected(void **state)
{
    (void)state;
    sb_pattern bad[32];
    int n = 0;
    sb_pattern p;
#define BAD(stmt)                  \
    do {                           \
        p = sb_pattern_default();  \
        stmt;                      \
        assert_true(n < 32);       \
        bad[n++] = p;              \
    } while (0)
    BAD(p.word_bytes = 5);
    BAD(p.word_bytes = 0);
    BAD(p.word_bytes = 32);
    BAD(p.stride = -1);
    BAD(p.stride = SB_MODEL_MAX_STRIDE + 1);
    BAD(p.offset = -1);
    BAD(p.space = (sb_space)7);
    BAD(p.perm = (sb_perm)9);
    BAD((p.perm = SB_PERM_XOR, p.perm_arg = 32));
    BAD((p.perm = SB_PERM_REVERSE, p.perm_arg = 1));
    BAD((p.spread = 1, p.stride = 2));
    BAD(p.spread = 2);
    BAD(p.same = -1);
    BAD(p.same = 33);
    BAD(p.pad = 1); /* padding without a tile walk */
    BAD(p = tile(0, 0, 0, 0, SB_WALK_COLUMN, 0));
    BAD(p = tile(32, 32, -1, 0, SB_WALK_ROW, 0));
    BAD(p = tile(32, 33, 0, 1, SB_WALK_ROW, 0)); /* swizzle outside the row */
    BAD(p = tile(32, 32, 0, 0, SB_WALK_ROW, 32));
    BAD(p = tile(16, 16, 0, 0, SB_WALK_ROW, 15)); /* lanes past the last row */
    BAD(p = tile(32, 32, 0, 0, (sb_walk)5, 0));
    BAD((p = tile(32, 32, 0, 0, SB_WALK_ROW, 0), p.stride = 2));
    BAD((p = tile(32, 32, 0, 0, SB_WALK_ROW, 0), p.perm = SB_PERM_REVERSE));
    BAD(p = tile(32, 32, 0, 0, SB_WALK_COLUMN, -1));
#undef BAD
    for (int i = 0; i < n; i++) {
        uint64_t a[32];
        sb_global_cost g;
        sb_shared_cost s;
        sb_prediction r;
        char buf[16] = "untouched";
        memset(a, 0xAB, sizeof a);
        memset(&g, 0xAB, sizeof g);
        memset(&s, 0xAB, sizeof s);
        memset(&r, 0xAB, sizeof r);
        const char *why = sb_pattern_check(&bad[i]);
        assert_non_null(why);
        assert_true(strlen(why) > 0);
        assert_int_equal(sb_pattern_addresses(&bad[i], a), -1);
        assert_int_equal(a[0], 0xABABABABABABABABULL);
        assert_int_equal(a[31], 0xABABABABABABABABULL);
        assert_int_equal(sb_global_cost_of(&bad[i], &g), -1);
        assert_int_equal(g.sectors, (int)0xABABABAB);
        assert_int_equal(sb_shared_cost_of(&bad[i], &s), -1);
        assert_int_equal(s.wavefronts, (int)0xABABABAB);
        assert_int_equal(sb_predict(&bad[i], &r), -1);
        assert_int_equal(r.ways, (int)0xABABABAB);
        assert_int_equal(sb_pattern_describe(&bad[i], buf, sizeof buf), -1);
        assert_string_equal(buf, "untouched");
    }
    assert_non_null(sb_pattern_check(NULL));
    assert_int_equal(sb_predict(NULL, NULL), -1);
    sb_pattern ok = sb_pattern_default();
    assert_null(sb_pattern_check(&ok));
    assert_int_equal(sb_pattern_addresses(&ok, NULL), -1);
    assert_int_equal(sb_predict(&ok, NULL), -1);
    /* a zeroed struct has word size 0: forgetting sb_pattern_default is caught */
    sb_pattern zero;
    memset(&zero, 0, sizeof zero);
    assert_non_null(sb_pattern_check(&zero));
}


/* ---- lanes taking part, list walks ------------------------------------ */

/* A tail: only the first lanes take part, and only their bytes count. */
static void active_lanes_global(void **state)
{
    (void)state;
    sb_pattern p = linear(SB_SPACE_GLOBAL, 4, 1, 0);
    p.active = 0xffu; /* 8 lanes: 32 bytes, one sector */
    sb_global_cost g = global_of(p);
    assert_int_equal(g.sectors, 1);
    assert_int_equal(g.requested_bytes, 32);
    assert_int_equal(g.unique_bytes, 32);
    sb_prediction r;
    assert_int_equal(sb_predict(&p, &r), 0);
    assert_int_equal(r.lanes, 8);
    /* 9 lanes start a second sector; at offset 4 words, 8 lanes straddle two */
    p.active = 0x1ffu;
    assert_int_equal(global_of(p).sectors, 2);
    p.active = 0xffu;
    p.offset = 4;
    assert_int_equal(global_of(p).sectors, 2);
    /* stride 8: each lane its own sector, so 5 lanes are 5 sectors */
    p = linear(SB_SPACE_GLOBAL, 4, 8, 0);
    p.active = 0x1fu;
    assert_int_equal(global_of(p).sectors, 5);
    /* lanes that are not a prefix: lanes 0 and 31 of a dense row */
    p = linear(SB_SPACE_GLOBAL, 4, 1, 0);
    p.active = 0x80000001u;
    assert_int_equal(global_of(p).sectors, 2);
    /* all bits set is every lane, as 0 is */
    p.active = 0xffffffffu;
    assert_int_equal(global_of(p).sectors, 4);
}

/* Only the lanes taking part meet in a bank; a phase of none costs no
   wavefront, and a single lane is no broadcast. */
static void active_lanes_shared(void **state)
{
    (void)state;
    sb_pattern p = tile(32, 32, 0, 0, SB_WALK_COLUMN, 0);
    p.active = 0x1fu; /* 5 rows of the column: 5 words of bank 0 */
    sb_shared_cost s = shared_of(p);
    assert_int_equal(s.ways, 5);
    assert_int_equal(s.wavefronts, 5);
    assert_int_equal(s.conflicts, 4);
    /* 8-byte words: lanes 0-15 are the first half-warp, the second costs nothing */
    p = linear(SB_SPACE_SHARED, 8, 1, 0);
    p.active = 0xffffu;
    s = shared_of(p);
    assert_int_equal(s.wavefronts, 1);
    assert_int_equal(s.ideal_wavefronts, 1);
    assert_int_equal(s.conflicts, 0);
    /* 16-byte words, lanes 0-11: quarter-warps 0 and 1 */
    p = linear(SB_SPACE_SHARED, 16, 1, 0);
    p.active = 0xfffu;
    assert_int_equal(shared_of(p).wavefronts, 2);
    p = linear(SB_SPACE_SHARED, 4, 0, 0);
    p.active = 1u;
    assert_int_equal(shared_of(p).broadcast, 0);
    p.active = 3u;
    assert_int_equal(shared_of(p).broadcast, 1);
    char buf[160];
    p = linear(SB_SPACE_GLOBAL, 4, 1, 0);
    p.active = 0x7fu;
    sb_pattern_describe(&p, buf, sizeof buf);
    assert_string_equal(buf, "global, 4-byte words, stride 1, first 7 lanes");
    p.active = 0x80000001u;
    sb_pattern_describe(&p, buf, sizeof buf);
    assert_string_equal(buf, "global, 4-byte words, stride 1, lanes 0x80000001");
}

/* A list walk costs what the same addresses cost any other way, and says
   what the fields above cannot: two thread rows of 16 reading one row. */
static void list_walks(void **state)
{
    (void)state;
    sb_pattern list = sb_pattern_default(), same = linear(SB_SPACE_SHARED, 4, 6, 0);
    list.walk = SB_WALK_LIST;
    for (int l = 0; l < SB_WARP_LANES; l++)
        list.lane_index[l] = 6 * l;
    sb_prediction a, b;
    assert_int_equal(sb_predict(&list, &a), 0);
    assert_int_equal(sb_predict(&same, &b), 0);
    assert_int_equal(a.ways, b.ways);
    assert_int_equal(a.sectors, b.sectors);
    uint64_t addr[SB_WARP_LANES];
    assert_int_equal(sb_pattern_addresses(&list, addr), 0);
    assert_int_equal(addr[5], 5 * 6 * 4);
    for (int l = 0; l < SB_WARP_LANES; l++)
        list.lane_index[l] = l % 16;
    list.space = SB_SPACE_GLOBAL;
    sb_global_cost g = global_of(list);
    assert_int_equal(g.sectors, 2);
    assert_int_equal(g.unique_bytes, 64);
    /* invalid: a negative index, a stride, an index on a linear pattern */
    list.lane_index[3] = -1;
    assert_non_null(sb_pattern_check(&list));
    list.lane_index[3] = 3;
    list.stride = 2;
    assert_non_null(sb_pattern_check(&list));
    sb_pattern linear_with_index = sb_pattern_default();
    linear_with_index.lane_index[0] = 1;
    assert_non_null(sb_pattern_check(&linear_with_index));
    assert_string_equal(sb_walk_name(SB_WALK_LIST), "list");
}

/* ---- totals over a kernel's accesses ---------------------------------- */

/* Issue 15's case, worked by hand: global_perm's w4-random1-spread-load
 * makes, per warp and phase, 4 data loads of 32 sectors (one lane per
 * 128-byte segment) and 4 dense stores of 4; counted alone, the loads are
 * 32 sectors a request.  Its kernel also reads the 32-entry lane table,
 * one 4-sector request per warp: (4 x 32 + 4) / 5 = 26.4. */
static void totals_random_spread_table(void **state)
{
    (void)state;
    sb_pattern p[3];
    p[0] = linear(SB_SPACE_GLOBAL, 4, 1, 0);
    p[0].spread = 1;
    p[0].perm = SB_PERM_RANDOM;
    p[0].perm_arg = 1;
    p[1] = linear(SB_SPACE_GLOBAL, 4, 1, 0);
    p[2] = linear(SB_SPACE_GLOBAL, 4, 1, 0);
    double warps = 1000;
    double requests[3] = {4 * warps, 4 * warps, warps};
    sb_access_kind kind[3] = {SB_ACCESS_LOAD, SB_ACCESS_STORE, SB_ACCESS_LOAD};
    sb_access_totals t;
    assert_int_equal(sb_access_totals_of(p, requests, kind, 2, &t), 0); /* before */
    assert_double_equal(t.global_ld_sectors_per_request, 32.0, 1e-12);
    assert_double_equal(t.global_st_sectors_per_request, 4.0, 1e-12);
    assert_double_equal(t.global_ld_requests, 4000.0, 0.0);
    assert_int_equal(sb_access_totals_of(p, requests, kind, 3, &t), 0); /* after */
    assert_double_equal(t.global_ld_requests, 5000.0, 0.0);
    assert_double_equal(t.global_ld_sectors, 4000.0 * 32 + 1000.0 * 4, 0.0);
    assert_double_equal(t.global_ld_sectors_per_request, 26.4, 1e-12);
    assert_double_equal(t.global_st_sectors, 16000.0, 0.0);
    assert_double_equal(t.shared_ld_requests, 0.0, 0.0);
    assert_double_equal(t.shared_ld_wavefronts_per_request, 0.0, 0.0);
    char buf[128];
    sb_access_totals_format(&t, buf, sizeof buf);
    assert_string_equal(buf, "global ld 26.40 sectors/req, st 4.00");
}

/* Shared memory: the transpose's tile, 32 x 32, stored by rows (1
 * wavefront) and read by columns (32, 31 of them conflicts); a tail of 5
 * lanes of the column costs 5. */
static void totals_shared_tile(void **state)
{
    (void)state;
    sb_pattern p[3] = {tile(32, 32, 0, 0, SB_WALK_ROW, 0), tile(32, 32, 0, 0, SB_WALK_COLUMN, 0),
                       tile(32, 32, 0, 0, SB_WALK_COLUMN, 0)};
    p[2].active = 0x1fu;
    double requests[3] = {64, 60, 4};
    sb_access_kind kind[3] = {SB_ACCESS_STORE, SB_ACCESS_LOAD, SB_ACCESS_LOAD};
    sb_access_totals t;
    assert_int_equal(sb_access_totals_of(p, requests, kind, 3, &t), 0);
    assert_double_equal(t.shared_st_requests, 64, 0.0);
    assert_double_equal(t.shared_st_wavefronts, 64, 0.0);
    assert_double_equal(t.shared_st_conflicts, 0, 0.0);
    assert_double_equal(t.shared_ld_requests, 64, 0.0);
    assert_double_equal(t.shared_ld_wavefronts, 60.0 * 32 + 4.0 * 5, 0.0);
    assert_double_equal(t.shared_ld_conflicts, 60.0 * 31 + 4.0 * 4, 0.0);
    assert_double_equal(t.shared_ld_wavefronts_per_request, (60.0 * 32 + 20) / 64, 1e-12);
    assert_double_equal(t.global_ld_requests + t.global_st_requests, 0, 0.0);
    char buf[128];
    sb_access_totals_format(&t, buf, sizeof buf);
    assert_string_equal(buf, "shared ld 30.31 wavefronts/req, st 1.00");
    /* atomics are counted apart */
    kind[0] = SB_ACCESS_ATOMIC;
    assert_int_equal(sb_access_totals_of(p, requests, kind, 1, &t), 0);
    assert_double_equal(t.shared_atom_requests, 64, 0.0);
    assert_double_equal(t.shared_st_requests, 0, 0.0);
}

/* A bad pattern, kind or count is an error, and leaves the totals alone;
   no accesses are all zeros; every field names its counter. */
static void totals_checked_and_described(void **state)
{
    (void)state;
    sb_pattern p = linear(SB_SPACE_GLOBAL, 4, 1, 0), bad = p;
    bad.word_bytes = 3;
    double one = 1, negative = -1, nan = 0.0 / 0.0;
    sb_access_kind load = SB_ACCESS_LOAD, wrong = (sb_access_kind)7;
    sb_access_totals t;
    memset(&t, 0xAB, sizeof t);
    assert_int_equal(sb_access_totals_of(&bad, &one, &load, 1, &t), -1);
    assert_int_equal(sb_access_totals_of(&p, &negative, &load, 1, &t), -1);
    assert_int_equal(sb_access_totals_of(&p, &nan, &load, 1, &t), -1);
    assert_int_equal(sb_access_totals_of(&p, &one, &wrong, 1, &t), -1);
    assert_int_equal(sb_access_totals_of(&p, &one, &load, 1, NULL), -1);
    unsigned char untouched[sizeof t];
    memset(untouched, 0xAB, sizeof untouched);
    assert_memory_equal(&t, untouched, sizeof t);
    assert_int_equal(sb_access_totals_of(NULL, NULL, NULL, 0, &t), 0);
    char buf[16] = "x";
    assert_int_equal(sb_access_totals_format(&t, buf, sizeof buf), 0);
    assert_string_equal(buf, "");
    size_t n = 0, counts = 0;
    for (const sb_access_totals_field *f; (f = sb_access_totals_field_at(n)) != NULL; n++) {
        assert_non_null(f->name);
        assert_non_null(f->meaning);
        assert_true(f->ratio || (f->counter && strstr(f->counter, ".sum")));
        counts += !f->ratio;
        for (size_t m = 0; m < n; m++)
            assert_string_not_equal(sb_access_totals_field_at(m)->name, f->name);
        assert_true(sb_access_totals_value(&t, f) == 0.0);
    }
    assert_int_equal(n, sizeof(sb_access_totals) / sizeof(double));
    assert_int_equal(counts, 15);
    assert_string_equal(sb_access_kind_name(SB_ACCESS_ATOMIC), "atomic");
    assert_null(sb_access_kind_name(wrong));
    const sb_access_totals_field *f = sb_access_totals_field_named("shared_st_conflicts");
    assert_non_null(f);
    assert_int_equal(f->offset, offsetof(sb_access_totals, shared_st_conflicts));
    assert_null(sb_access_totals_field_named("dram_read_bytes"));
    assert_null(sb_access_totals_field_named(NULL));
}


/* The counters a profiled launch records (--counters) and the model's
   totals share their keys: each global and shared count the hardware
   gives has the model's figure of the same name to be held against. */
static void totals_named_as_the_counters(void **state)
{
    (void)state;
    int matched = 0;
    for (int c = 0; c < SB_COUNTER_COUNT; c++) {
        const char *key = sb_counter_key(c);
        assert_non_null(key);
        if (strncmp(key, "global_", 7) && strncmp(key, "shared_", 7))
            continue;
        const sb_access_totals_field *f = sb_access_totals_field_named(key);
        if (!f)
            fail_msg("the counter %s has no model total of its name", key);
        assert_false(f->ratio);
        matched++;
    }
    assert_true(matched >= 11);
}

/* ---- the command line ------------------------------------------------- */

typedef struct captured {
    int rc;
    char out[16384];
    char err[4096];
} captured;

/* Reads a whole (small) file into buf. */
static void slurp(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t k = fread(buf, 1, n - 1, f);
    buf[k] = '\0';
    fclose(f);
}

/* Runs sb_cmd_model with stdout and stderr sent to temporary files, then
   puts them back: the TAP stream is on stdout too. */
static void run_cli(captured *c, int argc, const char *const *args)
{
    char outp[] = "/tmp/test_model_outXXXXXX", errp[] = "/tmp/test_model_errXXXXXX";
    int ofd = mkstemp(outp), efd = mkstemp(errp);
    assert_true(ofd >= 0 && efd >= 0);
    char *argv[32];
    assert_true(argc < 32);
    for (int i = 0; i < argc; i++)
        argv[i] = (char *)args[i]; /* getopt may permute the pointers, not the strings */
    argv[argc] = NULL;

    fflush(stdout);
    fflush(stderr);
    int saved_out = dup(STDOUT_FILENO), saved_err = dup(STDERR_FILENO);
    assert_true(saved_out >= 0 && saved_err >= 0);
    dup2(ofd, STDOUT_FILENO);
    dup2(efd, STDERR_FILENO);
    c->rc = sb_cmd_model(argc, argv);
    fflush(stdout);
    fflush(stderr);
    dup2(saved_out, STDOUT_FILENO);
    dup2(saved_err, STDERR_FILENO);
    close(saved_out);
    close(saved_err);
    close(ofd);
    close(efd);
    slurp(outp, c->out, sizeof c->out);
    slurp(errp, c->err, sizeof c->err);
    unlink(outp);
    unlink(errp);
}

#define RUN(c, ...)                                                  \
    do {                                                             \
        static const char *const args_[] = {"model", __VA_ARGS__};   \
        run_cli((c), (int)(sizeof args_ / sizeof args_[0]), args_);  \
    } while (0)

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static void cli_stride_6_two_way(void **state)
{
    (void)state;
    static captured c;
    RUN(&c, "--stride", "6");
    assert_int_equal(c.rc, 0);
    assert_string_equal(c.err, "");
    assert_non_null(strstr(c.out, "# shared, 4-byte words, stride 6\n"));
    assert_non_null(strstr(c.out, "2-way, 2 wavefronts"));
    assert_int_equal(count_lines(c.out), 3); /* header, column names, one row */
}

static void cli_global_stride_8(void **state)
{
    (void)state;
    static captured c;
    RUN(&c, "--space", "global", "--stride", "8");
    assert_int_equal(c.rc, 0);
    assert_non_null(strstr(c.out, "32 sectors/req, 12.5% used"));
    assert_non_null(strstr(c.out, "1024"));
}

static void cli_sweep_and_json(void **state)
{
    (void)state;
    static captured c;
    RUN(&c, "--stride", "1-4", "--format", "json");
    assert_int_equal(c.rc, 0);
    assert_non_null(strstr(c.out, "\"schema\": \"simtbench-model/1\""));
    int rows = 0;
    for (const char *s = c.out; (s = strstr(s, "\"label\"")) != NULL; s++)
        rows++;
    assert_int_equal(rows, 4);
    assert_non_null(strstr(c.out, "\"stride\": 4"));
    assert_non_null(strstr(c.out, "\"ways\": 4"));
    assert_non_null(strstr(c.out, "\"efficiency\": 0.25"));

    RUN(&c, "--stride", "30-34");
    assert_int_equal(c.rc, 0);
    assert_int_equal(count_lines(c.out), 2 + 5);
    assert_non_null(strstr(c.out, "stride 30-34"));
    assert_non_null(strstr(c.out, "32-way, 32 wavefronts"));
}

static void cli_tile_both_walks_and_lanes(void **state)
{
    (void)state;
    static captured c;
    RUN(&c, "--tile", "32x32");
    assert_int_equal(c.rc, 0);
    assert_non_null(strstr(c.out, "row walk 0"));
    assert_non_null(strstr(c.out, "32-way, 32 wavefronts"));
    RUN(&c, "--tile", "32x32", "--pad", "1", "--walk", "column", "--lanes");
    assert_int_equal(c.rc, 0);
    assert_non_null(strstr(c.out, "tile[32][33]"));
    assert_non_null(strstr(c.out, "no conflict, 1 wavefront"));
    assert_int_equal(count_lines(c.out), 3 + 1 + 32); /* + lane header and 32 lanes */
    RUN(&c, "--help");
    assert_int_equal(c.rc, 0);
    assert_non_null(strstr(c.out, "Usage: simtbench model"));
}

/* Every usage error: exit 2, one line on stderr, nothing on stdout. */
static void cli_errors(void **state)
{
    (void)state;
    static captured c;
    static const char *const expect[] = {
        "unknown option '--bogus'", "--word must be 4, 8 or 16", "--stride must be",
        "--tile must be", "option '--stride' needs a value", "unexpected argument",
        "--pad, --swizzle, --walk and --walk-index need --tile", "swizzle needs a power-of-two",
    };
    for (int i = 0; i < 8; i++) {
        switch (i) {
        case 0: RUN(&c, "--bogus"); break;
        case 1: RUN(&c, "--word", "5"); break;
        case 2: RUN(&c, "--stride", "-1"); break;
        case 3: RUN(&c, "--tile", "0x0"); break;
        case 4: RUN(&c, "--stride"); break;
        case 5: RUN(&c, "--stride", "2", "stray"); break;
        case 6: RUN(&c, "--pad", "1"); break;
        default: RUN(&c, "--tile", "32x33", "--swizzle"); break;
        }
        assert_int_equal(c.rc, 2);
        assert_string_equal(c.out, "");
        assert_int_equal(count_lines(c.err), 1);
        assert_int_equal(strncmp(c.err, "simtbench model: ", 17), 0);
        assert_non_null(strstr(c.err, expect[i]));
    }
    /* after errors the parser state is reset: a good call still works */
    RUN(&c, "--broadcast");
    assert_int_equal(c.rc, 0);
    assert_non_null(strstr(c.out, "broadcast, 1 wavefront"));
}


/* --variant: every access of a variant's kernel, planned without a
   device, and the totals with the counters they are held against. */
static void cli_variant_totals(void **state)
{
    (void)state;
    static captured c;
    RUN(&c, "--variant", "global_perm/w4-random1-spread-load", "--size", "256x128");
    assert_int_equal(c.rc, 0);
    assert_string_equal(c.err, "");
    assert_non_null(strstr(c.out, "# global_perm/w4-random1-spread-load at 256x128"));
    assert_non_null(strstr(c.out, "lane table"));
    assert_non_null(strstr(c.out, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"));
    const char *ratio = strstr(c.out, "global_ld_sectors_per_request");
    assert_non_null(ratio);
    assert_true(strtod(ratio + strlen("global_ld_sectors_per_request"), NULL) == 26.4);
    RUN(&c, "--variant", "shared_tile/32x32-column-load", "--size", "1x300", "--format", "json");
    assert_int_equal(c.rc, 0);
    assert_non_null(strstr(c.out, "\"totals\": {"));
    assert_non_null(strstr(c.out, "\"kind\": \"load\", \"requests\": 16384, \"studied\": true"));
    assert_non_null(strstr(c.out, "\"shared_ld_wavefronts_per_request\": 32"));
    assert_non_null(strstr(c.out, "\"global_ld_sectors_per_request\": 4,"));
    RUN(&c, "--space", "global", "--active", "9");
    assert_int_equal(c.rc, 0);
    assert_non_null(strstr(c.out, "first 9 lanes"));
    assert_non_null(strstr(c.out, "2 sectors/req, 56.2% used")); /* 36 of 64 bytes */
    static const char *const expect[] = {
        "--variant must be EXPERIMENT/VARIANT", "no experiment 'nosuch'",
        "transpose has no variant 'nosuch'", "transpose/memcpy runs no kernel of ours",
        "--variant takes its accesses from the variant", "--size and --units need --variant",
        "--active must be 1..32 lanes",
    };
    for (int i = 0; i < 7; i++) {
        switch (i) {
        case 0: RUN(&c, "--variant", "transpose"); break;
        case 1: RUN(&c, "--variant", "nosuch/x"); break;
        case 2: RUN(&c, "--variant", "transpose/nosuch"); break;
        case 3: RUN(&c, "--variant", "transpose/memcpy"); break;
        case 4: RUN(&c, "--variant", "transpose/tiled", "--stride", "2"); break;
        case 5: RUN(&c, "--size", "64"); break;
        default: RUN(&c, "--active", "0"); break;
        }
        assert_int_equal(c.rc, 2);
        assert_string_equal(c.out, "");
        assert_int_equal(count_lines(c.err), 1);
        assert_non_null(strstr(c.err, expect[i]));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(seed_global_consecutive_4_sectors),
        cmocka_unit_test(seed_global_worst_case_12_5_percent),
        cmocka_unit_test(seed_global_transpose_write),
        cmocka_unit_test(global_stride_sectors_enumerated),
        cmocka_unit_test(seed_global_permutation_inside_segment),
        cmocka_unit_test(seed_global_permutation_spread),
        cmocka_unit_test(seed_global_broadcast_1_sector),
        cmocka_unit_test(global_misalignment_k_0_to_32),
        cmocka_unit_test(global_wide_words),
        cmocka_unit_test(seed_shared_stride_1_no_conflict),
        cmocka_unit_test(seed_shared_stride_2_two_way),
        cmocka_unit_test(seed_shared_stride_3_no_conflict),
        cmocka_unit_test(seed_shared_stride_pow2),
        cmocka_unit_test(seed_shared_stride_32_and_64),
        cmocka_unit_test(shared_gcd_rule_1_to_128),
        cmocka_unit_test(seed_shared_tile_32x32),
        cmocka_unit_test(seed_shared_tile_padded_32x33),
        cmocka_unit_test(seed_shared_tile_swizzle),
        cmocka_unit_test(seed_shared_offset_32_no_conflict),
        cmocka_unit_test(seed_shared_broadcast),
        cmocka_unit_test(seed_shared_8_and_16_byte),
        cmocka_unit_test(shared_phase_rules),
        cmocka_unit_test(shared_same_rule),
        cmocka_unit_test(shared_permutations),
        cmocka_unit_test(perm_tables),
        cmocka_unit_test(addresses),
        cmocka_unit_test(predictions_and_fields),
        cmocka_unit_test(format_texts),
        cmocka_unit_test(invalid_patterns_rejected),
        cmocka_unit_test(active_lanes_global),
        cmocka_unit_test(active_lanes_shared),
        cmocka_unit_test(list_walks),
        cmocka_unit_test(totals_random_spread_table),
        cmocka_unit_test(totals_shared_tile),
        cmocka_unit_test(totals_checked_and_described),
        cmocka_unit_test(totals_named_as_the_counters),
        cmocka_unit_test(cli_stride_6_two_way),
        cmocka_unit_test(cli_global_stride_8),
        cmocka_unit_test(cli_sweep_and_json),
        cmocka_unit_test(cli_tile_both_walks_and_lanes),
        cmocka_unit_test(cli_errors),
        cmocka_unit_test(cli_variant_totals),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
