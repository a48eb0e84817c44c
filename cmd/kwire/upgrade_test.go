package main

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"

	kwcapture "kwire/capture"
	"kwire/capture/capturetest"
	"kwire/codec"
	"kwire/internal/traffic"
	"kwire/schemas/sets"
)

// rewriteProxy forwards one port to a broker and rewrites the broker
// ports in the responses of the APIs in rewrite (through kwire's codec:
// decoded, edited in their JSON form, encoded again), as a Kafka proxy
// does, and leaves the others as the broker wrote them.
type rewriteProxy struct {
	ln      net.Listener
	target  string
	ports   map[string]string // a broker's port → the proxy's port for it
	rewrite map[int16]bool
	wg      sync.WaitGroup
	t       *testing.T
}

func (p *rewriteProxy) serve() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		b, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.wg.Add(2)
		var mu sync.Mutex
		pending := map[int32][2]int16{}
		go func() { // client → broker, noting each request's API and version
			defer p.wg.Done()
			defer b.Close()
			forwardFrames(c, b, func(f []byte) []byte {
				if len(f) >= 12 {
					mu.Lock()
					pending[int32(binary.BigEndian.Uint32(f[8:]))] = [2]int16{int16(binary.BigEndian.Uint16(f[4:])), int16(binary.BigEndian.Uint16(f[6:]))}
					mu.Unlock()
				}
				return f
			})
		}()
		go func() { // broker → client, rewritten
			defer p.wg.Done()
			defer c.Close()
			forwardFrames(b, c, func(f []byte) []byte {
				if len(f) < 8 {
					return f
				}
				mu.Lock()
				kv, ok := pending[int32(binary.BigEndian.Uint32(f[4:]))]
				mu.Unlock()
				if !ok || !p.rewrite[kv[0]] {
					return f
				}
				return p.rewritePorts(f, kv[0], kv[1])
			})
		}()
	}
}

// forwardFrames copies size-delimited frames from r to w through edit.
func forwardFrames(r io.Reader, w io.Writer, edit func([]byte) []byte) {
	br := bufio.NewReader(r)
	for {
		var size [4]byte
		if _, err := io.ReadFull(br, size[:]); err != nil {
			return
		}
		n := binary.BigEndian.Uint32(size[:])
		if n > 64<<20 {
			return
		}
		f := make([]byte, 4+n)
		copy(f, size[:])
		if _, err := io.ReadFull(br, f[4:]); err != nil {
			return
		}
		if _, err := w.Write(edit(f)); err != nil {
			return
		}
	}
}

var portJSON = regexp.MustCompile(`"Port":\s*(\d+)`)

func (p *rewriteProxy) rewritePorts(frame []byte, key, version int16) []byte {
	set, err := sets.ForVersion(key, version, true)
	if err != nil {
		p.t.Errorf("proxy: %v", err)
		return frame
	}
	f, _, err := codec.Decode(frame, codec.DecodeOptions{Set: set, API: set.APIByKey(key), Version: version, Dir: codec.Response})
	if err != nil {
		p.t.Errorf("proxy: decode %d v%d: %v", key, version, err)
		return frame
	}
	j, err := f.JSON(len(frame))
	if err != nil {
		p.t.Errorf("proxy: %v", err)
		return frame
	}
	j = portJSON.ReplaceAllFunc(j, func(m []byte) []byte {
		if to, ok := p.ports[string(portJSON.FindSubmatch(m)[1])]; ok {
			return []byte(`"Port":` + to)
		}
		return m
	})
	if err := f.SetJSON(j); err != nil {
		p.t.Errorf("proxy: %v", err)
		return frame
	}
	out, err := f.Encode()
	if err != nil {
		p.t.Errorf("proxy: %v", err)
		return frame
	}
	return out
}

