#!/usr/bin/env bash
# realkafka.sh: Apache Kafka from Maven Central, run on loopback as a test peer.
#
#   scripts/realkafka.sh fetch VERSION
#       Downloads org.apache.kafka:kafka_2.13, kafka-tools and kafka-streams
#       VERSION with their runtime dependencies into
#       ${KWIRE_CACHE:-$HOME/.cache/kwire}/kafka/VERSION/lib (idempotent) and
#       prints that folder. Installs Java and Maven (Debian) when missing.
#       Releases Maven serves here: 3.9.0-3.9.2, 4.0.0-4.0.2, ... 4.4.0.
#
#   scripts/realkafka.sh start DIR [--version V] [--nodes 1|3] [--timeout SECONDS]
#                                  [--record OUT.pcap] [--config KEY=VALUE]...
#       Starts a KRaft cluster on 127.0.0.1 (default 4.4.0, 1 node, 600 s).
#       --record: tcpdump -i lo writes every packet of the cluster's ports
#       from before the first node starts until stop (or the timeout), so
#       the controllers' election and the brokers' registration are in it.
#       --config: a line added to every node's server.properties (repeatable).
#       Each node is a combined broker and controller with four listeners,
#       on ports chosen free at start:
#         PLAINTEXT        (also the inter-broker listener)
#         SASL_PLAINTEXT   PLAIN, SCRAM-SHA-256, SCRAM-SHA-512
#         SSL              a CA and a broker certificate made in DIR
#         CONTROLLER       PLAINTEXT, the KRaft quorum
#       StandardAuthorizer with super users ANONYMOUS and admin (other
#       principals are allowed where no ACL is found), and a client-telemetry
#       receiver (KIP-714) so that GetTelemetrySubscriptions/PushTelemetry
#       are served. Waits until every broker has started; a failed start
#       prints the brokers' logs and exits non-zero. Every process of the
#       cluster is killed after the timeout by a watchdog, stop or not.
#       Writes DIR/env, shell-sourceable:
#         KAFKA_VERSION KAFKA_NODES KAFKA_LIB KAFKA_CLASSPATH (lib/*)
#         KAFKA_PLAINTEXT KAFKA_SASL KAFKA_SSL KAFKA_CONTROLLER
#                           bootstrap lists host:port[,host:port...]
#         KAFKA_PORTS       every port of the cluster, space-separated
#         KAFKA_CLIENT_PORTS, KAFKA_CONTROLLER_PORTS   the same, split
#         KAFKA_USER KAFKA_PASSWORD         alice (PLAIN and both SCRAMs)
#         KAFKA_ADMIN_USER KAFKA_ADMIN_PASSWORD   admin (a super user)
#         KAFKA_CA          the CA's certificate (PEM) for SSL clients
#         KAFKA_TRUSTSTORE KAFKA_TRUSTSTORE_PASSWORD   the same, PKCS12
#         KAFKA_CLIENT_SSL KAFKA_CLIENT_PLAIN KAFKA_CLIENT_SCRAM256
#         KAFKA_CLIENT_SCRAM512   Java client .properties for each listener
#         KAFKA_CLUSTER_ID KAFKA_PIDS KAFKA_DEADLINE (epoch seconds)
#       Logs: DIR/nodeN/logs/server.log (and stdout.log).
#
#   scripts/realkafka.sh stop DIR
#       Stops the cluster started in DIR (TERM, then KILL after 20 s).
#
#   scripts/realkafka.sh clients
#       Installs the non-Java clients once, and prints their folder,
#       ${KWIRE_CACHE:-$HOME/.cache/kwire}/clients: py/ a virtualenv with
#       confluent-kafka and kafka-python (PyPI), node/node_modules with
#       KafkaJS (npm).
#
#   scripts/realkafka.sh tool DIR NAME [ARGS...]
#       Runs one of Kafka's command-line tools from the cluster's jars:
#       NAME is a script name of Kafka's bin/ (kafka-topics,
#       kafka-console-producer, kafka-console-consumer,
#       kafka-console-share-consumer, kafka-consumer-groups,
#       kafka-share-groups, kafka-streams-groups, kafka-configs, kafka-acls,
#       kafka-transactions, kafka-verifiable-producer,
#       kafka-verifiable-consumer, kafka-client-metrics, kafka-features,
#       kafka-metadata-quorum, kafka-broker-api-versions, ...) or a Java
#       class name. The class is the one of that release. The tools share a
#       CDS archive of their classes (lib/../tools.jsa, made by the first
#       run): half the processor time of a tool's start.
#
#   scripts/realkafka.sh java DIR CLASS [ARGS...]
#       Runs CLASS with the cluster's classpath (plus $KAFKA_EXTRA_CP).
#
#   scripts/realkafka.sh record DIR OUT.pcap [--filter EXPR] -- CMD [ARGS...]
#       Runs CMD while `tcpdump -i lo` writes OUT.pcap, filtered on the
#       cluster's ports (or EXPR); exits with CMD's status. Installs
#       Debian's tcpdump when missing. CMD sees DIR/env's variables.
#
# Environment: KWIRE_CACHE (cache root), KAFKA_HEAP (broker heap, 512m),
# KAFKA_START_WAIT (seconds to wait for the brokers, 120).
set -euo pipefail

