#!/usr/bin/env bash
# Every exported animrt_ symbol is declared in include/animrt.h, and every
# declared function is exported.
set -euo pipefail
lib=$1; header=$2
exported=$(nm -D --defined-only "$lib" | awk '{print $3}' | grep '^animrt_' | sort -u)
# A name followed by "(*" is a function pointer's type (animrt_status (*fn)(…)), not a function.
declared=$(grep -oE '\banimrt_[a-z0-9_]+[[:space:]]*\([^*]' "$header" | sed 's/[[:space:]]*(.*//' | sort -u)
only_lib=$(comm -23 <(echo "$exported") <(echo "$declared"))
only_hdr=$(comm -13 <(echo "$exported") <(echo "$declared"))
failed=0
[ -n "$only_lib" ] && { echo "exported but not declared: $only_lib"; failed=1; }
[ -n "$only_hdr" ] && { echo "declared but not exported: $only_hdr"; failed=1; }
n=$(echo "$declared" | wc -l)
if [ $failed -eq 0 ]; then echo "symbols: $n declared, $n exported"; echo "1 passed, 0 failed"; else echo "0 passed, 1 failed"; exit 1; fi
