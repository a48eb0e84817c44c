package records_test

import (
	"fmt"
	"strings"

	"kwire/codec/records"
	"kwire/tree"
)

func ExampleEncode() {
	b := records.Batch{Magic: 2, Attributes: int16(records.Gzip), BaseTimestamp: 1700000000000, ProducerID: -1, ProducerEpoch: -1, BaseSequence: -1,
		Records: []records.Record{{Key: []byte("k"), Value: []byte("hello")}, {OffsetDelta: 1, TimestampDelta: 5, Value: []byte("world")}}}
	b.Fill()
	raw, err := records.Encode([]records.Batch{b})
	if err != nil {
		panic(err)
	}
	got, _ := records.Parse(raw)
	fmt.Println(got[0].Codec(), len(got[0].Records), string(got[0].Records[1].Value), got[0].MaxTimestamp)
	// Output: gzip 2 world 1700000000005
}

func ExampleSpans() {
	b := records.Batch{Magic: 2, BaseOffset: 100, Records: []records.Record{{Key: []byte("k"), Value: []byte{0, 1}}}}
	b.Fill()
	raw, _ := records.Encode([]records.Batch{b})
	f := &tree.Flat{}
	records.Spans(f, -1, raw, 0, records.Options{Path: "Records"})
	f.Done()
	for i := 0; i < f.Len(); i = int(f.Spans[i].Next) { // the roots
		var last, rec int
		f.Children(i, func(c int) { last = c })             // the batch's records
		f.Children(last, func(c int) { rec = max(rec, c) }) // its record
		n := f.Node(i, nil)
		fmt.Println(n.Name, n.Value)
		for c := rec + 1; c < int(f.Spans[rec].Next); c = int(f.Spans[c].Next) {
			c := f.Node(c, nil)
			fmt.Println(strings.TrimSpace("  " + c.Name + " " + c.Type + " = " + c.Value + " " + c.Detail))
		}
	}
	// Output:
	// RecordBatch offsets 100-100, 1 record
	// length varint = 9
	// attributes int8 = 0
	// timestampDelta varlong = 0 (timestamp 0)
	// offsetDelta varint = 0 (offset 100)
	// key bytes = "k" (varint len=1)
	// value bytes = 0x0001 (varint len=2)
	// headers []Header = 0 headers (varint count=0)
}

func ExampleAppendJSON() {
	b := records.Batch{Magic: 2, ProducerID: -1, ProducerEpoch: -1, BaseSequence: -1, PartitionLeaderEpoch: -1,
		Records: []records.Record{{Key: []byte("k"), Value: []byte{0, 1}, Headers: []records.Header{{Key: []byte("h"), Value: []byte("v")}}}}}
	b.Fill()
	raw, _ := records.Encode([]records.Batch{b})
	fmt.Println(string(records.AppendJSON(nil, raw, nil)))
	fmt.Println(string(records.AppendJSON(nil, raw[:30], nil))) // no whole batch: hex
	// Output:
	// [{"baseOffset":0,"partitionLeaderEpoch":-1,"magic":2,"compression":"none","timestampType":"CreateTime","transactional":false,"control":false,"baseTimestamp":0,"producerId":-1,"producerEpoch":-1,"baseSequence":-1,"records":[{"key":"k","valueHex":"0001","headers":[{"key":"h","value":"v"}]}]}]
	// "00000000000000000000003fffffffff021b8907c2000000000000000000"
}