cache=${KWIRE_CACHE:-$HOME/.cache/kwire}
default_version=4.4.0
pass=kwire-secret

log() { printf 'realkafka: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 2; }

apt_install() {
	export DEBIAN_FRONTEND=noninteractive
	if [ ! -f /tmp/.kwire-apt-updated ]; then
		apt-get update -qq >/dev/null && touch /tmp/.kwire-apt-updated
	fi
	apt-get install -y -qq "$@" >/dev/null
}

need_java() {
	command -v java >/dev/null 2>&1 && command -v javac >/dev/null 2>&1 && command -v keytool >/dev/null 2>&1 && return 0
	log "installing Debian's OpenJDK 17"
	apt_install openjdk-17-jdk-headless
}

need_mvn() {
	command -v mvn >/dev/null 2>&1 && return 0
	log "installing Debian's Maven"
	apt_install maven
}

need_tcpdump() {
	command -v tcpdump >/dev/null 2>&1 && return 0
	log "installing Debian's tcpdump"
	apt_install tcpdump
}

# fetch VERSION: the lib folder of VERSION, downloaded once.
fetch() {
	local v=$1 dir=$cache/kafka/$1
	case $v in *[!0-9A-Za-z.-]* | "") die "bad version '$v'" ;; esac
	if [ -f "$dir/lib/.complete" ]; then
		echo "$dir/lib"
		return 0
	fi
	need_java
	need_mvn
	mkdir -p "$dir"
	local artifacts="kafka_2.13 kafka-tools kafka-streams" deps=""
	for a in $artifacts; do
		deps="$deps<dependency><groupId>org.apache.kafka</groupId><artifactId>$a</artifactId><version>$v</version></dependency>"
	done
	# Kafka's jars log through SLF4J 1.7; its binary distribution adds the
	# binding (reload4j up to 3.9, which the 3.x poms carry; log4j 2 from 4.0).
	case $v in
	3.*) ;;
	*) deps="$deps<dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-slf4j-impl</artifactId><version>2.24.3</version></dependency>" ;;
	esac
	cat >"$dir/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>kwire</groupId><artifactId>realkafka</artifactId><version>1</version>
  <dependencies>$deps</dependencies>
</project>
POM
	rm -rf "$dir/lib.tmp"
	log "fetching Apache Kafka $v from Maven Central"
	if ! (cd "$dir" && mvn -q -B dependency:copy-dependencies -DincludeScope=runtime \
		-DoutputDirectory="$dir/lib.tmp" >"$dir/mvn.log" 2>&1); then
		cat "$dir/mvn.log" >&2
		die "maven could not fetch Kafka $v"
	fi
	# An index of the classes, for `tool`.
	for j in "$dir"/lib.tmp/kafka*.jar; do
		unzip -Z1 "$j" 2>/dev/null || jar tf "$j"
	done | sed -n 's/\.class$//p' | grep -v '\$' | tr / . >"$dir/lib.tmp/.classes"
	plugin "$v" "$dir/lib.tmp"
	touch "$dir/lib.tmp/.complete"
	rm -rf "$dir/lib"
	mv "$dir/lib.tmp" "$dir/lib"
	echo "$dir/lib"
}

