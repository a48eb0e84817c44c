package realkafka

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"kwire/capture"
	"kwire/capture/capturetest"
)

// TestProxyLeak puts a proxy per node in front of three nodes of Kafka
// 4.4.0 that rewrites Metadata's broker ports but not the others': the
// nodes' own ports leak through FindCoordinator, DescribeCluster and a
// Produce sent to a node that does not lead the partition (its
// NOT_LEADER_OR_FOLLOWER answer names the leader in NodeEndpoints,
// KIP-951), each found by capture's audit against the proxies'
// addresses, with the node Metadata gave another endpoint; the twin
// proxy, which rewrites every API whose responses may carry an endpoint,
// leaks none.
func TestProxyLeak(t *testing.T) {
	short(t)
	c := startCluster(t, "4.4.0", 3, 300, "")
	brokers := strings.Split(c.env["KAFKA_PLAINTEXT"], ",")
	audit := func(rewrite map[int16]bool) (leaks []capture.Leak, checked int) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		rec, addrs, err := capturetest.ProxiedTraffic(ctx, brokers, rewrite)
		if err != nil {
			t.Fatal(err)
		}
		var pcap bytes.Buffer
		if err := capturetest.WritePcap(&pcap, capturetest.Packets(rec.Chunks, capturetest.Options{}), 1, false, false, 262144); err != nil {
			t.Fatal(err)
		}
		a := capture.NewAudit(addrs)
		if _, err := capture.Read(&pcap, capture.Options{}, func(e *capture.Event) { leaks = append(leaks, a.Add(e)...) }); err != nil {
			t.Fatal(err)
		}
		return leaks, a.Checked
	}
	leaks, checked := audit(map[int16]bool{3: true})
	apis, twice := map[string]bool{}, false
	for _, l := range leaks {
		apis[capture.APIName(l.Key)] = true
		twice = twice || strings.Contains(l.Why, " is also ")
	}
	t.Logf("%d findings in %d endpoints behind the leaky proxy, in %v", len(leaks), checked, apis)
	for _, want := range []string{"FindCoordinator", "DescribeCluster", "Produce"} {
		if !apis[want] {
			t.Errorf("no leak in %s: %+v", want, leaks)
		}
	}
	if apis["Metadata"] || !twice {
		t.Errorf("Metadata leaked, or no node with two endpoints: %+v", leaks)
	}
	all := map[int16]bool{}
	for k := int16(0); k < 100; k++ {
		all[k] = capture.Carries(k)
	}
	if leaks, checked := audit(all); len(leaks) != 0 || checked == 0 {
		t.Errorf("the clean twin: %d endpoints, leaks %+v", checked, leaks)
	}
}
