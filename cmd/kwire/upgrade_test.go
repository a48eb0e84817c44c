package main

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"

	kwcapture "kwire/capture"
	"kwire/capture/capturetest"
	"kwire/codec/wire/wiretest"
	"kwire/schemas/sets"
)

// proxiedCapture records a kgo client talking to a two-broker kfake
// cluster through a proxy per broker that rewrites the responses of the
// APIs in rewrite (capturetest.ProxiedTraffic), and writes it as a pcap;
// it returns its path and the proxies' addresses.
func proxiedCapture(t *testing.T, rewrite map[int16]bool) (string, []string) {
	t.Helper()
	cluster, err := kfake.NewCluster(kfake.NumBrokers(2), kfake.SeedTopics(2, "orders"))
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	rec, addrs, err := capturetest.ProxiedTraffic(ctx, cluster.ListenAddrs(), rewrite)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "proxied.pcap")
	writeCapture(t, path, capturetest.Packets(rec.Chunks, capturetest.Options{}))
	return path, addrs
}

// jsonLines are the lines of kwire capture --format json of a kind.
func jsonLines(t *testing.T, out, kind string) []map[string]any {
	t.Helper()
	var got []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("not JSON: %s: %v", l, err)
		}
		if m["kind"] == kind {
			got = append(got, m)
		}
	}
	return got
}

// TestAdvertisedLeak: a proxy that rewrites Metadata but not
// FindCoordinator, DescribeCluster and Produce (NodeEndpoints, in a
// NOT_LEADER_OR_FOLLOWER answer) lets the brokers' own ports through
// (found, with the node that Metadata gave another endpoint); its twin,
// which rewrites every API whose responses carry an endpoint, leaks none.
func TestAdvertisedLeak(t *testing.T) {
	checkLeaks(t, func(rewrite map[int16]bool) (string, []string) { return proxiedCapture(t, rewrite) })
}

// checkLeaks runs the audit on a capture made behind a proxy that
// rewrites Metadata alone, and on its twin that rewrites every API that
// may carry an endpoint.
// It returns the APIs whose responses leaked.
func checkLeaks(t *testing.T, capture func(rewrite map[int16]bool) (string, []string)) map[string]bool {
	leaky, addrs := capture(map[int16]bool{3: true})
	adv := strings.Join(addrs, ",")
	out, errs, code := kwire(t, "", "capture", "--advertised", adv, "--format", "json", leaky)
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, errs)
	}
	leaks := jsonLines(t, out, "leak")
	apis := map[string]bool{}
	for _, l := range leaks {
		apis[l["api_name"].(string)] = true
		if l["api_name"] == "Metadata" {
			t.Errorf("Metadata was rewritten: %v", l)
		}
		port := strconv.Itoa(int(l["port"].(float64)))
		if strings.Contains(adv, ":"+port) {
			t.Errorf("an advertised port reported: %v", l)
		}
	}
	t.Logf("%d findings behind the leaky proxy, in %v", len(leaks), apis)
	for _, want := range []string{"FindCoordinator", "DescribeCluster", "Produce"} {
		if !apis[want] {
			t.Errorf("no leak in %s: %s", want, out)
		}
	}
	var twice bool
	for _, l := range leaks {
		twice = twice || strings.Contains(l["why"].(string), " is also ")
	}
	if !twice {
		t.Errorf("no node with two endpoints on one connection: %v", leaks)
	}
	if !strings.Contains(errs, "address leak") {
		t.Errorf("stderr: %s", errs)
	}
	table, _, code := kwire(t, "", "capture", "--advertised", adv, leaky)
	if code != 1 || !strings.Contains(table, "address leaks in ") || !strings.Contains(table, "endpoints of the responses (advertised: ") || !strings.Contains(table, "Coordinators[0].Host") {
		t.Errorf("table form, exit %d:\n%s", code, table)
	}

	all := map[int16]bool{}
	for k := int16(0); k < 100; k++ {
		if kwcapture.Carries(k) {
			all[k] = true
		}
	}
	clean, addrs := capture(all)
	out, errs, code = kwire(t, "", "capture", "--advertised", strings.Join(addrs, ","), "--format", "json", clean)
	if code != 0 || len(jsonLines(t, out, "leak")) != 0 {
		t.Fatalf("clean twin: exit %d: %s\n%s", code, errs, out)
	}
	return apis
}

