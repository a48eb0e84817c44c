//go:build !js

package codec

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
	"google.golang.org/protobuf/encoding/protowire"

	"kwire/codec/otlp"
	"kwire/tree"
)

// The OTLP test payload, encoded with protowire and the field numbers of
// opentelemetry-proto's metrics.proto and common.proto.

func pbMsg(b []byte, num protowire.Number, inner []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, inner)
}

func pbStr(b []byte, num protowire.Number, s string) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendString(b, s)
}

func pbFixed(b []byte, num protowire.Number, v uint64) []byte {
	b = protowire.AppendTag(b, num, protowire.Fixed64Type)
	return protowire.AppendFixed64(b, v)
}

// pbAttr is a KeyValue with a string value.
func pbAttr(k, v string) []byte {
	return pbMsg(pbStr(nil, 1, k), 2, pbStr(nil, 1, v))
}

// otlpMetrics is a MetricsData with one resource, one scope, a gauge
// (a double point) and a monotonic cumulative sum (an int point), each
// point with attributes.
func otlpMetrics() []byte {
	gaugePt := pbMsg(nil, 7, pbAttr("node_id", "1"))
	gaugePt = pbFixed(gaugePt, 3, 1700000000000000000)
	gaugePt = pbFixed(gaugePt, 4, math.Float64bits(0.75))
	gauge := pbStr(nil, 1, "org.apache.kafka.producer.record.queue.time.avg")
	gauge = pbStr(gauge, 3, "ms")
	gauge = pbMsg(gauge, 5, pbMsg(nil, 1, gaugePt))

	sumPt := pbMsg(nil, 7, pbAttr("topic", "orders"))
	sumPt = pbFixed(sumPt, 2, 1699999990000000000)
	sumPt = pbFixed(sumPt, 3, 1700000000000000000)
	sumPt = pbFixed(sumPt, 6, uint64(12345))
	sumBody := pbMsg(nil, 1, sumPt)
	sumBody = protowire.AppendTag(sumBody, 2, protowire.VarintType)
	sumBody = protowire.AppendVarint(sumBody, 2)
	sumBody = protowire.AppendTag(sumBody, 3, protowire.VarintType)
	sumBody = protowire.AppendVarint(sumBody, 1)
	sum := pbStr(nil, 1, "org.apache.kafka.producer.record.send.total")
	sum = pbStr(sum, 2, "records sent")
	sum = pbMsg(sum, 7, sumBody)
	// A field kwire does not know: number 99, varint.
	sum = protowire.AppendTag(sum, 99, protowire.VarintType)
	sum = protowire.AppendVarint(sum, 7)

	scope := pbMsg(nil, 1, pbStr(nil, 1, "org.apache.kafka"))
	scope = pbMsg(scope, 2, gauge)
	scope = pbMsg(scope, 2, sum)
	rm := pbMsg(nil, 1, pbMsg(nil, 1, pbAttr("client_id", "producer-1")))
	rm = pbMsg(rm, 2, scope)
	return pbMsg(nil, 1, rm)
}

func compressTest(t testing.TB, c int, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	switch c {
	case 0:
		return b
	case 1:
		w := gzip.NewWriter(&buf)
		w.Write(b)
		w.Close()
	case 2:
		return s2.EncodeSnappy(nil, b)
	case 3:
		w := lz4.NewWriter(&buf)
		w.Write(b)
		w.Close()
	case 4:
		w, err := zstd.NewWriter(&buf)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(b)
		w.Close()
	}
	return buf.Bytes()
}

func telemetryFrame(t testing.TB, c int, metrics []byte) []byte {
	return frameFromJSON(t.(*testing.T), "PushTelemetry", 0, Request, fmt.Sprintf(
		`{"ClientInstanceId":"AAAAAAAAAAAAAAAAAAAAAQ","SubscriptionId":5,"Terminating":false,"CompressionType":%d,"Metrics":"%x"}`, c, metrics))
}

