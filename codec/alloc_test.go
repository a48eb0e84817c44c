package codec

import (
	"errors"
	"io"
	"runtime"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"

	"kwire/codec/wire"
	"kwire/tree"
	"kwire/tree/treetest"
)

// bytesPerRun is the average number of bytes f allocates.
func bytesPerRun(runs int, f func()) uint64 {
	f() // warm up: plans, caches
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		f()
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / uint64(runs)
}

// allocBound is what decoding n bytes may allocate: a fixed amount plus a
// constant per input byte (each byte can start at most one element, and
// with a tree one node). A decoder that trusted a claimed count would
// allocate gigabytes.
func allocBound(n int) uint64 { return 16<<10 + 512*uint64(n) }

// hostile is an input whose length prefix claims far more than it holds.
type hostile struct {
	name    string
	msg     string
	version int16
	body    []byte
	want    error
}

func hostileBodies() []hostile {
	pad := make([]byte, 32)
	cat := func(parts ...[]byte) []byte {
		var b []byte
		for _, p := range parts {
			b = append(b, p...)
		}
		return b
	}
	return []hostile{
		{"int32 array count", "MetadataRequest", 4, cat(wire.AppendInt32(nil, 1<<31-1), pad), wire.ErrLength},
		{"compact array count", "MetadataRequest", 12, cat(wire.AppendUvarint(nil, 1<<32-1), pad), wire.ErrLength},
		{"int16 string length", "JoinGroupRequest", 2, cat(wire.AppendInt16(nil, 1<<15-1), pad), wire.ErrLength},
		{"compact string length", "JoinGroupRequest", 9, cat(wire.AppendUvarint(nil, 1<<32-1), pad), wire.ErrLength},
		{"int32 bytes length", "SaslAuthenticateRequest", 0, cat(wire.AppendInt32(nil, 1<<31-1), pad), wire.ErrLength},
		{"compact bytes length", "SaslAuthenticateRequest", 2, cat(wire.AppendUvarint(nil, 1<<32-1), pad), wire.ErrLength},
		{"tagged field count", "ApiVersionsRequest", 3, cat([]byte{1, 1}, wire.AppendUvarint(nil, 1<<32-1), pad), wire.ErrLength},
		{"tagged field size", "ApiVersionsRequest", 3, cat([]byte{1, 1, 1, 7}, wire.AppendUvarint(nil, 1<<32-1), pad), wire.ErrLength},
		{"varint too long", "ApiVersionsRequest", 3, cat([]byte{1, 1}, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, pad), wire.ErrOverflow},
		// Nested: an outer array of one element whose inner array claims
		// everything.
		{"nested count", "ProduceRequest", 3, cat(wire.AppendInt16(nil, -1), wire.AppendInt16(nil, 1), wire.AppendInt32(nil, 0),
			wire.AppendInt32(nil, 1), wire.AppendInt16(nil, 0), wire.AppendInt32(nil, 1<<31-1), pad), wire.ErrLength},
		{"records length", "ProduceRequest", 3, cat(wire.AppendInt16(nil, -1), wire.AppendInt16(nil, 1), wire.AppendInt32(nil, 0),
			wire.AppendInt32(nil, 1), wire.AppendInt16(nil, 0), wire.AppendInt32(nil, 1), wire.AppendInt32(nil, 0),
			wire.AppendInt32(nil, 1<<31-1), pad), wire.ErrLength},
	}
}

// TestHostileCountsAllocate: a body whose counts and lengths claim more
// than it holds fails with the right error and allocates in proportion to
// its own size, with and without a tree.
func TestHostileCountsAllocate(t *testing.T) {
	set := loadSet(t, "trunk")
	for _, h := range hostileBodies() {
		t.Run(h.name, func(t *testing.T) {
			p := mustPlan(t, set, h.msg, h.version)
			_, _, err := p.Decode(h.body)
			if !errors.Is(err, h.want) {
				t.Fatalf("error %v, want %v", err, h.want)
			}
			value := bytesPerRun(20, func() { p.Decode(h.body) })
			withTree := bytesPerRun(20, func() { p.DecodeTree(h.body, tree.Node{}, TreeOptions{}) })
			if max(value, withTree) > allocBound(len(h.body)) {
				t.Errorf("%d-byte body allocated %d bytes (value) and %d (tree), more than %d", len(h.body), value, withTree, allocBound(len(h.body)))
			}
		})
	}
}

// TestEveryFirstCountHostile: in the smallest body of every API version
// of the trunk set, the first array count is replaced with the largest
// the wire allows; the decode must fail with ErrLength and allocate in
// proportion to the body.
func TestEveryFirstCountHostile(t *testing.T) {
	set := loadSet(t, "trunk")
	n := 0
	for _, api := range set.APIs() {
		for _, dir := range []Direction{Request, Response} {
			m := dir.Schema(api)
			for v := m.ValidVersions.Lo; v <= m.ValidVersions.Hi; v++ {
				p, err := PlanFor(m, v)
				if err != nil {
					t.Fatal(err)
				}
				b, err := p.Encode(p.Smallest())
				if err != nil {
					t.Fatal(err)
				}
				_, fl, _, err := p.DecodeTree(b, tree.Node{}, TreeOptions{})
				if err != nil {
					t.Fatal(err)
				}
				_, ln := treetest.Named(fl, "length")
				if ln == nil {
					continue // no array
				}
				claim := wire.AppendInt32(nil, 1<<31-1)
				if ln.Type == "uvarint" {
					claim = wire.AppendUvarint(nil, 1<<32-1)
				}
				h := append(append(append([]byte{}, b[:ln.Offset]...), claim...), b[ln.End():]...)
				n++
				if _, _, err := p.Decode(h); !errors.Is(err, wire.ErrLength) {
					t.Errorf("%s v%d: error %v, want %v", m.Name, v, err, wire.ErrLength)
				}
				if got := bytesPerRun(3, func() { p.DecodeTree(h, tree.Node{}, TreeOptions{}) }); got > allocBound(len(h)) {
					t.Errorf("%s v%d: %d-byte body allocated %d bytes", m.Name, v, len(h), got)
				}
			}
		}
	}
	t.Logf("%d hostile bodies", n)
}

