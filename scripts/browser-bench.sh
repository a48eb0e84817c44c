#!/usr/bin/env bash
# browser-bench.sh: measures the explorer in Debian's chromium (navigation to
# first usable render, one edit of a small message and of a 4 MB Fetch
# response, loading that response, scrolling its byte view) beside the same
# work done natively by package app, and prints the figures. Builds dist/
# first unless KWIRE_NO_BUILD=1.
#
#   scripts/browser-bench.sh [-n RUNS] [-size BYTES] [-startup]
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${KWIRE_NO_BUILD:-}" != 1 ]; then
	./build.sh >/dev/null
fi
go run ./scripts/browserbench -dist dist "$@"