# plugin VERSION LIB: compiles the broker's client-telemetry receiver
# (KIP-714: without a MetricsReporter implementing ClientTelemetry the broker
# does not advertise GetTelemetrySubscriptions and PushTelemetry) into
# LIB/kwire-telemetry.jar.
plugin() {
	local lib=$2 src
	src=$(mktemp -d)
	mkdir -p "$src/kwire"
	cat >"$src/kwire/TelemetrySink.java" <<'JAVA'
package kwire;

import java.util.List;
import java.util.Map;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.metrics.MetricsReporter;
import org.apache.kafka.server.authorizer.AuthorizableRequestContext;
import org.apache.kafka.server.telemetry.ClientTelemetry;
import org.apache.kafka.server.telemetry.ClientTelemetryPayload;
import org.apache.kafka.server.telemetry.ClientTelemetryReceiver;

/** Accepts the clients' pushed metrics and counts them in the log. */
public class TelemetrySink implements MetricsReporter, ClientTelemetry, ClientTelemetryReceiver {
    public void configure(Map<String, ?> configs) {}
    public void init(List<KafkaMetric> metrics) {}
    public void metricChange(KafkaMetric metric) {}
    public void metricRemoval(KafkaMetric metric) {}
    public void close() {}
    public ClientTelemetryReceiver clientReceiver() { return this; }
    public void exportMetrics(AuthorizableRequestContext ctx, ClientTelemetryPayload payload) {
        System.out.println("kwire telemetry: " + payload.clientInstanceId() + " "
            + payload.contentType() + " " + payload.data().remaining() + " bytes");
    }
}
JAVA
	javac -nowarn -d "$src/classes" -cp "$lib/*" "$src/kwire/TelemetrySink.java" 2>"$src/javac.log" ||
		{ cat "$src/javac.log" >&2; die "could not compile the telemetry receiver"; }
	jar cf "$lib/kwire-telemetry.jar" -C "$src/classes" .
	rm -rf "$src"
}

# free_ports N: N distinct free TCP ports on 127.0.0.1.
free_ports() {
	python3 - "$1" <<'PY'
import socket, sys
socks = []
for _ in range(int(sys.argv[1])):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    socks.append(s)
print(" ".join(str(s.getsockname()[1]) for s in socks))
PY
}

tls_material() {
	local d=$1
	openssl req -x509 -newkey rsa:2048 -nodes -keyout "$d/ca.key" -out "$d/ca.pem" \
		-days 3 -subj "/CN=kwire test CA" 2>/dev/null
	openssl req -newkey rsa:2048 -nodes -keyout "$d/broker.key" -out "$d/broker.csr" \
		-subj "/CN=localhost" 2>/dev/null
	printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' >"$d/broker.ext"
	openssl x509 -req -in "$d/broker.csr" -CA "$d/ca.pem" -CAkey "$d/ca.key" -CAcreateserial \
		-out "$d/broker.pem" -days 3 -extfile "$d/broker.ext" 2>/dev/null
	openssl pkcs12 -export -in "$d/broker.pem" -inkey "$d/broker.key" -certfile "$d/ca.pem" \
		-name broker -out "$d/broker.p12" -passout "pass:$pass"
	rm -f "$d/truststore.p12"
	keytool -importcert -noprompt -alias ca -file "$d/ca.pem" -keystore "$d/truststore.p12" \
		-storetype PKCS12 -storepass "$pass" >/dev/null 2>&1
}

log_configs() {
	local d=$1
	cat >"$d/log4j2.properties" <<'L'
status = error
appender.file.type = File
appender.file.name = file
appender.file.fileName = ${sys:kafka.logs.dir}/server.log
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = info
rootLogger.appenderRef.file.ref = file
L
	cat >"$d/log4j.properties" <<'L'
log4j.rootLogger=INFO, file
log4j.appender.file=org.apache.log4j.FileAppender
log4j.appender.file.File=${kafka.logs.dir}/server.log
log4j.appender.file.layout=org.apache.log4j.PatternLayout
log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n
L
	cat >"$d/tools-log4j2.properties" <<'L'
status = error
appender.err.type = Console
appender.err.name = err
appender.err.target = SYSTEM_ERR
appender.err.layout.type = PatternLayout
appender.err.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = warn
rootLogger.appenderRef.err.ref = err
L
	cat >"$d/tools-log4j.properties" <<'L'
log4j.rootLogger=WARN, err
log4j.appender.err=org.apache.log4j.ConsoleAppender
log4j.appender.err.Target=System.err
log4j.appender.err.layout=org.apache.log4j.PatternLayout
log4j.appender.err.layout.ConversionPattern=[%d] %p %m (%c)%n
L
}

