#!/usr/bin/env bash
# realclients.sh: real Kafka clients against a cluster of scripts/realkafka.sh,
# each workload recorded with tcpdump as users record them.
#
#   scripts/realclients.sh DIR OUTDIR [WORKLOAD...]
#       Runs each WORKLOAD (default: every one the cluster's release has)
#       against the cluster started in DIR, each under
#       `realkafka.sh record`, and writes into OUTDIR:
#         W.pcap      the capture (tcpdump -i lo, the cluster's ports)
#         W.records   the records W produced, a line per topic:
#                     TOPIC<TAB>SRC<TAB>N: records key-I, value
#                     "value-I from SRC", headers src=SRC and i=I, I < N
#         W.about     client, version, release, listeners
#         W.log       the clients' output
#       Fails at the first workload that fails (its log printed).
#
#   scripts/realclients.sh list [VERSION]
#       The workloads (those VERSION has, default 4.4.0).
#
# Workloads:
#   java-admin    Kafka's tools: kafka-topics, kafka-configs (topics, brokers,
#                 SCRAM users), kafka-acls (StandardAuthorizer),
#                 kafka-features, kafka-metadata-quorum,
#                 kafka-broker-api-versions, kafka-log-dirs,
#                 kafka-client-metrics; PLAINTEXT
#   java-console  kafka-console-producer with every compression.type, with
#                 keys and headers; kafka-console-consumer in a classic group
#                 and (4.0+) a consumer group (KIP-848);
#                 kafka-consumer-groups; the Java clients push telemetry
#                 (KIP-714) to the subscription the run sets up; PLAINTEXT
#   java-sasl     console producer over SASL PLAIN, consumers over
#                 SCRAM-SHA-256 and SCRAM-SHA-512
#   java-ssl      kafka-topics and the console producer over SSL
#   java-txn      kafka-verifiable-producer (idempotent), producer-perf-test
#                 with a transactional id, TransactionalMessageCopier
#                 (transactional offsets), kafka-transactions
#   java-share    (4.2+) kafka-console-share-consumer, kafka-share-groups
#   java-streams  a Kafka Streams word count (scripts/realclients/WordCount.java)
#                 with group.protocol=streams (KIP-1071, 4.2+; classic before),
#                 kafka-streams-groups
#   librdkafka    confluent-kafka (PyPI, newest) : zstd over SCRAM-SHA-256, a
#                 consumer group (4.0+: group.protocol=consumer)
#   kafka-python  kafka-python (PyPI, newest): gzip over PLAIN, a group
#   kafkajs       KafkaJS (npm, newest): gzip over SCRAM-SHA-512, a group
#   franz-go      franz-go's kgo (go.mod's): lz4 over SCRAM-SHA-512, a group
#
# The Python and Node packages are installed once into
# ${KWIRE_CACHE:-$HOME/.cache/kwire}/clients (pip, npm), never the repository.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
rk=$here/realkafka.sh
cache=${KWIRE_CACHE:-$HOME/.cache/kwire}
clients=$cache/clients
all_workloads="java-admin java-console java-sasl java-ssl java-txn java-share java-streams librdkafka kafka-python kafkajs franz-go"
N=5 # records per topic

log() { printf 'realclients: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 2; }

# at_least VERSION MIN: VERSION >= MIN.
at_least() { [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]; }

# has VERSION WORKLOAD: whether the release has what the workload needs.
has() {
	case $2 in
	java-share) at_least "$1" 4.2.0 ;;
	*) return 0 ;;
	esac
}

# The non-Java clients, installed once by realkafka.sh into $clients.
python_ready() { "$rk" clients >/dev/null; }
node_ready() { "$rk" clients >/dev/null; }

# streams_ready: WordCount compiled against the cluster's release.
streams_ready() {
	local sum dir
	sum=$(sha256sum "$here/realclients/WordCount.java" | cut -c1-12)
	dir=$KAFKA_LIB/../kwire-wordcount-$sum
	if [ ! -f "$dir/WordCount.class" ]; then
		rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
		javac -nowarn -d "$dir.tmp" -cp "$KAFKA_LIB/*" "$here/realclients/WordCount.java"
		rm -rf "$dir" && mv "$dir.tmp" "$dir"
	fi
	(cd "$dir" && pwd)
}

# The workloads. Each runs in a child bash under `realkafka.sh record`, with
# DIR/env's variables, T (Kafka's tool runner), OUT and W set.
T() { "$rk" tool "$KAFKA_DIR" "$@"; }

