#!/bin/sh
# What the backends say when they cannot run, as `simtbench --list` shows
# it: a damaged libcuda.so.1 on the library path is named instead of
# crashing the process; past a driver (a stub, built for the tests, with
# one device), the NVRTC the CUDA module opens at run time is named when
# SIMTBENCH_NVRTC points at nothing or at a damaged file; the OpenCL module
# says where it looked for ICDs, PoCL's unwritable (or empty) kernel cache
# is named with the variables to set, and only where it is the cause, and
# PoCL's version string is shown whole.  TAP output.
SB=${SIMTBENCH:-./simtbench}
n=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; sed "s|^|# |" "$tmp/out" "$tmp/err" 2>/dev/null | head -20; fi; }

# list [VAR=VALUE...]: `simtbench --list` in that environment; its
# backends' lines into $tmp/out, each with the lines it was folded into
# (indented 13 spaces) joined again, the status in $rc.
unfold() { awk '/^             [^ ]/ && n { sub(/^ +/, " "); l = l $0; next }
    { if (n) print l; l = $0; n = 1 } END { if (n) print l }'; }
list() { env "$@" "$SB" --list >"$tmp/all" 2>"$tmp/err"; rc=$?; sed -n '/^Backends/,$p' "$tmp/all" | unfold >"$tmp/out"; }

echo "1..12"

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
        '[ $rc -eq 0 ] && grep -q "^  cuda     unavailable: .*damaged: $tmp/lib/libcuda.so.1 (" "$tmp/out"'
    LD_LIBRARY_PATH="$tmp/lib" "$SB" --backend cuda --experiment transpose --size 64 \
        >"$tmp/run" 2>"$tmp/err"
    rc=$?
    check "a truncated libcuda.so.1: --backend cuda exits 3 with one line naming it" \
        '[ $rc -eq 3 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "damaged: " "$tmp/err"'
else
    skip "the CUDA module is not built, or no C library to cut"
    skip "the CUDA module is not built, or no C library to cut"
fi

# The stub driver answers the device queries and runs nothing.
stub=${SB_TOP_BUILDDIR:-.}/tests/backends/.libs/libcuda_stub.so
if [ $cuda_built = 1 ] && [ -r "$stub" ] && [ -r "$libc" ]; then
    mkdir "$tmp/stub"
    cp "$stub" "$tmp/stub/libcuda.so.1"
    list LD_LIBRARY_PATH="$tmp/stub" SIMTBENCH_NVRTC="$tmp/none/libnvrtc.so.13"
    check "a driver, SIMTBENCH_NVRTC naming no file: the cuda backend names the variable and the file" \
        '[ $rc -eq 0 ] && grep -q "^  cuda     unavailable: NVRTC from SIMTBENCH_NVRTC=$tmp/none/libnvrtc.so.13 could not be loaded: " "$tmp/out"'
    head -c 100000 "$libc" >"$tmp/libnvrtc.so.13"
    list LD_LIBRARY_PATH="$tmp/stub" SIMTBENCH_NVRTC="$tmp/libnvrtc.so.13"
    check "a driver, a truncated NVRTC in SIMTBENCH_NVRTC: named damaged, no crash" \
        '[ $rc -eq 0 ] && grep -q "^  cuda     unavailable: NVRTC from SIMTBENCH_NVRTC=.*damaged: $tmp/libnvrtc.so.13 (truncated" "$tmp/out"'
    list LD_LIBRARY_PATH="$tmp/stub"
    check "a driver: the cuda backend lists its device, or says which NVRTC it looked for" \
        'grep -q "^           platform 0 device 0: simtbench test stub \[NVIDIA CUDA\]" "$tmp/out" ||
         grep -q "^  cuda     unavailable: NVRTC not found: looked for libnvrtc.so.13, .*set SIMTBENCH_NVRTC to its path" "$tmp/out"'
    if grep -q "^           platform 0 device 0: simtbench test stub" "$tmp/out"; then
        # The stub's driver gives "0000:3B:00.0" and the bytes 0x10..0x1f.
        check "a driver: the device's PCI address as lspci writes it, and its UUID" \
            'grep -q "simtbench test stub .*, PCI 0000:3b:00.0, UUID 10111213-1415-1617-1819-1a1b1c1d1e1f$" "$tmp/out"'
    else
        skip "no NVRTC here, so the stub device is not listed"
    fi
else
    skip "the CUDA module or the stub driver is not built"
    skip "the CUDA module or the stub driver is not built"
    skip "the CUDA module or the stub driver is not built"
    skip "the CUDA module or the stub driver is not built"
fi

mkdir "$tmp/vendors"
list OCL_ICD_VENDORS="$tmp/vendors"
check "OCL_ICD_VENDORS with no ICD: the reason names OCL_ICD_VENDORS, not /etc/OpenCL/vendors" \
    '[ $rc -eq 0 ] && grep -q "^  opencl   unavailable: no OpenCL platform: no ICD loaded from OCL_ICD_VENDORS=$tmp/vendors " "$tmp/out"'

if [ -n "$pocl" ]; then
    hint="OpenCL platforms found, but none has a device: PoCL needs a writable kernel cache: set POCL_CACHE_DIR or XDG_CACHE_HOME to a writable directory"
    list OCL_ICD_VENDORS="$pocl" POCL_CACHE_DIR=/proc/simtbench-no-cache
    check "PoCL with an unwritable kernel cache: the reason names it and the variables to set" \
        '[ $rc -eq 0 ] && grep -qxF "  opencl   unavailable: $hint (now: /proc/simtbench-no-cache)" "$tmp/out"'
    list OCL_ICD_VENDORS="$pocl" POCL_CACHE_DIR= XDG_CACHE_HOME=/dev/null/cache
    check "PoCL with POCL_CACHE_DIR empty (PoCL would abort): the hint says it is empty" \
        '[ $rc -eq 0 ] && grep -qxF "  opencl   unavailable: $hint (now: POCL_CACHE_DIR is set but empty)" "$tmp/out"'
    list OCL_ICD_VENDORS="$pocl" POCL_DEVICES=simtbench-no-such-device
    check "PoCL with no device but a writable cache: no cache hint, the platform named" \
        '[ $rc -eq 0 ] && grep -qxF "  opencl   unavailable: OpenCL platforms found (Portable Computing Language), but none has a device" "$tmp/out"'
    list OCL_ICD_VENDORS="$pocl"
    check "PoCL's version string, longer than 63 characters, is shown whole" \
        'grep -q "\[Portable Computing Language\] OpenCL [0-9.]* PoCL .\{40,\}, driver " "$tmp/out"'
else
    for i in 1 2 3 4; do skip "PoCL is not registered or has no device"; done
fi

list OCL_ICD_VENDORS="$tmp/vendors" LD_LIBRARY_PATH="$tmp/vendors"
check "no backend line has an empty reason" '! grep -q "unavailable: *$" "$tmp/out"'
exit $failed
