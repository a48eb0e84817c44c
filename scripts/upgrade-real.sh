#!/usr/bin/env bash
# upgrade-real.sh: what `kwire capture --against` says of real clients'
# captures, made with tcpdump on loopback as users make them
# (scripts/realkafka.sh's clusters).
#
#   scripts/upgrade-real.sh OUTDIR [OLD [NEW [TARGET]]]
#       On a cluster of release OLD (default 3.9.2, which still serves
#       the versions 4.0 removed): kafka-python 2.0.2 (PyPI, installed
#       into ${KWIRE_CACHE:-$HOME/.cache/kwire}/clients/kp202) and OLD's
#       own tools (kafka-topics, the console producer and consumer);
#       kafka-python twice: as it probes the broker, and with
#       api_version=(0, 10, 1), as applications set it; librdkafka 2.0.2
#       (confluent-kafka 2.0.2, the oldest with wheels on PyPI for this
#       Python; with api.version.request=false and
#       broker.version.fallback=0.10.0 it still sent ApiVersions v3 and the
#       same versions, so the script runs it once).
#       On a cluster of release NEW (default 4.4.0): NEW's tools, a
#       current client against an older target.
#       One cluster per release; each workload on its own topic.
#       For each capture W, writes OUTDIR/W.pcap, OUTDIR/W.report
#       (kwire capture --against TARGET, default 4.0, its report after the
#       frames) and OUTDIR/W.json (the report's JSON line).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
rk=$here/realkafka.sh
cache=${KWIRE_CACHE:-$HOME/.cache/kwire}
[ $# -ge 1 ] || { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 2; }
out=$(mkdir -p "$1" && cd "$1" && pwd)
old=${2:-3.9.2} new=${3:-4.4.0} target=${4:-4.0}
log() { printf 'upgrade-real: %s\n' "$*" >&2; }

# venv DIR MODULE PACKAGE: a virtualenv in the cache with PACKAGE.
venv() {
	if ! "$1/bin/python" -c "import $2" 2>/dev/null; then
		log "installing $3 into $1"
		mkdir -p "$cache/clients"
		python3 -m venv "$1"
		"$1/bin/pip" install -q --disable-pip-version-check --only-binary :all: "$3"
	fi
}
kp=$cache/clients/kp202 rdk=$cache/clients/rdk202
venv "$kp" kafka kafka-python==2.0.2
venv "$rdk" confluent_kafka confluent-kafka==2.0.2
(cd "$root" && go build -o "$out/kwire" ./cmd/kwire)

# cluster RELEASE: a cluster of RELEASE in $d (stopped at exit).
d=
stop() { [ -z "$d" ] || { "$rk" stop "$d" >/dev/null 2>&1 || true; rm -rf "$d"; }; d=; }
trap stop EXIT
cluster() {
	stop
	d=$(mktemp -d)
	"$rk" fetch "$1" >/dev/null
	"$rk" start "$d" --version "$1" --timeout 300 >/dev/null
}

# run W CMD: CMD recorded as W.pcap on the cluster, and its report.
run() {
	local w=$1
	shift
	log "$w"
	if ! "$rk" record "$d" "$out/$w.pcap" -- bash -c "$*" >"$out/$w.log" 2>&1; then
		cat "$out/$w.log" >&2
		exit 1
	fi
	"$out/kwire" capture --against "$target" "$out/$w.pcap" 2>/dev/null | sed -n '/^Against /,$p' >"$out/$w.report" || true
	"$out/kwire" capture --against "$target" --format json "$out/$w.pcap" 2>/dev/null | grep '"kind":"report"' >"$out/$w.json" || true
	sed 's/^/  /' "$out/$w.report" >&2
}

# tools TOPIC: kafka-topics, the console producer and consumer.
tools() {
	printf '%s' 'set -e; tool() { '"$rk"' tool "$KAFKA_DIR" "$@"; }
	tool kafka-topics --bootstrap-server "$KAFKA_PLAINTEXT" --create --topic '"$1"' --partitions 1 --replication-factor 1
	for i in 1 2 3; do echo "value-$i"; done | tool kafka-console-producer --bootstrap-server "$KAFKA_PLAINTEXT" --topic '"$1"'
	tool kafka-console-consumer --bootstrap-server "$KAFKA_PLAINTEXT" --topic '"$1"' --from-beginning --max-messages 3 --timeout-ms 30000 --group '"$1"''
}

cluster "$old"
run "kafka-python-2.0.2-on-$old" "$kp/bin/python $here/upgrade/oldpython.py \"\$KAFKA_PLAINTEXT\" kp 3"
run "kafka-python-2.0.2-api-0.10.1-on-$old" "$kp/bin/python $here/upgrade/oldpython.py \"\$KAFKA_PLAINTEXT\" kp-0.10.1 3 0.10.1"
run "librdkafka-2.0.2-on-$old" "$rdk/bin/python $here/upgrade/rdkafka.py \"\$KAFKA_PLAINTEXT\" rdk 3"
run "tools-$old" "$(tools tools)"
cluster "$new"
run "tools-$new" "$(tools tools)"
log "wrote $out"
