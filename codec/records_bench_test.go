package codec

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"kwire/codec/records"
	"kwire/codec/records/recordstest"
	"kwire/schemas"
	"kwire/schemas/sets"
	"kwire/tree/treetest"
)

// Fetch responses for the records benchmark: recordstest.Field, 10,000
// records of about 100 bytes in batches of 100, about 1 MB before
// compression, one response per codec.
const (
	benchRecords   = recordstest.Records
	benchFetchVers = 16
)

func benchBatches(c records.Codec) []byte { return recordstest.Field(c) }

// benchFetch returns a Fetch v16 response frame holding the batches.
func benchFetch(recs []byte) []byte {
	resp := kmsg.NewPtrFetchResponse()
	resp.Version = benchFetchVers
	t := kmsg.NewFetchResponseTopic()
	t.TopicID = [16]byte{1, 2, 3}
	p := kmsg.NewFetchResponseTopicPartition()
	p.HighWatermark, p.LastStableOffset, p.LogStartOffset = benchRecords, benchRecords, 0
	p.RecordBatches = recs
	t.Partitions = append(t.Partitions, p)
	resp.Topics = append(resp.Topics, t)
	frame := []byte{0, 0, 0, 0, 0, 0, 0, 42, 0} // size, correlation id, tagged fields (header v1)
	frame = resp.AppendTo(frame)
	binary.BigEndian.PutUint32(frame, uint32(len(frame)-4))
	return frame
}

var crc32c = crc32.MakeTable(crc32.Castagnoli)

// kmsgDecode is the same decode as a franz-go consumer does it: the
// response with kmsg, then each batch with kmsg.RecordBatch, its CRC
// checked, its records decompressed by kgo's decompressor and read with
// kmsg.Record. It returns the records read.
func kmsgDecode(frame []byte, dec kgo.Decompressor) (int, error) {
	resp := kmsg.NewPtrFetchResponse()
	resp.Version = benchFetchVers
	if err := resp.ReadFrom(frame[9:]); err != nil {
		return 0, err
	}
	n := 0
	for _, t := range resp.Topics {
		for _, p := range t.Partitions {
			in := p.RecordBatches
			for len(in) > 12 {
				length := int(int32(binary.BigEndian.Uint32(in[8:]))) + 12
				if length > len(in) {
					break
				}
				var rb kmsg.RecordBatch
				if err := rb.ReadFrom(in[:length]); err != nil {
					return n, err
				}
				if crc32.Checksum(in[21:length], crc32c) != uint32(rb.CRC) {
					return n, fmt.Errorf("crc mismatch")
				}
				raw, err := dec.Decompress(rb.Records, kgo.CompressionCodecType(rb.Attributes&7))
				if err != nil {
					return n, err
				}
				recs := make([]kmsg.Record, rb.NumRecords)
				for i := range recs {
					length, used := binary.Varint(raw)
					total := used + int(length)
					if used <= 0 || total > len(raw) {
						return n, fmt.Errorf("bad record")
					}
					if err := recs[i].ReadFrom(raw[:total]); err != nil {
						return n, err
					}
					raw = raw[total:]
				}
				n += len(recs)
				in = in[length:]
			}
		}
	}
	return n, nil
}

// kwireDecode decodes the frame with its whole object tree and returns the
// record nodes in it.
func kwireDecode(frame []byte, o DecodeOptions) (int, error) {
	_, fl, err := Decode(frame, o)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, x := range treetest.All(fl) {
		if x.Err != nil {
			err = fmt.Errorf("%s: %s", x.Name, x.Err)
		}
		if x.Type == "Record" {
			n++
		}
	}
	return n, err
}

// kwireValueDecode is kwire's decode to values, the same work kmsgDecode
// does: the response body to a value, then every records field to its
// batches and records (RecordBatches: CRCs checked, decompressed).
func kwireValueDecode(frame []byte, p *Plan) (int, error) {
	v, _, err := p.Decode(frame[9:])
	if err != nil {
		return 0, err
	}
	n := 0
	err = eachRecords(p.Root, v, func(r Value) error {
		batches, err := RecordBatches(r)
		for _, b := range batches {
			n += len(b.Records)
		}
		return err
	})
	return n, err
}

