package codec

// Benchmarks of kwire against kmsg on the same bytes. scripts/bench.sh
// runs them and prints the kwire/kmsg ratio of each case.

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"

	"kwire/tree"
)

// benchCase is one message as kmsg builds it, with the kwire plan of the
// same schema and version.
type benchCase struct {
	name    string
	msg     string // kwire schema name
	version int16
	kmsg    func() kmsgMessage // a fresh, empty kmsg message
	build   func() kmsgMessage // the message, filled
}

func benchCases() []benchCase {
	return []benchCase{
		{"MetadataResponse100", "MetadataResponse", 12,
			func() kmsgMessage { return kmsg.NewPtrMetadataResponse() }, benchMetadataResponse},
		{"FetchRequest", "FetchRequest", 16,
			func() kmsgMessage { return kmsg.NewPtrFetchRequest() }, benchFetchRequest},
		{"JoinGroupRequest", "JoinGroupRequest", 9,
			func() kmsgMessage { return kmsg.NewPtrJoinGroupRequest() }, benchJoinGroupRequest},
	}
}

func uuidFor(i int) [16]byte {
	var u [16]byte
	for j := range u {
		u[j] = byte(i*31 + j*7 + 1)
	}
	return u
}

// benchMetadataResponse: 3 brokers, 100 topics of 3 partitions, each with
// 3 replicas.
func benchMetadataResponse() kmsgMessage {
	m := kmsg.NewPtrMetadataResponse()
	m.SetVersion(12)
	cluster := "kwire-bench-cluster"
	m.ClusterID = &cluster
	m.ControllerID = 1
	for i := range 3 {
		rack := fmt.Sprintf("rack-%d", i)
		m.Brokers = append(m.Brokers, kmsg.MetadataResponseBroker{NodeID: int32(i + 1), Host: fmt.Sprintf("broker-%d.kafka.internal", i+1), Port: 9092, Rack: &rack})
	}
	for i := range 100 {
		name := fmt.Sprintf("orders.events.v1-%03d", i)
		t := kmsg.NewMetadataResponseTopic()
		t.Topic, t.TopicID = &name, uuidFor(i)
		for p := range 3 {
			pt := kmsg.NewMetadataResponseTopicPartition()
			pt.Partition, pt.Leader, pt.LeaderEpoch = int32(p), int32(p%3+1), 7
			pt.Replicas = []int32{1, 2, 3}
			pt.ISR = []int32{1, 2, 3}
			pt.OfflineReplicas = []int32{}
			t.Partitions = append(t.Partitions, pt)
		}
		m.Topics = append(m.Topics, t)
	}
	return m
}

// benchFetchRequest: a consumer fetch of 5 topics of 8 partitions.
func benchFetchRequest() kmsgMessage {
	m := kmsg.NewPtrFetchRequest()
	m.SetVersion(16)
	m.ReplicaID, m.MaxWaitMillis, m.MinBytes, m.MaxBytes = -1, 500, 1, 52428800
	m.IsolationLevel, m.SessionID, m.SessionEpoch = 1, 12345, 3
	for i := range 5 {
		t := kmsg.NewFetchRequestTopic()
		t.TopicID = uuidFor(i)
		for p := range 8 {
			pt := kmsg.NewFetchRequestTopicPartition()
			pt.Partition, pt.CurrentLeaderEpoch, pt.FetchOffset = int32(p), 5, int64(1000000+p*1000)
			pt.LastFetchedEpoch, pt.LogStartOffset, pt.PartitionMaxBytes = -1, -1, 1048576
			t.Partitions = append(t.Partitions, pt)
		}
		m.Topics = append(m.Topics, t)
	}
	m.Rack = "us-east-1a"
	return m
}

