package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"math"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// kwire decode shows a PushTelemetry request's gzip-compressed OTLP
// metrics by name and value; the JSON form keeps them hex and encodes
// back to the same frame.
func TestDecodePushTelemetryOTLP(t *testing.T) {
	msg := func(b []byte, num protowire.Number, inner []byte) []byte {
		return protowire.AppendBytes(protowire.AppendTag(b, num, protowire.BytesType), inner)
	}
	str := func(b []byte, num protowire.Number, s string) []byte {
		return protowire.AppendString(protowire.AppendTag(b, num, protowire.BytesType), s)
	}
	// NumberDataPoint: attributes 7, time_unix_nano 3, as_double 4.
	pt := msg(nil, 7, msg(str(nil, 1, "node_id"), 2, str(nil, 1, "3")))
	pt = protowire.AppendFixed64(protowire.AppendTag(pt, 3, protowire.Fixed64Type), 1700000000000000000)
	pt = protowire.AppendFixed64(protowire.AppendTag(pt, 4, protowire.Fixed64Type), math.Float64bits(2.5))
	metric := msg(str(nil, 1, "org.apache.kafka.consumer.poll.idle.ratio.avg"), 5, msg(nil, 1, pt)) // Metric.gauge
	data := msg(nil, 1, msg(nil, 2, msg(nil, 2, metric)))                                           // MetricsData.resource_metrics.scope_metrics.metrics
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	w.Write(data)
	w.Close()
	body := fmt.Sprintf(`{"ClientInstanceId":"AAAAAAAAAAAAAAAAAAAAAQ","SubscriptionId":1,"Terminating":false,"CompressionType":1,"Metrics":"%x"}`, z.Bytes())
	frame, errs, code := kwire(t, body, "encode", "--api", "PushTelemetry", "--version", "0", "--json", "-")
	if code != 0 {
		t.Fatalf("encode: %d %s", code, errs)
	}
	frame = strings.TrimSpace(frame)
	out, errs, code := kwire(t, frame, "decode")
	if code != 0 {
		t.Fatalf("decode: %d %s", code, errs)
	}
	for _, want := range []string{"decompressed gzip", `name string = "org.apache.kafka.consumer.poll.idle.ratio.avg"`,
		"as_double double = 2.5", `key string = "node_id"`, "time_unix_nano fixed64 = 1700000000000000000"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	j, errs, code := kwire(t, frame, "decode", "--format", "json")
	if code != 0 || !strings.Contains(j, fmt.Sprintf("%x", z.Bytes())) {
		t.Fatalf("JSON: %d %s\n%s", code, errs, j)
	}
	back, errs, code := kwire(t, j, "encode", "--api", "PushTelemetry", "--version", "0", "--json", "-")
	if code != 0 || strings.TrimSpace(back) != frame {
		t.Errorf("JSON round trip: %d %s\n got %s\nwant %s", code, errs, back, frame)
	}
}
