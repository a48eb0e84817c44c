#!/usr/bin/env bash
# bench-records.sh: kwire against kmsg (franz-go) on a Fetch response of
# 10,000 records (about 1 MB before compression) in batches of each codec
# (codec/records_bench_test.go, BenchmarkFetchRecords). For each codec it
# prints the medians of cpu-ns/op (the process's CPU time per op, garbage
# collection included; ns/op too) of:
#   decode  kwire's value decode with every batch and record read
#           (CRC checked, decompressed) / kmsg.RecordBatch and kmsg.Record
#           with kgo's decompressor: the same work;
#   tree    kwire's decode with the whole object tree as the explorer
#           holds it (a span per field of every record, about 110,000,
#           their text written when drawn) / the same kmsg decode;
#   nodes   kwire's decode with every node of that tree written as text, as
#           kwire decode prints it / the same kmsg decode.
# Then, per codec, tree and nodes over kwire's own value decode.
# Fails when kwire's decode takes more than 3x kmsg's CPU time (override
# with KWIRE_RECORDS_FLOOR); the tree ratio is reported, not checked.
#
#   scripts/bench-records.sh [-count N] [-benchtime T] [-raw FILE]
set -euo pipefail
cd "$(dirname "$0")/.."
count=5
benchtime=20x
raw=
while [ $# -gt 0 ]; do
	case "$1" in
	-count) count=$2; shift 2 ;;
	-benchtime) benchtime=$2; shift 2 ;;
	-raw) raw=$2; shift 2 ;;
	*) echo "usage: scripts/bench-records.sh [-count N] [-benchtime T] [-raw FILE]" >&2; exit 2 ;;
	esac
done
floor=${KWIRE_RECORDS_FLOOR:-3}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
go test -run '^$' -bench '^BenchmarkFetchRecords$' -benchmem -count "$count" -benchtime "$benchtime" ./codec | tee "$out" >&2
[ -n "$raw" ] && cp "$out" "$raw"

# BenchmarkFetchRecords/gzip/decode/kwire-2  20  4567 ns/op  89.1 MB/s  4321 cpu-ns/op  1234 B/op  56 allocs/op
awk -v floor="$floor" -v count="$count" '
function median(list,    a, n, i, j, t) {
	n = split(list, a, " ")
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
/^BenchmarkFetchRecords\// {
	name = $1; sub(/^BenchmarkFetchRecords\//, "", name); sub(/-[0-9]+$/, "", name)
	split(name, p, "/")            # codec, op, implementation
	key = p[1] SUBSEP p[2] SUBSEP p[3]
	for (i = 2; i < NF; i++) {
		if ($(i+1) == "ns/op") ns[key] = ns[key] " " $i
		if ($(i+1) == "cpu-ns/op") cpu[key] = cpu[key] " " $i
		if ($(i+1) == "B/op") bytes[key] = $i
	}
	if (!(p[1] in seen)) { seen[p[1]] = 1; codecs[++n] = p[1] }
}
END {
	if (n == 0) { print "no benchmark results" > "/dev/stderr"; exit 1 }
	fail = 0
	printf "\nmedians of %s runs, ms per Fetch response of 10,000 records; ratio = kwire / kmsg decode\n", count
	printf "%-7s %-7s %10s %10s %7s %10s %10s %7s %12s\n", "codec", "op", "kwire cpu", "kmsg cpu", "ratio", "kwire ns", "kmsg ns", "ratio", "kwire B/op"
	for (c = 1; c <= n; c++) {
		split("decode tree nodes", ops, " ")
		for (o = 1; o <= 3; o++) {
			kw = codecs[c] SUBSEP ops[o] SUBSEP "kwire"
			km = codecs[c] SUBSEP "decode" SUBSEP "kmsg"
			if (!(kw in ns) || !(km in ns)) continue
			a = median(ns[kw]); b = median(ns[km])
			ca = (kw in cpu) ? median(cpu[kw]) : 0; cb = (km in cpu) ? median(cpu[km]) : 0
			cratio = cb > 0 ? ca / cb : 0
			printf "%-7s %-7s %10.2f %10.2f %6.2fx %10.2f %10.2f %6.2fx %12s\n", codecs[c], ops[o], ca / 1e6, cb / 1e6, cratio, a / 1e6, b / 1e6, a / b, bytes[kw]
			checked = cratio > 0 ? cratio : a / b
			if (ops[o] == "decode" && checked > floor) {
				fail = 1
				printf "  above the floor: kwire decode must be within %sx of kmsg\n", floor
			}
		}
	}
	printf "\nover the kwire value decode (cpu): tree = spans, nodes = every node formatted\n"
	for (c = 1; c <= n; c++) {
		kd = codecs[c] SUBSEP "decode" SUBSEP "kwire"
		kt = codecs[c] SUBSEP "tree" SUBSEP "kwire"
		kn = codecs[c] SUBSEP "nodes" SUBSEP "kwire"
		if (!(kd in cpu) || !(kt in cpu)) continue
		printf "%-7s tree %6.2fx", codecs[c], median(cpu[kt]) / median(cpu[kd])
		if (kn in cpu) printf "   nodes %6.2fx", median(cpu[kn]) / median(cpu[kd])
		printf "\n"
	}
	exit fail
}' "$out"
