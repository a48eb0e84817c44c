package realkafka

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
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
		"InitProducerId", "GetTelemetrySubscriptions", "PushTelemetry", "BrokerHeartbeat"},
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

// TestOlderReleases runs the Java console clients and librdkafka against one
// node of Kafka 4.0.2, and them and kafka-python against 3.9.2 (which has
// the protocol versions that 4.0 removed).
func TestOlderReleases(t *testing.T) {
	short(t)
	for _, c := range []struct {
		version   string
		workloads []string
	}{
		{"4.0.2", []string{"java-console", "librdkafka"}},
		{"3.9.2", []string{"java-console", "kafka-python", "librdkafka"}},
	} {
		v := c.version
		t.Run(v, func(t *testing.T) {
			start := time.Now()
			cl := startCluster(t, v, 1, 300, "")
			runWorkloads(t, cl, keepDir(t, v), false, c.workloads...)
			t.Logf("Kafka %s: %.0f s", v, time.Since(start).Seconds())
		})
	}
}

// TestQuorum records the whole life of a three-node cluster of Kafka 4.4.0
// (each node a broker and a controller): the controllers' election and
// replication (Vote, BeginQuorumEpoch, Fetch from a voter), the brokers'
// registration and heartbeats, replication between brokers (Fetch with a
// replica id) and, after a follower paused past replica.lag.time.max.ms,
// AlterPartition as the leader shrinks the ISR and expands it again.
func TestQuorum(t *testing.T) {
	short(t)
	start := time.Now()
	out := keepDir(t, "quorum")
	pcap := filepath.Join(out, "cluster3.pcap")
	c := startCluster(t, "4.4.0", 3, 300, pcap, "--config", "replica.lag.time.max.ms=2000", "--config", "replica.fetch.wait.max.ms=200")
	tool := func(stdin string, args ...string) error {
		cmd := exec.Command(filepath.Join(root(t), "scripts", "realkafka.sh"), append([]string{"tool", c.dir}, args...)...)
		cmd.Stdin = strings.NewReader(stdin)
		if b, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%s: %v\n%s", strings.Join(args, " "), err, b)
		}
		return nil
	}
	b := c.env["KAFKA_PLAINTEXT"]
	if err := tool("", "kafka-topics", "--bootstrap-server", b, "--create", "--topic", "kw-quorum", "--partitions", "3", "--replication-factor", "3"); err != nil {
		t.Fatal(err)
	}
	produce := func(src string) error {
		lines := ""
		for i := range 5 {
			lines += "src:" + src + ",i:" + strconv.Itoa(i) + "\tkey-" + strconv.Itoa(i) + "\tvalue-" + strconv.Itoa(i) + " from " + src + "\n"
		}
		return tool(lines, "kafka-console-producer", "--bootstrap-server", b, "--topic", "kw-quorum", "--producer-property", "acks=1",
			"--property", "parse.key=true", "--property", "parse.headers=true")
	}
	if err := produce("quorum"); err != nil {
		t.Fatal(err)
	}
	// Pause node 3 past replica.lag.time.max.ms (and short of
	// broker.session.timeout.ms, 9 s) while records arrive: a follower
	// that does not fetch what its leaders have falls out of their ISRs.
	pid, err := os.ReadFile(filepath.Join(c.dir, "node3", "pid"))
	if err != nil {
		t.Fatal(err)
	}
	p, _ := strconv.Atoi(strings.TrimSpace(string(pid)))
	if err := syscall.Kill(p, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	go func() {
		time.Sleep(time.Second)
		done <- produce("paused") // those led by node 3 wait for it
	}()
	time.Sleep(6 * time.Second)
	if err := syscall.Kill(p, syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	time.Sleep(4 * time.Second) // node 3 catches up: the ISRs expand
	c.stop(t)
	r := readCapture(t, pcap, c.ports("KAFKA_CLIENT_PORTS"), true)
	checkRecords(t, r, []recordSpec{{"kw-quorum", "quorum", 5}, {"kw-quorum", "paused", 5}})
	checkRelease(t, r, "4.4.0")
	if len(r.advertised) != 3 {
		t.Errorf("ApiVersions responses from %d brokers, want 3: %v", len(r.advertised), r.advertised)
	}
	for _, a := range []string{"Vote", "BeginQuorumEpoch", "Fetch", "BrokerRegistration", "BrokerHeartbeat", "AlterPartition", "ApiVersions"} {
		if r.byAPI[a] == 0 {
			t.Errorf("no %s frame", a)
		}
	}
	for _, f := range []string{"fetch from a replica (broker)", "fetch from a replica (controller)"} {
		if r.facts[f] == 0 {
			t.Errorf("no %q (facts: %v)", f, r.facts)
		}
	}
	t.Logf("three nodes (Kafka 4.4.0): %d frames, %d responses paired, %d cut at their connection's end: %s", r.frames, r.responses, r.incomplete, r.table())
	t.Logf("three nodes: %.0f s", time.Since(start).Seconds())
}
