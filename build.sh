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
# ../shared/kafka, into schemas/sets/data (git-ignored, never committed);
# 4.4 is read from Kafka's jars, fetched from Maven Central into
# ${KWIRE_CACHE:-~/.cache/kwire}/m2 (Maven is installed when missing).
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
	jar_sets
}

# The releases that kwire reads from Apache Kafka's jars (Maven Central)
# rather than from ../shared/kafka, which has no 4.4: kafka-clients and
# the jars beside it, fetched once into a Maven repository in the cache
# ($KWIRE_CACHE, else ~/.cache/kwire: outside the clone, so that CI's fresh
# clones on this machine reuse it), then read by kwire's own jar reader
# (scripts/jarset, sets.Use) into schemas/sets/data/4.4.
jar_versions="4.4.0"
jar_artifacts="kafka-clients kafka-metadata kafka-group-coordinator kafka-share-coordinator kafka-transaction-coordinator kafka-raft kafka-storage"

jar_repo() { echo "${KWIRE_CACHE:-$HOME/.cache/kwire}/m2"; }

maven_ready() { debian_ready mvn maven "(and a Java runtime) to fetch Kafka's jars"; }

fetch_jars() {
	local repo missing=0 v a
	repo=$(jar_repo)
	for v in $jar_versions; do
		for a in $jar_artifacts; do
			[ -f "$repo/org/apache/kafka/$a/$v/$a-$v.jar" ] || missing=1
		done
	done
	[ "$missing" = 0 ] && return 0
	maven_ready
	log "jars: fetching Kafka $jar_versions from Maven Central into $repo"
	mkdir -p "$repo"
	for v in $jar_versions; do
		# A pom that depends on the jars of one version (one version of
		# an artifact per pom).
		local pom=$repo/kwire-jars-$v.pom.xml
		{
			echo '<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>'
			echo "<groupId>kwire</groupId><artifactId>jars</artifactId><version>$v</version><dependencies>"
			for a in $jar_artifacts; do
				echo "<dependency><groupId>org.apache.kafka</groupId><artifactId>$a</artifactId><version>$v</version></dependency>"
			done
			echo '</dependencies></project>'
		} >"$pom"
		if ! mvn -q -B --no-transfer-progress -f "$pom" -Dmaven.repo.local="$repo" \
			dependency:resolve -DexcludeTransitive=true >"$repo/mvn.log" 2>&1; then
			cat "$repo/mvn.log" >&2
			echo "build.sh: could not fetch Kafka $v's jars from Maven Central" >&2
			exit 1
		fi
	done
}

jar_sets() {
	fetch_jars
	local dst=$root/schemas/sets/data names jars=() v a
	# The jars of $jar_versions, named one by one: the cache's Maven
	# repository may hold other versions (the test brokers' jars), which
	# ../shared/kafka has as sets of its own.
	for v in $jar_versions; do
		for a in $jar_artifacts; do
			jars+=("$(jar_repo)/org/apache/kafka/$a/$v/$a-$v.jar")
		done
	done
	names=$(go run ./scripts/jarset -out "$dst" "${jars[@]}")
	log "schemas: $(echo $names) from Kafka's jars in $(jar_repo)"
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

# debian_ready CMD PACKAGE WHY: installs Debian's PACKAGE when CMD is
# missing.
debian_ready() {
	if command -v "$1" >/dev/null 2>&1; then return 0; fi
	log "installing Debian's $2 $3"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null && apt-get install -y -qq "$2" >/dev/null
}

chromium_ready() { debian_ready chromium chromium "for the browser tests"; }

node_ready() { debian_ready node nodejs "for the js/wasm tests"; }

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
	# capture/tlsdec's tests run OpenSSL's s_server and s_client.
	debian_ready openssl openssl "for the TLS decryption tests"
	log "go test"
	# e2e/realkafka runs Apache Kafka and real clients (about 5 minutes):
	# more than go test's default 10 minutes on a slow machine.
	go test -count=1 -timeout 30m ./...
	# Real TLS stacks on both ends: franz-go, kafka-python (OpenSSL) and
	# KafkaJS (Node) against Apache Kafka's SSL listener, each writing its
	# key log, recorded with tcpdump and decrypted by kwire capture.
	log "TLS clients against Apache Kafka (scripts/tlsclients.sh)"
	tls_out=$(mktemp -d)
	scripts/tlsclients.sh "$tls_out"
	rm -rf "$tls_out"
	log "go test (js/wasm, in node: the browser build's codecs)"
	node_ready
	GOOS=js GOARCH=wasm go test -count=1 -exec "$(go env GOROOT)/lib/wasm/go_js_wasm_exec" -run 'TestZstdBrowser' ./codec/records/
	GOOS=js GOARCH=wasm go test -count=1 -exec "$(go env GOROOT)/lib/wasm/go_js_wasm_exec" ./codec/otlp/
	# TLS decryption with the browser's hand-written crypto (tlscrypto),
	# against crypto/tls on both ends (OpenSSL cannot run under node).
	GOOS=js GOARCH=wasm go test -count=1 -exec "$(go env GOROOT)/lib/wasm/go_js_wasm_exec" -skip 'TestOpenSSL' ./capture/tlsdec/ ./capture/tlsdec/internal/tlscrypto/
	# The browser's own pcap/pcapng reader and addresses, through the
	# explorer's capture list (with the schemas of dist/, built above), and
	# the controller's transcripts (TestUI), the same as natively.
	if [ -f dist/kafka-schemas.txt ]; then
		GOOS=js GOARCH=wasm go test -count=1 -exec "$(go env GOROOT)/lib/wasm/go_js_wasm_exec" -run 'TestCapture|TestPasted|TestParseTCP|TestTLSRows|TestUI' ./wasm/app ./capture
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
