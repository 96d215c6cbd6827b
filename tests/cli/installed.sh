#!/bin/sh
# An installed simtbench finds its own backend modules and kernels, with no
# SIMTBENCH_* variable to help it.  Run by `make installcheck` (and so by
# `make distcheck`) and by the Debian autopkgtest:
#
#   installed.sh BINDIR PKGLIBDIR KERNELDIR [BACKEND...]
#
# BACKENDs are those that must be installed (cuda, opencl).  A backend whose
# module is installed but has no driver or device here is reported and its
# run skipped; a module missing from PKGLIBDIR, or loaded from anywhere else,
# is a failure.  TAP output; exits non-zero when a check fails.
if [ $# -lt 3 ]; then
    echo "usage: $0 BINDIR PKGLIBDIR KERNELDIR [BACKEND...]" >&2
    exit 2
fi
bindir=$1 pkglibdir=$2 kerneldir=$3
shift 3
unset SIMTBENCH_BACKEND_PATH SIMTBENCH_KERNEL_PATH SIMTBENCH

n=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }

sb=$bindir/simtbench
check "$sb is installed and executable" '[ -x "$sb" ]'

"$sb" --version >"$tmp/version" 2>&1
check "simtbench --version runs" '[ $? -eq 0 ] && grep -q "^simtbench " "$tmp/version"'

for f in prelude_cuda.h prelude_opencl.h transpose.cl; do
    check "kernel file $f is installed in $kerneldir" '[ -r "$kerneldir/$f" ]'
done

"$sb" --list >"$tmp/list" 2>"$tmp/err"
rc=$?
check "simtbench --list exits 0" '[ $rc -eq 0 ]'
sed 's/^/# /' "$tmp/list"

for b in "$@"; do
    module=$pkglibdir/simtbench_$b.so
    check "the $b module is installed as $module" '[ -r "$module" ]'
    # The backend's line, with the lines --list folded it into (indented
    # 13 spaces; a path is cut, not moved) joined again.
    line=$(awk -v b="  $b " 'index($0, b) == 1 { l = $0; on = 1; next }
        on && /^             [^ ]/ { sub(/^ +/, ""); l = l $0; next }
        on { exit } END { print l }' "$tmp/list")
    case $line in
    *" available ($module)")
        ok "--list loads the $b module from $pkglibdir"
        ;;
    *" available ("*)
        not_ok "--list loads the $b module from $pkglibdir, not from: $line"
        continue
        ;;
    *"is not installed"* | *"cannot load"* | *"exports no"* | *"backend ABI"*)
        not_ok "the installed $b module loads: $line"
        continue
        ;;
    *)
        skip "the $b backend has no driver here:${line#*unavailable:}"
        skip "no $b device for a run"
        continue
        ;;
    esac
    "$sb" --backend "$b" --experiment transpose --size 32 --reps 1 --quiet \
        >"$tmp/out" 2>"$tmp/err"
    rc=$?
    check "a 32x32 transpose on $b runs from the installed kernels, verified (exit 0)" \
        '[ $rc -eq 0 ] && grep -q "every row verified" "$tmp/out"'
    [ $rc -eq 0 ] || sed 's/^/# /' "$tmp/err"
done

echo "1..$n"
exit $failed
