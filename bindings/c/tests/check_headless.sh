#!/usr/bin/env bash
# R0.1: the library is headless. It links the C library, libffi and the
# Swift runtime (core, Dispatch, FoundationEssentials) and nothing else:
# no windowing, graphics or full Foundation library, whatever a later
# change imports. Each library it needs is matched against that list.
set -euo pipefail
lib=$1
allowed='^(libc\.so\.[0-9]+|libm\.so\.[0-9]+|libdl\.so\.[0-9]+|libpthread\.so\.[0-9]+|ld-linux[-a-z0-9_.]*|libffi\.so\.[0-9]+|libswift[A-Za-z_]*\.so|libdispatch\.so|libBlocksRuntime\.so|libFoundationEssentials\.so|lib_FoundationCShims\.so|lib_FoundationCollections\.so)$'
needed=$(readelf -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
[ -n "$needed" ] || { echo "no NEEDED entries read from $lib"; echo "0 passed, 1 failed"; exit 1; }
unexpected=$(echo "$needed" | grep -Ev "$allowed" || true)
if [ -n "$unexpected" ]; then
    echo "the library needs more than the C library, libffi and the Swift runtime: $unexpected"
    echo "0 passed, 1 failed"; exit 1
fi
echo "headless: $(echo "$needed" | wc -l) libraries needed, none for drawing or windows"
echo "1 passed, 0 failed"