client_props() {
	local d=$1
	cat >"$d/client-ssl.properties" <<P
security.protocol=SSL
ssl.truststore.location=$d/truststore.p12
ssl.truststore.type=PKCS12
ssl.truststore.password=$pass
P
	cat >"$d/client-plain.properties" <<P
security.protocol=SASL_PLAINTEXT
sasl.mechanism=PLAIN
sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="alice" password="alice-secret";
P
	for bits in 256 512; do
		cat >"$d/client-scram$bits.properties" <<P
security.protocol=SASL_PLAINTEXT
sasl.mechanism=SCRAM-SHA-$bits
sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="alice" password="alice-secret";
P
	done
}

# jvm_log_opts DIR KIND: the logging flags of a broker (KIND=server) or a
# tool (KIND=tools), log4j 2 from 4.0 and reload4j before.
jvm_log_opts() {
	if [ "$2" = server ]; then
		echo "-Dlog4j2.configurationFile=$1/log4j2.properties -Dlog4j.configuration=file:$1/log4j.properties"
	else
		echo "-Dlog4j2.configurationFile=$1/tools-log4j2.properties -Dlog4j.configuration=file:$1/tools-log4j.properties"
	fi
}

node_config() {
	local d=$1 i=$2 n=$3 voters=$4 p=$5 s=$6 t=$7 c=$8
	local rf=$n
	cat >"$d/node$i/server.properties" <<C
process.roles=broker,controller
node.id=$i
controller.quorum.voters=$voters
controller.listener.names=CONTROLLER
listeners=PLAINTEXT://127.0.0.1:$p,SASL_PLAINTEXT://127.0.0.1:$s,SSL://127.0.0.1:$t,CONTROLLER://127.0.0.1:$c
advertised.listeners=PLAINTEXT://127.0.0.1:$p,SASL_PLAINTEXT://127.0.0.1:$s,SSL://127.0.0.1:$t
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT,SSL:SSL
inter.broker.listener.name=PLAINTEXT
log.dirs=$d/node$i/data
metadata.log.dir=$d/node$i/data
num.network.threads=2
num.io.threads=2
background.threads=2
num.recovery.threads.per.data.dir=1
num.replica.fetchers=1
offsets.topic.replication.factor=$rf
offsets.topic.num.partitions=3
transaction.state.log.replication.factor=$rf
transaction.state.log.num.partitions=3
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=$rf
share.coordinator.state.topic.num.partitions=3
share.coordinator.state.topic.min.isr=1
min.insync.replicas=1
default.replication.factor=$rf
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=true
sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256,SCRAM-SHA-512
listener.name.sasl_plaintext.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required user_alice="alice-secret" user_admin="admin-secret";
listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
ssl.keystore.location=$d/broker.p12
ssl.keystore.type=PKCS12
ssl.keystore.password=$pass
ssl.key.password=$pass
ssl.client.auth=none
authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer
super.users=User:ANONYMOUS;User:admin
allow.everyone.if.no.acl.found=true
metric.reporters=kwire.TelemetrySink
C
}

# wait_started DIR N DEADLINE: every node's log says it started.
wait_started() {
	local d=$1 n=$2 until=$3 i ok
	while :; do
		ok=0
		for i in $(seq 1 "$n"); do
			local pid
			pid=$(cat "$d/node$i/pid")
			if ! kill -0 "$pid" 2>/dev/null; then
				log "node $i (pid $pid) exited"
				return 1
			fi
			if grep -qE 'Kafka ?Server started|\[KafkaRaftServer nodeId=[0-9]+\] Kafka Server started' "$d/node$i/logs/server.log" 2>/dev/null; then
				ok=$((ok + 1))
			fi
		done
		[ "$ok" = "$n" ] && return 0
		[ "$(date +%s)" -ge "$until" ] && { log "the brokers did not start in time"; return 1; }
		sleep 0.5
	done
}

print_logs() {
	local d=$1 f
	for f in "$d"/node*/logs/stdout.log "$d"/node*/logs/server.log "$d"/node*/format.log; do
		[ -f "$f" ] || continue
		printf '==== %s (last 150 lines)\n' "$f" >&2
		tail -n 150 "$f" >&2
	done
}