// TestConsumeDoesNotAllocate: the wire primitives read without
// allocating, whether they succeed or not.
func TestConsumeDoesNotAllocate(t *testing.T) {
	inputs := [][]byte{
		{}, {0x01}, {0x80}, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
		{0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 0x11},
	}
	var sink int64
	funcs := map[string]func(b []byte){
		"ConsumeInt8":      func(b []byte) { v, n := wire.ConsumeInt8(b); sink += int64(v) + int64(n) },
		"ConsumeInt16":     func(b []byte) { v, n := wire.ConsumeInt16(b); sink += int64(v) + int64(n) },
		"ConsumeInt32":     func(b []byte) { v, n := wire.ConsumeInt32(b); sink += int64(v) + int64(n) },
		"ConsumeInt64":     func(b []byte) { v, n := wire.ConsumeInt64(b); sink += v + int64(n) },
		"ConsumeUvarint":   func(b []byte) { v, n := wire.ConsumeUvarint(b); sink += int64(v) + int64(n) },
		"ConsumeUvarint32": func(b []byte) { v, n := wire.ConsumeUvarint32(b); sink += int64(v) + int64(n) },
		"ConsumeVarint":    func(b []byte) { v, n := wire.ConsumeVarint(b); sink += int64(v) + int64(n) },
		"ConsumeVarlong":   func(b []byte) { v, n := wire.ConsumeVarlong(b); sink += v + int64(n) },
		"ConsumeLen": func(b []byte) {
			for _, w := range []int{2, 4} {
				for _, c := range []bool{false, true} {
					v, n := wire.ConsumeLen(b, w, c)
					sink += v + int64(n)
				}
			}
		},
		"ParseError": func(b []byte) {
			if wire.ParseError(-len(b)%3) != nil {
				sink++
			}
		},
	}
	for name, f := range funcs {
		for _, in := range inputs {
			if a := testing.AllocsPerRun(100, func() { f(in) }); a != 0 {
				t.Errorf("%s(%x) allocates %.0f times", name, in, a)
			}
		}
	}
	_ = sink
}

// TestDecodeFixedAllocs: a body of fixed-width fields only costs the
// struct's value list, however it is read.
func TestDecodeFixedAllocs(t *testing.T) {
	p := mustPlan(t, loadSet(t, "trunk"), "HeartbeatResponse", 0) // ErrorCode alone
	b, err := p.Encode(p.Smallest())
	if err != nil {
		t.Fatal(err)
	}
	if a := testing.AllocsPerRun(100, func() { p.Decode(b) }); a > 1 {
		t.Errorf("decoding %x allocates %.0f times, want 1 (the field list)", b, a)
	}
}

// TestDecodeSizesHint: a value decode takes its values in one block and
// its strings in another when the plan's last decode was of the same
// message (Plan.sizes), and a decode after a much larger message of the
// same plan allocates about what it does alone, not what the larger one
// did.
func TestDecodeSizesHint(t *testing.T) {
	for _, c := range benchCases() {
		b, p, _ := benchInput(t, c)
		if a := testing.AllocsPerRun(20, func() { p.Decode(b) }); a > 2 {
			t.Errorf("%s: a decode after one of the same bytes allocates %.0f times, want at most 2 (values, text)", c.name, a)
		}
	}
	set := loadSet(t, "trunk")
	p := mustPlan(t, set, "MetadataResponse", 12)
	c := benchCases()[0]
	large, _, _ := benchInput(t, c)
	m := benchMetadataResponse().(*kmsg.MetadataResponse)
	m.Topics = m.Topics[:1]
	small := m.AppendTo(nil)
	alone := bytesPerRun(20, func() { p.Decode(small) })
	var before, after runtime.MemStats
	var afterLarge uint64
	for range 20 {
		if _, _, err := p.Decode(large); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&before)
		if _, _, err := p.Decode(small); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		afterLarge += after.TotalAlloc - before.TotalAlloc
	}
	afterLarge /= 20
	t.Logf("%d-byte body: %d bytes alone, %d after a %d-byte body", len(small), alone, afterLarge, len(large))
	if afterLarge > 2*alone+minBlock*16 {
		t.Errorf("after a %d-byte body, a %d-byte body allocates %d bytes; alone %d", len(large), len(small), afterLarge, alone)
	}
}

// TestWriteTextAllocs: kwire decode's text of a Metadata response of a
// hundred topics (the bench's), some three thousand rows, is written
// without allocating: each row's strings are made in a block the next row
// reuses, the buffers are kept from one call to the next, and the fields'
// descriptions come shortened from the plan.
func TestWriteTextAllocs(t *testing.T) {
	in, p, _ := benchInput(t, benchCases()[0])
	_, fl, _, err := p.DecodeTree(in, tree.Node{}, TreeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if fl.Len() < 1000 {
		t.Fatalf("the tree has %d spans, want a large one", fl.Len())
	}
	if a := testing.AllocsPerRun(20, func() {
		if err := fl.WriteText(io.Discard, 0, nil); err != nil {
			t.Fatal(err)
		}
	}); a > 0 {
		t.Errorf("writing the text of %d spans allocates %.1f times, want none", fl.Len(), a)
	}
}
