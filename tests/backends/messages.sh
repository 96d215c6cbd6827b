#!/bin/sh
# What the backends say when they cannot run, as `simtbench --list` shows
# it: a damaged libcuda.so.1 on the library path is named instead of
# crashing the process, the OpenCL module says where it looked for ICDs,
# PoCL's unwritable kernel cache is named, and PoCL's version string is
# shown whole.  TAP output.
SB=${SIMTBENCH:-./simtbench}
n=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }

# list [VAR=VALUE...]: `simtbench --list` in that environment; its
# backends' lines into $tmp/out, the status in $rc.
list() { env "$@" "$SB" --list >"$tmp/all" 2>"$tmp/err"; rc=$?; sed -n '/^Backends/,$p' "$tmp/all" >"$tmp/out"; }

echo "1..6"

list
cuda_built=1
grep -q "^  cuda .*module simtbench_cuda.so is not installed" "$tmp/out" && cuda_built=0
pocl=/etc/OpenCL/vendors/pocl.icd
[ -r "$pocl" ] && grep -q "^  opencl   available" "$tmp/out" || pocl=

# Half of the C library, named as the driver: dlopen would map it past
# its end and die of SIGBUS.
libc=$(ldd "$SB" 2>/dev/null | awk '/libc\.so/ { print $3; exit }')
if [ $cuda_built = 1 ] && [ -r "$libc" ]; then
    mkdir "$tmp/lib"
    size=$(wc -c <"$libc")
    head -c $((size / 2)) "$libc" >"$tmp/lib/libcuda.so.1"
    list LD_LIBRARY_PATH="$tmp/lib"
    check "a truncated libcuda.so.1: --list exits 0, the cuda backend names the damaged file" \
        '[ $rc -eq 0 ] && grep -q "^  cuda     unavailable: .*damaged: $tmp/lib/libcuda.so.1 (truncated: " "$tmp/out"'
    LD_LIBRARY_PATH="$tmp/lib" "$SB" --backend cuda --experiment transpose --size 64 \
        >"$tmp/run" 2>"$tmp/err"
    rc=$?
    check "a truncated libcuda.so.1: --backend cuda exits 3 with one line naming it" \
        '[ $rc -eq 3 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "damaged: " "$tmp/err"'
else
    skip "the CUDA module is not built, or no C library to cut"
    skip "the CUDA module is not built, or no C library to cut"
fi

mkdir "$tmp/vendors"
list OCL_ICD_VENDORS="$tmp/vendors"
check "OCL_ICD_VENDORS with no ICD: the reason names OCL_ICD_VENDORS, not /etc/OpenCL/vendors" \
    '[ $rc -eq 0 ] && grep -q "^  opencl   unavailable: no OpenCL platform: no ICD loaded from OCL_ICD_VENDORS=$tmp/vendors " "$tmp/out"'

if [ -n "$pocl" ]; then
    list OCL_ICD_VENDORS="$pocl" POCL_CACHE_DIR=/proc/simtbench-no-cache
    check "PoCL with an unwritable kernel cache: the reason names it and the variables to set" \
        '[ $rc -eq 0 ] && grep -q "PoCL cannot write its kernel cache folder /proc/simtbench-no-cache (set XDG_CACHE_HOME or POCL_CACHE_DIR" "$tmp/out"'
    list OCL_ICD_VENDORS="$pocl"
    check "PoCL's version string, longer than 63 characters, is shown whole" \
        'grep -q "\[Portable Computing Language\] OpenCL [0-9.]* PoCL .\{40,\}, driver " "$tmp/out"'
else
    skip "PoCL is not registered or has no device"
    skip "PoCL is not registered or has no device"
fi

list OCL_ICD_VENDORS="$tmp/vendors" LD_LIBRARY_PATH="$tmp/vendors"
check "no backend line has an empty reason" '! grep -q "unavailable: *$" "$tmp/out"'
exit $failed