start() {
	local d="" v=$default_version n=1 timeout=600 rec="" extra=""
	while [ $# -gt 0 ]; do
		case $1 in
		--version) v=$2; shift 2 ;;
		--nodes) n=$2; shift 2 ;;
		--timeout) timeout=$2; shift 2 ;;
		--record) rec=$2; shift 2 ;;
		--config) extra="$extra$2"$'\n'; shift 2 ;;
		-*) usage ;;
		*) [ -z "$d" ] || usage; d=$1; shift ;;
		esac
	done
	[ -n "$d" ] || usage
	case $n in 1 | 3) ;; *) die "--nodes is 1 or 3" ;; esac
	case $timeout in *[!0-9]* | "") die "--timeout takes seconds" ;; esac
	mkdir -p "$d"
	d=$(cd "$d" && pwd)
	if [ -f "$d/env" ] && stop_dir "$d" quiet; then :; fi
	local lib
	lib=$(fetch "$v")
	need_java
	rm -rf "$d"/node* "$d/env"
	tls_material "$d"
	log_configs "$d"
	client_props "$d"

	local ports all=() i
	read -r -a all <<<"$(free_ports $((4 * n)))"
	local plain=() sasl=() ssl=() ctrl=() voters=""
	for i in $(seq 0 $((n - 1))); do
		plain+=("${all[$((4 * i))]}")
		sasl+=("${all[$((4 * i + 1))]}")
		ssl+=("${all[$((4 * i + 2))]}")
		ctrl+=("${all[$((4 * i + 3))]}")
		voters="$voters${voters:+,}$((i + 1))@127.0.0.1:${ctrl[$i]}"
	done
	local cid
	# Kafka's cluster ids are base64url uuids; one that starts with "-"
	# would read as an option of kafka-storage.
	cid=$(python3 -c '
import base64, uuid
while True:
    c = base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")
    if not c.startswith("-"):
        print(c)
        break')
	local logopts
	logopts=$(jvm_log_opts "$d" tools)
	local fpids=()
	for i in $(seq 1 "$n"); do
		mkdir -p "$d/node$i/logs" "$d/node$i/data"
		node_config "$d" "$i" "$n" "$voters" "${plain[$((i - 1))]}" "${sasl[$((i - 1))]}" "${ssl[$((i - 1))]}" "${ctrl[$((i - 1))]}"
		printf '%s' "$extra" >>"$d/node$i/server.properties"
		# shellcheck disable=SC2086
		java -Xmx256m -XX:TieredStopAtLevel=1 $logopts -cp "$lib/*" kafka.tools.StorageTool format \
			-t "$cid" -c "$d/node$i/server.properties" --ignore-formatted \
			--add-scram 'SCRAM-SHA-256=[name=alice,password=alice-secret]' \
			--add-scram 'SCRAM-SHA-512=[name=alice,password=alice-secret]' \
			--add-scram 'SCRAM-SHA-256=[name=admin,password=admin-secret]' \
			--add-scram 'SCRAM-SHA-512=[name=admin,password=admin-secret]' \
			>"$d/node$i/format.log" 2>&1 &
		fpids+=($!)
	done
	local failed=0
	for i in "${fpids[@]}"; do wait "$i" || failed=1; done
	if [ "$failed" = 1 ]; then
		print_logs "$d"
		die "kafka-storage format failed"
	fi

	local heap=${KAFKA_HEAP:-512m} pids="" deadline=$(($(date +%s) + timeout))
	if [ -n "$rec" ]; then
		need_tcpdump
		case $rec in /*) ;; *) rec=$(pwd)/$rec ;; esac
		tcpdump_start "$rec" "$(port_filter "${all[*]}")" "$d/tcpdump.log"
		echo "$tcpdump_pid" >"$d/tcpdump.pid"
	fi
	for i in $(seq 1 "$n"); do
		# shellcheck disable=SC2086
		setsid java -Xms128m -Xmx"$heap" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
			-Djava.awt.headless=true -Dkafka.logs.dir="$d/node$i/logs" $(jvm_log_opts "$d" server) \
			-cp "$lib/*" kafka.Kafka "$d/node$i/server.properties" \
			</dev/null >"$d/node$i/logs/stdout.log" 2>&1 &
		echo $! >"$d/node$i/pid"
		pids="$pids${pids:+ }$!"
	done
	# The watchdog: kills the cluster after the timeout, stopped or not.
	# It ends by itself as soon as no node is left.
	setsid bash -c "alive() { for p in $pids; do kill -0 \$p 2>/dev/null && return 0; done; return 1; }
		while alive && [ \$(date +%s) -lt $deadline ]; do sleep 1; done
		alive || exit 0
		kill $pids 2>/dev/null; sleep 10; kill -9 $pids 2>/dev/null
		[ -f $d/tcpdump.pid ] && kill -INT \$(cat $d/tcpdump.pid) 2>/dev/null" \
		</dev/null >/dev/null 2>&1 &
	echo $! >"$d/watchdog.pid"
	echo "$pids" >"$d/pids"

	join() { local IFS=,; echo "$*"; }
	local bp=() bs=() bt=() bc=()
	for i in $(seq 0 $((n - 1))); do
		bp+=("127.0.0.1:${plain[$i]}")
		bs+=("127.0.0.1:${sasl[$i]}")
		bt+=("127.0.0.1:${ssl[$i]}")
		bc+=("127.0.0.1:${ctrl[$i]}")
	done
	cat >"$d/env.tmp" <<E
KAFKA_VERSION=$v
KAFKA_NODES=$n
KAFKA_DIR=$d
KAFKA_LIB=$lib
KAFKA_CLASSPATH='$lib/*'
KAFKA_CLUSTER_ID=$cid
KAFKA_PLAINTEXT=$(join "${bp[@]}")
KAFKA_SASL=$(join "${bs[@]}")
KAFKA_SSL=$(join "${bt[@]}")
KAFKA_CONTROLLER=$(join "${bc[@]}")
KAFKA_CLIENT_PORTS='${plain[*]} ${sasl[*]} ${ssl[*]}'
KAFKA_CONTROLLER_PORTS='${ctrl[*]}'
KAFKA_PORTS='${all[*]}'
KAFKA_USER=alice
KAFKA_PASSWORD=alice-secret
KAFKA_ADMIN_USER=admin
KAFKA_ADMIN_PASSWORD=admin-secret
KAFKA_CA=$d/ca.pem
KAFKA_TRUSTSTORE=$d/truststore.p12
KAFKA_TRUSTSTORE_PASSWORD=$pass
KAFKA_CLIENT_SSL=$d/client-ssl.properties
KAFKA_CLIENT_PLAIN=$d/client-plain.properties
KAFKA_CLIENT_SCRAM256=$d/client-scram256.properties
KAFKA_CLIENT_SCRAM512=$d/client-scram512.properties
KAFKA_PIDS='$pids'
KAFKA_DEADLINE=$deadline
E
	local wait_until=$(($(date +%s) + ${KAFKA_START_WAIT:-120}))
	[ "$wait_until" -gt "$deadline" ] && wait_until=$deadline
	if ! wait_started "$d" "$n" "$wait_until"; then
		print_logs "$d"
		stop_dir "$d" quiet || true
		die "Kafka $v did not start (logs above, in $d/node*/logs)"
	fi
	mv "$d/env.tmp" "$d/env"
	log "Kafka $v: $n node(s) up, PLAINTEXT $(join "${bp[@]}"); stops by itself in ${timeout}s"
	echo "$d/env"
}

