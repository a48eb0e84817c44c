#!/usr/bin/env bash
# identify-accuracy.sh: how often kwire identify ranks the truth first
# (top-1) and among the first three (top-3), for every response of the
# labelled corpus (identify/testdata/corpus.txt: kgo clients against
# kfake, producers, consumers, groups, transactions and admin calls, with
# the versions of several Kafka releases), as whole frames and as bare
# bodies, without the help of the requests. A candidate is right when it
# is the response's API and version, or folds it in as a version that
# reads the same bytes. -v lists the responses ranked wrong. Says when the
# figures are below the targets (top-1 95%, top-3 99%); exits 1 when they
# are below the floors that TestAccuracy asserts.
# Record the corpus anew with: go test ./identify -run TestRecordCorpus -corpus
#
#   scripts/identify-accuracy.sh [-v]
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp)
trap 'rm -f "$out"' EXIT
status=0
go test -count 1 -run '^TestAccuracy$' -v ./identify >"$out" 2>&1 || status=$?
if [ "${1:-}" = -v ]; then
	grep -E '^\s+accuracy_test.go:[0-9]+: .*(ranked|not in)' "$out" | sed -E 's/^\s+accuracy_test.go:[0-9]+: /  /'
fi
grep -E 'frames:|bodies:|frames after|below the|FAIL|panic' "$out" | sed -E 's/^\s+accuracy_test.go:[0-9]+: //'
exit $status
