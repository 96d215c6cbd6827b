#!/bin/sh
# The manual page keeps up with the program: every long option that
# `simtbench --help` (and each subcommand's --help) prints is mentioned in
# doc/simtbench.1, and every exit status of --help is there with its text.
# TAP output; the plan comes last because the option count is not fixed.
SB=${SIMTBENCH:-./simtbench}
MAN=${srcdir:-.}/doc/simtbench.1
n=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }

if [ ! -r "$MAN" ]; then
    echo "Bail out! $MAN not found"
    exit 1
fi

# The page as plain text, one line: comments and layout macros gone, the
# arguments of font macros kept (.BR and friends join theirs as roff does:
# quoted arguments keep their spaces, the others are glued together).
awk '
    function args(line,    out, q, c, i) {
        out = ""; q = 0
        for (i = 1; i <= length(line); i++) {
            c = substr(line, i, 1)
            if (c == "\"") q = !q
            else if (c != " " || q) out = out c
        }
        return out
    }
    /^\.\\"/ { next }
    /^\.(BR|RB|BI|IB|IR|RI)( |$)/ { sub(/^\.[A-Z]+ */, ""); print args($0); next }
    /^\.(B|I|SH|SS|OP)( |$)/ { sub(/^\.[A-Z]+ */, ""); gsub(/"/, ""); print; next }
    /^\./ { next }
    { print }
' "$MAN" | sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\(mu/x/g' -e 's/\\&//g' |
    tr '\n' ' ' | tr -s ' ' | tr 'A-Z' 'a-z' >"$tmp/man.txt"

# The long options a --help text prints: "--name" at the start of an option
# line (after an optional "-x, ").
long_options() {
    sed -n 's/^ *\(-[A-Za-z], \)\{0,1\}\(--[a-z][a-z-]*\).*/\2/p' "$1" | sort -u
}

mentions() {
    grep -Eq -- "$1([^a-z-]|\$)" "$tmp/man.txt"
}

for cmd in "" model compare report merge; do
    label="simtbench${cmd:+ $cmd} --help"
    # shellcheck disable=SC2086
    if ! "$SB" $cmd --help >"$tmp/help" 2>/dev/null; then
        skip "$label is not available in this build"
        continue
    fi
    if [ -n "$cmd" ]; then
        check "the page documents 'simtbench $cmd'" "mentions 'simtbench $cmd'"
    fi
    long_options "$tmp/help" >"$tmp/opts"
    check "$label prints long options" '[ -s "$tmp/opts" ]'
    while read -r opt; do
        check "the page mentions $opt ($label)" "mentions '$opt'"
    done <"$tmp/opts"
done

# Exit statuses: "  N  text" lines of --help, each in EXIT STATUS as ".B N"
# followed by the same text.
"$SB" --help >"$tmp/help" 2>/dev/null
sed -n 's/^  \([0-9]\)  \(.*\)$/\1 \2/p' "$tmp/help" >"$tmp/status"
check "--help lists exit statuses 0 to 5" \
    '[ "$(cut -c1 "$tmp/status" | tr -d "\n")" = 012345 ]'
while read -r code text; do
    want=$(printf '%s %s' "$code" "$text" | tr 'A-Z' 'a-z')
    check "the page documents exit status $code as --help does" \
        'grep -Fq -- "$want" "$tmp/man.txt"'
done <"$tmp/status"

if command -v groff >/dev/null 2>&1; then
    groff -man -Tutf8 -ww -z "$MAN" >"$tmp/groff" 2>&1
    check "groff formats the page without warnings" '[ ! -s "$tmp/groff" ]'
else
    skip "groff is not installed"
fi

echo "1..$n"
exit 0
