#!/bin/bash
# Nsight Compute against simtbench's own counters: for each EXPERIMENT/VARIANT
# given, one run under ncu (--clock-control none, the same metrics CUPTI's
# range profiler collects for --counters) and the counts of its last launch
# beside those the saved --counters run COUNTED.json holds for the same
# variant (the CUDA row).  Prints a line per variant and metric and ends
# with "ncu and CUPTI agree on N of M counts"; exit 1 when any pair differs
# by more than 1%.
#
#   scripts/ncu-vs-counters.sh SIMTBENCH COUNTED.json SIZE EXP/VARIANT...
set -uo pipefail
sb=${1:?usage: ncu-vs-counters.sh SIMTBENCH COUNTED.json SIZE EXP/VARIANT...}
counted=${2:?}
size=${3:?}
shift 3
keys="global_ld_requests global_ld_sectors global_st_requests global_st_sectors shared_ld_requests shared_st_requests shared_ld_wavefronts shared_st_wavefronts"
metric() {
    case $1 in
    global_ld_requests) echo l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum ;;
    global_ld_sectors) echo l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum ;;
    global_st_requests) echo l1tex__t_requests_pipe_lsu_mem_global_op_st.sum ;;
    global_st_sectors) echo l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum ;;
    shared_ld_requests) echo smsp__sass_inst_executed_op_shared_ld.sum ;;
    shared_st_requests) echo smsp__sass_inst_executed_op_shared_st.sum ;;
    shared_ld_wavefronts) echo l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum ;;
    shared_st_wavefronts) echo l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum ;;
    esac
}
metrics=$(for k in $keys; do metric "$k"; done | paste -sd,)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
agree=0 total=0
for ev in "$@"; do
    e=${ev%%/*} v=${ev#*/}
    ncu --clock-control none --csv --page raw --metrics "$metrics" "$sb" --backend cuda --quiet \
        --reps 1 --warmup 0 --size "$size" -e "$e" --variant "$v" >"$tmp/ncu.csv" 2>/dev/null
    grep '^"' "$tmp/ncu.csv" >"$tmp/rows.csv"
    # The CUDA record of the variant in the saved run: one JSON line.
    line=$(grep "\"backend\": \"cuda\", .*\"experiment\": \"$e\", .*\"variant\": \"$v\"," "$counted" | head -1)
    for k in $keys; do
        m=$(metric "$k")
        # ncu's raw page: a header row of metric names, a units row, then a
        # row per launch; the last launch's value of column m.
        n=$(awk -F'","' -v m="$m" 'NR == 1 { for (i = 1; i <= NF; i++) { gsub(/"/, "", $i); if ($i == m) c = i } next }
                                   NR > 2 && c { v = $c } END { gsub(/[",]/, "", v); print v }' "$tmp/rows.csv")
        c=$(printf '%s\n' "$line" | sed -n "s/.*\"counters\": {[^}]*\"$k\": \([0-9.e+]*\).*/\1/p")
        total=$((total + 1))
        same=$(awk -v a="$n" -v b="$c" 'BEGIN { if (a == "" || b == "") { print 0; exit }
                                               d = a - b; if (d < 0) d = -d; m = a > b ? a : b
                                               print (m == 0 || d <= 0.01 * m) ? 1 : 0 }')
        agree=$((agree + same))
        printf '%-16s %-28s %-22s ncu %-12s counters %-12s %s\n' "$e" "$v" "$k" "${n:-?}" "${c:-?}" \
            "$([ "$same" = 1 ] && echo same || echo DIFFERENT)"
    done
done
echo "ncu and CUPTI agree on $agree of $total counts"
[ "$agree" = "$total" ]
