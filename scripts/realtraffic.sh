#!/usr/bin/env bash
# realtraffic.sh: records real clients against a real Apache Kafka broker
# and turns the captures into identify's labelled corpora
# (identify/testdata/real/CLIENT.txt, each response labelled by its
# request's API and version: scripts/realcorpus).
#
# One KRaft node of Kafka $KAFKA_VERSION (4.4.0) on loopback
# (scripts/realkafka.sh), then each client's workload in turn under
# tcpdump on the client listeners (PLAINTEXT, SASL_PLAINTEXT): admin
# calls, producers (plain, idempotent, transactional), a consumer group
# that stays $STAY seconds (20) so that heartbeats and offset commits
# recur, a SASL client. The clients:
#   confluent   confluent-kafka (librdkafka), from PyPI
#   kafkapython kafka-python, from PyPI
#   kafkajs     KafkaJS, from npm
#   kcat        kcat (librdkafka 2.0.2), from Debian
#   java        Kafka's own tools (console producer and consumer, verifiable
#               producer and consumer, topics, groups, configs, ACLs,
#               transactions, features, API versions), from Maven
#   kgo         franz-go (scripts/realtraffic/kgoload)
# and the cluster: three KRaft nodes recorded from before the first starts
# (controllers' votes and fetches, registrations, broker heartbeats,
# replication), with a producer of Kafka's on a topic of three replicas.
# Python and npm packages are realkafka.sh clients' (in the cache); the rest goes in ${KWIRE_CACHE:-~/.cache/kwire}/realtraffic;
# the captures stay there too (pcap/), only the corpora are written into
# the repository. Bounded: every workload stops by count and time, and the
# brokers stop themselves after 20 minutes whatever happens.
#
#   scripts/realtraffic.sh [CLIENT|cluster ...]     (default: all of them)
#   scripts/realtraffic.sh convert [CLIENT|cluster ...]
#       writes the corpora again from the captures recorded before
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
cache=${KWIRE_CACHE:-$HOME/.cache/kwire}/realtraffic
version=${KAFKA_VERSION:-4.4.0}
export STAY=${STAY:-20}
out=$repo/identify/testdata/real
mkdir -p "$cache/pcap" "$out"
all="confluent kafkapython kafkajs kcat java kgo cluster"
what=${*:-$all}
log() { printf 'realtraffic: %s\n' "$*" >&2; }

# The clients, installed once into the cache.
need_clients() {
	clients=$(scripts/realkafka.sh clients)
	if ! command -v kcat >/dev/null; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q kcat >/dev/null
	fi
	go build -o "$cache/kgoload" ./scripts/realtraffic/kgoload
}

# workload CLIENT: the client's workload, with DIR/env's variables set.
workload() {
	local rk="$repo/scripts/realkafka.sh"
	case $1 in
	confluent) "$clients/py/bin/python" scripts/realtraffic/confluent.py ;;
	kafkapython) "$clients/py/bin/python" scripts/realtraffic/kafkapython.py ;;
	kafkajs) NODE_PATH=$clients/node/node_modules node scripts/realtraffic/kafkajs.js ;;
	kgo) "$cache/kgoload" -stay "${STAY}s" ;;
	kcat)
		local b=$KAFKA_PLAINTEXT
		kcat -b "$b" -L >/dev/null
		seq 1 300 | sed 's/^/line /' | kcat -b "$b" -P -t kcat-lines -K: -X topic.partitioner=murmur2_random
		seq 1 100 | kcat -b "$b" -P -t kcat-lines -z snappy -X enable.idempotence=true
		timeout "$((STAY + 5))" kcat -b "$b" -G kcat-group kcat-lines -X heartbeat.interval.ms=1000 -X auto.commit.interval.ms=1000 -q -o beginning >/dev/null || true
		kcat -b "$b" -C -t kcat-lines -p 0 -o beginning -e -q >/dev/null
		kcat -b "$b" -Q -t kcat-lines:0:-1 >/dev/null || true
		seq 1 20 | kcat -b "$KAFKA_SASL" -P -t kcat-lines -X security.protocol=SASL_PLAINTEXT -X sasl.mechanism=PLAIN \
			-X sasl.username="$KAFKA_USER" -X sasl.password="$KAFKA_PASSWORD"
		;;
	java)
		local d=$KAFKA_DIR b=$KAFKA_PLAINTEXT
		"$rk" tool "$d" kafka-topics --bootstrap-server "$b" --create --topic java-events --partitions 3 --replication-factor 1
		"$rk" tool "$d" kafka-topics --bootstrap-server "$b" --create --topic java-tmp --partitions 1 --replication-factor 1
		"$rk" tool "$d" kafka-topics --bootstrap-server "$b" --describe --topic java-events >/dev/null
		seq 1 300 | sed 's/^/k&:value &/' | "$rk" tool "$d" kafka-console-producer --bootstrap-server "$b" --topic java-events \
			--property parse.key=true --property key.separator=: >/dev/null
		"$rk" tool "$d" kafka-verifiable-producer --bootstrap-server "$b" --topic java-events --max-messages 200 \
			--transactional-id java-txn-1 --transaction-duration-ms 300 >/dev/null 2>&1 ||
			"$rk" tool "$d" kafka-verifiable-producer --bootstrap-server "$b" --topic java-events --max-messages 200 >/dev/null
		"$rk" tool "$d" kafka-console-consumer --bootstrap-server "$b" --topic java-events --group java-group --from-beginning \
			--consumer-property heartbeat.interval.ms=1000 --consumer-property auto.commit.interval.ms=1000 \
			--timeout-ms "$((STAY * 1000))" >/dev/null 2>&1 || true
		timeout "$((STAY + 20))" "$rk" tool "$d" kafka-verifiable-consumer --bootstrap-server "$b" --topic java-events --group-id java-group-848 \
			--group-protocol consumer --max-messages 400 >/dev/null 2>&1 || true
		"$rk" tool "$d" kafka-consumer-groups --bootstrap-server "$b" --list >/dev/null
		"$rk" tool "$d" kafka-consumer-groups --bootstrap-server "$b" --describe --group java-group >/dev/null 2>&1 || true
		"$rk" tool "$d" kafka-configs --bootstrap-server "$b" --describe --entity-type topics --entity-name java-events >/dev/null
		"$rk" tool "$d" kafka-configs --bootstrap-server "$b" --alter --entity-type topics --entity-name java-tmp --add-config retention.ms=3600000 >/dev/null
		"$rk" tool "$d" kafka-acls --bootstrap-server "$b" --list >/dev/null 2>&1 || true
		"$rk" tool "$d" kafka-transactions --bootstrap-server "$b" list >/dev/null 2>&1 || true
		"$rk" tool "$d" kafka-features --bootstrap-server "$b" describe >/dev/null 2>&1 || true
		"$rk" tool "$d" kafka-broker-api-versions --bootstrap-server "$b" >/dev/null 2>&1 || true
		"$rk" tool "$d" kafka-get-offsets --bootstrap-server "$b" --topic java-events >/dev/null 2>&1 || true
		seq 1 20 | "$rk" tool "$d" kafka-console-producer --bootstrap-server "$KAFKA_SASL" --topic java-events \
			--producer.config "$KAFKA_CLIENT_SCRAM512" >/dev/null
		"$rk" tool "$d" kafka-topics --bootstrap-server "$b" --delete --topic java-tmp
		;;
	*) log "no such client: $1"; return 2 ;;
	esac
}

