package capture_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/gopacket/layers"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"

	"kwire/capture"
	"kwire/capture/capturetest"
	"kwire/codec"
	"kwire/tree/treetest"
)

var (
	trafficOnce sync.Once
	traffic     *capturetest.Recorder
	trafficErr  error
)

// recorded runs real kgo clients against kfake once, through a recorder:
// producers with every compression, a consumer group, admin requests,
// SASL PLAIN and SCRAM-SHA-256 (kgo authenticates with SaslHandshake v1
// and SaslAuthenticate frames; TestSASLv0 covers the unframed tokens).
func recorded(t testing.TB) *capturetest.Recorder {
	trafficOnce.Do(func() { traffic, trafficErr = record() })
	if trafficErr != nil {
		t.Fatal(trafficErr)
	}
	return traffic
}

func record() (*capturetest.Recorder, error) {
	rec := &capturetest.Recorder{}
	topics := []string{"t-none", "t-gzip", "t-snappy", "t-lz4", "t-zstd"}
	cluster, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(2, topics...),
		kfake.EnableSASL(), kfake.Superuser("PLAIN", "alice", "secret"), kfake.Superuser("SCRAM-SHA-256", "bob", "secret"))
	if err != nil {
		return nil, err
	}
	defer cluster.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	newClient := func(opts ...kgo.Opt) (*kgo.Client, error) {
		base := []kgo.Opt{kgo.SeedBrokers(cluster.ListenAddrs()...), kgo.Dialer(rec.Dial), kgo.SASL(plain.Auth{User: "alice", Pass: "secret"}.AsMechanism())}
		return kgo.NewClient(append(base, opts...)...)
	}
	codecs := map[string]kgo.CompressionCodec{"none": kgo.NoCompression(), "gzip": kgo.GzipCompression(), "snappy": kgo.SnappyCompression(), "lz4": kgo.Lz4Compression(), "zstd": kgo.ZstdCompression()}
	total := 0
	for name, cc := range codecs {
		cl, err := newClient(kgo.ProducerBatchCompression(cc))
		if err != nil {
			return nil, err
		}
		var recs []*kgo.Record
		for i := range 300 { // several segments per Produce request
			recs = append(recs, &kgo.Record{Topic: "t-" + name, Key: []byte(fmt.Sprint("key-", i)), Value: []byte(strings.Repeat(fmt.Sprintf("%s value %d ", name, i), 4))})
		}
		total += len(recs)
		if err := cl.ProduceSync(ctx, recs...).FirstErr(); err != nil {
			cl.Close()
			return nil, fmt.Errorf("produce %s: %w", name, err)
		}
		cl.Close()
	}
	// A consumer group, with SCRAM.
	scramAuth := scram.Auth{User: "bob", Pass: "secret"}.AsSha256Mechanism()
	cl, err := newClient(kgo.SASL(scramAuth), kgo.ConsumerGroup("g1"), kgo.ConsumeTopics(topics...), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		return nil, err
	}
	for got := 0; got < total; {
		fs := cl.PollFetches(ctx)
		if err := fs.Err0(); err != nil {
			cl.Close()
			return nil, fmt.Errorf("consume: %w", err)
		}
		got += fs.NumRecords()
	}
	if err := cl.CommitUncommittedOffsets(ctx); err != nil {
		cl.Close()
		return nil, err
	}
	cl.Close()
	// Admin requests: create a topic, describe its configs, one with an error.
	cl, err = newClient()
	if err != nil {
		return nil, err
	}
	defer cl.Close()
	ct := kmsg.NewPtrCreateTopicsRequest()
	for _, name := range []string{"admin-topic", "t-none"} { // the second exists: an error code
		tt := kmsg.NewCreateTopicsRequestTopic()
		tt.Topic, tt.NumPartitions, tt.ReplicationFactor = name, 3, 1
		ct.Topics = append(ct.Topics, tt)
	}
	if _, err := ct.RequestWith(ctx, cl); err != nil {
		return nil, err
	}
	dc := kmsg.NewPtrDescribeConfigsRequest()
	r := kmsg.NewDescribeConfigsRequestResource()
	r.ResourceType, r.ResourceName = kmsg.ConfigResourceTypeTopic, "admin-topic"
	dc.Resources = append(dc.Resources, r)
	if _, err := dc.RequestWith(ctx, cl); err != nil {
		return nil, err
	}
	return rec, nil
}

// want is the frames a recorder saw: for each connection and direction,
// the frames' bytes.
type want struct {
	frames map[string]int // conn|dir|bytes -> count
	n      int
}

