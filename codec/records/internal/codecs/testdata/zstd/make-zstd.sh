#!/bin/sh
# make-zstd.sh writes the reference frames of TestZstdReference with
# zstd's command line: each NAME.SETTING.zst compresses NAME.
set -eu
cd "$(dirname "$0")"
rm -f ./*.zst ./*.txt
seq 1 600 | awk '{ printf "offset=%d key=user-%d value={\"page\":\"/p/%d\",\"ms\":%d}\n", $1, $1 % 37, $1 % 101, ($1 * 7919) % 1000 }' >records.txt
printf 'hello, zstd\n' >hello.txt
seq 1 400 | awk '{ s = ""; for (i = 0; i < $1 % 23; i++) s = s "ab"; print s, $1 }' >runs.txt
for f in records.txt hello.txt runs.txt; do
	zstd -q -f -1 "$f" -o "$f.1.zst"
	zstd -q -f -19 "$f" -o "$f.19.zst"
	zstd -q -f --ultra -22 --no-check "$f" -o "$f.22.zst"
	zstd -q -f --fast=4 "$f" -o "$f.fast4.zst"
	zstd -q -f -6 -B1024 "$f" -o "$f.B1024.zst"
	zstd -q -f -3 --no-content-size "$f" -o "$f.nosize.zst"
done
