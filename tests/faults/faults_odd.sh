#!/bin/sh
# The other half of the fault table (faults.sh runs every other row with
# SB_FAULT_PART=1; this one, the rows between), so that make -j runs the
# two side by side.  TAP output.
SB_FAULT_PART=2 exec "${srcdir:-.}/tests/faults/faults.sh" "$@"
