# Sourced by the shell tests whose expectations are PoCL's (its compiler's
# messages, its memory): where PoCL is registered beside another OpenCL
# platform (a GPU's, as on the H200), OCL_ICD_VENDORS is pointed at a
# folder of $1 that holds PoCL's .icd alone, so that --backend opencl
# runs on PoCL there too.  Nothing changes where PoCL is the only one or
# is absent (the test's own skip then says so).
# sb_pocl_icds DIR: DIR made, holding a copy of each registered PoCL .icd
# (none where PoCL is not registered).
sb_pocl_icds() { # DIR
    mkdir -p "$1" || return 1
    for f in /etc/OpenCL/vendors/*.icd; do
        [ -r "$f" ] && grep -qi pocl "$f" && cp "$f" "$1/"
    done
    return 0
}
sb_pocl_only() { # DIR
    [ -z "${OCL_ICD_VENDORS:-}" ] || return 0
    sb_pocl_icds "$1/icd-pocl" || return 0
    if ls "$1/icd-pocl/"*.icd >/dev/null 2>&1 &&
        [ "$(ls /etc/OpenCL/vendors/*.icd | wc -l)" -gt "$(ls "$1/icd-pocl/"*.icd | wc -l)" ]; then
        OCL_ICD_VENDORS=$1/icd-pocl
        export OCL_ICD_VENDORS
    fi
}
