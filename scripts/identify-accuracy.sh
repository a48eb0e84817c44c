#!/usr/bin/env bash
# identify-accuracy.sh: how often kwire identify ranks the truth first
# (top-1) and among the first three (top-3), for every response of the
# two labelled corpora (identify/testdata/corpus.txt, studied, and
# identify/testdata/heldout.txt, recorded with other names, releases,
# brokers, compression and SASL mechanism and only measured: kgo clients
# against kfake, producers, transactions, consumer groups, admin calls and
# requests the broker refuses, at most 8 distinct responses of an API
# version), as whole frames and as bare bodies, without the help of the
# requests; each response once, and again as often as the recording saw
# it (traffic). A candidate is right when it is the response's API and
# version, or folds it in as a version that reads the same bytes. It says
# how many of the responses ranked wrong read the same values as the
# first candidate (another API's response with the same bytes: only
# priors can tell them apart). -v lists the responses ranked wrong. Says
# when the figures are below the targets (top-1 95%, top-3 99%); exits 1
# when they are below the floors that TestAccuracy asserts.
# Record the corpora anew with: go test ./identify -run TestRecordCorpus -corpus
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