func key(conn int, fromClient bool, b []byte) string {
	return fmt.Sprintf("%d|%v|%s", conn, fromClient, b)
}

func splitFrames(b []byte) [][]byte {
	var out [][]byte
	for len(b) >= 4 {
		n := 4 + int(binary.BigEndian.Uint32(b))
		if len(b) < n {
			break
		}
		out = append(out, b[:n])
		b = b[n:]
	}
	return out
}

func wanted(rec *capturetest.Recorder) *want {
	w := &want{frames: map[string]int{}}
	client, broker := rec.Streams()
	for i := range client {
		for _, f := range splitFrames(client[i]) {
			w.frames[key(i, true, f)]++
			w.n++
		}
		for _, f := range splitFrames(broker[i]) {
			w.frames[key(i, false, f)]++
			w.n++
		}
	}
	return w
}

// seen is an event as the test keeps it.
type seen struct {
	e     capture.Event
	data  []byte
	err   error
	first string
}

func read(t *testing.T, file []byte) ([]seen, error) { return readOpts(t, file, capture.Options{}) }

func readOpts(t *testing.T, file []byte, opts capture.Options) ([]seen, error) {
	var out []seen
	_, err := capture.Read(bytes.NewReader(file), opts, func(e *capture.Event) {
		s := seen{e: *e, data: append([]byte(nil), e.Data...)}
		if e.Kind == capture.KindFrame {
			f, fl, derr := e.Decode(capture.Options{}.Limits)
			s.err = derr
			if fl != nil {
				if j, _ := fl.FirstError(0); j >= 0 {
					s.first = treetest.ErrText(fl.Node(j, nil))
				}
			}
			// The values alone decode to the same JSON form.
			if fv, verr := e.DecodeValues(capture.Options{}.Limits); derr == nil && f.API != nil {
				j, _ := f.AppendJSON(nil, e.Size)
				jv, _ := fv.AppendJSON(nil, e.Size)
				if verr != nil || !bytes.Equal(j, jv) {
					t.Errorf("event %d: DecodeValues: %v; its JSON differs: %v", e.N, verr, !bytes.Equal(j, jv))
				}
			}
		}
		out = append(out, s)
	})
	return out, err
}

// check reads a capture and compares its frames with the recorder's:
// each frame once, decoded without error, each response paired. lost
// frames may be incomplete (their bytes a prefix of a recorded frame) or
// missing (mid-stream).
func check(t *testing.T, name string, file []byte, rec *capturetest.Recorder, incomplete, missing int) {
	t.Helper()
	checkOpts(t, name, file, rec, incomplete, missing, capture.Options{})
}

// checkOpts is check with options; a TLS connection's status must say
// it was decrypted.
func checkOpts(t *testing.T, name string, file []byte, rec *capturetest.Recorder, incomplete, missing int, opts capture.Options) []seen {
	t.Helper()
	w := wanted(rec)
	events, err := readOpts(t, file, opts)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	left := map[string]int{}
	for k, v := range w.frames {
		left[k] = v
	}
	var partial, sasl, responses int
	for _, s := range events {
		e := s.e
		switch e.Kind {
		case capture.KindTLS:
			if !e.TLS.Decrypted {
				t.Errorf("%s: event %d: %s", name, e.N, e.Note)
			}
			continue
		case capture.KindNote:
			t.Errorf("%s: event %d: %s", name, e.N, e.Note)
			continue
		case capture.KindSkipped:
			if missing == 0 {
				t.Errorf("%s: event %d: %s", name, e.N, e.Note)
			}
			continue
		case capture.KindSASL:
			sasl++
		}
		conn := int(e.Conn.Client.Port()) - 40000
		k := key(conn, e.Dir == codec.Request, s.data)
		if e.Incomplete != "" {
			partial++
			found := false
			for kk := range left {
				if strings.HasPrefix(kk, k) {
					left[kk]--
					found = true
					break
				}
			}
			if !found {
				t.Errorf("%s: incomplete frame %d (%s) is no prefix of a recorded frame", name, e.N, e.Incomplete)
			}
			continue
		}
		if left[k] == 0 {
			t.Errorf("%s: event %d (%v %d v%d corr %d) is not a recorded frame, or seen twice", name, e.N, e.Dir, e.Key, e.Version, e.Correlation)
			continue
		}
		left[k]--
		if e.Kind != capture.KindFrame {
			continue
		}
		if s.err != nil || s.first != "" {
			t.Errorf("%s: frame %d (%v key %d v%d): %v %s", name, e.N, e.Dir, e.Key, e.Version, s.err, s.first)
		}
		if e.Dir == codec.Response {
			responses++
			if e.Request == nil {
				t.Errorf("%s: response %d unpaired", name, e.N)
			}
		}
	}
	var unseen int
	for k, v := range left {
		if v > 0 {
			unseen += v
			if missing == 0 {
				t.Errorf("%s: recorded frame not seen: %.60q", name, k)
			}
		}
	}
	if partial != incomplete {
		t.Errorf("%s: %d incomplete frames, want %d", name, partial, incomplete)
	}
	if missing > 0 && (unseen == 0 || unseen > missing) {
		t.Errorf("%s: %d recorded frames not seen, want 1 to %d", name, unseen, missing)
	}
	t.Logf("%s: %d bytes, %d frames recorded on %d connections, %d events, %d responses paired, %d SASL tokens", name, len(file), w.n, rec.Conns(), len(events), responses, sasl)
	return events
}

