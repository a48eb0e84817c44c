package codec

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"math"
	"testing"

	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
	"google.golang.org/protobuf/encoding/protowire"
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

	// A histogram: count 4, sum 5, packed bucket_counts 6 and explicit_bounds 7.
	histPt := pbMsg(nil, 9, pbAttr("node_id", "2"))
	histPt = pbFixed(histPt, 4, 3)
	histPt = pbFixed(histPt, 5, math.Float64bits(12.5))
	histPt = pbMsg(histPt, 6, protowire.AppendFixed64(protowire.AppendFixed64(nil, 1), 2))
	histPt = pbMsg(histPt, 7, protowire.AppendFixed64(nil, math.Float64bits(5)))
	hist := pbStr(nil, 1, "org.apache.kafka.producer.request.latency")
	hist = pbMsg(hist, 9, pbMsg(nil, 1, histPt))

	scope := pbMsg(nil, 1, pbStr(nil, 1, "org.apache.kafka"))
	scope = pbMsg(scope, 2, gauge)
	scope = pbMsg(scope, 2, sum)
	scope = pbMsg(scope, 2, hist)
	rm := pbMsg(nil, 1, pbMsg(nil, 1, pbAttr("client_id", "producer-1")))
	rm = pbMsg(rm, 2, scope)
	return pbMsg(nil, 1, rm)
}

func compressTest(c int, b []byte) []byte {
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
			panic(err)
		}
		w.Write(b)
		w.Close()
	}
	return buf.Bytes()
}

// Seeds of FuzzNested: the OTLP payload, plain and compressed.
var (
	otlpSeed       = otlpMetrics()
	otlpGzipSeed   = compressTest(1, otlpSeed)
	otlpSnappySeed = compressTest(2, otlpSeed)
)

func telemetryFrame(t testing.TB, c int, metrics []byte) []byte {
	return frameFromJSON(t.(*testing.T), "PushTelemetry", 0, Request, fmt.Sprintf(
		`{"ClientInstanceId":"AAAAAAAAAAAAAAAAAAAAAQ","SubscriptionId":5,"Terminating":false,"CompressionType":%d,"Metrics":"%x"}`, c, metrics))
}