// benchJoinGroupRequest: a consumer joining with two protocols.
func benchJoinGroupRequest() kmsgMessage {
	m := kmsg.NewPtrJoinGroupRequest()
	m.SetVersion(9)
	m.Group, m.SessionTimeoutMillis, m.RebalanceTimeoutMillis = "payments-consumers", 45000, 300000
	m.MemberID = "consumer-payments-1-4f6c2a9e-0d7b-4c1e-9a55-3b2f1e8d7c60"
	instance := "payments-pod-7"
	m.InstanceID = &instance
	m.ProtocolType = "consumer"
	for _, name := range []string{"cooperative-sticky", "range"} {
		p := kmsg.NewJoinGroupRequestProtocol()
		p.Name = name
		p.Metadata = bytes.Repeat([]byte{0, 3, 0, 0, 0, 2, 0, 6}, 8)
		m.Protocols = append(m.Protocols, p)
	}
	reason := "rebalance after partition count change"
	m.Reason = &reason
	return m
}

// benchTop changes the root's line as kwire decode's does (its
// WriteText's top).
func benchTop(root *tree.Node) { root.About = "read with the schemas of trunk" }

// benchInput is a case's bytes and plan, checked to round-trip in both
// codecs.
func benchInput(tb testing.TB, c benchCase) ([]byte, *Plan, Value) {
	tb.Helper()
	b := c.build().AppendTo(nil)
	p := mustPlan(tb, loadSet(tb, "trunk"), c.msg, c.version)
	v, n, err := p.Decode(b)
	if err != nil || n != len(b) {
		tb.Fatalf("%s: kwire read %d of %d bytes: %v", c.name, n, len(b), err)
	}
	if b2, err := p.Encode(v); err != nil || !bytes.Equal(b, b2) {
		tb.Fatalf("%s: kwire writes other bytes (%v)", c.name, err)
	}
	m := c.kmsg()
	m.SetVersion(c.version)
	if err := m.ReadFrom(b); err != nil || !bytes.Equal(m.AppendTo(nil), b) {
		tb.Fatalf("%s: kmsg does not round-trip its own bytes (%v)", c.name, err)
	}
	return b, p, v
}

// TestBenchInputs: the benchmark messages are what they say (sizes) and
// both codecs agree on them.
func TestBenchInputs(t *testing.T) {
	for _, c := range benchCases() {
		b, _, v := benchInput(t, c)
		t.Logf("%s v%d: %d bytes", c.name, c.version, len(b))
		if c.name == "MetadataResponse100" {
			p := mustPlan(t, loadSet(t, "trunk"), c.msg, c.version)
			if n := len(v.List()[p.Root.Field("Topics").Index].List()); n != 100 {
				t.Errorf("%d topics", n)
			}
		}
	}
}

