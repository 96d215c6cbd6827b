#!/bin/sh
# The fault table: every bad input and fault in tests/faults/cases.tsv, run
# as one TAP test each, with the exit status it must give and what must not
# happen.  Plain POSIX sh and coreutils (awk, sed, timeout).
#
# Every case runs in a scratch directory of its own with the environment it
# names, and is checked for: the exact exit status; no crash (no death by a
# signal, no crash or sanitizer report on stderr); no temporary file
# (".NAME.XXXXXX") left beside a target; nothing written at all when the
# status is 2 or 3 (a refused run); then the checks its row lists (see
# check_one below).  A row that ends in "# TODO REASON" is a known failure:
# its TAP line carries the directive, so Automake counts it as XFAIL, and as
# XPASS (a failure) once it passes: then the TODO goes.
#
# SB_FAULT_ONLY=ID runs only the rows whose id contains ID; SB_FAULT_VERBOSE=1
# shows every row's stderr and stdout.
#
# shellcheck disable=SC2034,SC2086,SC2317,SC2016
# (the table's commands use the variables and functions through eval; the
# environment lists are split on purpose; sh -c scripts are single-quoted)
SB=${SIMTBENCH:-./simtbench}
case $SB in /*) ;; *) SB=$(pwd)/$SB ;; esac
here=$(cd "$(dirname "$0")" && pwd)
. "${SB_TOP_SRCDIR:-$here/../..}/tests/pocl_only.sh"
TABLE=$here/cases.tsv
BUILD=${SB_TOP_BUILDDIR:-$(dirname "$SB")}
REAL_MODULE=$BUILD/opencl/.libs/simtbench_opencl.so
FAULT_DIR=$BUILD/tests/faults/opencl/.libs
LIMIT=30                      # seconds any one command may take
NU=$(printf '\377')           # a byte that is never valid UTF-8, for paths
R251=$(head -c 251 /dev/zero | tr '\0' r)
NAME255=$R251.txt             # the longest name a file may have
NAME256=${R251}r.txt          # one byte too long
HUGE=$(head -c 100000 /dev/zero | tr '\0' 9)
PRECIOUS='precious: a file that was here before the run'
unset SB_FAULT SB_FAULT_REAL OCL_ICD_VENDORS OCL_ICD_FILENAMES
# shellcheck disable=SC3045
ulimit -c 0 2>/dev/null || : # no core files in the scratch directories

tmp=$(mktemp -d)
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
FIX=$tmp/fix
mkdir "$FIX" "$tmp/io"

# ---------------------------------------------------------------- fixtures

# A saved run as `simtbench --save` writes it: one device, two results.
good_json() {
    cat <<'EOF'
{
  "schema": "simtbench-result/1",
  "tool": {"name": "simtbench", "version": "0.1.0"},
  "date": "2026-01-01T00:00:00Z",
  "host": "fixture",
  "devices": [
    {"backend": "opencl", "platform": "Portable Computing Language",
     "name": "pthread-fixture", "vendor": "Fixture", "driver": "3.1",
     "api_version": "", "arch": "OpenCL C 1.2 PoCL", "is_gpu": false,
     "compute_units": 2, "clock_mhz": 2596, "mem_clock_mhz": 0,
     "bus_width_bits": 0, "global_mem_bytes": 5103740928,
     "l2_bytes": 33554432, "local_mem_bytes": 1048576, "max_group_size": 4096,
     "warp_size": 0, "cache_name": "global memory cache",
     "theoretical_peak_gbs": null, "memcpy_gbs": null, "copy_kernel_gbs": null}
  ],
  "results": [
    {"backend": "opencl", "device": 0, "experiment": "vecadd", "family": "coarsening",
     "variant": "coarse1", "kernel": "vecadd", "params": "COARSE=1", "rows": 8, "cols": 8,
     "grid": [1, 1, 1], "block": [256, 1, 1], "reps": 1, "warmup": 0,
     "time_ms": {"median": 0.000631, "min": 0.000631, "max": 0.000631, "mean": 0.000631,
                 "stddev": 0.0, "spread": 0.0, "fastest_rep": 0, "slowest_rep": 0},
     "bytes": 768.0, "flops": 64.0, "accesses": 0.0, "unit": "GB/s",
     "value": 1.21711569, "value_best": 1.21711569, "verified": true,
     "host_ms": 0.529736, "verify_ms": 0.037746, "intensity": 0.0833333333,
     "roof_share": null, "slowdown": 1.0, "occupancy_blocks_per_unit": null,
     "threads_in_flight": null, "registers": null, "shared_bytes": 0, "private_bytes": 1024,
     "model": [{"label": "load",
                "pattern": {"space": "global", "word_bytes": 4, "stride": 1, "offset": 0,
                            "perm": "none", "perm_arg": 0, "spread": 0, "same": 0,
                            "tile_rows": 0, "tile_cols": 0, "pad": 0, "swizzle": 0,
                            "walk": "none", "walk_index": 0},
                "prediction": {"space": 0, "word_bytes": 4, "lanes": 32, "sectors": 4,
                               "segments": 1, "requested_bytes": 128, "unique_bytes": 128,
                               "transferred_bytes": 128, "efficiency": 1.0, "wavefronts": 1,
                               "ideal_wavefronts": 1, "ways": 1, "conflicts": 0,
                               "broadcast": 0},
                "summary": "4 sectors/req, 100.0% used"}]},
    {"backend": "opencl", "device": 0, "experiment": "vecadd", "family": "coarsening",
     "variant": "coarse2", "kernel": "vecadd", "params": "COARSE=2", "rows": 8, "cols": 8,
     "grid": [1, 1, 1], "block": [256, 1, 1], "reps": 1, "warmup": 0,
     "time_ms": {"median": 0.000691, "min": 0.000691, "max": 0.000691, "mean": 0.000691,
                 "stddev": 0.0, "spread": 0.0, "fastest_rep": 0, "slowest_rep": 0},
     "bytes": 768.0, "flops": 64.0, "accesses": 0.0, "unit": "GB/s",
     "value": 1.1114, "value_best": 1.1114, "verified": true,
     "host_ms": 0.5, "verify_ms": 0.03, "intensity": 0.0833333333,
     "roof_share": null, "slowdown": 1.09, "occupancy_blocks_per_unit": null,
     "threads_in_flight": null, "registers": null, "shared_bytes": 0, "private_bytes": 1024,
     "model": []}
  ],
  "comparisons": []
}
EOF
}

# hostile NAME SED-SCRIPT: good.json changed by one sed script.
hostile() { sed "$2" "$FIX/good.json" >"$FIX/$1.json"; }

make_saved_runs() {
    good_json >"$FIX/good.json"
    cp "$FIX/good.json" "$FIX/g$NU.json"
    : >"$FIX/empty.json"
    mkdir "$FIX/dir.json"
    echo 'this is not JSON' >"$FIX/text.json"
    head -c 700 "$FIX/good.json" >"$FIX/truncated.json"
    printf '\357\273\277' | cat - "$FIX/good.json" >"$FIX/bom.json"
    echo '[]' >"$FIX/array.json"
    echo '"simtbench-result/1"' >"$FIX/string.json"
    hostile foreign 's|"simtbench-result/1"|"other-tool/1"|'
    hostile schema9 's|"simtbench-result/1"|"simtbench-result/9"|'
    hostile noschema '/"schema"/d'
    hostile rows-huge 's/"rows": 8,/"rows": 1e300,/'
    hostile rows-neghuge 's/"rows": 8,/"rows": -1e300,/'
    hostile rows-negative 's/"rows": 8,/"rows": -8,/'
    hostile rows-string 's/"rows": 8,/"rows": "4096",/'
    hostile rows-bigint 's/"rows": 8,/"rows": 99999999999999999999,/'
    hostile cols-long 's/"cols": 8,/"cols": 9223372036854775807,/'
    hostile reps-huge 's/"reps": 1,/"reps": 1e300,/'
    hostile reps-zero 's/"reps": 1,/"reps": 0,/'
    hostile device-range 's/"device": 0,/"device": 7,/'
    hostile device-negative 's/"device": 0,/"device": -1,/'
    hostile device-real 's/"device": 0,/"device": 0.5,/'
    hostile median-string 's/"median": 0.000631,/"median": "0.1",/'
    hostile median-negative 's/"median": 0.000631,/"median": -1,/'
    hostile median-underflow 's/"median": 0.000631,/"median": 1e-400,/'
    hostile median-overflow 's/"median": 0.000631,/"median": 1e999,/'
    hostile median-nan 's/"median": 0.000631,/"median": NaN,/'
    hostile value-string 's/"value": 1.21711569,/"value": "NaN",/'
    hostile value-huge 's/"value": 1.21711569,/"value": -1e300,/'
    hostile fastest-negative 's/"fastest_rep": 0,/"fastest_rep": -1,/'
    hostile grid-negative 's/"grid": \[1, 1, 1\]/"grid": [-1, 1, 1]/'
    hostile grid-huge 's/"block": \[256, 1, 1\]/"block": [1e300, 1, 1]/'
    hostile ways-huge 's/"ways": 1,/"ways": 1e300,/'
    hostile cu-huge 's/"compute_units": 2,/"compute_units": 1e300,/'
    hostile mem-negative 's/"global_mem_bytes": 5103740928,/"global_mem_bytes": -5,/'
    hostile verified-string 's/"verified": true,/"verified": "yes",/'
    hostile unit-unknown 's|"unit": "GB/s",|"unit": "furlongs",|'
    hostile variant-number 's/"variant": "coarse1",/"variant": 1,/'
    hostile devices-object '/^  "devices": \[$/,/^  \],$/c\
  "devices": {"backend": "opencl", "name": "d"},'
    hostile results-numbers 's/^  "results": \[$/  "results": [1, 2, 3],"old": [/'
    hostile no-results '/^  "results": \[$/,/^  \],$/d'
    hostile zero-results 's/^  "results": \[$/  "results": [],"old": [/'
    hostile utf8 "s/\"coarse1\"/\"coarse$NU\"/"
    hostile nul-escape 's/"coarse1"/"coarse\\u0000x"/'
    hostile surrogate 's/"coarse1"/"coarse\\ud800"/'
    long=$(head -c 10000 /dev/zero | tr '\0' v)
    hostile long-variant "s/\"coarse1\"/\"$long\"/"
    make_unknown_members
    awk 'BEGIN { printf "{\"schema\": \"simtbench-result/1\", \"results\": []," ;
                 printf "\"devices\": [" ;
                 for (i = 0; i < 1000; i++)
                     printf "%s{\"backend\": \"opencl\", \"name\": \"d%d\"}", i ? "," : "", i ;
                 print "]}" }' >"$FIX/devices-1000.json"
    awk 'BEGIN { printf "{\"schema\": \"simtbench-result/1\", \"devices\": " ;
                 printf "[{\"backend\": \"opencl\", \"name\": \"d\"}], \"results\": [" ;
                 for (i = 0; i < 5000; i++)
                     printf "%s{\"backend\": \"opencl\", \"device\": 0, \"experiment\": " \
                            "\"vecadd\", \"variant\": \"v%d\", \"unit\": \"GB/s\", " \
                            "\"time_ms\": {\"median\": 0.5}}", i ? "," : "", i ;
                 print "]}" }' >"$FIX/results-5000.json"
    awk 'BEGIN { printf "{\"schema\": \"simtbench-result/1\", \"devices\": [], \"results\": " ;
                 for (i = 0; i < 100000; i++) printf "[" ;
                 for (i = 0; i < 100000; i++) printf "]" ;
                 print "}" }' >"$FIX/deep.json"
}

# unknown NAME VALUE: good.json with one more top-level member, "x": VALUE.
unknown() { hostile "$1" "s/^  \"comparisons\": \[\]\$/  \"comparisons\": [], \"x\": $2/"; }

# Saved runs with a member the reader does not know: one of 50 MB (numbers
# and a long string), valid and broken small ones, and a known field too
# large for memory under a limit.
make_unknown_members() {
    { head -n -2 "$FIX/good.json"
      printf '  "comparisons": [],\n  "unknown": {"numbers": ['
      yes '1.5,' | head -n 6000000
      printf '0], "text": "'
      head -c 20000000 /dev/zero | tr '\0' x
      printf '"}\n}\n'; } >"$FIX/unknown-50mb.json"
    line=$(grep -m1 '"params": "COARSE=1"' "$FIX/good.json")
    { sed -n '1,/"params": "COARSE=1"/p' "$FIX/good.json" | head -n -1
      printf '%s"' "${line%%\"COARSE=1\"*}"
      head -c 60000000 /dev/zero | tr '\0' y
      printf '"%s\n' "${line#*\"COARSE=1\"}"
      sed -n '/"params": "COARSE=1"/,$p' "$FIX/good.json" | sed 1d; } >"$FIX/params-60mb.json"
    unknown unknown-nested '{"a": [1, -0.5e+3, 0, true, false, null, "\\u00e9\\n\\\\"], "b": {}, "c": []}'
    unknown unknown-bad-number '[1, 2.]'
    unknown unknown-leading-zero '[01]'
    unknown unknown-nan '[NaN]'
    unknown unknown-literal '[tru]'
    unknown unknown-bad-escape '"a\\q"'
    unknown unknown-control "\"a$(printf '\t')b\""
    unknown unknown-bad-utf8 "\"a${NU}b\""
    unknown unknown-no-colon '{"a" 1}'
    unknown unknown-open '{"a": [1, 2}'
    head -c 2000 "$FIX/unknown-50mb.json" >"$FIX/unknown-truncated.json"
    deep=$(head -c 3000 /dev/zero | tr '\0' '[')$(head -c 3000 /dev/zero | tr '\0' ']')
    unknown unknown-deep "$deep"
    hostile median-bad 's/"median": 0.000631,/"median": 1.2.3,/'
}

# A folder holding one file under the OpenCL module's name.
module_dir() {
    mkdir "$FIX/$1"
    cat >"$FIX/$1/simtbench_opencl.so"
}

# set_byte FILE OFFSET OCTAL: overwrite one byte in place.
# shellcheck disable=SC2059
set_byte() { printf "\\$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null; }

# The damaged copies of the real module: cut short, of the 32-bit ELF class,
# for another machine (EM_AARCH64); and files that are no module at all.
make_modules() {
    module_dir mod-empty </dev/null
    echo 'INPUT(this is not a library)' | module_dir mod-text
    mkdir -p "$FIX/mod-directory/simtbench_opencl.so"
    mkdir "$FIX/mod-fifo" && mkfifo "$FIX/mod-fifo/simtbench_opencl.so"
    [ -n "$libm" ] && module_dir mod-nosymbol <"$libm"
    [ -r "$REAL_MODULE" ] || return 0
    head -c 4096 "$REAL_MODULE" | module_dir mod-truncated
    module_dir mod-class32 <"$REAL_MODULE"
    set_byte "$FIX/mod-class32/simtbench_opencl.so" 4 001
    module_dir mod-machine <"$REAL_MODULE"
    set_byte "$FIX/mod-machine/simtbench_opencl.so" 18 267
}

# ICD folders for OCL_ICD_VENDORS.
make_icds() {
    mkdir "$FIX/icd-empty" "$FIX/icd-missing" "$FIX/icd-text" "$FIX/icd-blank" "$FIX/icd-nosym"
    echo /nonexistent/libOpenCL-vendor.so >"$FIX/icd-missing/missing.icd"
    echo 'not a library' >"$FIX/icd-text/vendor.so"
    echo "$FIX/icd-text/vendor.so" >"$FIX/icd-text/text.icd"
    : >"$FIX/icd-blank/blank.icd"
    [ -n "$libm" ] && echo "$libm" >"$FIX/icd-nosym/libm.icd"
    # A vendor library that loads libcuda.so.1 by its bare soname, as
    # NVIDIA's OpenCL ICD does: the ICD loader dlopens the name the .icd
    # holds, so the dynamic loader searches LD_LIBRARY_PATH for it.
    mkdir "$FIX/icd-soname"
    echo libcuda.so.1 >"$FIX/icd-soname/driver.icd"
    # PoCL alone, for the rows about PoCL's compiler and kernel cache: on a
    # machine with a GPU's ICD beside it, --backend opencl takes the GPU.
    sb_pocl_icds "$FIX/icd-pocl"
}

# A gnuplot that writes whole images at once, for the rows that plot: with
# none installed, a run adds a note that the plots are data and scripts
# only, and the rows would count a second line.
make_gnuplot() {
    mkdir "$FIX/gnuplot"
    printf '%s\n' '#!/bin/sh' 'name=$(basename "$1" .gp)' \
        "printf '\\211PNG\\r\\n\\032\\n\\0\\0\\0\\0IEND\\256B\\140\\202' >\"\$name.png\"" \
        'printf "<svg></svg>\n" >"$name.svg"' >"$FIX/gnuplot/gnuplot"
    chmod +x "$FIX/gnuplot/gnuplot"
}

# Folders for LD_LIBRARY_PATH holding a libcuda.so.1 that is not a driver.
make_cuda_stubs() {
    mkdir "$FIX/cuda-stub" "$FIX/cuda-text" "$FIX/cuda-empty" "$FIX/cuda-nosym" "$FIX/cuda-fifo"
    mkfifo "$FIX/cuda-fifo/libcuda.so.1"
    stub=${CUDA_HOME:-/usr/local/cuda}/lib64/stubs/libcuda.so
    [ -r "$stub" ] && cp "$stub" "$FIX/cuda-stub/libcuda.so.1"
    echo 'not a library' >"$FIX/cuda-text/libcuda.so.1"
    : >"$FIX/cuda-empty/libcuda.so.1"
    [ -n "$libm" ] && cp "$libm" "$FIX/cuda-nosym/libcuda.so.1"
    return 0
}

# Kernel folders for SIMTBENCH_KERNEL_PATH with a damaged vecadd.cl.
make_kernels() {
    src=${SB_TOP_SRCDIR:-$here/../..}/common/kernels
    for k in kern-garbage kern-truncated kern-directory; do
        mkdir "$FIX/$k"
        cp "$src"/*.h "$FIX/$k/" 2>/dev/null
    done
    echo 'KERNEL void vecadd(GLOBAL float *x) { this is not C }' >"$FIX/kern-garbage/vecadd.cl"
    head -c 200 "$src/vecadd.cl" >"$FIX/kern-truncated/vecadd.cl"
    mkdir "$FIX/kern-directory/vecadd.cl"
}

# ------------------------------------------------------------- running

# The commands a row may use.  ENVARGS: the row's environment, for env(1).
sb() { env $ENVARGS timeout -k 5 $LIMIT "$SB" "$@"; }
# sig SIGNAL SECONDS ARGS: a run sent SIGNAL SECONDS after its first
# launch (the fault backend's "slow" fault marks it), or after SECONDS
# when nothing marks it within the time limit.
sig() {
    s=$1 t=$2
    shift 2
    rm -f .started
    # --foreground: timeout passes the signal to simtbench alone, once (to
    # its whole process group it would come twice, and a second signal
    # ends a stopping run at once).
    env $ENVARGS SB_FAULT_MARK="$PWD/.started" timeout --foreground -k 10 "$LIMIT" "$SB" "$@" &
    pid=$!
    waited=0
    while [ ! -e .started ] && [ $waited -lt $((LIMIT * 10)) ] && kill -0 $pid 2>/dev/null; do
        sleep 0.1
        waited=$((waited + 1))
    done
    sleep "$t"
    kill -s "$s" $pid 2>/dev/null
    wait $pid
}
# full ARGS: simtbench with ./full a tmpfs with no space left (in a mount
# namespace of its own) that holds what ./full held before; afterwards
# ./full holds what the tmpfs held, for the checks.
full() {
    mkdir -p full && mv full full.before && mkdir full full.after || return 99
    SB=$SB LIMIT=$LIMIT ENVARGS=$ENVARGS unshare $mount_ns sh -c '
        mount -t tmpfs -o size=64k tmpfs full || exit 99
        cp -a full.before/. full/
        cat /dev/zero >full/filler 2>/dev/null
        env $ENVARGS timeout -k 5 "$LIMIT" "$SB" "$@"
        rc=$?
        rm -f full/filler
        cp -a full/. full.after/
        exit $rc' full "$@"
    rc=$?
    rm -rf full full.before
    mv full.after full
    return $rc
}
# closed ARGS: simtbench with its standard output a pipe whose reader has
# gone (as `| head -1` once it has its line); simtbench's own status.  The
# reader reads nothing, so a row whose output comes at once must write more
# than a pipe holds (64 KiB) to be sure to meet it gone.
closed() {
    { sb "$@"; echo $? >.closed-rc; } | :
    rc=$(cat .closed-rc)
    rm -f .closed-rc
    return "$rc"
}
# sig_after SIGNAL ARGS: a run sent SIGNAL once it has had time to block
# where the row makes it block (a FIFO nobody opens).
sig_after() {
    s=$1
    shift
    env $ENVARGS timeout --foreground -k 10 "$LIMIT" "$SB" "$@" &
    pid=$!
    sleep 1
    kill -s "$s" $pid 2>/dev/null
    wait $pid
}
# fifo_sig SIGNAL ARGS: sig_after, simtbench reading in.json, a FIFO
# nobody writes.
fifo_sig() {
    mkfifo in.json || return 99
    sig_after "$@"
    rc=$?
    rm -f in.json
    return $rc
}
# rocache ARGS: simtbench with PoCL's kernel cache ./ro-cache, a read-only
# tmpfs (in a mount namespace of its own).
rocache() {
    mkdir ro-cache || return 99
    SB=$SB LIMIT=$LIMIT ENVARGS=$ENVARGS unshare $mount_ns sh -c '
        mount -t tmpfs -o ro,size=64k tmpfs ro-cache || exit 99
        env $ENVARGS POCL_CACHE_DIR="$PWD/ro-cache" timeout -k 5 "$LIMIT" "$SB" "$@"' rocache "$@"
    rc=$?
    rmdir ro-cache
    return $rc
}
# A tiny run on PoCL, for rows that must get as far as a device.
TINY='--backend opencl --experiment vecadd --variant coarse1 --size 8 --reps 1 --warmup 0 --quiet'
# A run of a second or more, of many short variants, for the signal rows.
LONG='--backend opencl --experiment vecadd --size 1024 --reps 400 --warmup 0 --quiet'

# The row's environment: "-", "fault=NAME" (the fault backend with that
# fault) or K=V items, comma-separated; $FIX and the like are expanded.
row_env() {
    ENVARGS=
    [ "$1" = - ] && return 0
    old=$IFS
    IFS=,
    for item in $1; do
        IFS=$old
        case $item in
        fault=*)
            ENVARGS="$ENVARGS SIMTBENCH_BACKEND_PATH=$FAULT_DIR SB_FAULT_REAL=$REAL_MODULE"
            ENVARGS="$ENVARGS SB_FAULT=${item#fault=}" ;;
        *) eval "ENVARGS=\"\$ENVARGS $item\"" ;;
        esac
    done
    IFS=$old
}

# Error lines: "simtbench: ..." or, from a command, "simtbench report: ...".
ERROR_LINE='^simtbench( [a-z]+)?:'
# The program's own error lines: a library's failed assert() is printed by
# the C library under the program's name too ("simtbench: file:line: ...
# Assertion `...' failed."), before the abort the program then reports
# in its one line; that line is the library's, not a second of ours.
simtbench_lines() { grep -E "$ERROR_LINE" "$tmp/io/err" | grep -Evc "Assertion .* failed\.\$"; }

# check_one CHECK: one of the checks a row lists; sets why on failure.
check_one() {
    arg=${1#*=}
    case $1 in
    1line) [ "$(simtbench_lines)" = 1 ] ||
        why="$(simtbench_lines) 'simtbench:' lines on stderr, expected 1" ;;
    err) [ "$(simtbench_lines)" -ge 1 ] || why="no 'simtbench:' line on stderr" ;;
    noout) [ ! -s "$tmp/io/out" ] || why="stdout is not empty" ;;
    out) [ -s "$tmp/io/out" ] || why="stdout is empty" ;;
    said=*) grep -qF -- "$arg" "$tmp/io/err" || why="stderr does not say '$arg'" ;;
    where=*) grep -qF -- "line ${arg%:*}, column ${arg#*:}" "$tmp/io/err" ||
        why="stderr does not give line ${arg%:*}, column ${arg#*:}" ;;
    unsaid=*) ! grep -qF -- "$arg" "$tmp/io/err" || why="stderr says '$arg'" ;;
    shows=*) grep -qF -- "$arg" "$tmp/io/out" || why="stdout does not show '$arg'" ;;
    reason) grep -E "$ERROR_LINE" "$tmp/io/err" | grep -Eqv ':[[:space:]]*$' ||
        why="the error line gives no reason" ;;
    keep=*) unchanged "$arg" || why="$arg was changed" ;;
    gone=*) [ ! -e "$arg" ] || why="$arg was left behind" ;;
    made=*) [ -s "$arg" ] || why="$arg was not written" ;;
    saved=*) readable_run "$arg" || why="$arg is not a saved run that report reads" ;;
    intr=*) readable_run "$arg" && grep -q '"interrupted": true' "$arg" ||
        why="$arg is not a saved run marked interrupted" ;;
    verified=*) [ "$(grep -c '"verified": true' "$tmp/io/out")" = "$arg" ] ||
        why="not $arg verified results on stdout" ;;
    nonan) ! grep -Eiq '(^|[^a-z])-?(nan|inf|infinity)([^a-z]|$)' "$tmp/io/out" ||
        why="stdout shows a NaN or infinite figure" ;;
    nointr=*) readable_run "$arg" && ! grep -q '"interrupted": true' "$arg" ||
        why="$arg is not a complete saved run (or is marked interrupted)" ;;
    results=*) f=${arg%%:*}
        [ "$(grep -c '"verified": true' "$f")" = "${arg#*:}" ] || why="$f does not hold ${arg#*:} results" ;;
    has=*) grep -qF -- "${arg#*:}" "${arg%%:*}" 2>/dev/null || why="${arg%%:*} does not hold '${arg#*:}'" ;;
    islink=*) [ -L "$arg" ] || why="$arg is no longer a symlink" ;;
    mode=*) [ "$(stat -c %a "${arg%%:*}")" = "${arg#*:}" ] || why="${arg%%:*} is not of mode ${arg#*:}" ;;
    nlink=*) [ "$(stat -c %h "${arg%%:*}")" = "${arg#*:}" ] || why="${arg%%:*} has not ${arg#*:} links" ;;
    owner=*) [ "$(stat -c %u:%g "${arg%%:*}")" = "${arg#*:}" ] || why="${arg%%:*} is not owned by ${arg#*:}" ;;
    nooverread) ! grep -Eq 'PPPPN|NNNNV|VVVVD|DDDDA|AAAAR' "$tmp/io/out" ||
        why="a device string was read past its field" ;;
    listbad=*) # the opencl line with the lines --list folded it onto (13 spaces)
        line=$(awk '/^  opencl / { l = $0; on = 1; next }
                    on && /^             [^ ]/ { sub(/^ +/, " "); l = l $0; next }
                    { on = 0 } END { print l }' "$tmp/io/out")
        case $line in
        *"available ("* | "") why="--list does not say the opencl module is damaged" ;;
        *"$arg"*) ;;
        *) why="--list does not name $arg" ;;
        esac ;;
    - | ocl | nocuda | cudastub | pocl | rofs | module | libm | tmpfs | vlimit | root) ;;
    *) why="unknown check '$1' in the table" ;;
    esac
}

# Whether FILE still holds exactly the line PRECIOUS that was put there.
unchanged() {
    [ -f "$1" ] && [ "$(wc -c <"$1")" -eq $((${#PRECIOUS} + 1)) ] &&
        [ "$(cat "$1")" = "$PRECIOUS" ]
}

# A saved run that `simtbench report` reads; "-" is stdout.
readable_run() {
    f=$1
    [ "$f" = - ] && f=$tmp/io/out
    [ -s "$f" ] && "$SB" report --format json "$f" >/dev/null 2>&1
}

# What a crash, an abort or a sanitizer leaves on stderr.
CRASH_WORDS='Segmentation|Bus error|Aborted|core dumped|Sanitizer|runtime error:'
CRASH_WORDS="$CRASH_WORDS|stack smashing|double free|free\(\):|malloc\(\):"

# Checks every row gets: status, no crash, no temporary left.
check_always() {
    why=
    if [ "$rc" -ge 124 ] && [ "$rc" -ne "$status" ]; then
        why="killed or timed out (exit $rc)"
    elif [ "$rc" -ne "$status" ]; then
        why="exit $rc, expected $status"
    fi
    if grep -Eq "$CRASH_WORDS" "$tmp/io/err"; then
        why="a crash or sanitizer report on stderr"
    fi
    [ -n "$why" ] && return
    left=$(find . -name '.*.??????' | head -n 1)
    [ -z "$left" ] || why="temporary file $left left behind"
    case $status in 2 | 3) nothing_written ;; esac
}

# A run refused (bad usage, no backend) writes nothing: the scratch
# directory holds only the row's keep= files.
nothing_written() {
    for f in * .[!.]* ..?*; do
        [ -e "$f" ] || continue
        case " $checks " in
        *" keep=$f "*) ;;
        *) why="$f was written by a refused run" ;;
        esac
    done
}

# Whether a row's preconditions hold (CHECKS ENV); else the reason to skip it.
skip_reason() {
    case $2 in fault=*)
        if [ ! -r "$FAULT_DIR/simtbench_opencl.so" ] || [ ! -r "$REAL_MODULE" ]; then
            echo "no fault backend or no OpenCL module built"
            return
        fi ;;
    esac
    for c in $1; do
        case $c in
        ocl) [ "$have_opencl" = 1 ] || { echo "no OpenCL device"; return; } ;;
        nocuda) [ "$have_cuda" = 0 ] || { echo "a CUDA device is present"; return; } ;;
        cudastub) [ -r "$FIX/cuda-stub/libcuda.so.1" ] || { echo "no CUDA stub library"; return; } ;;
        pocl) [ -n "$(ls "$FIX/icd-pocl")" ] ||
            { echo "PoCL's ICD is not registered in /etc/OpenCL/vendors (the row is about PoCL)"; return; } ;;
        rofs) [ "$have_rofs" = 1 ] ||
            { echo "a read-only tmpfs cannot be mounted, or is written all the same (the row needs a cache nobody can write)"; return; } ;;
        module) [ -r "$REAL_MODULE" ] || { echo "no OpenCL module built"; return; } ;;
        libm) [ -n "$libm" ] || { echo "no libm.so.6 found"; return; } ;;
        tmpfs) [ "$have_tmpfs" = 1 ] ||
            { echo "needs the privilege of a mount namespace for a tmpfs: root outside a chroot, or user namespaces"; return; } ;;
        # AddressSanitizer reserves terabytes of address space for its
        # shadow memory, so a process under ulimit -v cannot even start.
        root) [ "$(id -u)" = 0 ] || { echo "not root (chown to another owner)"; return; } ;;
        vlimit) case ${ASAN_OPTIONS-unset} in unset) ;; *) echo "ulimit -v and AddressSanitizer do not mix"; return ;; esac ;;
        esac
    done
}

# The head of a row's stderr and stdout, as TAP comments.
show_io() {
    sed 's/^/#   stderr: /' "$tmp/io/err" | head -n "$1"
    sed 's/^/#   stdout: /' "$tmp/io/out" | head -n "$1"
}

# run_row ID STATUS CHECKS ENV COMMAND TODO
run_row() {
    id=$1 status=$2 env=$4 cmd=$5 todo=$6
    eval "checks=\"$3\""
    checks=$(printf '%s' "$checks" | tr ',' ' ')
    n=$((n + 1))
    desc=$(printf '%s: %s [exit %s]' "$id" "$cmd" "$status" | tr '#' '_')
    skip=$(skip_reason "$checks" "$env")
    if [ -n "$skip" ]; then
        echo "ok $n - $desc # SKIP $skip"
        return
    fi
    dir=$tmp/case/$n
    mkdir -p "$dir"
    cd "$dir" || exit 99
    for c in $checks; do
        case $c in keep=*)
            mkdir -p "$(dirname "${c#keep=}")"
            printf '%s\n' "$PRECIOUS" >"${c#keep=}" ;;
        esac
    done
    row_env "$env"
    (eval "$cmd") >"$tmp/io/out" 2>"$tmp/io/err" </dev/null
    rc=$?
    why=
    check_always
    for c in $checks; do
        [ -n "$why" ] || check_one "$c"
    done
    cd "$tmp" || exit 99
    if [ -z "$why" ]; then
        echo "ok $n - $desc${todo:+ # TODO $todo}"
    else
        echo "not ok $n - $desc: $why${todo:+ # TODO $todo}"
        [ -n "$todo" ] || [ -n "${SB_FAULT_VERBOSE-}" ] || show_io 5
    fi
    [ -z "${SB_FAULT_VERBOSE-}" ] || show_io 20
    chmod -R u+rwx "$dir" 2>/dev/null
    rm -rf "$dir"
}

# Rows: ID STATUS CHECKS ENV COMMAND [# TODO REASON]; blank lines and
# lines starting with '#' are comments.
# The table's rows (SB_FAULT_ONLY: those whose id contains it; SB_FAULT_PART
# 1 or 2: every other one, so that two scripts run the halves side by side).
rows() {
    grep -v '^[[:space:]]*\(#\|$\)' "$TABLE" |
        awk -v only="${SB_FAULT_ONLY-}" -v part="${SB_FAULT_PART:-0}" \
            '(only == "" || index($1, only) > 0) && (part == 0 || NR % 2 == part % 2)'
}

# A shared library that is not a backend, an ICD or a driver.
find_libm() {
    libm=$(ldd "$SB" 2>/dev/null | sed -n 's/^.*libm\.so\.6 => \([^ ]*\) .*$/\1/p')
    for f in "$libm" /lib/x86_64-linux-gnu/libm.so.6 /lib64/libm.so.6 /usr/lib/libm.so.6; do
        [ -r "$f" ] && { libm=$f; return 0; }
    done
    libm=
}

find_libm
make_saved_runs
make_modules
make_icds
make_cuda_stubs
make_kernels
make_gnuplot
have_opencl=0
"$SB" --list 2>/dev/null | grep -q '^  opencl   available' && have_opencl=1
# A mount namespace of our own: root makes one directly (a user namespace
# is refused inside a chroot, as in scripts/fresh-debian.sh's root); anyone
# else through a user namespace, where the kernel allows them.
have_tmpfs=0
mkdir "$tmp/probe"
for mount_ns in -m -rm; do
    unshare $mount_ns sh -c 'mount -t tmpfs -o size=4k tmpfs "$0"' "$tmp/probe" 2>/dev/null &&
        { have_tmpfs=1; break; }
done
# Whether a read-only tmpfs refuses a write, root's too (rocache).
have_rofs=0
[ "$have_tmpfs" = 1 ] && unshare $mount_ns sh -c '
    mount -t tmpfs -o ro,size=4k tmpfs "$0" || exit 1
    ! mkdir "$0/probe" 2>/dev/null' "$tmp/probe" && have_rofs=1
have_cuda=0
"$SB" --list 2>/dev/null | grep -q '^  cuda     available' && have_cuda=1

echo "1..$(rows | wc -l | tr -d ' ')"
n=0
cd "$tmp" || exit 99
rows | while read -r id status checks env cmd; do
    todo=
    case $cmd in *' # TODO '*)
        todo=${cmd#*' # TODO '}
        cmd=${cmd%%' # TODO '*} ;;
    esac
    run_row "$id" "$status" "$checks" "$env" "$cmd" "$todo"
done
exit 0