# stop_dir DIR [quiet]
stop_dir() {
	local d=$1 pids="" p i
	[ -f "$d/pids" ] && pids=$(cat "$d/pids")
	for p in $pids; do kill "$p" 2>/dev/null || true; done
	for i in $(seq 1 40); do
		local alive=0
		for p in $pids; do kill -0 "$p" 2>/dev/null && alive=1; done
		[ "$alive" = 0 ] && break
		sleep 0.5
	done
	for p in $pids; do kill -9 "$p" 2>/dev/null || true; done
	if [ -f "$d/watchdog.pid" ]; then
		kill "$(cat "$d/watchdog.pid")" 2>/dev/null || true
		rm -f "$d/watchdog.pid"
	fi
	rm -f "$d/pids"
	if [ -f "$d/tcpdump.pid" ]; then
		local t
		t=$(cat "$d/tcpdump.pid")
		kill -INT "$t" 2>/dev/null || true
		for i in $(seq 1 30); do kill -0 "$t" 2>/dev/null || break; sleep 0.1; done
		rm -f "$d/tcpdump.pid"
	fi
	[ "${2:-}" = quiet ] || log "stopped $d"
}

load_env() {
	local d=$1
	[ -f "$d/env" ] || die "$d/env: no cluster started there (realkafka.sh start $d)"
	set -a
	# shellcheck disable=SC1091
	. "$d/env"
	set +a
}

