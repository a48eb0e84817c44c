package flate

import (
	"bytes"
	stdflate "compress/flate"
	"compress/gzip"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// inputs are texts of several kinds and sizes: empty, runs, random bytes,
// text with repeats, and this package's sources.
func inputs(t *testing.T) [][]byte {
	r := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 200_000)
	for i := range random {
		random[i] = byte(r.IntN(256))
	}
	words := []string{"kafka ", "record ", "batch ", "offset ", "topic ", "\n", "{\"a\":1}"}
	var text []byte
	for len(text) < 300_000 {
		text = append(text, words[r.IntN(len(words))]...)
	}
	in := [][]byte{nil, []byte("a"), bytes.Repeat([]byte{0}, 100_000), random, text, random[:70_000]}
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		in = append(in, b)
	}
	return in
}

func TestDeflateIsTheStandardLibrarys(t *testing.T) {
	for _, level := range []int{stdflate.HuffmanOnly, stdflate.DefaultCompression, stdflate.NoCompression, 1, 2, 5, 9} {
		for i, b := range inputs(t) {
			var want, got bytes.Buffer
			sw, err := stdflate.NewWriter(&want, level)
			if err != nil {
				t.Fatal(err)
			}
			w, err := NewWriter(&got, level)
			if err != nil {
				t.Fatal(err)
			}
			// Two writes and a flush, so that the writer's state between
			// calls is compared too.
			half := len(b) / 2
			for _, step := range []func(){
				func() { sw.Write(b[:half]); w.Write(b[:half]) },
				func() { sw.Flush(); w.Flush() },
				func() { sw.Write(b[half:]); w.Write(b[half:]) },
				func() { sw.Close(); w.Close() },
			} {
				step()
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("level %d, input %d (%d bytes): %d bytes out, compress/flate %d", level, i, len(b), got.Len(), want.Len())
			}
		}
	}
}

func TestBadLevel(t *testing.T) {
	_, err := NewWriter(nil, 10)
	_, want := stdflate.NewWriter(nil, 10)
	if err == nil || err.Error() != want.Error() {
		t.Errorf("level 10: %v, compress/flate %v", err, want)
	}
}

func TestGzipIsTheStandardLibrarys(t *testing.T) {
	for i, b := range inputs(t) {
		var want, got bytes.Buffer
		sw := gzip.NewWriter(&want)
		w := NewGzipWriter(&got)
		if _, err := sw.Write(b); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(b); err != nil {
			t.Fatal(err)
		}
		if err := sw.Close(); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Errorf("a second Close: %v", err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("input %d (%d bytes): %d bytes out, compress/gzip %d", i, len(b), got.Len(), want.Len())
		}
	}
	// Closed without a write: an empty member.
	var want, got bytes.Buffer
	gzip.NewWriter(&want).Close()
	NewGzipWriter(&got).Close()
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Errorf("empty: % x, compress/gzip % x", got.Bytes(), want.Bytes())
	}
}