func TestPushTelemetryOTLP(t *testing.T) {
	plain := otlpMetrics()
	for c, name := range []string{"none", "gzip", "snappy", "lz4", "zstd"} {
		t.Run(name, func(t *testing.T) {
			metrics := compressTest(t, c, plain)
			b := telemetryFrame(t, c, metrics)
			f, root, err := decodeTest(t, b, "PushTelemetry", 0, Request)
			if err != nil {
				t.Fatal(err)
			}
			if e, _ := root.FirstError(); e != nil {
				t.Fatalf("error node %s: %s\n%s", e.Name, e.Err, root.Text())
			}
			md := findNode(root, "Metrics."+otlp.Seg, otlp.Seg)
			if md == nil {
				t.Fatalf("no %s in\n%s", otlp.Seg, root.Text())
			}
			if md.Relative != (c != 0) {
				t.Errorf("relative = %v for %s", md.Relative, name)
			}
			text := root.Text()
			for _, want := range []string{
				`name string = "org.apache.kafka.producer.record.queue.time.avg"`,
				`as_double double = 0.75`,
				`name string = "org.apache.kafka.producer.record.send.total"`,
				`as_int sfixed64 = 12345`,
				`time_unix_nano fixed64 = 1700000000000000000`,
				`key string = "topic"`,
				`string_value string = "orders"`,
				`aggregation_temporality enum = 2 (CUMULATIVE)`,
				`is_monotonic bool = true`,
				`key string = "client_id"`,
				`field 99 varint = 7`,
			} {
				if !strings.Contains(text, want) {
					t.Errorf("no %q in\n%s", want, text)
				}
			}
			// Offsets: a leaf's bytes are its encoding in the (decompressed) stream.
			stream := b
			if c != 0 {
				stream = plain
			}
			md.Walk(func(n *tree.Node, _ int) bool {
				if n.Offset < 0 || n.End() > len(stream) {
					t.Fatalf("%s [%d, %d) outside the stream of %d", n.Name, n.Offset, n.End(), len(stream))
				}
				if n.Name == "name" && !bytes.Contains(stream[n.Offset:n.End()], []byte("org.apache.kafka")) {
					t.Errorf("name spans %q", stream[n.Offset:n.End()])
				}
				return true
			})
			// The JSON form keeps Metrics as hex and round-trips.
			j, err := f.JSON(len(b))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(j, fmt.Appendf(nil, `"Metrics": "%x"`, metrics)) {
				t.Errorf("Metrics not hex in %s", j)
			}
			if testing.Verbose() && c == 1 {
				t.Log(root.Text())
			}
			roundTrip(t, b, "PushTelemetry", 0, Request)
		})
	}
}

func TestPushTelemetryHostile(t *testing.T) {
	plain := otlpMetrics()
	cases := map[string]struct {
		c       int
		metrics []byte
		err     string
	}{
		"truncated":       {0, plain[:len(plain)-3], "unexpected EOF"},
		"huge length":     {0, []byte{0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f}, "unexpected EOF"},
		"bad tag":         {0, []byte{0x00}, "bad tag"},
		"wrong wire type": {0, []byte{0x09, 1, 2, 3, 4, 5, 6, 7, 8}, "want len"},
		"not gzip":        {1, []byte("not gzip"), "gzip"},
		"unknown codec":   {9, plain, "unknown compression codec 9"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			b := telemetryFrame(t, tc.c, tc.metrics)
			_, root, err := decodeTest(t, b, "PushTelemetry", 0, Request)
			if err != nil {
				t.Fatal(err)
			}
			e, _ := root.FirstError()
			if e == nil || !strings.Contains(e.Err, tc.err) {
				t.Fatalf("want an error node with %q\n%s", tc.err, root.Text())
			}
			if findNode(root, "CompressionType", "CompressionType") == nil {
				t.Fatalf("outer tree not whole\n%s", root.Text())
			}
		})
	}
	// Nested AnyValues deeper than the decoder goes.
	deep := pbStr(nil, 1, "x")
	for range 100 {
		deep = pbMsg(nil, 5, pbMsg(nil, 1, deep)) // AnyValue.array_value.values
	}
	kv := pbMsg(pbStr(nil, 1, "k"), 2, deep)
	md := pbMsg(nil, 1, pbMsg(nil, 1, pbMsg(nil, 1, kv)))
	_, root, err := decodeTest(t, telemetryFrame(t, 0, md), "PushTelemetry", 0, Request)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(root.Text(), "nested more than") {
		t.Errorf("no depth note in\n%s", root.Text())
	}
}