# convert NAME: the corpus of a capture recorded before, with its ports.
convert() {
	go run ./scripts/realcorpus -ports "$(cat "$cache/pcap/$1.ports")" -out "$out/$1.txt" "$cache/pcap/$1.pcap"
}

if [ "${1:-}" = convert ]; then
	shift
	for c in ${*:-$all}; do convert "$c"; done
	exit 0
fi
need_clients
scripts/realkafka.sh fetch "$version" >/dev/null
dir=$(mktemp -d)
trap 'scripts/realkafka.sh stop "$dir/one" >/dev/null 2>&1 || true; scripts/realkafka.sh stop "$dir/three" >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT
clients=""
for c in $what; do
	[ "$c" = cluster ] || clients="$clients $c"
done
if [ -n "$clients" ]; then
	scripts/realkafka.sh start "$dir/one" --version "$version" --timeout 1200 >/dev/null
	set -a
	# shellcheck disable=SC1091
	. "$dir/one/env"
	set +a
	filter="tcp and ($(for p in $KAFKA_CLIENT_PORTS; do printf 'port %s or ' "$p"; done | sed 's/ or $//'))"
	for c in $clients; do
		log "$c"
		scripts/realkafka.sh record "$dir/one" "$cache/pcap/$c.pcap" --filter "$filter" -- bash -c "$(declare -f workload); repo=$repo cache=$cache clients=$clients; workload $c"
		echo "$KAFKA_PORTS" >"$cache/pcap/$c.ports"
		convert "$c"
	done
	scripts/realkafka.sh stop "$dir/one" >/dev/null
fi
case " $what " in
*" cluster "*)
	log cluster
	scripts/realkafka.sh start "$dir/three" --version "$version" --nodes 3 --timeout 1200 --record "$cache/pcap/cluster.pcap" >/dev/null
	(
		set -a
		# shellcheck disable=SC1091
		. "$dir/three/env"
		set +a
		rk=scripts/realkafka.sh
		$rk tool "$dir/three" kafka-topics --bootstrap-server "$KAFKA_PLAINTEXT" --create --topic replicated --partitions 3 --replication-factor 3
		$rk tool "$dir/three" kafka-producer-perf-test --topic replicated --num-records 2000 --record-size 20 --throughput 100 \
			--producer-props bootstrap.servers="$KAFKA_PLAINTEXT" acks=all >/dev/null
		sleep "$STAY"
	)
	# shellcheck disable=SC1091
	(. "$dir/three/env"; echo "$KAFKA_PORTS") >"$cache/pcap/cluster.ports"
	scripts/realkafka.sh stop "$dir/three" >/dev/null
	convert cluster
	;;
esac
ls -l "$out" >&2
