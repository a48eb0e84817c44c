package deflate

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// inflate reads a DEFLATE stream back with the standard library.
func inflate(t testing.TB, z []byte) []byte {
	t.Helper()
	out, err := io.ReadAll(flate.NewReader(bytes.NewReader(z)))
	if err != nil {
		t.Fatalf("inflate: %v", err)
	}
	return out
}

// inputs are the shapes a compressor gets wrong: nothing, one byte, runs
// (overlapping matches), matches of the longest length and at the
// farthest distance, text, random bytes (stored blocks), and more than a
// stored block holds.
func inputs() map[string][]byte {
	r := rand.New(rand.NewPCG(1, 2))
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return b
	}
	far := random(40000)
	copy(far[windowSize+100:], far[100:400]) // a match exactly 32 KB back
	text := strings.Repeat(`{"name": "GroupId", "type": "string", "versions": "0+", "about": "The group identifier."},`+"\n", 300)
	return map[string][]byte{
		"empty":        nil,
		"one":          {'x'},
		"two":          []byte("ab"),
		"run":          bytes.Repeat([]byte{'a'}, 1000),
		"long run":     bytes.Repeat([]byte{0}, 300000),
		"period 3":     bytes.Repeat([]byte("abc"), 5000),
		"far":          far,
		"text":         []byte(text),
		"random":       random(10000),
		"random large": random(200000),
		"mixed":        append(random(70000), bytes.Repeat([]byte("kafka"), 20000)...),
	}
}

func TestRoundTrip(t *testing.T) {
	for name, in := range inputs() {
		z := Append([]byte("prefix"), in)
		if !bytes.HasPrefix(z, []byte("prefix")) {
			t.Fatalf("%s: dst overwritten", name)
		}
		if out := inflate(t, z[6:]); !bytes.Equal(out, in) {
			t.Errorf("%s: %d bytes in, %d back", name, len(in), len(out))
		}
		if len(z)-6 > storedSize(len(in)) {
			t.Errorf("%s: %d bytes compressed, more than stored (%d)", name, len(z)-6, storedSize(len(in)))
		}
		g := AppendGzip(nil, in)
		zr, err := gzip.NewReader(bytes.NewReader(g))
		if err != nil {
			t.Fatalf("%s: gzip header: %v", name, err)
		}
		if out, err := io.ReadAll(zr); err != nil || !bytes.Equal(out, in) {
			t.Errorf("%s: gzip: %v, %d bytes back", name, err, len(out))
		}
	}
}

// On text like what it compresses in the app (schemas pasted into a
// link, JSON records), its output is within a third of compress/flate's
// best, and far smaller than the input.
func TestRatio(t *testing.T) {
	var corpus []byte
	root := filepath.Join("..", "..", "schemas", "sets", "data")
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") && len(corpus) < 1<<20 {
			b, _ := os.ReadFile(p)
			corpus = append(corpus, b...)
		}
		return nil
	})
	if len(corpus) == 0 {
		corpus = inputs()["text"]
	}
	var std bytes.Buffer
	fw, _ := flate.NewWriter(&std, flate.BestCompression)
	fw.Write(corpus)
	fw.Close()
	ours := Append(nil, corpus)
	t.Logf("%d bytes: compress/flate best %d, ours %d (%.2fx)", len(corpus), std.Len(), len(ours), float64(len(ours))/float64(std.Len()))
	if len(ours) > std.Len()*4/3 || len(ours) > len(corpus)/3 {
		t.Errorf("%d bytes: ours %d, compress/flate's %d", len(corpus), len(ours), std.Len())
	}
	if !bytes.Equal(inflate(t, ours), corpus) {
		t.Error("the corpus does not come back")
	}
}

func FuzzDeflate(f *testing.F) {
	for _, in := range inputs() {
		if len(in) < 5000 {
			f.Add(in)
		}
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		z := Append(nil, in)
		if out := inflate(t, z); !bytes.Equal(out, in) {
			t.Fatalf("%x: back %x", in, out)
		}
		if len(z) > storedSize(len(in)) {
			t.Fatalf("%d bytes compressed to %d", len(in), len(z))
		}
	})
}
