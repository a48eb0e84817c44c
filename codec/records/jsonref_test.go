package records

import (
	"bytes"
	"encoding/hex"
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// The JSON form's plain definitions, one step at a time, against which
// the fast paths (AppendJSON reading and writing one entry at a time,
// exact comparing record by record, the strings scanned eight bytes at
// a time) are checked: by checkInput on every fuzz input, and below.
// They share the writing of one entry (appendEntryJSON,
// appendRawEntryJSON) with what they check.

// refAppendJSON is AppendJSON as defined: every entry read, then written.
func refAppendJSON(dst, b []byte, bg *Budget) []byte {
	d := newDecoder(Options{Budget: bg})
	entries := d.walkEntries(-1, b, span{})
	readable := d.bg.Hit != ""
	for i := range entries {
		if refJSONExact(&entries[i]) {
			readable = true
			break
		}
	}
	if !readable {
		dst = append(dst, '"')
		dst = hex.AppendEncode(dst, b)
		return append(dst, '"')
	}
	dst = append(dst, '[')
	for i := range entries {
		if i > 0 {
			dst = append(dst, ',')
		}
		e := &entries[i]
		if !refJSONExact(e) {
			dst = appendRawEntryJSON(dst, e)
			continue
		}
		dst = appendEntryJSON(dst, &e.batch, nil)
	}
	return append(dst, ']')
}

func refJSONExact(e *parsed) bool {
	return (zstdEncodes || e.batch.Codec() != Zstd) && refExact(e)
}

// refExact: the entry encodes back to what was read.
func refExact(e *parsed) bool {
	if e.err != nil {
		return false
	}
	b := &e.batch
	if b.Codec() == None {
		enc, err := AppendBatch(nil, b)
		return err == nil && bytes.Equal(enc, e.raw)
	}
	var inner []byte
	if b.Magic == 2 {
		inner = AppendRecords(nil, b.Records)
	} else {
		for i := range b.Messages {
			var err error
			if inner, err = AppendBatch(inner, &b.Messages[i]); err != nil {
				return false
			}
		}
	}
	return bytes.Equal(inner, e.stream)
}

// checkReference: AppendJSON writes what refAppendJSON writes, with the
// default budget and with a small one, and its budget counts an entry
// Unread when the JSON holds a note or a CRC (what kwire capture looks
// for).
func checkReference(t *testing.T, b []byte) {
	t.Helper()
	for _, l := range []Limits{{}, {MaxRecords: 3, MaxDecompressed: 300}} {
		bg := NewBudget(l)
		got, want := AppendJSON(nil, b, bg), refAppendJSON(nil, b, NewBudget(l))
		if !bytes.Equal(got, want) {
			t.Fatalf("limits %+v: AppendJSON\n%s\nthe reference\n%s", l, got, want)
		}
		if flagged := bytes.Contains(got, []byte(`"note":`)) || bytes.Contains(got, []byte(`"crc":`)); flagged != (bg.Unread > 0) {
			t.Fatalf("limits %+v: %d entries unread, but the JSON says %v:\n%s", l, bg.Unread, flagged, got)
		}
	}
}

// TestSeenBatches reads a batch again (each codec, a wrong CRC too)
// under every decompression budget around its size: its records, taken
// from seen the second time, are charged as decompress charges them, and
// the JSON is the reference's.
func TestSeenBatches(t *testing.T) {
	for _, c := range allCodecs[1:] {
		bt := sampleBatch(c)
		bt.BaseSequence = 1000 + int32(c) // not a batch of another test
		one, err := AppendBatch(nil, &bt)
		if err != nil && c == Zstd && !zstdEncodes {
			continue // the browser app writes no zstd
		}
		if err != nil {
			t.Fatal(err)
		}
		stream := AppendRecords(nil, bt.Records)
		bad := bytes.Clone(one)
		bad[len(bad)-1] ^= 1 // the compressed bytes differ, the CRC no longer matches
		bad = recrc(bad)
		bad[offCRC] ^= 1
		for _, field := range [][]byte{one, append(bytes.Clone(one), one...), bad, append(bytes.Clone(one), bad...)} {
			var limits []Limits
			for limit := 1; limit <= 2*len(stream)+2; limit++ {
				limits = append(limits, Limits{MaxDecompressed: limit})
			}
			for n := 1; n <= 8; n++ {
				limits = append(limits, Limits{MaxRecords: n}, Limits{MaxNodes: n})
			}
			for _, l := range limits {
				for range 2 {
					got, want := AppendJSON(nil, field, NewBudget(l)), refAppendJSON(nil, field, NewBudget(l))
					if !bytes.Equal(got, want) {
						t.Fatalf("%s, limits %+v: AppendJSON\n%s\nthe reference\n%s", c, l, got, want)
					}
				}
			}
		}
	}
}

// refAppendJSONString is AppendJSONString a rune at a time (a byte at a
// time where the bytes are not UTF-8): escaping is rune by rune, and a
// string of one rune never reaches the eight-byte scan.
func refAppendJSONString(dst []byte, s []byte) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		_, size := utf8.DecodeRune(s[i:])
		one := AppendJSONString(nil, s[i:i+size])
		dst = append(dst, one[1:len(one)-1]...)
		i += size
	}
	return append(dst, '"')
}

