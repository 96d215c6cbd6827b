#!/bin/bash
# The headline tables of RESULTS.md, made from a saved run of the default
# suite on both APIs (CUDA first), so that no figure there is typed by hand:
#
#   scripts/results-tables.sh results/h200/suite.json [TRANSPOSE-16384.json]
#
# Prints Markdown: one table per family, the rows that carry its lesson,
# both APIs side by side with OpenCL/CUDA (the speed ratio: above 1, OpenCL
# is faster).  Needs jq.
set -euo pipefail
suite=${1:?usage: results-tables.sh SUITE.json [TRANSPOSE.json]}
big=${2:-}

# rows FILE EXPERIMENT "VARIANT..." COLUMNS: one Markdown row per variant.
# COLUMNS: gbs (ms, GB/s, of roof), flops (FLOP/B, ms, GFLOP/s), plain
# (GB/s, of roof), occ (threads in flight, GB/s, of roof), global (model,
# GB/s, of roof), shared (model, ns, slowdown).
rows() {
    local file=$1 exp=$2 variants=$3 cols=$4
    jq -r --arg exp "$exp" --arg vs "$variants" --arg cols "$cols" '
      # a number with exactly $d decimals
      def f($d): if . == null then "-" else
          (. * pow(10; $d) | round) as $n | ($n | fabs | tostring) as $s
          | (if $d == 0 then $s else
              ("0" * ([0, $d + 1 - ($s | length)] | max) + $s) as $p
              | $p[0:($p | length) - $d] + "." + $p[($p | length) - $d:] end) as $t
          | (if $n < 0 then "-" + $t else $t end) end;
      def pct: if . == null then "-" else ((. * 100 | f(1)) + "%") end;
      def side($r): if $cols == "gbs" then "\($r.time_ms.median | f(4)) | \($r.value | f(0)) | \($r.roof_share | pct)"
        elif $cols == "flops" then "\($r.time_ms.median | f(2)) | \($r.value | f(0))"
        elif $cols == "shared" then "\($r.value | f(2)) | \($r.slowdown | f(2))"
        else "\($r.value | f(0)) | \($r.roof_share | pct)" end;
      . as $run
      | ($vs | split(" "))[] as $v
      | [$run.results[] | select(.experiment == $exp and .variant == $v)] as $rs
      | ($rs | map(select(.backend == "cuda")) | first) as $c
      | ($rs | map(select(.backend == "opencl")) | first) as $o
      | select($c != null and $o != null)
      | ([$run.comparisons[] | select(.experiment == $exp and .variant == $v)] | first | .speed_ratio) as $ratio
      | (if $cols == "flops" then "\($c.intensity | f(2)) | "
         elif $cols == "occ" then "\($c.threads_in_flight // "-") | "
         elif $cols == "global" or $cols == "shared" then "\($c.model[0].summary // "-") | "
         else "" end) as $pre
      | "| \($v) | \($pre)\(side($c)) | \(side($o)) | \($ratio | f(3)) |"
    ' "$file"
}

meta=$(jq -r '"\(.date), \(.devices[0].name), driver \(.devices[0].driver), \(.devices[0].api_version)"' "$suite")
echo "<!-- made by scripts/results-tables.sh from $suite ($meta) -->"
echo
echo "| transpose 8192^2 | CUDA ms | GB/s | of roof | OpenCL ms | GB/s | of roof | OpenCL/CUDA |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
rows "$suite" transpose "memcpy copy_vec4 vendor naive_read naive_write tiled_32x32 padded_32x32 padded tuned vec64x64_cm" gbs
if [ -n "$big" ]; then
    echo
    echo "| transpose 16384^2 | CUDA ms | GB/s | of roof | OpenCL ms | GB/s | of roof | OpenCL/CUDA |"
    echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    rows "$big" transpose "memcpy copy_vec4 vendor vec64x64_cm" gbs
fi
echo
echo "| matmul 4096^3 | FLOP/B | CUDA ms | GFLOP/s | OpenCL ms | GFLOP/s | OpenCL/CUDA |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
rows "$suite" matmul "simple tiled32 coarse2 coarse4 coarse8 corner_turning corner_turn_pad tiled32_a4" flops
echo
echo "| vecadd | CUDA GB/s | of roof | OpenCL GB/s | of roof | OpenCL/CUDA |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
rows "$suite" vecadd "coarse1 coarse2 coarse4 coarse8" plain
echo
echo "| occupancy (block size, grid) | threads in flight | CUDA GB/s | of roof | OpenCL GB/s | of roof | OpenCL/CUDA |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
rows "$suite" occupancy "b32-g1x b32-full b256-g1x b256-g4x b256-g32x b256-full" occ
echo
echo "| global (word bytes, stride) | model, strided side | CUDA GB/s | of roof | OpenCL GB/s | of roof | OpenCL/CUDA |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: |"
rows "$suite" global_stride "w4-s1-load w4-s2-load w4-s8-load w4-s32-load w4-s2-store w16-s4-load" global
rows "$suite" global_walk "row column" global
echo
echo "| shared (word bytes, stride) | model | CUDA ns | slowdown | OpenCL ns | slowdown | OpenCL/CUDA |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: |"
rows "$suite" shared_stride "w4-s1-load w4-s2-load w4-s8-load w4-s32-load w8-s1-load w16-s1-load w16-s8-load" shared
rows "$suite" shared_tile "32x32-column-load 32x33-column-load 32x32-xor-column-load" shared
