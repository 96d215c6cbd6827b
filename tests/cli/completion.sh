#!/bin/sh
# The bash completion (completions/simtbench), run the way bash runs it:
# backends, formats, experiment names from --list (a comma list's last
# name too), commands, and each command's own options, exactly those its
# --help documents, with the values they take.  TAP output.
top=${SB_TOP_SRCDIR:-.}
SB=${SIMTBENCH:-./simtbench}
if ! command -v bash >/dev/null 2>&1; then
    echo "1..0 # SKIP no bash"
    exit 0
fi
echo "1..21"
unset COLUMNS
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# complete WORDS...: what the completion offers for the last word.
complete_for() {
    bash -c '
        simtbench() { "$SB" "$@"; }
        . "$1/completions/simtbench"
        shift
        COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
        _simtbench
        printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' _ "$top" "$@"
}
export SB
n=0 failed=0
check() {
    n=$((n + 1))
    if [ "$2" = "$3" ]; then echo "ok $n - $1"; else echo "not ok $n - $1: got '$2', want '$3'"; failed=1; fi
}
check "--backend offers the backends" "$(complete_for simtbench --backend '')" "all cuda opencl "
check "--format offers every format" "$(complete_for simtbench -f '')" "csv html json markdown md table "
check "--experiment tr completes from --list" "$(complete_for simtbench --experiment tr)" "transpose "
check "--experiment's comma list completes its last name" \
    "$(complete_for simtbench --experiment matmul,vec)" "matmul,vecadd "
check "a first word completes a command" "$(complete_for simtbench co)" "compare "
check "an option completes" "$(complete_for simtbench --sa)" "--save "
check "--device offers all and auto" "$(complete_for simtbench --device a)" "all auto "
check "merge completes as a command and its options" \
    "$(complete_for simtbench me) $(complete_for simtbench merge --o)" "merge  --output "

# The long options a --help text prints: "--name" at the start of an option
# line (after an optional "-x, "), as tests/cli/man.sh reads them.
help_options() {
    # shellcheck disable=SC2086
    "$SB" $1 --help | sed -n 's/^ *\(-[A-Za-z], \)\{0,1\}\(--[a-z][a-z-]*\).*/\2/p' | sort -u |
        tr "\n" " "
}
for cmd in "" model compare report merge; do
    # shellcheck disable=SC2086
    check "simtbench${cmd:+ $cmd} -- offers exactly the options its --help documents" \
        "$(complete_for simtbench $cmd --)" "$(help_options "$cmd")"
done
check "model --space offers its choices" "$(complete_for simtbench model --space '')" \
    "global shared "
check "model --walk c completes column" "$(complete_for simtbench model --walk c)" "column "
check "model --stride takes a number: nothing offered" "$(complete_for simtbench model --stride '')" " "
check "compare --th completes --threshold" "$(complete_for simtbench compare --th)" "--threshold "
check "compare --format offers what compare writes" \
    "$(complete_for simtbench compare --format '')" "json markdown md table "
check "--counters is an option of the run" "$(complete_for simtbench --cou)" "--counters "
: >"$tmp/saved-run.json"
mkdir "$tmp/saved-plots"
check "report completes a saved run's file name" \
    "$(complete_for simtbench report "$tmp/saved-r")" "$tmp/saved-run.json "
check "report --plot completes a directory, not a file" \
    "$(complete_for simtbench report --plot "$tmp/saved-")" "$tmp/saved-plots "
exit $failed
