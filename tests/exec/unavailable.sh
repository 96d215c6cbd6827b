#!/bin/sh
# A default run (no --backend) names every backend this simtbench has but
# that cannot run, with the registry's reason: in the report (the JSON's
# "unavailable", the Markdown header) and in one note on stderr, which
# --quiet and a report on a terminal (its header names them) leave out.
# A missing module's reason names the folders searched and what brings
# it; with no backend left, one line gives every reason, PoCL's
# unwritable kernel cache among them.  TAP output.
SB=${SIMTBENCH:-./simtbench}
BUILD=${SB_TOP_BUILDDIR:-.}
case $BUILD in /*) ;; *) BUILD=$(pwd)/$BUILD ;; esac
PKGLIBDIR=${SB_PKGLIBDIR:-/usr/local/lib/simtbench}
n=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
check() {
    if eval "$2"; then ok "$1"; else
        not_ok "$1"
        sed "s|^|# |" "$tmp/out" "$tmp/err" 2>/dev/null | head -30
    fi
}

# run [VAR=VALUE...] PROGRAM ARGS: stdout to $tmp/out, stderr to $tmp/err,
# the status in $rc.  $RUN: a tiny default run's arguments.
RUN='-e vecadd --variant coarse1 --size 8 --reps 1 --warmup 0'
run() { env "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
# has FILE TEXT: FILE has a line that is exactly TEXT.
has() { grep -qxF -- "$2" "$1"; }

echo "1..10"

"$SB" --list >"$tmp/list" 2>/dev/null
pocl=/etc/OpenCL/vendors/pocl.icd
opencl=0
grep -q "^  opencl   available" "$tmp/list" && opencl=1
cuda_built=1
grep -q "^  cuda .*module simtbench_cuda.so is not installed" "$tmp/list" && cuda_built=0

# A libcuda.so.1 that is no library, first on the loader's path: the CUDA
# backend is built but cannot run, on any machine.
mkdir "$tmp/lib"
echo 'not a library' >"$tmp/lib/libcuda.so.1"
damaged="CUDA driver libcuda.so.1 is damaged: $tmp/lib/libcuda.so.1 (not an ELF file); reinstall the NVIDIA driver"
BAD_DRIVER="LD_LIBRARY_PATH=$tmp/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
if [ $cuda_built = 1 ] && [ $opencl = 1 ]; then
    run "$BAD_DRIVER" "$SB" $RUN -f json -q
    check "cuda built, its driver damaged: the JSON names it with the reason" \
        '[ $rc -eq 0 ] && has "$tmp/out" "    {\"backend\": \"cuda\", \"reason\": \"$damaged\"}" &&
         [ "$(grep -c "\"backend\": \"cuda\"" "$tmp/out")" -eq 1 ]'
    check "--quiet: no note on stderr" '[ $rc -eq 0 ] && [ ! -s "$tmp/err" ]'
    run "$BAD_DRIVER" "$SB" $RUN -f json -o "$tmp/r.json" --save "$tmp/s.json"
    check "a report to a file: one note on stderr naming the backend and its reason" \
        '[ $rc -eq 0 ] && has "$tmp/err" "simtbench: note: cuda is left out: $damaged" &&
         [ "$(grep -c "^simtbench: note:" "$tmp/err")" -eq 1 ]'
    run "$SB" report -f markdown "$tmp/s.json"
    check "the saved run keeps it: report -f markdown names it under the devices" \
        '[ $rc -eq 0 ] && has "$tmp/out" "- cuda: $damaged"'
    if command -v script >/dev/null 2>&1; then
        env "$BAD_DRIVER" script -qec "$SB $RUN" /dev/null >"$tmp/out" 2>&1 </dev/null
        rc=$?
        check "the report on a terminal: no note (its header names the backend)" \
            '[ $rc -eq 0 ] && ! grep -q "simtbench: note:" "$tmp/out"'
    else
        skip "no script(1) to give the run a terminal"
    fi
else
    for i in 1 2 3 4 5; do skip "the CUDA module is not built, or no OpenCL device"; done
fi

# This machine as it is: where CUDA cannot run, the JSON gives the very
# reason --list gives.
reason=$(sed -n 's/^  cuda     unavailable: //p' "$tmp/list")
if [ -n "$reason" ] && [ $cuda_built = 1 ] && [ $opencl = 1 ]; then
    run "$SB" $RUN -f json -q
    check "cuda unusable here: the JSON's reason is the one --list gives" \
        '[ $rc -eq 0 ] && has "$tmp/out" "    {\"backend\": \"cuda\", \"reason\": \"$reason\"}"'
else
    skip "the CUDA backend runs here, is not built, or there is no OpenCL device"
fi

# The program copied away from the build tree finds no CUDA module beside
# it: built, but not installed.
if [ $cuda_built = 1 ] && [ $opencl = 1 ] && [ ! -e "$PKGLIBDIR/simtbench_cuda.so" ]; then
    mkdir "$tmp/bin"
    cp "$SB" "$tmp/bin/simtbench"
    # A packaged build (configure --with-backend-packages) names the package.
    hint="this simtbench was built with it: make install, or set SIMTBENCH_BACKEND_PATH to the folder that holds it"
    package=$(printf '%s\n' "${SB_BACKEND_PACKAGES:-}" | tr ',' '\n' | sed -n 's/^cuda://p')
    [ -n "$package" ] && hint="install the package $package"
    missing="the cuda backend module simtbench_cuda.so is not installed: looked in $BUILD/opencl/.libs, $PKGLIBDIR, $tmp/bin/cuda/.libs ($hint)"
    run SIMTBENCH_BACKEND_PATH="$BUILD/opencl/.libs" "$tmp/bin/simtbench" $RUN -f json -q
    check "a missing module: the JSON's reason names the folders searched and make install" \
        '[ $rc -eq 0 ] && has "$tmp/out" "    {\"backend\": \"cuda\", \"reason\": \"$missing\"}"'
    run SIMTBENCH_BACKEND_PATH="$BUILD/opencl/.libs" "$tmp/bin/simtbench" --list
    # --list folds a long reason onto lines indented 13 spaces: joined again.
    awk '/^             [^ ]/ && n { sub(/^ +/, " "); l = l $0; next }
        { if (n) print l; l = $0; n = 1 } END { if (n) print l }' "$tmp/out" >"$tmp/joined"
    check "a missing module: --list gives the same reason" \
        '[ $rc -eq 0 ] && has "$tmp/joined" "  cuda     unavailable: $missing"'
else
    skip "the CUDA module is not built, no OpenCL device, or one is installed in $PKGLIBDIR"
    skip "the CUDA module is not built, no OpenCL device, or one is installed in $PKGLIBDIR"
fi

# Nothing left to run on: one line with every backend's reason.
if [ $cuda_built = 1 ] && [ -r "$pocl" ] && [ $opencl = 1 ]; then
    cache_hint="OpenCL platforms found, but none has a device: PoCL needs a writable kernel cache: set POCL_CACHE_DIR or XDG_CACHE_HOME to a writable directory"
    run "$BAD_DRIVER" OCL_ICD_VENDORS="$pocl" POCL_CACHE_DIR=/proc/simtbench-no-cache \
        "$SB" $RUN -f json
    check "no backend left, PoCL's cache unwritable: exit 3, one line with both reasons" \
        '[ $rc -eq 3 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
         has "$tmp/err" "simtbench: no backend is available: cuda: $damaged; opencl: $cache_hint (now: /proc/simtbench-no-cache)"'
    run "$BAD_DRIVER" OCL_ICD_VENDORS="$pocl" POCL_CACHE_DIR= "$SB" $RUN -f json
    check "no backend left, POCL_CACHE_DIR empty: no crash, the cache hint says so" \
        '[ $rc -eq 3 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
         has "$tmp/err" "simtbench: no backend is available: cuda: $damaged; opencl: $cache_hint (now: POCL_CACHE_DIR is set but empty)"'
else
    skip "the CUDA module is not built, or PoCL is not registered or has no device"
    skip "the CUDA module is not built, or PoCL is not registered or has no device"
fi
exit $failed
