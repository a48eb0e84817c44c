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
package realkafka