# lines SRC N: the console producer's input: headers, key, value.
lines() {
	local i
	for i in $(seq 0 $(($2 - 1))); do
		printf 'src:%s,i:%d\tkey-%d\tvalue-%d from %s\n' "$1" "$i" "$i" "$i" "$1"
	done
}

# produce TOPIC SRC BOOTSTRAP [CONFIG [PROPS...]]: N records with the console producer.
produce() {
	local topic=$1 src=$2 boot=$3 cfg=${4:-}
	shift 3
	[ $# -gt 0 ] && shift
	local extra=()
	[ -n "$cfg" ] && extra+=(--producer.config "$cfg")
	local p
	for p in "$@"; do extra+=(--producer-property "$p"); done
	lines "$src" "$N" | T kafka-console-producer --bootstrap-server "$boot" --topic "$topic" \
		--property parse.key=true --property parse.headers=true "${extra[@]}"
	printf '%s\t%s\t%d\n' "$topic" "$src" "$N" >>"$OUT/$W.records"
}

# consume TOPIC BOOTSTRAP [ARGS...]: N records with the console consumer.
consume() {
	local topic=$1 boot=$2
	shift 2
	T kafka-console-consumer --bootstrap-server "$boot" --topic "$topic" --from-beginning \
		--max-messages "$N" --timeout-ms 30000 --property print.key=true --property print.headers=true "$@"
}

topic() { T kafka-topics --bootstrap-server "$KAFKA_PLAINTEXT" --create --if-not-exists --topic "$1" --partitions "${2:-1}"; }

w_java_admin() {
	local b=$KAFKA_PLAINTEXT
	T kafka-topics --bootstrap-server "$b" --create --if-not-exists --topic kw-admin --partitions 2 --config retention.ms=3600000
	T kafka-topics --bootstrap-server "$b" --describe --topic kw-admin
	T kafka-topics --bootstrap-server "$b" --alter --topic kw-admin --partitions 3
	T kafka-topics --bootstrap-server "$b" --list
	T kafka-configs --bootstrap-server "$b" --alter --entity-type topics --entity-name kw-admin --add-config cleanup.policy=compact,max.message.bytes=100000
	T kafka-configs --bootstrap-server "$b" --describe --entity-type topics --entity-name kw-admin
	T kafka-configs --bootstrap-server "$b" --describe --entity-type brokers --entity-name 1
	T kafka-configs --bootstrap-server "$b" --alter --entity-type users --entity-name bob --add-config 'SCRAM-SHA-512=[iterations=4096,password=bob-secret]'
	T kafka-configs --bootstrap-server "$b" --describe --entity-type users --entity-name bob
	T kafka-acls --bootstrap-server "$b" --add --allow-principal User:alice --operation Read --operation Describe --topic kw-admin --group kw-admin-group
	T kafka-acls --bootstrap-server "$b" --list --topic kw-admin
	T kafka-acls --bootstrap-server "$b" --remove --force --allow-principal User:alice --operation Read --operation Describe --topic kw-admin
	T kafka-features --bootstrap-server "$b" describe
	T kafka-metadata-quorum --bootstrap-server "$b" describe --status
	T kafka-broker-api-versions --bootstrap-server "$b"
	T kafka-log-dirs --bootstrap-server "$b" --describe --topic-list kw-admin
	T kafka-client-metrics --bootstrap-server "$b" --alter --name kw-admin --metrics org.apache.kafka.producer. --interval 5000
	T kafka-client-metrics --bootstrap-server "$b" --describe --name kw-admin
	T kafka-client-metrics --bootstrap-server "$b" --delete --name kw-admin
	T kafka-topics --bootstrap-server "$b" --delete --topic kw-admin
}

w_java_console() {
	local b=$KAFKA_PLAINTEXT c
	for c in none gzip snappy lz4 zstd; do
		produce "kw-console-$c" "java-console-$c" "$b" "" "compression.type=$c" linger.ms=50
	done
	consume kw-console-gzip "$b" --group kw-classic --consumer-property group.protocol=classic
	if at_least "$KAFKA_VERSION" 4.0.0; then
		consume kw-console-zstd "$b" --group kw-848 --consumer-property group.protocol=consumer
		T kafka-consumer-groups --bootstrap-server "$b" --describe --group kw-848
	fi
	T kafka-consumer-groups --bootstrap-server "$b" --list
	T kafka-consumer-groups --bootstrap-server "$b" --describe --group kw-classic
	T kafka-consumer-groups --bootstrap-server "$b" --reset-offsets --to-earliest --execute --group kw-classic --topic kw-console-gzip
}

w_java_sasl() {
	produce kw-sasl java-sasl-plain "$KAFKA_SASL" "$KAFKA_CLIENT_PLAIN"
	consume kw-sasl "$KAFKA_SASL" --consumer.config "$KAFKA_CLIENT_SCRAM256" --group kw-sasl-256
	consume kw-sasl "$KAFKA_SASL" --consumer.config "$KAFKA_CLIENT_SCRAM512"
}

w_java_ssl() {
	T kafka-topics --bootstrap-server "$KAFKA_SSL" --command-config "$KAFKA_CLIENT_SSL" --list
	# The records are encrypted: no .records line, kwire cannot see them.
	lines java-ssl "$N" | T kafka-console-producer --bootstrap-server "$KAFKA_SSL" --topic kw-ssl \
		--producer.config "$KAFKA_CLIENT_SSL" --property parse.key=true --property parse.headers=true
}

w_java_txn() {
	local b=$KAFKA_PLAINTEXT
	topic kw-txn-in
	topic kw-txn-out
	T kafka-verifiable-producer --bootstrap-server "$b" --topic kw-txn-in --max-messages 10 --acks -1 \
		--producer.config <(printf 'enable.idempotence=true\nretries=5\n')
	T kafka-producer-perf-test --bootstrap-server "$b" --topic kw-txn-perf --num-records 20 --record-size 16 \
		--throughput -1 --transactional-id kw-perf-txn --transaction-duration-ms 200
	T org.apache.kafka.tools.TransactionalMessageCopier --broker-list "$b" --input-topic kw-txn-in \
		--input-partition 0 --output-topic kw-txn-out --transactional-id kw-copier --consumer-group kw-copier \
		--transaction-size 5 --max-messages 10 --use-group-metadata
	T kafka-transactions --bootstrap-server "$b" list
	T kafka-transactions --bootstrap-server "$b" describe --transactional-id kw-copier
	T kafka-transactions --bootstrap-server "$b" describe-producers --topic kw-txn-out --partition 0
}

w_java_share() {
	local b=$KAFKA_PLAINTEXT
	topic kw-share
	T kafka-configs --bootstrap-server "$b" --alter --entity-type groups --entity-name kw-share --add-config share.auto.offset.reset=earliest
	produce kw-share java-share "$b"
	T kafka-console-share-consumer --bootstrap-server "$b" --topic kw-share --group kw-share \
		--max-messages "$N" --timeout-ms 30000 --property print.key=true
	T kafka-share-groups --bootstrap-server "$b" --describe --group kw-share
}

w_java_streams() {
	local b=$KAFKA_PLAINTEXT proto=classic dir
	at_least "$KAFKA_VERSION" 4.2.0 && proto=streams
	dir=$(streams_ready)
	topic kw-words
	topic kw-counts
	produce kw-words java-streams "$b"
	local state
	state=$(mktemp -d)
	KAFKA_EXTRA_CP=$dir "$rk" java "$KAFKA_DIR" WordCount "$b" kw-wordcount kw-words kw-counts "$state" "$proto" 3
	rm -rf "$state"
	if [ "$proto" = streams ]; then
		T kafka-streams-groups --bootstrap-server "$b" --describe --group kw-wordcount
	fi
}

w_librdkafka() {
	local proto=classic
	at_least "$KAFKA_VERSION" 4.0.0 && proto=consumer
	"$clients/py/bin/python" "$here/realclients/confluent.py" "$KAFKA_PLAINTEXT" "$KAFKA_SASL" kw-librdkafka "$N" kw-librdkafka "$proto" "$KAFKA_USER" "$KAFKA_PASSWORD"
	printf 'kw-librdkafka\tlibrdkafka\t%d\n' "$N" >>"$OUT/$W.records"
}

w_kafka_python() {
	"$clients/py/bin/python" "$here/realclients/kafkapython.py" "$KAFKA_PLAINTEXT" "$KAFKA_SASL" kw-kafka-python "$N" kw-kafka-python "$KAFKA_USER" "$KAFKA_PASSWORD"
	printf 'kw-kafka-python\tkafka-python\t%d\n' "$N" >>"$OUT/$W.records"
}

w_kafkajs() {
	NODE_PATH=$clients/node/node_modules node "$here/realclients/kafkajs.js" "$KAFKA_PLAINTEXT" "$KAFKA_SASL" kw-kafkajs "$N" kw-kafkajs "$KAFKA_USER" "$KAFKA_PASSWORD"
	printf 'kw-kafkajs\tkafkajs\t%d\n' "$N" >>"$OUT/$W.records"
}

w_franz_go() {
	"$clients/kgo" "$KAFKA_PLAINTEXT" "$KAFKA_SASL" kw-franz-go "$N" kw-franz-go "$KAFKA_USER" "$KAFKA_PASSWORD"
	printf 'kw-franz-go\tfranz-go\t%d\n' "$N" >>"$OUT/$W.records"
}

# about W: the client and its version, for W.about.
about() {
	case $1 in
	java-*) echo "client: Apache Kafka's Java tools and clients $KAFKA_VERSION" ;;
	librdkafka) "$clients/py/bin/python" -c 'import confluent_kafka as c; print("client: confluent-kafka", c.__version__, "(librdkafka", c.libversion()[0] + ")")' ;;
	kafka-python) "$clients/py/bin/python" -c 'import kafka; print("client: kafka-python", kafka.__version__)' ;;
	kafkajs) node -e 'console.log("client: kafkajs " + require(process.argv[1] + "/kafkajs/package.json").version)' "$clients/node/node_modules" ;;
	franz-go) echo "client: franz-go $(cd "$root" && go list -m -f '{{.Version}}' github.com/twmb/franz-go)" ;;
	esac
	echo "release: Apache Kafka $KAFKA_VERSION, $KAFKA_NODES node(s), KRaft"
	echo "listeners: PLAINTEXT $KAFKA_PLAINTEXT, SASL_PLAINTEXT $KAFKA_SASL, SSL $KAFKA_SSL, CONTROLLER $KAFKA_CONTROLLER"
}

