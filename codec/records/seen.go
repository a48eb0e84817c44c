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
// compressed bytes are (they are kept, and compared). It holds at most
// maxSeen bytes, compressed and decompressed, dropping the oldest.
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
	stream     []byte // never written once here: decodes share it
}

type seenCache struct {
	mu    sync.Mutex
	m     map[seenKey]*seenBatch
	order []*seenBatch // oldest first
	bytes int
}

// get returns the records of a batch seen before, or nil.
func (c *seenCache) get(k seenKey, compressed []byte) []byte {
	c.mu.Lock()
	b := c.m[k]
	c.mu.Unlock()
	if b == nil || !bytes.Equal(b.compressed, compressed) {
		return nil
	}
	return b.stream
}

// add keeps a batch's records, which no one may write from now on.
func (c *seenCache) add(k seenKey, compressed, stream []byte) {
	size := len(compressed) + len(stream)
	if size > maxSeen/4 {
		return
	}
	b := &seenBatch{key: k, compressed: bytes.Clone(compressed), stream: stream}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m[k] != nil {
		return
	}
	for c.bytes+size > maxSeen && len(c.order) > 0 {
		old := c.order[0]
		c.order[0] = nil
		c.order = c.order[1:]
		delete(c.m, old.key)
		c.bytes -= len(old.compressed) + len(old.stream)
	}
	c.m[k] = b
	c.order = append(c.order, b)
	c.bytes += size
}
