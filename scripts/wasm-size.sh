#!/usr/bin/env bash
# wasm-size.sh: the size of the explorer's WebAssembly binary, gzip-compressed
# as it is served, next to a trivial Go program that imports fmt,
# encoding/json and syscall/js built with the same flags (the floor any Go
# WASM app pays; its data segments merged as build-wasm.sh merges
# kwire's). Prints both sizes and the ratio; fails when kwire.wasm is
# over the budget (1.6 MB gzip, override with KWIRE_WASM_BUDGET in bytes),
# or when fmt's printer is linked in.
#
#   scripts/wasm-size.sh [path/to/kwire.wasm]   (default: build ./wasm)
set -euo pipefail
cd "$(dirname "$0")/.."
budget=${KWIRE_WASM_BUDGET:-1600000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

wasm=${1:-}
if [ -z "$wasm" ]; then
	wasm=$tmp/kwire.wasm
	scripts/build-wasm.sh "$wasm"
fi

mkdir -p "$tmp/trivial"
cat >"$tmp/trivial/main.go" <<'GO'
package main

import (
	"encoding/json"
	"fmt"
	"syscall/js"
)

func main() {
	b, _ := json.Marshal(map[string]int{"a": 1})
	js.Global().Get("console").Call("log", fmt.Sprintf("%s", b))
}
GO
printf 'module trivial\n\ngo 1.26\n' >"$tmp/trivial/go.mod"
(cd "$tmp/trivial" && GOOS=js GOARCH=wasm GOFLAGS= go build -trimpath -ldflags='-s -w' -o "$tmp/trivial.wasm" .)
go run ./scripts/wasmdata "$tmp/trivial.wasm" # as build-wasm.sh does

gz() { gzip -9 -c "$1" | wc -c; }
k_raw=$(wc -c <"$wasm"); k_gz=$(gz "$wasm")
t_raw=$(wc -c <"$tmp/trivial.wasm"); t_gz=$(gz "$tmp/trivial.wasm")
ratio=$(awk -v a="$k_gz" -v b="$t_gz" 'BEGIN { printf "%.2f", a / b }')
printf '%-34s %10s %10s\n' "binary" "raw" "gzip -9"
printf '%-34s %10d %10d\n' "kwire.wasm" "$k_raw" "$k_gz"
printf '%-34s %10d %10d\n' "trivial (fmt, encoding/json, js)" "$t_raw" "$t_gz"
printf 'ratio kwire/trivial (gzip): %s; budget %d bytes gzip\n' "$ratio" "$budget"
# fmt's printer (and the reflect it calls) is about 52 KB of gzip, and one
# call anywhere brings all of it back: the packages the browser builds use
# kwire/internal/xfmt. The function names stay in the binary's pclntab.
if grep -q -a 'fmt\.(\*pp)\.' "$wasm"; then
	echo "wasm-size: fmt's printer is linked into $wasm (about 52 KB gzip): use kwire/internal/xfmt (and internal/xhex, internal/deflate) in the packages the browser builds; GOOS=js GOARCH=wasm go build -ldflags=-dumpdep ./wasm shows what reaches fmt" >&2
	exit 1
fi
if [ "$k_gz" -gt "$budget" ]; then
	echo "wasm-size: kwire.wasm is $k_gz bytes gzip, over the budget of $budget" >&2
	exit 1
fi