// clientCapture records a kgo client, capped at maxVersions (nil: its
// own), that produces to and consumes from a kfake broker, and writes it
// as a pcap. kfake has no Produce below v3 nor Fetch below v4, so for an
// old client it advertises every API from version 0 and answers those
// versions itself (success, no records): what matters is what the client
// sends.
func clientCapture(t *testing.T, id string, maxVersions *kversion.Versions) (string, *capturetest.Recorder) {
	t.Helper()
	cluster, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, "orders"))
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Close()
	if maxVersions != nil {
		newest, err := sets.Load(sets.Newest())
		if err != nil {
			t.Fatal(err)
		}
		cluster.ControlKey(int16(kmsg.ApiVersions), func(req kmsg.Request) (kmsg.Response, error, bool) {
			cluster.KeepControl()
			resp := req.ResponseKind().(*kmsg.ApiVersionsResponse)
			for _, a := range newest.APIs() {
				if !a.Removed() {
					resp.ApiKeys = append(resp.ApiKeys, kmsg.ApiVersionsResponseApiKey{ApiKey: a.Key, MinVersion: 0, MaxVersion: a.Request.ValidVersions.Hi})
				}
			}
			return resp, nil, true
		})
		cluster.ControlKey(int16(kmsg.Produce), func(req kmsg.Request) (kmsg.Response, error, bool) {
			cluster.KeepControl()
			if req.GetVersion() >= 3 {
				return nil, nil, false
			}
			resp := req.ResponseKind().(*kmsg.ProduceResponse)
			for _, tp := range req.(*kmsg.ProduceRequest).Topics {
				rt := kmsg.ProduceResponseTopic{Topic: tp.Topic}
				for _, p := range tp.Partitions {
					rt.Partitions = append(rt.Partitions, kmsg.ProduceResponseTopicPartition{Partition: p.Partition})
				}
				resp.Topics = append(resp.Topics, rt)
			}
			return resp, nil, true
		})
		cluster.ControlKey(int16(kmsg.Fetch), func(req kmsg.Request) (kmsg.Response, error, bool) {
			cluster.KeepControl()
			if req.GetVersion() >= 4 {
				return nil, nil, false
			}
			time.Sleep(20 * time.Millisecond)
			resp := req.ResponseKind().(*kmsg.FetchResponse)
			for _, tp := range req.(*kmsg.FetchRequest).Topics {
				rt := kmsg.FetchResponseTopic{Topic: tp.Topic}
				for _, p := range tp.Partitions {
					rt.Partitions = append(rt.Partitions, kmsg.FetchResponseTopicPartition{Partition: p.Partition, HighWatermark: 2})
				}
				resp.Topics = append(resp.Topics, rt)
			}
			return resp, nil, true
		})
	}
	rec := &capturetest.Recorder{}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	opts := []kgo.Opt{kgo.SeedBrokers(cluster.ListenAddrs()...), kgo.Dialer(rec.Dial), kgo.ClientID(id),
		kgo.DefaultProduceTopic("orders"), kgo.ConsumeTopics("orders"), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart())}
	if maxVersions != nil {
		opts = append(opts, kgo.MaxVersions(maxVersions))
	}
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		t.Fatal(err)
	}
	if err := cl.ProduceSync(ctx, &kgo.Record{Value: []byte("one")}, &kgo.Record{Value: []byte("two")}).FirstErr(); err != nil {
		t.Fatal(err)
	}
	pctx, pcancel := context.WithTimeout(ctx, 700*time.Millisecond)
	for got := 0; got < 2 && pctx.Err() == nil; {
		got += cl.PollFetches(pctx).NumRecords()
	}
	pcancel()
	cl.Close()
	path := filepath.Join(t.TempDir(), id+".pcap")
	writeCapture(t, path, capturetest.Packets(rec.Chunks, capturetest.Options{}))
	return path, rec
}

