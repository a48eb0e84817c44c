// Package realkafka tests kwire against Apache Kafka itself: its tests start
// a KRaft cluster from Maven Central's jars (scripts/realkafka.sh), run real
// clients against it (scripts/realclients.sh: Kafka's Java tools and a
// Streams application, librdkafka through confluent-kafka, kafka-python,
// KafkaJS, franz-go), recorded with tcpdump as users record them, and read
// every capture with package capture: every frame found once, paired,
// decoded without an error node and written back from its JSON form byte
// for byte; the records each client produced, the nested payloads (the
// consumer protocol's subscription and assignment, SASL PLAIN masked,
// SCRAM, OTLP telemetry) and a three-node cluster's controller quorum and
// replication; and which release each broker's ApiVersions names.
//
// Set KWIRE_REAL_KEEP=DIR to keep the captures (one folder per run).
//
// Apache Kafka itself as the peer: scripts/realkafka.sh (Kafka's jars from
// Maven Central, a KRaft cluster of 1 or 3 nodes on loopback with PLAINTEXT,
// SASL_PLAINTEXT and SSL listeners on free ports, a watchdog, Kafka's tools
// from the jars, tcpdump around a command) and scripts/realclients.sh (the
// workloads: Kafka's Java tools and a Streams app, confluent-kafka,
// kafka-python, KafkaJS, franz-go, each recorded with tcpdump -i lo); the
// tests read every capture with capture against the TCP streams reassembled
// on their own (gopacket): every frame once, paired, decoded without an
// error node, its JSON form encoding back byte for byte; records, nested
// payloads, the quorum's and replication's APIs, each broker's release.
// Kafka 4.4.0 (every workload), 4.0.2 and 3.9.2 (some), three nodes of
// 4.4.0.
package realkafka
