//go:build !js

package codec

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"kwire/codec/otlp"
	"kwire/codec/records"
	"kwire/tree/treetest"
)

func TestPushTelemetryOTLP(t *testing.T) {
	plain := otlpMetrics()
	for c, name := range []string{"none", "gzip", "snappy", "lz4", "zstd"} {
		t.Run(name, func(t *testing.T) {
			metrics := compressTest(c, plain)
			b := telemetryFrame(t, c, metrics)
			f, fl, err := decodeTest(t, b, "PushTelemetry", 0, Request)
			if err != nil {
				t.Fatal(err)
			}
			if e := treetest.FirstError(fl); e != nil {
				t.Fatalf("error node %s: %s\n%s", e.Name, e.Err, treetest.Text(fl))
			}
			mi, md := treetest.Find(fl, "Metrics."+otlp.Seg, otlp.Seg)
			if md == nil {
				t.Fatalf("no %s in\n%s", otlp.Seg, treetest.Text(fl))
			}
			if md.Relative != (c != 0) {
				t.Errorf("relative = %v for %s", md.Relative, name)
			}
			text := treetest.Text(fl)
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
				`count fixed64 = 3`,
				`sum double = 12.5`,
				`bucket_counts packed = 2 values`,
				`explicit_bounds packed = 1 value`,
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
			for _, n := range treetest.Under(fl, mi) {
				if n.Offset < 0 || n.End() > len(stream) {
					t.Fatalf("%s [%d, %d) outside the stream of %d", n.Name, n.Offset, n.End(), len(stream))
				}
				if n.Name == "name" && !bytes.Contains(stream[n.Offset:n.End()], []byte("org.apache.kafka")) {
					t.Errorf("name spans %q", stream[n.Offset:n.End()])
				}
			}
			// The JSON form keeps Metrics as hex and round-trips.
			j, err := f.JSON(len(b))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(j, fmt.Appendf(nil, `"Metrics": "%x"`, metrics)) {
				t.Errorf("Metrics not hex in %s", j)
			}
			if testing.Verbose() && c == 1 {
				t.Log(treetest.Text(fl))
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
			_, fl, err := decodeTest(t, b, "PushTelemetry", 0, Request)
			if err != nil {
				t.Fatal(err)
			}
			e := treetest.FirstError(fl)
			if e == nil || !strings.Contains(treetest.ErrText(e), tc.err) {
				t.Fatalf("want an error node with %q\n%s", tc.err, treetest.Text(fl))
			}
			if i, _ := treetest.Find(fl, "CompressionType", "CompressionType"); i < 0 {
				t.Fatalf("outer tree not whole\n%s", treetest.Text(fl))
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
	_, fl, err := decodeTest(t, telemetryFrame(t, 0, md), "PushTelemetry", 0, Request)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(treetest.Text(fl), "nested more than") {
		t.Errorf("no depth note in\n%s", treetest.Text(fl))
	}
}

// PushTelemetry's metrics are charged to the message's budget: bytes
// decompressed and nodes.
func TestPushTelemetryBudget(t *testing.T) {
	set := loadSet(t, "trunk")
	api, err := set.LookupAPI("PushTelemetry")
	if err != nil {
		t.Fatal(err)
	}
	plain := otlpMetrics()
	for _, tc := range []struct {
		name string
		l    records.Limits
		want string
	}{
		{"decompressed", records.Limits{MaxDecompressed: 100}, "decompression budget"},
		{"nodes", records.Limits{MaxNodes: 20}, "left out"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := telemetryFrame(t, 1, compressTest(1, plain))
			_, fl, err := Decode(b, DecodeOptions{Set: set, API: api, Version: 0, Dir: Request, budget: records.NewBudget(tc.l)})
			if err != nil {
				t.Fatal(err)
			}
			e := treetest.FirstError(fl)
			if e == nil || !strings.Contains(treetest.ErrText(e), tc.want) {
				t.Fatalf("want an error node with %q\n%s", tc.want, treetest.Text(fl))
			}
		})
	}
}
