#!/usr/bin/env bash
# identify-accuracy.sh: how well kwire identify names responses without
# their requests, on every labelled corpus the tests have: kgo against
# kfake (identify/testdata/corpus.txt studied, heldout.txt held out), and
# real traffic against Apache Kafka 4.4 (identify/testdata/real/: one
# corpus per client, confluent-kafka, kafka-python, KafkaJS (held out:
# measured, never studied), kcat, Kafka's Java tools, kgo, and a real
# cluster's own traffic; recorded by scripts/realtraffic.sh). Per corpus,
# of the responses as whole frames (each distinct response once, then as
# often as the recording saw it):
#   strict     the first reading is the API and version themselves
#   same       top-1 up to the same values: the first answer is the truth,
#              or names it among the readings with the same values (the
#              versions that read the same bytes, the other APIs of
#              "the same bytes read as ...: only the request can tell")
#   top3       the truth is in the first three answers
#   tie        when the truth's reading gives the first's values, it is
#              named in the first's tie set
#   refused / as request: what kwire decode without flags does with a
#              response that a response reading decodes whole (never).
# Exits 1 when a corpus is below the floors TestAccuracy asserts. -v lists
# the responses ranked wrong.
#
#   scripts/identify-accuracy.sh [-v]
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp)
trap 'rm -f "$out"' EXIT
status=0
go test -count 1 -run '^TestAccuracy$' -v ./identify >"$out" 2>&1 || status=$?
if [ "${1:-}" = -v ]; then
	grep -E '^\s+accuracy_test.go:[0-9]+: .*(ranked|not in|refused|read as a request)' "$out" | sed -E 's/^\s+accuracy_test.go:[0-9]+: /  /'
fi
printf '%-30s %6s %6s %6s %6s %4s %4s | %-22s\n' corpus strict same top3 tie ref req "as recorded: strict same top3"
perl -ne 'if (/^\s+accuracy_test.go:\d+: (.*) frames: strict top-1 ([\d.]+)%, top-1 up to the same values ([\d.]+)%, top-3 ([\d.]+)%, truth in the tie set ([\d.]+)% .*refused (\d+), read as a request (\d+) .* of (\d+) distinct; as often as recorded: ([\d.]+)%, ([\d.]+)%, ([\d.]+)% of (\d+)/) {
	printf "%-30s %5s%% %5s%% %5s%% %5s%% %4s %4s | %5s%% %5s%% %5s%% (%s distinct, %s as recorded)\n", $1, $2, $3, $4, $5, $6, $7, $9, $10, $11, $8, $12 }' "$out"
grep -E 'below the|FAIL|panic' "$out" | sed -E 's/^\s+accuracy_test.go:[0-9]+: //' || true
exit $status
