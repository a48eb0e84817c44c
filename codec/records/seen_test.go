//go:build !js

package records

import "testing"

// TestSeenCache: what seen keeps is found only by its compressed bytes,
// and it keeps at most maxSeen bytes.
func TestSeenCache(t *testing.T) {
	var c seenCache
	c.m = map[seenKey]*seenBatch{}
	k := seenKey{crc: 1, codec: Gzip, size: 3}
	c.add(k, []byte("abc"), []byte("records"))
	if got, _ := c.get(k, []byte("abc")); string(got) != "records" {
		t.Errorf("get: %q", got)
	}
	if got, _ := c.get(k, []byte("abd")); got != nil {
		t.Errorf("other bytes of the same key: %q", got)
	}
	big := make([]byte, maxSeen/8)
	for i := range 20 {
		c.add(seenKey{crc: uint32(100 + i), codec: Gzip, size: 1}, []byte{byte(i)}, big)
		if c.bytes > maxSeen || len(c.m) != len(c.order) {
			t.Fatalf("after %d: %d bytes, %d keys, %d in order", i, c.bytes, len(c.m), len(c.order))
		}
	}
	if s, _ := c.get(k, []byte("abc")); s != nil {
		t.Error("the oldest is kept")
	}
	if s, _ := c.get(seenKey{crc: 119, codec: Gzip, size: 1}, []byte{19}); s == nil {
		t.Error("the newest is dropped")
	}
	c.add(seenKey{crc: 7}, []byte{1}, make([]byte, maxSeen)) // too large to keep
	if s, _ := c.get(seenKey{crc: 7}, []byte{1}); s != nil {
		t.Error("a batch larger than a quarter of the cache is kept")
	}
	// The JSON of a batch's records takes their place, and counts.
	c.setJSON(seenKey{crc: 119, codec: Gzip, size: 1}, []byte{19}, &recordsJSON{json: []byte("[]")})
	if s, j := c.get(seenKey{crc: 119, codec: Gzip, size: 1}, []byte{19}); s != nil || j == nil || string(j.json) != "[]" {
		t.Errorf("after setJSON: %d bytes of records, %v", len(s), j)
	}
	total := 0
	for _, b := range c.order {
		total += b.size()
	}
	if total != c.bytes {
		t.Errorf("%d bytes kept, %d counted", total, c.bytes)
	}
}