// measure runs f as the benchmark body and reports, besides the usual
// metrics, cpu-ns/op: the process's CPU time per operation (garbage
// collection on other threads included). On a busy machine it varies far
// less than ns/op, which counts the time other processes run too.
func measure(b *testing.B, size int, f func()) {
	b.SetBytes(int64(size))
	b.ReportAllocs()
	start := processCPU()
	for b.Loop() {
		f()
	}
	if cpu := processCPU() - start; cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkCodec: for each case, decode to a value (kwire, kmsg), decode
// with the object tree (kwire: as spans, tree; with every node's text
// written as kwire decode prints it, nodes; with only what a row's text
// can least cost, floor), and encode (kwire, kmsg).
func BenchmarkCodec(b *testing.B) {
	for _, c := range benchCases() {
		in, p, v := benchInput(b, c)
		b.Run(c.name+"/decode/kwire", func(b *testing.B) {
			measure(b, len(in), func() {
				if _, _, err := p.Decode(in); err != nil {
					b.Fatal(err)
				}
			})
		})
		b.Run(c.name+"/decode/kmsg", func(b *testing.B) {
			measure(b, len(in), func() {
				m := c.kmsg()
				m.SetVersion(c.version)
				if err := m.ReadFrom(in); err != nil {
					b.Fatal(err)
				}
			})
		})
		// Steady state: each side decodes into the value of its previous
		// decode (Plan.DecodeInto; kmsg's ReadFrom into the same message
		// reuses its slices).
		b.Run(c.name+"/reuse/kwire", func(b *testing.B) {
			var v Value
			measure(b, len(in), func() {
				if _, err := p.DecodeInto(in, &v); err != nil {
					b.Fatal(err)
				}
			})
		})
		b.Run(c.name+"/reuse/kmsg", func(b *testing.B) {
			m := c.kmsg()
			m.SetVersion(c.version)
			measure(b, len(in), func() {
				if err := m.ReadFrom(in); err != nil {
					b.Fatal(err)
				}
			})
		})
		// The tree as the explorer holds it: spans, their text written
		// when drawn.
		b.Run(c.name+"/tree/kwire", func(b *testing.B) {
			measure(b, len(in), func() {
				if _, _, _, err := p.DecodeTree(in, tree.Node{}, TreeOptions{}); err != nil {
					b.Fatal(err)
				}
			})
		})
		// What kwire decode costs: the tree decoded as spans, then every
		// node's text written, as it prints it (tree.Flat.WriteText, with
		// the root's line saying which release read it, as kwire decode's
		// top does; TestBenchText checks the text).
		top := benchTop
		b.Run(c.name+"/nodes/kwire", func(b *testing.B) {
			measure(b, len(in), func() {
				_, fl, _, err := p.DecodeTree(in, tree.Node{}, TreeOptions{})
				if err != nil {
					b.Fatal(err)
				}
				if err := fl.WriteText(io.Discard, 0, top); err != nil {
					b.Fatal(err)
				}
			})
		})
		// The least kwire decode's text can cost in this design: the tree
		// decoded as spans, then for each span with a plan field only its
		// guides, its field's name and type, one digit, its place and its
		// description copied (floorText); what the real rows add to this
		// is values, kinds, lengths, strings and escaping.
		b.Run(c.name+"/floor/kwire", func(b *testing.B) {
			text := make([]byte, 0, 8<<10)
			measure(b, len(in), func() {
				_, fl, _, err := p.DecodeTree(in, tree.Node{}, TreeOptions{})
				if err != nil {
					b.Fatal(err)
				}
				text = floorText(text[:0], fl, p.fieldLines())
			})
		})
		buf := make([]byte, 0, 2*len(in))
		b.Run(c.name+"/encode/kwire", func(b *testing.B) {
			measure(b, len(in), func() {
				var err error
				if buf, err = p.Append(buf[:0], v); err != nil {
					b.Fatal(err)
				}
			})
		})
		m := c.build()
		b.Run(c.name+"/encode/kmsg", func(b *testing.B) {
			measure(b, len(in), func() { buf = m.AppendTo(buf[:0]) })
		})
	}
}

// floorGuides are the guides floorText writes on each row: a row three
// deep.
var floorGuides = padded("|   |   |   +-- ")

// floorText appends, for each span of fl that names a plan field (lines,
// its plan's), the parts of a row that need no reading of its bytes, as
// planDesc.rows writes them, writing over b once it holds 7 KB: a floor
// under what WriteText costs (BenchmarkCodec's floor rows).
func floorText(b []byte, fl *tree.Flat, lines []fieldLine) []byte {
	for j := 1; j < len(fl.Spans); j++ {
		s := &fl.Spans[j]
		if uint(s.Ref) >= uint(len(lines)) {
			continue
		}
		line := &lines[s.Ref]
		if len(b) > 7<<10 {
			b = b[:0]
		}
		b = append(put32(put32(b, floorGuides), line.headEq), '1')
		if n := len(b); cap(b)-n >= 16 {
			b = b[:n+tree.PutPlace(b[n:n+16], int(s.Off), int(s.Size))]
		}
		b = append(b, line.tail...)
	}
	return b
}
