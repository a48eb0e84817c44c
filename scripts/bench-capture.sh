#!/usr/bin/env bash
# bench-capture.sh: kwire capture against Wireshark's Kafka dissector on
# one capture. scripts/capturegen records kgo producing RECORDS records
# (gzip batches) to an in-process kfake broker and consuming them back in
# a group, at Kafka 2.4's versions (Produce v8, Fetch v11: Wireshark 4.0's
# dissector reads no later ones, and would skip the records), and writes
# it as a pcap; then the same file goes through
#   kwire capture --format json --body FILE       (every frame, records included, as JSON;
#                                                  its budgets raised to read every record)
#   tshark -r FILE -V -d tcp.port==9092,kafka     (every packet's dissection tree)
# each RUNS times (the best run of each is kept), and the script prints
# both times, kwire's processor time (user and system, of its best run;
# it decodes frames on every processor) and tshark's time over kwire's.
# -gzip false writes the batches uncompressed. Debian's tshark is
# installed when missing.
#
#   scripts/bench-capture.sh [-records N] [-runs N] [-value BYTES] [-gzip true|false] [-keep FILE]
set -euo pipefail
cd "$(dirname "$0")/.."
records=50000
runs=3
value=200
gzip=true
keep=
while [ $# -gt 0 ]; do
	case "$1" in
	-records) records=$2; shift 2 ;;
	-runs) runs=$2; shift 2 ;;
	-value) value=$2; shift 2 ;;
	-gzip) gzip=$2; shift 2 ;;
	-keep) keep=$2; shift 2 ;;
	*) echo "usage: scripts/bench-capture.sh [-records N] [-runs N] [-value BYTES] [-gzip true|false] [-keep FILE]" >&2; exit 2 ;;
	esac
done
if ! command -v tshark >/dev/null 2>&1; then
	echo "bench-capture: installing Debian's tshark" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null && apt-get install -y -qq tshark >/dev/null
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/kwire" ./cmd/kwire
go run ./scripts/capturegen -out "$dir/bench.pcap" -records "$records" -value "$value" -gzip="$gzip" -kafka24
if [ -n "$keep" ]; then cp "$dir/bench.pcap" "$keep"; fi

# best RUNS... COMMAND: the shortest wall time of RUNS runs, in seconds;
# the processor time (user + system) of that run goes to $dir/cpu.
best() {
	local n=$1 b= t0 t1 t
	shift
	for _ in $(seq "$n"); do
		t0=$(date +%s.%N)
		bash -c 'time -p "$@" >/dev/null 2>&1' _ "$@" 2>"$dir/times" || true
		t1=$(date +%s.%N)
		t=$(echo "$t1 - $t0" | bc -l)
		if [ -z "$b" ] || [ "$(echo "$t < $b" | bc -l)" = 1 ]; then
			b=$t
			awk '$1 == "user" || $1 == "sys" { s += $2 } END { print s }' "$dir/times" >"$dir/cpu"
		fi
	done
	echo "$b"
}
size=$(stat -c %s "$dir/bench.pcap")
# tshark dissects every record: kwire's budgets are raised to match.
budget=(--max-records 100000000 --max-decompressed 4000000000)
frames=$("$dir/kwire" capture --format json "${budget[@]}" "$dir/bench.pcap" 2>/dev/null | wc -l || true)
# A kwire that fails (a build without schema sets) would be timed fast.
if ! "$dir/kwire" capture --format json --body "${budget[@]}" "$dir/bench.pcap" >/dev/null 2>"$dir/err"; then
	echo "bench-capture: kwire capture failed:" >&2
	tail -3 "$dir/err" >&2
	exit 1
fi
kw=$(best "$runs" "$dir/kwire" capture --format json --body "${budget[@]}" "$dir/bench.pcap")
kwcpu=$(cat "$dir/cpu")
ts=$(best "$runs" tshark -r "$dir/bench.pcap" -V -d tcp.port==9092,kafka)
printf 'capture: %d records, %d bytes, %d frames\n' "$records" "$size" "$frames"
printf 'kwire capture --format json --body  %8.3f s (%.2f s user + system)\n' "$kw" "$kwcpu"
printf 'tshark -V -d tcp.port==9092,kafka   %8.3f s\n' "$ts"
printf 'tshark / kwire                      %8.1fx\n' "$(echo "$ts / $kw" | bc -l)"
