#!/usr/bin/env bash
# broker-apiversions.sh [VERSION]: starts Apache Kafka's broker of VERSION
# (default 4.4.0; a combined broker and KRaft controller on 127.0.0.1, free
# ports) from Maven Central's jars, asks it for its ApiVersions (v3, as a
# Java client does), prints the response frame as hex and stops it. The
# jars go to ${KWIRE_CACHE:-~/.cache/kwire}/broker/VERSION/lib; the broker
# runs at most 90 s; a failed start prints its log.
#
#   scripts/broker-apiversions.sh 4.4.0 > cmd/kwire/testdata/apiversions-4.4.0.hex
set -euo pipefail
cd "$(dirname "$0")/.."
v=${1:-4.4.0}
cache=${KWIRE_CACHE:-$HOME/.cache/kwire}/broker/$v
lib=$cache/lib
if [ ! -f "$lib/kafka_2.13-$v.jar" ]; then
	mkdir -p "$cache"
	cat >"$cache/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
<groupId>kwire</groupId><artifactId>broker</artifactId><version>$v</version>
<dependencies><dependency><groupId>org.apache.kafka</groupId><artifactId>kafka_2.13</artifactId><version>$v</version></dependency></dependencies></project>
POM
	mvn -q -B --no-transfer-progress -f "$cache/pom.xml" dependency:copy-dependencies \
		-DincludeScope=runtime -DoutputDirectory="$lib" >&2
fi
work=$(mktemp -d)
pid=
cleanup() {
	if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT
read -r port cport < <(python3 -c 'import socket
ss=[socket.socket() for _ in range(2)]
[s.bind(("127.0.0.1",0)) for s in ss]
print(*[s.getsockname()[1] for s in ss])')
cat >"$work/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.bootstrap.servers=127.0.0.1:$cport
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$cport
advertised.listeners=PLAINTEXT://127.0.0.1:$port
controller.listener.names=CONTROLLER
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$work/data
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
PROPS
cp=$lib/'*'
java -cp "$cp" kafka.tools.StorageTool format --standalone -t "$(java -cp "$cp" kafka.tools.StorageTool random-uuid)" \
	-c "$work/server.properties" >"$work/format.log" 2>&1 || { cat "$work/format.log" >&2; exit 1; }
timeout 90 java -Xmx512m -cp "$cp" -Dlog4j2.configurationFile=none kafka.Kafka "$work/server.properties" >"$work/broker.log" 2>&1 &
pid=$!
request=$(go run ./cmd/kwire encode --api ApiVersions --version 3 --json - <<<'{"ClientSoftwareName":"kwire","ClientSoftwareVersion":"1"}')
python3 - "$port" "$request" <<'PY' || { tail -50 "$work/broker.log" >&2; exit 1; }
import socket, sys, time
port, req = int(sys.argv[1]), bytes.fromhex(sys.argv[2])
deadline = time.time() + 60
while True:
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        s.sendall(req)
        head = b""
        while len(head) < 4:
            c = s.recv(4 - len(head))
            if not c: raise OSError("closed")
            head += c
        n = int.from_bytes(head, "big")
        body = b""
        while len(body) < n:
            c = s.recv(n - len(body))
            if not c: raise OSError("closed")
            body += c
        print((head + body).hex())
        break
    except OSError:
        if time.time() > deadline:
            sys.exit("no ApiVersions response from the broker in 60 s")
        time.sleep(0.5)
PY
