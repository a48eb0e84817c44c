// Package codectest builds large messages for tests and benchmarks: the
// browser tests (e2e), the benchmarks of the explorer's work (wasm/app,
// scripts/browserbench) and of identify. It has no browser dependency, so
// the explorer's tests can use it when built for js/wasm too.
package codectest

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"kwire/codec"
	"kwire/codec/records"
	"kwire/schemas/sets"
)

// FetchResponse returns a Fetch response frame (the latest version of the
// trunk set, correlation id 7) whose partitions hold RecordBatch v2
// batches of 100-byte records, about size bytes in all, with correct
// CRCs.
func FetchResponse(size int) ([]byte, error) {
	set, err := sets.Load("trunk")
	if err != nil {
		return nil, err
	}
	api, err := set.LookupAPI("Fetch")
	if err != nil {
		return nil, err
	}
	f, err := codec.NewFrame(set, api, api.Response.ValidVersions.Hi, codec.Response)
	if err != nil {
		return nil, err
	}
	_, bp, err := f.Plans()
	if err != nil {
		return nil, err
	}
	var body map[string]any
	if err := json.Unmarshal(bp.JSON(f.Body), &body); err != nil {
		return nil, err
	}
	topic := body["Responses"].([]any)[0].(map[string]any)
	proto := topic["Partitions"].([]any)[0].(map[string]any)
	const perBatch, recSize = 80, 100
	batchSize := len(Batch(0, perBatch, recSize))
	nBatches := max((size+batchSize-1)/batchSize, 1)
	nParts := min(max(nBatches/64, 1), 16)
	var parts []any
	offset := int64(0)
	for p := range nParts {
		var recs []byte
		for b := p; b < nBatches; b += nParts {
			recs = append(recs, Batch(offset, perBatch, recSize)...)
			offset += perBatch
		}
		part := map[string]any{}
		for k, v := range proto {
			part[k] = v
		}
		part["PartitionIndex"] = p
		part["HighWatermark"] = offset
		part["Records"] = hex.EncodeToString(recs)
		parts = append(parts, part)
	}
	topic["Partitions"] = parts
	topic["TopicId"] = "6a3a1c1e-8a39-4f3d-9c6b-1f0d6b2a9e01"
	data, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	if err := f.SetJSON(data); err != nil {
		return nil, err
	}
	f.Header.List()[0] = codec.Int(7)
	return f.Encode()
}

// Batch returns a RecordBatch v2 (KIP-98) of n uncompressed records with
// values of about size bytes, starting at baseOffset, with its CRC-32C.
func Batch(baseOffset int64, n, size int) []byte {
	var recs []byte
	for i := range n {
		var r []byte
		r = append(r, 0)                     // attributes
		r = binary.AppendVarint(r, int64(i)) // timestampDelta
		r = binary.AppendVarint(r, int64(i)) // offsetDelta
		key := fmt.Sprintf("key-%d", baseOffset+int64(i))
		r = binary.AppendVarint(r, int64(len(key)))
		r = append(r, key...)
		val := make([]byte, max(size-len(key)-8, 1))
		for j := range val {
			val[j] = 'a' + byte((j+i)%26)
		}
		r = binary.AppendVarint(r, int64(len(val)))
		r = append(r, val...)
		r = binary.AppendVarint(r, 0) // headers
		recs = binary.AppendVarint(recs, int64(len(r)))
		recs = append(recs, r...)
	}
	b := make([]byte, 0, 61+len(recs))
	b = binary.BigEndian.AppendUint64(b, uint64(baseOffset))
	b = binary.BigEndian.AppendUint32(b, uint32(49+len(recs))) // batchLength
	b = binary.BigEndian.AppendUint32(b, 0)                    // partitionLeaderEpoch
	b = append(b, 2)                                           // magic
	b = binary.BigEndian.AppendUint32(b, 0)                    // crc, below
	b = binary.BigEndian.AppendUint16(b, 0)                    // attributes
	b = binary.BigEndian.AppendUint32(b, uint32(n-1))          // lastOffsetDelta
	b = binary.BigEndian.AppendUint64(b, 1764400000000)        // baseTimestamp
	b = binary.BigEndian.AppendUint64(b, 1764400000000+uint64(n-1))
	b = binary.BigEndian.AppendUint64(b, ^uint64(0)) // producerId -1
	b = binary.BigEndian.AppendUint16(b, 0xffff)     // producerEpoch -1
	b = binary.BigEndian.AppendUint32(b, 0xffffffff) // baseSequence -1
	b = binary.BigEndian.AppendUint32(b, uint32(n))
	b = append(b, recs...)
	binary.BigEndian.PutUint32(b[17:], records.CRC32C(b[21:]))
	return b
}
