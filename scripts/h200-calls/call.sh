#!/bin/bash
# What every device call below shares: from the repository root of the
# device machine's copy (the `make dist` tarball at .carry/simtbench-*.tar.gz,
# Debian's libraries unpacked at .carry/sysroot), the tarball's own
# scripts/gpu-run.sh over the steps the call names, stopped at 525 s so
# that the call (under 9 minutes on the H200) always returns its summary;
# then the summary and at most 8 files into $OUT, and the status.
#
#   . scripts/h200-calls/call.sh; sb_call NAME FILE...
#
# SB_STEPS and the step's other variables come from the caller; FILE are
# paths inside the run's OUTDIR (a missing one is left out).
sb_call() { # NAME FILE...
    local name=$1 R=$PWD T o st f
    shift
    T=$(ls "$R"/.carry/simtbench-*.tar.gz | head -1)
    o=/tmp/sb-$name
    rm -rf "$o" /tmp/sb-u && mkdir -p "$o" /tmp/sb-u || return 1
    tar -xzf "$T" -C /tmp/sb-u || { echo "cannot unpack $T"; return 1; }
    export SB_SYSROOT=$R/.carry/sysroot
    timeout "${SB_CALL_LIMIT:-525}" bash /tmp/sb-u/simtbench-*/scripts/gpu-run.sh "$T" "$o" \
        >"$o/gpu-run.log" 2>&1
    st=$?
    echo "gpu-run status $st" >>"$o/summary.txt"
    cp "$o/summary.txt" "$OUT/$name-summary.txt"
    for f in "$@"; do
        [ -f "$o/$f" ] && cp "$o/$f" "$OUT/$name-$(echo "$f" | tr '/' '-')"
    done
    cat "$o/summary.txt"
    tail -c 1500 "$o/gpu-run.log"
    echo "gpu-run status $st ($name)"
    return $st
}
