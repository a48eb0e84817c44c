//go:build !js

package records

import (
	"bytes"
	"sync"
)

// seen keeps the decompressed records of the compressed batches that
// AppendJSON read last, so that a batch read again is not decompressed
// again: Kafka hands consumers and followers the bytes the producer
// wrote, so that a capture of a broker holds each batch in a Produce
// request and in the Fetch responses that follow, with the same
// compressed bytes. A batch is found by the CRC-32C that parseBatch
// computes anyway and its codec and size, and is the same only when its
// compressed bytes are (they are kept, and compared). Once AppendJSON
// has written a batch's records, their JSON is kept in their place, and
// the batch read again is not read at all (recordsJSON). It holds at most
// maxSeen bytes, dropping the oldest.
var seen = seenCache{m: map[seenKey]*seenBatch{}}

const maxSeen = 32 << 20

type seenKey struct {
	crc   uint32
	codec Codec
	size  int
}

type seenBatch struct {
	key        seenKey
	compressed []byte
	stream     []byte       // never written once here: decodes share it; nil once json is set
	json       *recordsJSON // once AppendJSON wrote the records
}

func (b *seenBatch) size() int {
	n := len(b.compressed) + len(b.stream)
	if b.json != nil {
		n += len(b.json.json)
	}
	return n
}

type seenCache struct {
	mu    sync.Mutex
	m     map[seenKey]*seenBatch
	order []*seenBatch // oldest first
	bytes int
}

// get returns the records of a batch seen before, or their JSON, or
// nothing.
func (c *seenCache) get(k seenKey, compressed []byte) ([]byte, *recordsJSON) {
	c.mu.Lock()
	b := c.m[k]
	var stream []byte
	var j *recordsJSON
	if b != nil {
		stream, j = b.stream, b.json
	}
	c.mu.Unlock()
	if b == nil || !bytes.Equal(b.compressed, compressed) {
		return nil, nil
	}
	return stream, j
}

// add keeps a batch's records, which no one may write from now on.
func (c *seenCache) add(k seenKey, compressed, stream []byte) {
	b := &seenBatch{key: k, compressed: bytes.Clone(compressed), stream: stream}
	if b.size() > maxSeen/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m[k] != nil {
		return
	}
	c.m[k] = b
	c.order = append(c.order, b)
	c.bytes += b.size()
	c.trim()
}

// setJSON keeps the JSON of a kept batch's records in place of them.
func (c *seenCache) setJSON(k seenKey, compressed []byte, j *recordsJSON) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b := c.m[k]
	if b == nil || b.json != nil || !bytes.Equal(b.compressed, compressed) {
		return
	}
	c.bytes -= b.size()
	b.stream, b.json = nil, j
	c.bytes += b.size()
	c.trim()
}

// trim drops the oldest batches past maxSeen bytes.
func (c *seenCache) trim() {
	for c.bytes > maxSeen && len(c.order) > 0 {
		old := c.order[0]
		c.order[0] = nil
		c.order = c.order[1:]
		delete(c.m, old.key)
		c.bytes -= old.size()
	}
}

// appendSeenEntryJSON is appendEntryJSON of an entry that may be in
// seen: one whose records' JSON is there is written from it, and one
// that is not yet has it kept there.
func appendSeenEntryJSON(dst []byte, e *parsed) []byte {
	b := &e.batch
	if b.Magic != 2 || e.key == (seenKey{}) {
		return appendEntryJSON(dst, b, nil)
	}
	if j := e.json; j != nil {
		dst = appendBatchHeadJSON(dst, b, j.lastDelta, b.BaseTimestamp+j.maxTsDelta)
		dst = append(dst, j.json...)
		return appendBatchTailJSON(dst, b)
	}
	dst = appendBatchHeadJSON(dst, b, b.lastOffsetDelta(), b.maxTimestamp())
	at := len(dst)
	dst = appendRecordsJSON(dst, b.Records, nil)
	if e.shared { // seen has the batch's records
		nodes := 0
		for i := range b.Records {
			nodes += len(b.Records[i].Headers)
		}
		seen.setJSON(e.key, b.Compressed, &recordsJSON{count: int32(len(b.Records)), streamLen: len(e.stream),
			records: min(len(b.Records), len(e.stream)/minRecordSize), nodes: nodes,
			lastDelta: b.lastOffsetDelta(), maxTsDelta: b.maxTimestamp() - b.BaseTimestamp, json: bytes.Clone(dst[at:])})
	}
	return appendBatchTailJSON(dst, b)
}