// refIsText is isText a rune at a time.
func refIsText(b []byte) bool {
	for i := 0; i < len(b); {
		_, size := utf8.DecodeRune(b[i:])
		if !isText(b[i : i+size]) {
			return false
		}
		i += size
	}
	return true
}

func checkString(t *testing.T, s []byte) {
	t.Helper()
	if got, want := AppendJSONString(nil, s), refAppendJSONString(nil, s); !bytes.Equal(got, want) {
		t.Fatalf("AppendJSONString(%q) = %s, want %s", s, got, want)
	}
	if got, want := isText(s), refIsText(s); got != want {
		t.Fatalf("isText(%q) = %v, want %v", s, got, want)
	}
}

// TestStringFastPaths puts every byte value at every place of strings
// of up to 24 bytes (the eight-byte words and the bytes after them), and
// then random strings of text and of anything.
func TestStringFastPaths(t *testing.T) {
	for n := 1; n <= 24; n++ {
		for at := range n {
			for c := range 256 {
				s := bytes.Repeat([]byte{'a'}, n)
				s[at] = byte(c)
				checkString(t, s)
				s[n-1] = '\t'
				checkString(t, s)
			}
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	alphabet := []string{"a", "Z", " ", "\"", "\\", "\t", "\n", "\x00", "\x1f", "\x7f", "é", "\u202e", "\u0085", "😀", "\xff", "\xe2\x82"}
	for range 20000 {
		var s []byte
		for range r.IntN(40) {
			if r.IntN(4) == 0 {
				s = append(s, alphabet[r.IntN(len(alphabet))]...)
			} else {
				s = append(s, byte('a'+r.IntN(26)))
			}
		}
		checkString(t, s)
	}
}

// TestAppendHex: appendHex writes what hex.AppendEncode writes, for every
// length up to 40 (the four-byte steps and the bytes after them), every
// byte value, after what dst holds.
func TestAppendHex(t *testing.T) {
	src := make([]byte, 0, 256)
	for i := range 256 {
		src = append(src, byte(255-i))
	}
	for n := 0; n <= 40; n++ {
		for off := 0; off+n <= len(src); off += 37 {
			got, want := appendHex([]byte("x"), src[off:off+n]), hex.AppendEncode([]byte("x"), src[off:off+n])
			if !bytes.Equal(got, want) {
				t.Fatalf("%x: %s, want %s", src[off:off+n], got, want)
			}
		}
	}
	if got := appendHex(nil, src); string(got) != hex.EncodeToString(src) {
		t.Errorf("every byte: %s", got)
	}
}

func FuzzJSONString(f *testing.F) {
	f.Add([]byte("plain text, longer than eight bytes"))
	f.Add([]byte("tab\there \"quoted\" \\ \x7f \u202e \xff"))
	f.Fuzz(func(t *testing.T, s []byte) {
		checkString(t, s)
		if got, want := appendHex(nil, s), hex.AppendEncode(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("appendHex(%x) = %s", s, got)
		}
	})
}