# tool_class VERSION-LIB NAME: the class of Kafka's bin/NAME.sh in that release.
tool_class() {
	local lib=$1 name=${2%.sh} cands c
	case $name in
	kafka-topics) cands="org.apache.kafka.tools.TopicCommand kafka.admin.TopicCommand" ;;
	kafka-console-producer) cands="org.apache.kafka.tools.ConsoleProducer kafka.tools.ConsoleProducer" ;;
	kafka-console-consumer) cands="org.apache.kafka.tools.consumer.ConsoleConsumer kafka.tools.ConsoleConsumer" ;;
	kafka-console-share-consumer) cands="org.apache.kafka.tools.consumer.ConsoleShareConsumer" ;;
	kafka-consumer-groups) cands="org.apache.kafka.tools.consumer.group.ConsumerGroupCommand kafka.admin.ConsumerGroupCommand" ;;
	kafka-share-groups) cands="org.apache.kafka.tools.consumer.group.ShareGroupCommand" ;;
	kafka-streams-groups) cands="org.apache.kafka.tools.streams.StreamsGroupCommand" ;;
	kafka-groups) cands="org.apache.kafka.tools.GroupsCommand" ;;
	kafka-configs) cands="org.apache.kafka.tools.ConfigCommand kafka.admin.ConfigCommand" ;;
	kafka-acls) cands="org.apache.kafka.tools.AclCommand kafka.admin.AclCommand" ;;
	kafka-transactions) cands="org.apache.kafka.tools.TransactionsCommand" ;;
	kafka-verifiable-producer) cands="org.apache.kafka.tools.VerifiableProducer" ;;
	kafka-verifiable-consumer) cands="org.apache.kafka.tools.VerifiableConsumer" ;;
	kafka-verifiable-share-consumer) cands="org.apache.kafka.tools.VerifiableShareConsumer" ;;
	kafka-producer-perf-test) cands="org.apache.kafka.tools.ProducerPerformance" ;;
	kafka-consumer-perf-test) cands="org.apache.kafka.tools.ConsumerPerformance" ;;
	kafka-share-consumer-perf-test) cands="org.apache.kafka.tools.ShareConsumerPerformance" ;;
	kafka-client-metrics) cands="org.apache.kafka.tools.ClientMetricsCommand" ;;
	kafka-features) cands="org.apache.kafka.tools.FeatureCommand" ;;
	kafka-metadata-quorum) cands="org.apache.kafka.tools.MetadataQuorumCommand" ;;
	kafka-broker-api-versions) cands="org.apache.kafka.tools.BrokerApiVersionsCommand kafka.admin.BrokerApiVersionsCommand" ;;
	kafka-delete-records) cands="org.apache.kafka.tools.DeleteRecordsCommand kafka.admin.DeleteRecordsCommand" ;;
	kafka-log-dirs) cands="org.apache.kafka.tools.LogDirsCommand kafka.admin.LogDirsCommand" ;;
	kafka-leader-election) cands="org.apache.kafka.tools.LeaderElectionCommand kafka.admin.LeaderElectionCommand" ;;
	kafka-reassign-partitions) cands="org.apache.kafka.tools.reassign.ReassignPartitionsCommand kafka.admin.ReassignPartitionsCommand" ;;
	kafka-delegation-tokens) cands="org.apache.kafka.tools.DelegationTokenCommand kafka.admin.DelegationTokenCommand" ;;
	kafka-get-offsets) cands="org.apache.kafka.tools.GetOffsetShell kafka.tools.GetOffsetShell" ;;
	kafka-storage) cands="kafka.tools.StorageTool" ;;
	*.*) echo "$name"; return 0 ;;
	*) die "unknown tool '$name'" ;;
	esac
	for c in $cands; do
		if grep -qxF "$c" "$lib/.classes"; then
			echo "$c"
			return 0
		fi
	done
	die "$name: not in Kafka $(basename "$(dirname "$lib")") (looked for $cands)"
}

# run_java DIR CLASS ARGS: a tool's JVM. Without KAFKA_EXTRA_CP it shares
# the classes of a CDS archive of the release's tools (made by the first
# run, kept beside lib/): a third less of a tool's start.
run_java() {
	local d=$1 class=$2
	shift 2
	local cds=(-Xlog:disable -Xlog:all=warning:stderr) jsa=$KAFKA_LIB/../tools.jsa tmp=""
	if [ -z "${KAFKA_EXTRA_CP:-}" ]; then
		if [ -f "$jsa" ]; then
			cds+=(-XX:SharedArchiveFile="$jsa")
		else
			# The dump warns of every class it leaves out: quiet.
			tmp=$jsa.$$.tmp
			cds=(-Xlog:disable -XX:ArchiveClassesAtExit="$tmp")
		fi
	fi
	local rc=0
	# shellcheck disable=SC2086
	java -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 "${cds[@]}" \
		$(jvm_log_opts "$d" tools) -cp "$KAFKA_LIB/*${KAFKA_EXTRA_CP:+:$KAFKA_EXTRA_CP}" "$class" "$@" || rc=$?
	if [ -n "$tmp" ]; then
		if [ -s "$tmp" ]; then mv -f "$tmp" "$jsa"; else rm -f "$tmp"; fi
	fi
	return "$rc"
}