func pcap(t *testing.T, pkts []capturetest.Packet, link int, nanos, big bool) []byte {
	var b bytes.Buffer
	if err := capturetest.WritePcap(&b, pkts, link, nanos, big, 262144); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func pcapng(t *testing.T, pkts []capturetest.Packet, links []int) []byte {
	var b bytes.Buffer
	if err := capturetest.WritePcapng(&b, pkts, links); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

const (
	ether = int(layers.LinkTypeEthernet)
	raw   = int(layers.LinkTypeRaw)
	null  = int(layers.LinkTypeNull)
	sll   = int(layers.LinkTypeLinuxSLL)
)

// TestRecorded reads the recorded traffic written in every format and link
// type: every frame the recorder saw appears once, decoded and paired.
func TestRecorded(t *testing.T) {
	rec := recorded(t)
	for _, c := range []struct {
		name  string
		opts  capturetest.Options
		write func([]capturetest.Packet, capturetest.Options) []byte
	}{
		{"pcap ethernet µs", capturetest.Options{}, func(p []capturetest.Packet, _ capturetest.Options) []byte { return pcap(t, p, ether, false, false) }},
		{"pcap big-endian ns sll2", capturetest.Options{Links: []int{capturetest.LinkTypeSLL2}}, func(p []capturetest.Packet, _ capturetest.Options) []byte {
			return pcap(t, p, capturetest.LinkTypeSLL2, true, true)
		}},
		{"pcap null ipv6", capturetest.Options{IPv6: true, Links: []int{null}}, func(p []capturetest.Packet, _ capturetest.Options) []byte { return pcap(t, p, null, true, false) }},
		{"pcap raw", capturetest.Options{Links: []int{raw}}, func(p []capturetest.Packet, _ capturetest.Options) []byte { return pcap(t, p, raw, false, true) }},
		{"pcapng two interfaces ipv6", capturetest.Options{IPv6: true, Links: []int{ether, raw}}, func(p []capturetest.Packet, o capturetest.Options) []byte { return pcapng(t, p, o.Links) }},
		{"pcapng vlan and sll", capturetest.Options{VLAN: true, Links: []int{ether, sll}}, func(p []capturetest.Packet, o capturetest.Options) []byte { return pcapng(t, p, o.Links) }},
		{"pcap mss 100", capturetest.Options{MSS: 100}, func(p []capturetest.Packet, _ capturetest.Options) []byte { return pcap(t, p, ether, false, false) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			pkts := capturetest.Packets(rec.Chunks, c.opts)
			check(t, c.name, c.write(pkts, c.opts), rec, 0, 0)
		})
	}
}

// dataPackets are the indexes of the packets with a payload.
func dataPackets(pkts []capturetest.Packet) []int {
	var out []int
	for i, p := range pkts {
		if len(p.Payload) > 0 {
			out = append(out, i)
		}
	}
	return out
}

// TestAltered reads captures altered on purpose.
func TestAltered(t *testing.T) {
	rec := recorded(t)
	fresh := func() []capturetest.Packet { return capturetest.Packets(rec.Chunks, capturetest.Options{MSS: 500}) }

	t.Run("reordered duplicated overlapping", func(t *testing.T) {
		pkts := fresh()
		var out []capturetest.Packet
		for i := 0; i < len(pkts); i++ {
			p := pkts[i]
			if i+1 < len(pkts) && len(p.Payload) > 2 && i%5 == 0 {
				q := pkts[i+1]
				if q.Conn == p.Conn && q.FromClient == p.FromClient && len(q.Payload) > 2 && q.Seq == p.Seq+uint32(len(p.Payload)) {
					// an overlapping retransmission: p's second half and q's first
					o := p
					h := len(p.Payload) / 2
					o.Seq += uint32(h)
					o.Payload = append(append([]byte(nil), p.Payload[h:]...), q.Payload[:len(q.Payload)/2]...)
					o.Rebuild()
					out = append(out, q, p, o, p) // reordered, overlapping, duplicated
					i++
					continue
				}
			}
			out = append(out, p)
			if len(p.Payload) > 0 && i%7 == 0 {
				out = append(out, p) // duplicated
			}
		}
		check(t, "reordered", pcap(t, out, ether, false, false), rec, 0, 0)
	})

	t.Run("acknowledged before captured", func(t *testing.T) {
		// Pairs of client segments captured in reverse order, with the
		// broker's bare acknowledgement of both between them: the first
		// is late, not lost.
		pkts := fresh()
		next := map[int]uint32{} // the broker's next sequence number per connection
		var out []capturetest.Packet
		swapped := 0
		for i := 0; i < len(pkts); i++ {
			p := pkts[i]
			if !p.FromClient {
				next[p.Conn] = p.Seq + uint32(len(p.Payload))
				if p.Flags&0x03 != 0 {
					next[p.Conn]++
				}
			}
			if i+1 < len(pkts) && p.FromClient && len(p.Payload) > 0 && i%3 == 0 {
				q := pkts[i+1]
				if q.Conn == p.Conn && q.FromClient && len(q.Payload) > 0 {
					a := q
					a.FromClient, a.Payload, a.Flags = false, nil, 0x10
					a.Seq, a.Ack = next[p.Conn], q.Seq+uint32(len(q.Payload))
					a.Rebuild()
					out = append(out, q, a, p)
					i++
					swapped++
					continue
				}
			}
			out = append(out, p)
		}
		if swapped == 0 {
			t.Fatal("no segments to swap")
		}
		check(t, "acknowledged before captured", pcap(t, out, ether, false, false), rec, 0, 0)
	})

	// lost drops one segment inside a frame of several segments: that
	// frame is incomplete, and every other frame decodes.
	lost := func(pkts []capturetest.Packet) ([]capturetest.Packet, int) {
		client, broker := rec.Streams()
		for _, i := range dataPackets(pkts) {
			p := pkts[i]
			if !p.FromClient || len(p.Payload) < 500 || i+1 >= len(pkts) || len(pkts[i+1].Payload) == 0 || pkts[i+1].Conn != p.Conn {
				continue
			}
			_ = broker
			// The segment must not start a frame.
			if bytes.Contains(client[p.Conn], p.Payload) && !startsFrame(client[p.Conn], p.Payload) {
				return append(append([]capturetest.Packet(nil), pkts[:i]...), pkts[i+1:]...), i
			}
		}
		t.Fatal("no segment to lose")
		return nil, 0
	}
	t.Run("lost segment", func(t *testing.T) {
		pkts, _ := lost(fresh())
		check(t, "lost", pcap(t, pkts, ether, false, false), rec, 1, 0)
	})
	t.Run("lost frame end", func(t *testing.T) {
		// The last segment of a frame of several: the frame is incomplete,
		// and the next one starts where its size says.
		pkts := fresh()
		client, _ := rec.Streams()
		for _, i := range dataPackets(pkts) {
			p := pkts[i]
			if !p.FromClient || startsFrame(client[p.Conn], p.Payload) || !bytes.Contains(client[p.Conn], p.Payload) {
				continue
			}
			j := i + 1
			for j < len(pkts) && (pkts[j].Conn != p.Conn || !pkts[j].FromClient || len(pkts[j].Payload) == 0) {
				j++
			}
			if j < len(pkts) && startsFrame(client[p.Conn], pkts[j].Payload) {
				pkts = append(pkts[:i:i], pkts[i+1:]...)
				check(t, "lost frame end", pcap(t, pkts, ether, false, false), rec, 1, 0)
				return
			}
		}
		t.Fatal("no frame end to lose")
	})
	t.Run("snaplen", func(t *testing.T) {
		pkts := fresh()
		_, i := lost(pkts)
		pkts[i].Data = pkts[i].Data[:96]
		file := pcap(t, pkts, ether, false, false)
		check(t, "snaplen", file, rec, 1, 0)
		events, _ := read(t, file)
		for _, s := range events {
			if s.e.Incomplete != "" && !strings.Contains(s.e.Incomplete, fmt.Sprintf("captured 96 of %d bytes", pkts[i].Len)) {
				t.Errorf("incomplete: %s", s.e.Incomplete)
			}
		}
	})
	t.Run("mid-stream", func(t *testing.T) {
		pkts := fresh()
		data := dataPackets(pkts)
		from := data[len(data)/3] + 1 // mid-capture: connections open, frames cut
		check(t, "mid-stream", pcap(t, pkts[from:], ether, false, false), rec, 0, countBefore(pkts, from)+4)
	})
}

// countBefore is how many frames may be lost when the capture starts at
// packet from: frames that started before it, and responses to requests
// before it.
func countBefore(pkts []capturetest.Packet, from int) int {
	var b [2]map[int]int
	b[0], b[1] = map[int]int{}, map[int]int{}
	for _, p := range pkts[:from] {
		d := 0
		if !p.FromClient {
			d = 1
		}
		b[d][p.Conn] += len(p.Payload)
	}
	// A loose bound: every request before the cut and its response.
	n := 0
	for _, p := range pkts[:from] {
		if len(p.Payload) >= 8 && p.FromClient {
			n += 2
		}
	}
	return n
}

func startsFrame(stream, seg []byte) bool {
	for off := 0; off+4 <= len(stream); {
		if bytes.HasPrefix(stream[off:], seg) {
			return true
		}
		off += 4 + int(binary.BigEndian.Uint32(stream[off:]))
	}
	return false
}

// writeNg writes a pcapng by hand, in either byte order: a section
// header, one interface (Ethernet, microseconds), then each packet as a
// simple packet block (no time) or an enhanced one, with an interface
// statistics block in the middle.
func writeNg(pkts []capturetest.Packet, big, simple bool) []byte {
	var bo binary.AppendByteOrder = binary.LittleEndian
	if big {
		bo = binary.BigEndian
	}
	block := func(dst []byte, typ uint32, body []byte) []byte {
		for len(body)%4 != 0 {
			body = append(body, 0)
		}
		n := uint32(12 + len(body))
		dst = bo.AppendUint32(bo.AppendUint32(dst, typ), n)
		return bo.AppendUint32(append(dst, body...), n)
	}
	shb := bo.AppendUint32(nil, 0x1a2b3c4d)
	shb = bo.AppendUint16(bo.AppendUint16(shb, 1), 0)
	shb = bo.AppendUint64(shb, ^uint64(0))
	out := block(nil, 0x0a0d0d0a, shb)
	idb := bo.AppendUint16(nil, 1)
	idb = bo.AppendUint16(idb, 0)
	idb = bo.AppendUint32(idb, 0)                                         // no snaplen
	idb = append(bo.AppendUint16(bo.AppendUint16(idb, 9), 1), 6, 0, 0, 0) // if_tsresol: microseconds
	idb = bo.AppendUint32(idb, 0)                                         // end of options
	out = block(out, 1, idb)
	for i, p := range pkts {
		if i == len(pkts)/2 {
			isb := bo.AppendUint32(nil, 0)
			isb = bo.AppendUint64(isb, 0)
			isb = append(bo.AppendUint16(bo.AppendUint16(isb, 4), 8), bo.AppendUint64(nil, uint64(i))...) // isb_ifrecv
			out = block(out, 5, bo.AppendUint32(isb, 0))
		}
		if simple {
			out = block(out, 3, append(bo.AppendUint32(nil, uint32(p.Len)), p.Data...))
			continue
		}
		us := uint64(p.Time.UnixMicro())
		epb := bo.AppendUint32(nil, 0)
		epb = bo.AppendUint32(bo.AppendUint32(epb, uint32(us>>32)), uint32(us))
		epb = bo.AppendUint32(bo.AppendUint32(epb, uint32(len(p.Data))), uint32(p.Len))
		out = block(out, 6, append(epb, p.Data...))
	}
	return out
}

// TestPcapngByHand: simple and enhanced packet blocks, a statistics block,
// both byte orders.
func TestPcapngByHand(t *testing.T) {
	rec := recorded(t)
	pkts := capturetest.Packets(rec.Chunks, capturetest.Options{})
	for _, c := range []struct {
		name        string
		big, simple bool
	}{{"little-endian simple", false, true}, {"big-endian simple", true, true}, {"big-endian enhanced", true, false}} {
		t.Run(c.name, func(t *testing.T) {
			check(t, c.name, writeNg(pkts, c.big, c.simple), rec, 0, 0)
		})
	}
}
