package main

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"io"
	"net"
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

	"kwire/capture"
	"kwire/capture/capturetest"
	"kwire/codec"
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
		port := string(portJSON.FindSubmatch(m)[1])
		if to, ok := p.ports[port]; ok {
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
	ports := map[string]string{}
	var proxies []*rewriteProxy
	var addrs []string
	for _, a := range cluster.ListenAddrs() {
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
		kgo.DefaultProduceTopic("orders"), kgo.MetadataMinAge(50*time.Millisecond))
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
	cl.Close()
	for _, p := range proxies {
		p.ln.Close()
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
// FindCoordinator and DescribeCluster lets the brokers' own ports through
// (found, with the node that Metadata gave another endpoint); its twin,
// which rewrites every API whose responses carry an endpoint, leaks none.
func TestAdvertisedLeak(t *testing.T) {
	leaky, addrs := proxiedCapture(t, map[int16]bool{3: true})
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
	if code != 1 || !strings.Contains(table, "address leaks (advertised: ") || !strings.Contains(table, "Coordinators[0].Host") {
		t.Errorf("table form, exit %d:\n%s", code, table)
	}

	all := map[int16]bool{}
	for k := int16(0); k < 100; k++ {
		if capture.Carries(k) {
			all[k] = true
		}
	}
	clean, addrs := proxiedCapture(t, all)
	out, errs, code = kwire(t, "", "capture", "--advertised", strings.Join(addrs, ","), "--format", "json", clean)
	if code != 0 || len(jsonLines(t, out, "leak")) != 0 {
		t.Fatalf("clean twin: exit %d: %s\n%s", code, errs, out)
	}
}
