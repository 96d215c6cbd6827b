#!/bin/sh
# A saved run is untrusted: names with terminal controls in them (ESC[2J,
# an OSC title, \r, \n, \b, BEL, a C1 CSI, invalid UTF-8) must reach no
# terminal raw.  tests/fixtures/hostile-names.json holds such experiment,
# variant, kernel, device, driver and host names; report, compare and
# merge (tables and markdown, and the error of a run given twice) are run
# on it and their stdout and stderr searched for a raw control byte; so are
# errors that quote a file or variant name with controls.  No device is
# needed.  TAP output.
SB=${SIMTBENCH:-./simtbench}
top=${SB_TOP_SRCDIR:-.}
hostile=$top/tests/fixtures/hostile-names.json
n=0 failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset COLUMNS

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; failed=1; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }

# raw FILE: FILE holds a control byte other than newline, a C1 control
# (U+0080..U+009F as UTF-8) or bytes that are not UTF-8.
raw() {
    LC_ALL=C tr -d '\n' <"$1" | LC_ALL=C grep -q '[[:cntrl:]]' && return 0
    LC_ALL=C grep -q "$(printf '\302[\200-\237]')" "$1" && return 0
    ! iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1
}

# clean LABEL STATUS ARGS...: simtbench ARGS exits STATUS, and neither its
# stdout nor its stderr holds a raw control byte.
clean() {
    label=$1 want=$2
    shift 2
    "$SB" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    check "$label: exit $want, nothing raw on stdout or stderr" \
        '[ $rc -eq $want ] && ! raw "$tmp/out" && ! raw "$tmp/err"'
}

echo "1..15"
check "the fixture holds the controls it is meant to" \
    'grep -q "u001b\[2J" "$hostile" && grep -q "\\\\r" "$hostile" && grep -q "u009b" "$hostile" &&
     grep -q "u0007" "$hostile" && grep -q "\\\\b" "$hostile"'
clean "report" 0 report "$hostile"
check "report shows the escapes in their place" \
    'grep -q "^trans\\\\x1B\[2Jpose  8192 x 8192" "$tmp/out" && grep -q "NVIDIA\\\\x1B\[2J H200\\\\r" "$tmp/out"'
clean "report --format markdown" 0 report --format markdown "$hostile"
clean "compare --all" 0 compare --all "$hostile" "$hostile"
check "compare shows the names escaped" \
    'grep -q "x\\\\x08x\\\\x07bell" "$tmp/out" && grep -q "csi\\\\u009B31m" "$tmp/out"'
clean "compare against a run without the names" 0 compare \
    "$top/tests/fixtures/compare-long-names-old.json" "$hostile"
clean "compare --format markdown" 0 compare --all --format markdown "$hostile" "$hostile"
clean "merge -o (its report on stdout)" 0 merge -o "$tmp/merged.json" "$hostile"
clean "merge of a run given twice (the error names its host)" 2 merge "$hostile" "$hostile"
# Bytes that are not UTF-8 make the file invalid JSON: refused, and said
# without them.
sed 's/tiled\\rEVIL/ti\xffled/' "$hostile" >"$tmp/not-utf8.json"
clean "report of a run with bytes that are not UTF-8" 5 report "$tmp/not-utf8.json"
clean "compare of a run with bytes that are not UTF-8" 5 compare "$tmp/not-utf8.json" "$hostile"
# Errors that quote a name the user gave.
esc=$(printf '\033')
clean "report of a file whose name holds ESC (the error quotes it)" 5 report "$tmp/no${esc}[2Jfile.json"
clean "model --variant with ESC in the name" 2 model --variant "tr${esc}[2Jans/x"
clean "compare of a file whose name holds a newline" 5 compare "$tmp/a
b.json" "$hostile"
exit $failed
