#!/usr/bin/env bash
# build.sh: builds kwire into dist/ (the explorer and the docs site) and
# bin/kwire, serves it, or runs every test.
#
#   ./build.sh            build bin/kwire and the static site in dist/
#   ./build.sh serve      build, then serve dist/ on a local port (printed)
#   ./build.sh test       run every test (installs Chromium when missing; the
#                         real-Kafka tests fetch Kafka, Java, Maven, tcpdump and
#                         the clients into ~/.cache/kwire when missing)
#
# The Kafka schema sets are copied at build time from $KWIRE_SCHEMAS, else
# ../shared/kafka, into schemas/sets/data (git-ignored, never committed).
set -euo pipefail
cd "$(dirname "$0")"
root=$(pwd)

log() { printf '==> %s\n' "$*" >&2; }

schemas() {
	local src=${KWIRE_SCHEMAS:-$root/../shared/kafka}
	if [ ! -d "$src" ]; then
		cat >&2 <<MSG
build.sh: no Kafka schema sets found at $src.
  kwire embeds Apache Kafka's message definitions, which are not part of this
  repository. Point KWIRE_SCHEMAS at a folder holding one folder per set
  (3.9/, trunk/), each with message/ (and coordinator/, metadata/,
  errors.tsv), for example a copy of ../shared/kafka:
      KWIRE_SCHEMAS=/path/to/kafka ./build.sh
MSG
		exit 1
	fi
	local dst=$root/schemas/sets/data n=0
	find "$dst" -mindepth 1 -maxdepth 1 -type d -exec rm -rf {} +
	for set in "$src"/*/; do
		[ -d "$set/message" ] || continue
		name=$(basename "$set")
		mkdir -p "$dst/$name"
		cp -R "$set/message" "$dst/$name/"
		for extra in coordinator metadata; do
			[ -d "$set/$extra" ] && cp -R "$set/$extra" "$dst/$name/"
		done
		for f in errors.tsv SOURCE; do
			[ -f "$set/$f" ] && cp "$set/$f" "$dst/$name/"
		done
		n=$((n + 1))
	done
	if [ "$n" = 0 ]; then
		echo "build.sh: $src holds no schema set (a folder with message/*.json)" >&2
		exit 1
	fi
	log "schemas: $n sets from $src"
}

build() {
	schemas
	log "bin/kwire"
	go build -trimpath -o bin/kwire ./cmd/kwire
	rm -rf dist && mkdir -p dist
	if [ -d wasm ]; then
		log "dist/kwire.wasm"
		scripts/build-wasm.sh dist/kwire.wasm
		cp "$(go env GOROOT)/lib/wasm/wasm_exec.js" dist/
	fi
	if bin/kwire site -h >/dev/null 2>&1; then
		log "dist/ (site)"
		bin/kwire site --out dist
	fi
	# Served precompressed: kwire.wasm.gz next to kwire.wasm.
	for w in dist/*.wasm; do
		if [ -f "$w" ]; then gzip -9 -n -k -f "$w"; fi
	done
}

# wasm_size prints the gzip size of dist/kwire.wasm against a trivial Go
# WASM program and fails over the budget.
wasm_size() {
	if [ -f dist/kwire.wasm ]; then
		log "wasm size"
		scripts/wasm-size.sh dist/kwire.wasm
	fi
}

chromium_ready() {
	if command -v chromium >/dev/null 2>&1; then return 0; fi
	log "installing Debian's chromium for the browser tests"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null && apt-get install -y -qq chromium >/dev/null
}

node_ready() {
	if command -v node >/dev/null 2>&1; then return 0; fi
	log "installing Debian's nodejs for the js/wasm tests"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null && apt-get install -y -qq nodejs >/dev/null
}

test_all() {
	schemas
	log "gofmt"
	unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
	if [ -n "$unformatted" ]; then
		echo "gofmt would change: $unformatted" >&2
		exit 1
	fi
	log "go vet"
	go vet ./...
	log "staticcheck"
	go tool staticcheck ./...
	if [ -d wasm ]; then
		log "go vet (js/wasm)"
		GOOS=js GOARCH=wasm go vet ./wasm/...
	fi
	if ls e2e/*_test.go >/dev/null 2>&1; then
		chromium_ready
		build
	fi
	log "go test"
	# e2e/realkafka runs Apache Kafka and real clients (about 5 minutes):
	# more than go test's default 10 minutes on a slow machine.
	go test -count=1 -timeout 30m ./...
	log "go test (js/wasm, in node: the browser build's codecs)"
	node_ready
	GOOS=js GOARCH=wasm go test -count=1 -exec "$(go env GOROOT)/lib/wasm/go_js_wasm_exec" -run 'TestZstdBrowser' ./codec/records/
	GOOS=js GOARCH=wasm go test -count=1 -exec "$(go env GOROOT)/lib/wasm/go_js_wasm_exec" ./codec/otlp/
	# The browser's own pcap/pcapng reader and addresses, through the
	# explorer's capture list (with the schemas of dist/, built above).
	if [ -f dist/kafka-schemas.txt ]; then
		GOOS=js GOARCH=wasm go test -count=1 -exec "$(go env GOROOT)/lib/wasm/go_js_wasm_exec" -run 'TestCapture|TestPasted|TestParseTCP' ./wasm/app ./capture
	fi
	log "fuzz (short)"
	fuzz_short
	# Last, so that a binary over its size budget fails the run without
	# hiding the other results.
	wasm_size
}

# fuzz_short runs each fuzz target for 10,000 inputs (a count, not a time:
# with -fuzztime=10s a loaded machine can end a run before its seed corpus
# is read, which go test reports as "context deadline exceeded"); a crasher
# is saved in testdata/fuzz and fails the run. KWIRE_FUZZTIME=5m for longer.
fuzz_short() {
	local t=${KWIRE_FUZZTIME:-10000x}
	for pkg in $(go list ./...); do
		dir=$(go list -f '{{.Dir}}' "$pkg")
		for target in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/func //'); do
			log "fuzz $pkg $target ($t)"
			go test -run='^$' -fuzz="^$target\$" -fuzztime="$t" "$pkg"
		done
	done
}

serve() {
	build
	bin/kwire serve "${1:-dist}"
}

case "${1:-build}" in
build) build ;;
serve) shift; serve "$@" ;;
test) test_all ;;
schemas) schemas ;;
fuzz) schemas; fuzz_short ;;
*) echo "usage: ./build.sh [build|serve|test|schemas|fuzz]" >&2; exit 2 ;;
esac
