#!/usr/bin/env bash
# build-wasm.sh OUT: builds the explorer's WebAssembly app into OUT, the one
# place its build flags are written. Inlining is off in kwire's own
# packages but for the hot paths of decoding (codec, its records and
# wire, tree, schemas/jsonc): about 43 KB of
# gzip less, with the browser benchmark unchanged (scripts/browser-bench.sh).
# codec/sasl (SaslAuthenticate's bytes), codec/otlp (PushTelemetry's metrics)
# draftcodec (a draft's encode check and sizes, 166 bytes gzip),
# and jsonv (the JSON form read and
# indented; 4.5 KB gzip less, with Parse and Indent of a 1 MB Fetch
# response's JSON form as fast natively with -l as without) and render
# (4.5 KB; in Chromium the 4 MB Fetch response's load, 247-249 ms, and a
# scroll step of its byte view, 16 ms, as with inlining; tree without
# inlining would save 12 KB but load it 5% slower)
# are no hot paths: without inlining
# too (the latest pattern that matches a package wins).
#
# Sizes (gzip -9, scripts/wasm-size.sh): 1,589,761 bytes with fmt, which
# internal/xfmt, internal/deflate (then a copy of compress/flate's writer) and internal/xhex replace; 1,537,612 then;
# 1,515,941 with sort.Slice for the slices sorts; 1,417,059 with the data
# segments merged (1,418,260 with jsonc's stacks; 1,468,135 with this
# session's features; 1,439,751 without fs.WalkDir, compress/gzip's Reader
# and the html package, whose init keeps its entity table; 1,453,821 with
# edits patched, the lazy schema set and the decoders' and encoder's
# speed-ups; 1,449,339 with jsonv and hexin (then codec/hexin) not inlined; 1,448,670
# with the layout's owners as runs and render not inlined; 1,461,994 with
# Kafka's jars read in the browser: internal/unzip, 6 KB, for the app's
# own 2 KB zip reader, and sets' jar.go, 7 KB; sets' reader of
# Errors.class, 10 KB, is native only); 1,619,788 with TLS decryption
# by Go's crypto, 1,552,814 with tlsdec's own (internal/tlscrypto). Building codec/records without inlining saves 11.6
# KB but loads a 4 MB Fetch response about 10% slower: it stays inlined.
# scripts/wasm-top.sh
# prints where the bytes are.
#
# KWIRE_WASM_NAMES=1 keeps the name section (no -s -w), for
# scripts/wasm-top.sh: the same code, function names readable.
set -euo pipefail
cd "$(dirname "$0")/.."
strip='-s -w'
if [ "${KWIRE_WASM_NAMES:-}" = 1 ]; then
	strip=
fi
GOOS=js GOARCH=wasm go build -trimpath \
	-gcflags='kwire/...=-l' -gcflags='kwire/codec/...=' -gcflags='kwire/tree=' \
	-gcflags='kwire/render=' -gcflags='kwire/schemas/jsonc=' \
	-gcflags='kwire/codec/sasl=-l' -gcflags='kwire/codec/otlp=-l' \
	-gcflags='kwire/render=-l' -gcflags='kwire/tree=-l' -gcflags='kwire/codec/records=-l' -gcflags='kwire/codec/records/internal/codecs=-l' \
	-ldflags="$strip" -o "$1" ./wasm
# The linker writes tens of thousands of data segments (one after every run
# of zeros longer than a segment header), whose headers gzip badly:
# scripts/wasmdata merges those at most 1 KB apart, the same memory at
# start, about 100 KB of gzip less.
go run ./scripts/wasmdata "$1"