// wantRefused is what a release would refuse of the requests a client
// sent, read from the release's schemas: "Produce v2".
func wantRefused(t *testing.T, rec *capturetest.Recorder, target string) map[string]bool {
	t.Helper()
	s, err := sets.Load(target)
	if err != nil {
		t.Fatal(err)
	}
	client, _ := rec.Streams()
	want := map[string]bool{}
	for _, stream := range client {
		for _, f := range wiretest.Frames(stream) {
			key, v := int16(binary.BigEndian.Uint16(f[4:])), int16(binary.BigEndian.Uint16(f[6:]))
			a := s.APIByKey(key)
			if key == 18 && a.Request.ValidVersions.Hi < v {
				continue // KIP-511: answered with the broker's versions, not refused
			}
			if a == nil || !a.Request.ValidVersions.Contains(v) {
				want[kwcapture.APIName(key)+" v"+strconv.Itoa(int(v))] = true
			}
		}
	}
	return want
}

func report(t *testing.T, path, target string) map[string]any {
	t.Helper()
	out, errs, code := kwire(t, "", "capture", "--against", target, "--format", "json", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rs := jsonLines(t, out, "report")
	if len(rs) != 1 {
		t.Fatalf("want one report line:\n%s", out)
	}
	return rs[0]
}

func refusedOf(r map[string]any) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, x := range r["refused"].([]any) {
		m := x.(map[string]any)
		out[m["api_name"].(string)+" v"+strconv.Itoa(int(m["api_version"].(float64)))] = m
	}
	return out
}

// TestAgainstOldClient: a kgo client capped at Kafka 0.10.0's versions
// against a target of 4.0: what 4.0 refuses is what its schemas lack,
// each with the release and KIP that removed it and the version to use.
func TestAgainstOldClient(t *testing.T) {
	for _, c := range []struct {
		id string
		v  *kversion.Versions
	}{{"kgo-0.10", kversion.V0_10_0()}, {"kgo-0.9", kversion.V0_9_0()}} {
		t.Run(c.id, func(t *testing.T) {
			path, rec := clientCapture(t, c.id, c.v)
			want := wantRefused(t, rec, "4.0")
			if !want["Produce v2"] && !want["Produce v1"] {
				t.Fatalf("the old client sent no old Produce: %v", want)
			}
			r := report(t, path, "4.0")
			got := refusedOf(r)
			for k := range want {
				if got[k] == nil {
					t.Errorf("%s not refused: %v", k, got)
				}
			}
			for k, m := range got {
				if !want[k] {
					t.Errorf("%s refused, but 4.0 has it: %v", k, m)
				}
				if m["removed_in"] != "4.0" || m["kip"] != "KIP-896" || m["instead"] == nil {
					t.Errorf("%s: want removed in 4.0 by KIP-896, with a version instead: %v", k, m)
				}
			}
			clients := r["clients"].([]any)
			if len(clients) != 1 || clients[0].(map[string]any)["client_id"] != c.id {
				t.Errorf("clients: %v", clients)
			}
			t.Logf("%s against 4.0: %v", c.id, got)
		})
	}
}

// TestAgainstOlderRelease: a current client against an older target:
// Produce v13 is newer than 4.0's, which 4.1 added; the client's own
// software is named.
func TestAgainstOlderRelease(t *testing.T) {
	path, rec := clientCapture(t, "current", nil)
	want := wantRefused(t, rec, "4.0")
	r := report(t, path, "4.0")
	got := refusedOf(r)
	if len(want) == 0 || len(got) != len(want) {
		t.Fatalf("refused %v, want %v", got, want)
	}
	p := got["Produce v13"]
	if p == nil || p["removed_in"] != nil || !strings.Contains(p["why"].(string), "newer than 4.0") || !strings.Contains(p["why"].(string), "4.1 added it") || p["instead"].(float64) != 12 {
		t.Errorf("Produce v13: %v", p)
	}
	cl := r["clients"].([]any)[0].(map[string]any)
	if cl["software_name"] != "kgo" || cl["software_version"] == "" {
		t.Errorf("client: %v", cl)
	}
	table, _, _ := kwire(t, "", "capture", "--against", "4.0", path)
	t.Logf("%s", table[strings.Index(table, "\nAgainst"):])
	if !strings.Contains(table, `client "current" (kgo `) || !strings.Contains(table, "refused: Produce v13") || !strings.Contains(table, "works if the client supports v12") {
		t.Errorf("table:\n%s", table)
	}
}
