package realkafka

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// expect is what a workload's capture must hold besides what every
// capture must (readCapture): APIs and facts of its trees (result.facts).
type expect struct {
	apis  []string
	facts []string
}

// expected are the workloads' expectations on Kafka 4.4.
var expected = map[string]expect{
	"java-admin": {apis: []string{"CreateTopics", "CreatePartitions", "DeleteTopics", "DescribeConfigs", "IncrementalAlterConfigs",
		"AlterUserScramCredentials", "DescribeUserScramCredentials", "CreateAcls", "DescribeAcls", "DeleteAcls",
		"DescribeQuorum", "DescribeLogDirs", "DescribeCluster", "ListConfigResources"}},
	"java-console": {apis: []string{"Produce", "Fetch", "JoinGroup", "SyncGroup", "ConsumerGroupHeartbeat",
		"ConsumerGroupDescribe", "DescribeGroups", "ListGroups", "OffsetCommit", "OffsetFetch", "ListOffsets",
		"InitProducerId", "GetTelemetrySubscriptions", "PushTelemetry"},
		facts: []string{"nested ConsumerProtocolSubscription", "nested ConsumerProtocolAssignment", "otlp MetricsData", "otlp metric"}},
	"java-sasl": {apis: []string{"SaslHandshake", "SaslAuthenticate", "Produce", "Fetch"},
		facts: []string{"sasl PLAIN authzid NUL user NUL password", "secret", "password masked",
			"sasl SCRAM-SHA-256 client-first-message", "sasl SCRAM-SHA-256 server-first-message", "sasl SCRAM-SHA-256 client-final-message", "sasl SCRAM-SHA-256 server-final-message",
			"sasl SCRAM-SHA-512 client-first-message", "sasl SCRAM-SHA-512 server-final-message"}},
	"java-ssl":     {},
	"java-txn":     {apis: []string{"InitProducerId", "AddPartitionsToTxn", "TxnOffsetCommit", "EndTxn", "WriteTxnMarkers", "ListTransactions", "DescribeTransactions", "DescribeProducers", "FindCoordinator"}},
	"java-share":   {apis: []string{"ShareGroupHeartbeat", "ShareFetch", "ShareAcknowledge", "ShareGroupDescribe", "IncrementalAlterConfigs"}},
	"java-streams": {apis: []string{"StreamsGroupHeartbeat", "StreamsGroupDescribe", "Produce", "Fetch", "OffsetCommit"}},
	"librdkafka": {apis: []string{"Produce", "Fetch", "ConsumerGroupHeartbeat", "SaslHandshake", "SaslAuthenticate", "CreateTopics", "GetTelemetrySubscriptions", "PushTelemetry"},
		facts: []string{"sasl SCRAM-SHA-256 client-first-message", "otlp MetricsData"}},
	"kafka-python": {apis: []string{"Produce", "Fetch", "JoinGroup", "SyncGroup", "SaslHandshake", "SaslAuthenticate", "CreateTopics"},
		facts: []string{"nested ConsumerProtocolSubscription", "password masked"}},
	"kafkajs": {apis: []string{"Produce", "Fetch", "JoinGroup", "SyncGroup", "SaslHandshake", "SaslAuthenticate", "CreateTopics"},
		facts: []string{"nested ConsumerProtocolSubscription", "sasl SCRAM-SHA-512 client-first-message"}},
	"franz-go": {apis: []string{"Produce", "Fetch", "JoinGroup", "SyncGroup", "SaslHandshake", "SaslAuthenticate", "CreateTopics"},
		facts: []string{"nested ConsumerProtocolSubscription", "sasl SCRAM-SHA-512 client-first-message"}},
}

// runWorkloads runs workloads against c, reads each capture and checks it;
// strict: the workload's expectations (expected) hold too.
func runWorkloads(t *testing.T, c *cluster, out string, strict bool, workloads ...string) map[string]*result {
	t.Helper()
	script(t, "realclients.sh", append([]string{c.dir, out}, workloads...)...)
	client := c.ports("KAFKA_CLIENT_PORTS")
	results := map[string]*result{}
	for _, w := range workloads {
		r := readCapture(t, filepath.Join(out, w+".pcap"), client, w != "java-ssl")
		results[w] = r
		checkRecords(t, r, readRecords(t, filepath.Join(out, w+".records")))
		if w != "java-ssl" { // all of it encrypted
			checkRelease(t, r, c.env["KAFKA_VERSION"])
		}
		t.Logf("%s (Kafka %s): %d frames, %d responses paired, %d TLS connections: %s", w, c.env["KAFKA_VERSION"], r.frames, r.responses, r.tlsConns, r.table())
		if w == "java-ssl" && r.tlsConns == 0 {
			t.Errorf("%s: no TLS connection", w)
		}
		if !strict {
			continue
		}
		for _, a := range expected[w].apis {
			if r.byAPI[a] == 0 {
				t.Errorf("%s: no %s frame", w, a)
			}
		}
		for _, f := range expected[w].facts {
			if r.facts[f] == 0 {
				t.Errorf("%s: no %q in the trees (facts: %v)", w, f, r.facts)
			}
		}
	}
	return results
}

func short(t *testing.T) {
	if testing.Short() {
		t.Skip("a real Kafka cluster: not with -short")
	}
}

// TestKafka44 runs every workload against one node of Kafka 4.4.0.
func TestKafka44(t *testing.T) {
	short(t)
	start := time.Now()
	c := startCluster(t, "4.4.0", 1, 600, "")
	out := keepDir(t, "4.4.0")
	runWorkloads(t, c, out, true, workloadsFor(t, c)...)
	t.Logf("Kafka 4.4.0: %.0f s", time.Since(start).Seconds())
}

// workloadsFor lists the workloads of c's release (realclients.sh list),
// or KWIRE_REAL_WORKLOADS.
func workloadsFor(t *testing.T, c *cluster) []string {
	if w := os.Getenv("KWIRE_REAL_WORKLOADS"); w != "" {
		return splitFields(w)
	}
	return splitFields(script(t, "realclients.sh", "list", c.env["KAFKA_VERSION"]))
}

func splitFields(s string) []string { return strings.Fields(s) }
