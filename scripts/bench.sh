#!/usr/bin/env bash
# bench.sh: kwire against kmsg (franz-go) on the same bytes: a Metadata
# response of 100 topics, a Fetch request, a JoinGroup request. For each
# it runs decode to a value, decode with the object tree, and encode in
# both codecs (codec/bench_test.go, BenchmarkCodec), then prints the
# medians of ns/op and of cpu-ns/op (the process's CPU time per op) and
# the kwire/kmsg ratio of each; the tree row is kwire's tree decode (the
# tree as the explorer holds it: spans whose text is written when drawn)
# over kmsg's value decode, the nodes row the tree with every node's text
# made (as kwire decode prints it) over the same, and the floor row the
# tree with only the parts of each row that need no reading of its bytes
# copied (the least the nodes row can cost). Fails when kwire's value
# decode takes more than 3x kmsg's CPU time (override with
# KWIRE_DECODE_FLOOR).
#
#   scripts/bench.sh [-count N] [-benchtime T] [-raw FILE]
set -euo pipefail
cd "$(dirname "$0")/.."
count=5
benchtime=1s
raw=
while [ $# -gt 0 ]; do
	case "$1" in
	-count) count=$2; shift 2 ;;
	-benchtime) benchtime=$2; shift 2 ;;
	-raw) raw=$2; shift 2 ;;
	*) echo "usage: scripts/bench.sh [-count N] [-benchtime T] [-raw FILE]" >&2; exit 2 ;;
	esac
done
floor=${KWIRE_DECODE_FLOOR:-3}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
go test -run '^$' -bench '^BenchmarkCodec$' -benchmem -count "$count" -benchtime "$benchtime" ./codec | tee "$out" >&2
[ -n "$raw" ] && cp "$out" "$raw"

# Lines look like:
# BenchmarkCodec/FetchRequest/decode/kwire-2  123  4567 ns/op  89.1 MB/s  4321 cpu-ns/op  1234 B/op  56 allocs/op
# cpu-ns/op is the process's CPU time per op (GC included); on a busy
# machine it moves far less than ns/op, so the floor is checked on it when
# present.
awk -v floor="$floor" '
function median(list,    a, n, i, j, t) {
	n = split(list, a, " ")
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
/^BenchmarkCodec\// {
	name = $1; sub(/^BenchmarkCodec\//, "", name); sub(/-[0-9]+$/, "", name)
	split(name, p, "/")            # case, op, codec
	key = p[1] SUBSEP p[2] SUBSEP p[3]
	for (i = 2; i < NF; i++) {
		if ($(i+1) == "ns/op") ns[key] = ns[key] " " $i
		if ($(i+1) == "cpu-ns/op") cpu[key] = cpu[key] " " $i
		if ($(i+1) == "B/op") bytes[key] = $i
		if ($(i+1) == "allocs/op") allocs[key] = $i
	}
	if (!(p[1] in seen)) { seen[p[1]] = 1; cases[++ncases] = p[1] }
}
END {
	if (ncases == 0) { print "no benchmark results" > "/dev/stderr"; exit 1 }
	fail = 0
	printf "\nmedians of %s runs; ratio = kwire / kmsg (decode: a fresh value each time; reuse: decoding into the previous value, DecodeInto / kmsg ReadFrom on the same message; tree: kwire tree decode, spans / kmsg value decode; nodes: the tree with every node formatted / the same; floor: the tree with the constant parts of each row copied / the same)\n", "'"$count"'"
	printf "%-20s %-6s %11s %11s %7s %12s %12s %7s %16s %16s\n", "case", "op", "kwire ns", "kmsg ns", "ratio", "kwire cpu-ns", "kmsg cpu-ns", "ratio", "kwire B/allocs", "kmsg B/allocs"
	for (c = 1; c <= ncases; c++) {
		name = cases[c]
		split("decode reuse tree nodes floor encode", ops, " ")
		for (o = 1; o <= 6; o++) {
			op = ops[o]
			kw = name SUBSEP op SUBSEP "kwire"
			km = name SUBSEP (op == "tree" || op == "nodes" || op == "floor" ? "decode" : op) SUBSEP "kmsg"
			if (!(kw in ns) || !(km in ns)) continue
			a = median(ns[kw]); b = median(ns[km]); ratio = a / b
			ca = (kw in cpu) ? median(cpu[kw]) : 0; cb = (km in cpu) ? median(cpu[km]) : 0
			cratio = cb > 0 ? ca / cb : 0
			printf "%-20s %-6s %11.0f %11.0f %6.2fx %12.0f %12.0f %6.2fx %16s %16s\n", name, op, a, b, ratio, ca, cb, cratio,
				bytes[kw] "/" allocs[kw], op == "tree" || op == "nodes" || op == "floor" ? "(decode)" : bytes[km] "/" allocs[km]
			checked = cratio > 0 ? cratio : ratio
			if (op == "decode" && checked > floor) {
				fail = 1
				printf "  above the floor: kwire value decode must be within %sx of kmsg\n", floor
			}
		}
	}
	exit fail
}' "$out"