run() {
	local d=$1 out=$2
	shift 2
	[ -f "$d/env" ] || die "$d/env: start a cluster first (scripts/realkafka.sh start $d)"
	d=$(cd "$d" && pwd)
	mkdir -p "$out"
	out=$(cd "$out" && pwd)
	set -a
	# shellcheck disable=SC1091
	. "$d/env"
	set +a
	local ws=("$@") w
	if [ ${#ws[@]} = 0 ]; then
		for w in $all_workloads; do has "$KAFKA_VERSION" "$w" && ws+=("$w"); done
	fi
	for w in "${ws[@]}"; do
		case " $all_workloads " in *" $w "*) ;; *) die "unknown workload '$w' (realclients.sh list)" ;; esac
		case $w in
		librdkafka | kafka-python) python_ready ;;
		kafkajs) node_ready ;;
		franz-go) mkdir -p "$clients" && (cd "$root" && go build -o "$clients/kgo" ./scripts/realclients/kgo) ;;
		esac
	done
	# The Java clients push telemetry (KIP-714) when a subscription names
	# them; librdkafka too. Set up outside the recordings.
	T kafka-client-metrics --bootstrap-server "$KAFKA_PLAINTEXT" --alter --name kw-all \
		--metrics org.apache.kafka. --interval 1000 >/dev/null 2>"$out/.setup.log" ||
		{ cat "$out/.setup.log" >&2; die "could not set up the client-metrics subscription"; }
	export OUT=$out N
	export -f T lines produce consume topic at_least streams_ready \
		w_java_admin w_java_console w_java_sasl w_java_ssl w_java_txn w_java_share w_java_streams \
		w_librdkafka w_kafka_python w_kafkajs w_franz_go
	export here rk clients
	for w in "${ws[@]}"; do
		local fn=w_${w//-/_} t0=$SECONDS
		rm -f "$out/$w.records" "$out/$w.pcap"
		: >"$out/$w.records"
		about "$w" >"$out/$w.about"
		if ! W=$w "$rk" record "$d" "$out/$w.pcap" -- bash -c "set -euo pipefail; $fn" >"$out/$w.log" 2>&1; then
			tail -n 60 "$out/$w.log" >&2
			die "workload $w failed (log: $out/$w.log)"
		fi
		log "$w: $((SECONDS - t0)) s, $(stat -c %s "$out/$w.pcap") bytes"
	done
}

case ${1:-} in
list)
	for w in $all_workloads; do has "${2:-4.4.0}" "$w" && echo "$w"; done
	;;
"" | -h | --help) usage ;;
*) [ $# -ge 2 ] || usage; run "$@" ;;
esac