# port_filter "P1 P2 ...": a pcap filter for TCP on those ports.
port_filter() {
	local p f=""
	for p in $1; do f="$f${f:+ or }port $p"; done
	echo "tcp and ($f)"
}

# tcpdump_start OUT FILTER ERRLOG: starts tcpdump on lo in the background,
# sets tcpdump_pid, and returns once it listens.
tcpdump_start() {
	setsid tcpdump -i lo --immediate-mode -U -s 65600 -B 65536 -w "$1" "$2" </dev/null >/dev/null 2>"$3" &
	tcpdump_pid=$!
	local i
	for i in $(seq 1 100); do
		grep -q 'listening on' "$3" && return 0
		kill -0 "$tcpdump_pid" 2>/dev/null || { cat "$3" >&2; die "tcpdump failed"; }
		sleep 0.1
	done
	die "tcpdump did not start listening"
}

record() {
	local d=$1 out=$2 filter=""
	shift 2
	while [ $# -gt 0 ]; do
		case $1 in
		--filter) filter=$2; shift 2 ;;
		--) shift; break ;;
		*) usage ;;
		esac
	done
	[ $# -gt 0 ] || usage
	load_env "$d"
	need_tcpdump
	[ -n "$filter" ] || filter=$(port_filter "$KAFKA_PORTS")
	local errlog
	errlog=$(mktemp)
	tcpdump_start "$out" "$filter" "$errlog"
	local tpid=$tcpdump_pid
	local rc=0
	"$@" || rc=$?
	sleep 0.5
	kill -INT "$tpid" 2>/dev/null || true
	wait "$tpid" 2>/dev/null || true
	grep -E 'packets (captured|received|dropped)' "$errlog" | sed 's/^/realkafka: tcpdump: /' >&2 || true
	rm -f "$errlog"
	return "$rc"
}

# clients: confluent-kafka and kafka-python in a virtualenv, KafkaJS in a
# node_modules, in the cache; prints the folder.
clients() {
	local c=$cache/clients
	if ! { [ -x "$c/py/bin/python" ] && "$c/py/bin/python" -c 'import confluent_kafka, kafka' 2>/dev/null; }; then
		command -v python3 >/dev/null 2>&1 || die "python3 is missing"
		log "installing confluent-kafka and kafka-python into $c/py"
		mkdir -p "$c"
		python3 -m venv "$c/py" || { apt_install python3-venv && python3 -m venv "$c/py"; }
		"$c/py/bin/pip" install -q --disable-pip-version-check confluent-kafka kafka-python >&2
	fi
	if [ ! -f "$c/node/node_modules/kafkajs/package.json" ]; then
		command -v npm >/dev/null 2>&1 || apt_install nodejs npm
		log "installing kafkajs into $c/node"
		mkdir -p "$c/node"
		(cd "$c/node" && { [ -f package.json ] || npm init -y >/dev/null; } && npm install --silent --no-audit --no-fund kafkajs >&2)
	fi
	echo "$c"
}

case ${1:-} in
clients) [ $# = 1 ] || usage; clients ;;
fetch) [ $# = 2 ] || usage; fetch "$2" ;;
start) shift; start "$@" ;;
stop) [ $# = 2 ] || usage; [ -d "$2" ] || die "$2: no such folder"; stop_dir "$(cd "$2" && pwd)" ;;
tool)
	[ $# -ge 3 ] || usage
	d=$(cd "$2" && pwd); load_env "$d"
	class=$(tool_class "$KAFKA_LIB" "$3")
	shift 3
	run_java "$d" "$class" "$@"
	;;
java)
	[ $# -ge 3 ] || usage
	d=$(cd "$2" && pwd); load_env "$d"
	class=$3
	shift 3
	run_java "$d" "$class" "$@"
	;;
record) shift; [ $# -ge 3 ] || usage; d=$(cd "$1" && pwd); out=$2; shift 2; record "$d" "$out" "$@" ;;
*) usage ;;
esac
