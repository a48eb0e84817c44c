#!/usr/bin/env bash
# wasm-top.sh: where the bytes of the explorer's WebAssembly binary are.
# Builds it as scripts/build-wasm.sh does but with its function names kept,
# then prints the size of each section, the code of each package (raw, and
# gzip compressed on its own) and the largest functions
# (scripts/wasmtop). Arguments go to wasmtop: -n packages, -syms functions,
# -match REGEXP (names are the linker's, with / and . in paths as _).
#
#   scripts/wasm-top.sh [-n 40] [-syms 40] [-match '^kwire_codec']
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
KWIRE_WASM_NAMES=1 scripts/build-wasm.sh "$tmp/kwire.wasm"
go run ./scripts/wasmtop "$@" "$tmp/kwire.wasm"