// proxiedCapture records a kgo client talking to a two-broker kfake
// cluster through a proxy per broker that rewrites the responses of the
// APIs in rewrite, and writes it as a pcap; it returns its path and the
// proxies' addresses.
func proxiedCapture(t *testing.T, rewrite map[int16]bool) (string, []string) {
	t.Helper()
	cluster, err := kfake.NewCluster(kfake.NumBrokers(2), kfake.SeedTopics(2, "orders"))
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Close()
	return proxied(t, cluster.ListenAddrs(), rewrite)
}

// proxied is proxiedCapture of the brokers at brokers.
func proxied(t *testing.T, brokers []string, rewrite map[int16]bool) (string, []string) {
	t.Helper()
	ports := map[string]string{}
	var proxies []*rewriteProxy
	var addrs []string
	for _, a := range brokers {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		_, bp, _ := net.SplitHostPort(a)
		_, pp, _ := net.SplitHostPort(ln.Addr().String())
		ports[bp] = pp
		p := &rewriteProxy{ln: ln, target: a, ports: ports, rewrite: rewrite, t: t}
		proxies = append(proxies, p)
		addrs = append(addrs, ln.Addr().String())
	}
	for _, p := range proxies {
		p.wg.Add(1)
		go p.serve()
	}
	rec := &capturetest.Recorder{}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cl, err := kgo.NewClient(kgo.SeedBrokers(addrs[0]), kgo.Dialer(rec.Dial), kgo.ClientID("proxied"),
		kgo.DefaultProduceTopic("orders"), kgo.UnknownTopicRetries(50), kgo.MetadataMinAge(50*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	// Metadata, then on the same connection FindCoordinator and
	// DescribeCluster, which name the same nodes.
	meta := kmsg.NewPtrMetadataRequest()
	resp, err := meta.RequestWith(ctx, cl)
	if err != nil {
		t.Fatal(err)
	}
	ct := kmsg.NewPtrCreateTopicsRequest()
	ct.Topics = []kmsg.CreateTopicsRequestTopic{{Topic: "orders", NumPartitions: 1, ReplicationFactor: 1}}
	if _, err := ct.RequestWith(ctx, cl); err != nil {
		t.Fatal(err)
	}
	b0 := cl.Broker(int(resp.Brokers[0].NodeID))
	if _, err := b0.Request(ctx, meta); err != nil {
		t.Fatal(err)
	}
	fc := kmsg.NewPtrFindCoordinatorRequest()
	fc.CoordinatorKey, fc.CoordinatorKeys = "g", []string{"g"}
	if _, err := b0.Request(ctx, fc); err != nil {
		t.Fatal(err)
	}
	if _, err := b0.Request(ctx, kmsg.NewPtrDescribeClusterRequest()); err != nil {
		t.Fatal(err)
	}
	if err := cl.ProduceSync(ctx, &kgo.Record{Value: []byte("one")}, &kgo.Record{Value: []byte("two")}).FirstErr(); err != nil {
		t.Fatal(err)
	}
	// A Produce v12 to a broker that does not lead the partition: the
	// answer is NOT_LEADER_OR_FOLLOWER with the leader's endpoint in
	// NodeEndpoints (KIP-951), from a broker that fills it.
	tm := kmsg.NewPtrMetadataRequest()
	tm.Topics = []kmsg.MetadataRequestTopic{{Topic: kmsg.StringPtr("orders")}}
	mr, err := tm.RequestWith(ctx, cl)
	if err != nil {
		t.Fatal(err)
	}
	cl.Close()
	if len(mr.Topics) == 1 && len(mr.Topics[0].Partitions) > 0 {
		for _, b := range mr.Brokers {
			if b.NodeID != mr.Topics[0].Partitions[0].Leader {
				notLeader(t, ctx, rec, net.JoinHostPort(b.Host, strconv.Itoa(int(b.Port))))
				break
			}
		}
	}
	for _, p := range proxies {
		p.ln.Close()
	}
	path := filepath.Join(t.TempDir(), "proxied.pcap")
	writeCapture(t, path, capturetest.Packets(rec.Chunks, capturetest.Options{}))
	return path, addrs
}

// notLeader sends a Produce v12 of an empty batch to partition 0 of
// orders at addr (through the recorder), and reads its response.
func notLeader(t *testing.T, ctx context.Context, rec *capturetest.Recorder, addr string) {
	t.Helper()
	f, err := capturetest.FrameFromJSON("4.0", "Produce", 12, codec.Request, 99, `{"Acks":1,"TimeoutMs":5000,"TopicData":[{"Name":"orders",`+
		`"PartitionData":[{"Index":0,"Records":[{"baseOffset":0,"partitionLeaderEpoch":0,"magic":2,"compression":"none","timestampType":"CreateTime",`+
		`"transactional":false,"control":false,"baseTimestamp":0,"producerId":-1,"producerEpoch":-1,"baseSequence":-1,"records":[]}]}]}]}`)
	if err != nil {
		t.Fatal(err)
	}
	c, err := rec.Dial(ctx, "tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := c.Write(f); err != nil {
		t.Fatal(err)
	}
	var size [4]byte
	if _, err := io.ReadFull(c, size[:]); err != nil {
		t.Fatalf("no answer to the Produce: %v", err)
	}
	io.CopyN(io.Discard, c, int64(binary.BigEndian.Uint32(size[:])))
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
// FindCoordinator and DescribeCluster lets the brokers' own ports through
// (found, with the node that Metadata gave another endpoint); its twin,
// which rewrites every API whose responses carry an endpoint, leaks none.
func TestAdvertisedLeak(t *testing.T) {
	checkLeaks(t, func(rewrite map[int16]bool) (string, []string) { return proxiedCapture(t, rewrite) })
}

// TestRealKafkaLeak is TestAdvertisedLeak with Apache Kafka (three
// KRaft nodes of scripts/realkafka.sh, 4.4.0 or $KWIRE_KAFKA_VERSION)
// behind the proxy, which also leaks in Produce's NodeEndpoints (the
// leader's, in a NOT_LEADER_OR_FOLLOWER answer: KIP-951). It starts three
// JVMs: it runs with KWIRE_REALKAFKA=1.
func TestRealKafkaLeak(t *testing.T) {
	if os.Getenv("KWIRE_REALKAFKA") == "" {
		t.Skip("KWIRE_REALKAFKA=1 runs it (scripts/realkafka.sh)")
	}
	version := os.Getenv("KWIRE_KAFKA_VERSION")
	if version == "" {
		version = "4.4.0"
	}
	dir := t.TempDir()
	start := exec.Command("../../scripts/realkafka.sh", "start", dir, "--version", version, "--nodes", "3", "--timeout", "240")
	if out, err := start.CombinedOutput(); err != nil {
		t.Fatalf("realkafka.sh start: %v\n%s", err, out)
	}
	defer exec.Command("../../scripts/realkafka.sh", "stop", dir).Run()
	env, err := os.ReadFile(filepath.Join(dir, "env"))
	if err != nil {
		t.Fatal(err)
	}
	var brokers []string
	for _, l := range strings.Split(string(env), "\n") {
		if v, ok := strings.CutPrefix(l, "KAFKA_PLAINTEXT="); ok {
			brokers = strings.Split(strings.Trim(v, `'"`), ",")
		}
	}
	if len(brokers) == 0 {
		t.Fatalf("no KAFKA_PLAINTEXT in %s", env)
	}
	apis := checkLeaks(t, func(rewrite map[int16]bool) (string, []string) { return proxied(t, brokers, rewrite) })
	if !apis["Produce"] {
		t.Errorf("no leak in Produce's NodeEndpoints: %v", apis)
	}
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
	for _, want := range []string{"FindCoordinator", "DescribeCluster"} {
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
		for _, f := range traffic.Frames(stream) {
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
