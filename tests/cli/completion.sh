#!/bin/sh
# The bash completion (completions/simtbench), run the way bash runs it:
# backends, formats, experiment names from --list (a comma list's last
# name too), commands, options.  TAP output.
top=${SB_TOP_SRCDIR:-.}
SB=${SIMTBENCH:-./simtbench}
if ! command -v bash >/dev/null 2>&1; then
    echo "1..0 # SKIP no bash"
    exit 0
fi
echo "1..8"
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
exit $failed
