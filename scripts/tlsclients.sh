#!/usr/bin/env bash
# tlsclients.sh: real Kafka clients over TLS against the SSL listener of
# scripts/realkafka.sh's broker, each recorded with tcpdump on loopback and
# writing its own key log, then decrypted and checked with kwire capture.
#
#   scripts/tlsclients.sh OUTDIR [KAFKA_VERSION]
#       Starts a one-node cluster in OUTDIR/cluster, runs each workload
#       under `realkafka.sh record`, and writes OUTDIR/W.pcap, W.keylog,
#       W.json (kwire capture --keylog W.keylog --format json --body).
#       Checks, for each: kwire exits 0, every TLS connection says
#       decrypted, every record value the client produced is in the
#       decoded frames; the capture with another workload's key log exits
#       1 naming a client random; the key log embedded with editcap
#       --inject-secrets (Debian's wireshark-common, installed when
#       missing) decrypts without --keylog. Prints each workload's client,
#       TLS versions and suites, and fails at the first check that fails.
#
# Workloads: franz-go's kgo (go.mod's version) over TLS 1.2 and 1.3, the
# second client of each resuming (tickets); kafka-python with Python's ssl
# (OpenSSL) over TLS 1.2 ChaCha20-Poly1305 and TLS 1.3; KafkaJS on Node
# (--tls-keylog) with each TLS 1.3 suite. Python and Node packages are
# installed once into ${KWIRE_CACHE:-$HOME/.cache/kwire}/clients.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
rk=$here/realkafka.sh
cache=${KWIRE_CACHE:-$HOME/.cache/kwire}
clients=$cache/clients
N=20

log() { printf 'tlsclients: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }
[ $# -ge 1 ] || { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 2; }
out=$1
version=${2:-4.4.0}
mkdir -p "$out"
out=$(cd "$out" && pwd)

"$rk" clients >/dev/null
command -v editcap >/dev/null 2>&1 || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wireshark-common >/dev/null
(cd "$root" && go build -o "$out/.kgo" ./scripts/tlsclients/kgo && go build -o "$out/.kwire" ./cmd/kwire)

"$rk" start "$out/cluster" --version "$version" --timeout 600 >/dev/null
trap '"$rk" stop "$out/cluster" >/dev/null 2>&1 || true' EXIT
set -a
. "$out/cluster/env"
set +a
ports=()
for hp in ${KAFKA_SSL//,/ }; do ports+=(--port "${hp##*:}"); done

workload() { # NAME SRC CMD...: runs CMD under tcpdump, then checks what kwire reads
	local w=$1 src=$2
	shift 2
	local try
	for try in 1 2 3; do
		rm -f "$out/$w.keylog"
		"$rk" record "$out/cluster" "$out/$w.pcap" -- "$@" >"$out/$w.log" 2>&1 || { cat "$out/$w.log" >&2; die "$w failed"; }
		# A packet the kernel dropped (two busy cores) may be a
		# ClientHello: the run is done again.
		grep -q ' [1-9][0-9]* packets dropped by kernel' "$out/$w.log" || break
		log "$w: tcpdump says the kernel dropped packets (try $try of 3)"
	done
	local rc=0
	"$out/.kwire" capture --keylog "$out/$w.keylog" "${ports[@]}" --format json --body "$out/$w.pcap" >"$out/$w.json" 2>"$out/$w.err" || rc=$?
	[ $rc = 0 ] || { tail -5 "$out/$w.err" >&2; grep -v '"status":"ok"' "$out/$w.json" | head -5 >&2; die "$w: kwire capture exits $rc"; }
	"$clients/py/bin/python" - "$out/$w.json" "$src" "$N" "$w" <<'PY'
import json, sys
path, src, n, w = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
text = open(path).read()
tls, frames = {}, 0
for line in text.splitlines():
    l = json.loads(line)
    if l["kind"] == "tls":
        t = l["tls"]
        if not t["decrypted"]:
            sys.exit(f"{w}: connection {l['connection']}: {l['status']}")
        key = (t["version"], t["suite"], t.get("resumed", ""))
        tls[key] = tls.get(key, 0) + 1
    elif l["kind"] == "frame":
        frames += 1
missing = [i for i in range(n) if f'value-{i} from {src}' not in text]
if missing:
    sys.exit(f"{w}: the values of records {missing} are not in the decoded frames")
print(f"{w}: {frames} frames decoded; " + "; ".join(f"{c} x {v} {s}" + (f" resumed by {r}" if r else "") for (v, s, r), c in sorted(tls.items())))
PY
}

workload kgo-1.2 kgo-1.2 "$out/.kgo" "$KAFKA_SSL" "$KAFKA_CA" kw-tls-kgo12 $N 1.2 "$out/kgo-1.2.keylog"
workload kgo-1.3 kgo-1.3 "$out/.kgo" "$KAFKA_SSL" "$KAFKA_CA" kw-tls-kgo13 $N 1.3 "$out/kgo-1.3.keylog"
for v in 1.2 1.3; do
	workload "kafka-python-$v" "kafka-python-$v" "$clients/py/bin/python" "$here/tlsclients/kafkapython.py" "$KAFKA_SSL" "$KAFKA_CA" "kw-tls-kp$v" $N $v "$out/kafka-python-$v.keylog"
done
for s in TLS_AES_128_GCM_SHA256 TLS_AES_256_GCM_SHA384 TLS_CHACHA20_POLY1305_SHA256; do
	NODE_PATH=$clients/node/node_modules workload "kafkajs-$s" "kafkajs-$s" node --tls-keylog="$out/kafkajs-$s.keylog" "$here/tlsclients/kafkajs.js" "$KAFKA_SSL" "$KAFKA_CA" "kw-tls-js-$s" $N $s
done
log "clients: franz-go $(cd "$root" && go list -m -f '{{.Version}}' github.com/twmb/franz-go), kafka-python $("$clients/py/bin/python" -c 'import kafka, ssl; print(kafka.__version__, "with", ssl.OPENSSL_VERSION)'), kafkajs $(node -e 'console.log(require(process.argv[1] + "/kafkajs/package.json").version)' "$clients/node/node_modules") on Node $(node --version); Apache Kafka $KAFKA_VERSION on $(java -version 2>&1 | head -1)"

# The wrong key log: each connection names its client random.
rc=0
"$out/.kwire" capture --keylog "$out/kgo-1.2.keylog" "${ports[@]}" "$out/kgo-1.3.pcap" >"$out/wrong.txt" 2>&1 || rc=$?
[ $rc = 1 ] && grep -q "not decrypted: no key for client random [0-9a-f]\{64\}" "$out/wrong.txt" || die "the wrong key log: exit $rc"
log "the wrong key log: exit 1, $(grep -c 'no key for client random' "$out/wrong.txt") connections name their client random"
# The key log embedded in the capture.
editcap --inject-secrets "tls,$out/kgo-1.3.keylog" "$out/kgo-1.3.pcap" "$out/kgo-1.3-dsb.pcapng"
"$out/.kwire" capture "${ports[@]}" "$out/kgo-1.3-dsb.pcapng" >/dev/null 2>"$out/dsb.err" || { cat "$out/dsb.err" >&2; die "the embedded key log does not decrypt"; }
log "editcap --inject-secrets: decrypted without --keylog ($(tail -1 "$out/dsb.err"))"