// eachRecords calls f with every records field of a struct value.
func eachRecords(sp *StructPlan, v Value, f func(Value) error) error {
	for _, fp := range sp.Wire {
		fv := v.List()[fp.Index]
		switch {
		case fp.Kind == schemas.KindRecords:
			if err := f(fv); err != nil {
				return err
			}
		case fp.Kind == schemas.KindStruct && !fv.IsNull():
			if err := eachRecords(fp.Struct, fv, f); err != nil {
				return err
			}
		case fp.Kind == schemas.KindArray && fp.Elem == schemas.KindStruct:
			for _, e := range fv.List() {
				if err := eachRecords(fp.Struct, e, f); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// BenchmarkFetchRecords decodes a Fetch response of 10,000 records, for
// each codec, in the manner of BenchmarkCodec: decode/kwire is the value
// decode with every record read (kwireValueDecode), decode/kmsg the same
// with kmsg (kmsgDecode), tree/kwire the whole frame with its object tree
// (Decode; TestBenchFetch checks every record is in it), json/kwire the
// JSON form of the values (kwire capture --format json --body, kwire
// decode --format json), and nodes/kwire the tree with every node's text
// (Decode, as kwire decode prints it).
// scripts/bench-records.sh prints the ratios.
func BenchmarkFetchRecords(b *testing.B) {
	set, err := sets.Load("trunk")
	if err != nil {
		b.Fatal(err)
	}
	api, _ := set.LookupAPI("Fetch")
	o := DecodeOptions{Set: set, API: api, Version: benchFetchVers, Dir: Response}
	p, err := PlanFor(api.Response, benchFetchVers)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []records.Codec{records.None, records.Gzip, records.Snappy, records.LZ4, records.Zstd} {
		frame := benchFetch(benchBatches(c))
		b.Run(c.String()+"/decode/kwire", func(b *testing.B) {
			measure(b, len(frame), func() {
				if n, err := kwireValueDecode(frame, p); err != nil || n != benchRecords {
					b.Fatalf("%d records, %v", n, err)
				}
			})
		})
		b.Run(c.String()+"/decode/kmsg", func(b *testing.B) {
			dec := kgo.DefaultDecompressor()
			measure(b, len(frame), func() {
				if n, err := kmsgDecode(frame, dec); err != nil || n != benchRecords {
					b.Fatalf("%d records, %v", n, err)
				}
			})
		})
		b.Run(c.String()+"/json/kwire", func(b *testing.B) {
			vo := o
			vo.ValuesOnly = true
			var out []byte
			measure(b, len(frame), func() {
				f, _, err := Decode(frame, vo)
				if err != nil {
					b.Fatal(err)
				}
				if out, err = f.AppendJSON(out[:0], len(frame)); err != nil {
					b.Fatal(err)
				}
			})
		})
		// The tree as the explorer holds it: spans, their text written
		// when drawn.
		b.Run(c.String()+"/tree/kwire", func(b *testing.B) {
			measure(b, len(frame), func() {
				if _, _, err := Decode(frame, o); err != nil {
					b.Fatal(err)
				}
			})
		})
		// What kwire decode costs: the tree as spans, then every node's
		// text written, as it prints it (tree.Flat.WriteText).
		b.Run(c.String()+"/nodes/kwire", func(b *testing.B) {
			measure(b, len(frame), func() {
				_, fl, err := Decode(frame, o)
				if err != nil {
					b.Fatal(err)
				}
				if err := fl.WriteText(io.Discard, 0, nil); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// TestBenchFetch checks the benchmark's input: both decoders read all
// 10,000 records from every response, and the responses are about 1 MB
// before compression.
func TestBenchFetch(t *testing.T) {
	set, err := sets.Load("trunk")
	if err != nil {
		t.Fatal(err)
	}
	api, _ := set.LookupAPI("Fetch")
	o := DecodeOptions{Set: set, API: api, Version: benchFetchVers, Dir: Response}
	p, err := PlanFor(api.Response, benchFetchVers)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []records.Codec{records.None, records.Gzip, records.Snappy, records.LZ4, records.Zstd} {
		frame := benchFetch(benchBatches(c))
		if c == records.None && (len(frame) < 900_000 || len(frame) > 1_300_000) {
			t.Errorf("uncompressed response is %d bytes, want about 1 MB", len(frame))
		}
		t.Logf("%s: %d bytes", c, len(frame))
		n1, err1 := kwireDecode(frame, o)
		n2, err2 := kmsgDecode(frame, kgo.DefaultDecompressor())
		n3, err3 := kwireValueDecode(frame, p)
		if err1 != nil || err2 != nil || err3 != nil || n1 != benchRecords || n2 != benchRecords || n3 != benchRecords {
			t.Errorf("%s (%d bytes): kwire tree %d records (%v), kmsg %d (%v), kwire values %d (%v)", c, len(frame), n1, err1, n2, err2, n3, err3)
		}
	}
}
