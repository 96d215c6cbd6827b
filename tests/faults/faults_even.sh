#!/bin/sh
# Half of the fault table: every other row, from the first (faults_odd.sh
# runs the rows between), so that make -j runs the two side by side.
# TAP output.
SB_FAULT_PART=1 exec "${srcdir:-.}/tests/faults/faults.sh" "$@"
