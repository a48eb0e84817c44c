package codecs

import (
	"bytes"
	stdgzip "compress/gzip"
	"encoding/binary"
	"hash/crc32"
	"io"
	"testing"
)

// readGzip reads src with r as gunzip does, to its end or first error.
func readGzip(r interface {
	Reset(io.Reader) error
	io.Reader
}, src []byte) ([]byte, string) {
	if err := r.Reset(bytes.NewReader(src)); err != nil {
		return nil, err.Error()
	}
	out, err := io.ReadAll(r)
	if err != nil {
		return out, err.Error()
	}
	return out, ""
}

// checkGzip reads src with GzipMembers and with compress/gzip's Reader
// and wants the same bytes and the same error.
func checkGzip(t *testing.T, src []byte) {
	t.Helper()
	got, gotErr := readGzip(new(GzipMembers), src)
	want, wantErr := readGzip(new(stdgzip.Reader), src)
	if !bytes.Equal(got, want) || gotErr != wantErr {
		t.Fatalf("%x: GzipMembers read %d bytes, error %q; compress/gzip %d bytes, error %q", src, len(got), gotErr, len(want), wantErr)
	}
}

// gzipSeeds are gzip streams with every header field, several members,
// and a header CRC.
func gzipSeeds(t testing.TB) [][]byte {
	member := func(h stdgzip.Header, data string) []byte {
		var buf bytes.Buffer
		w := stdgzip.NewWriter(&buf)
		w.Header = h
		if _, err := w.Write([]byte(data)); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	plain := member(stdgzip.Header{}, "hello, hello, hello")
	full := member(stdgzip.Header{Name: "namé", Comment: "a comment", Extra: []byte{1, 2, 3, 4}}, "world")
	// FHCRC: the header's CRC-32's low 16 bits after the header.
	hcrc := append([]byte{}, plain[:10]...)
	hcrc[3] |= 2
	hcrc = binary.LittleEndian.AppendUint16(hcrc, uint16(crc32.ChecksumIEEE(hcrc)))
	hcrc = append(hcrc, plain[10:]...)
	long := member(stdgzip.Header{Name: string(bytes.Repeat([]byte("n"), 511))}, "x")
	return [][]byte{
		plain, full, hcrc, long,
		append(append(append([]byte{}, plain...), full...), hcrc...),
		member(stdgzip.Header{}, ""),
		{},
	}
}

func TestGzipMembersAsCompressGzip(t *testing.T) {
	for _, src := range gzipSeeds(t) {
		checkGzip(t, src)
		for n := range len(src) { // cut short anywhere
			checkGzip(t, src[:n])
		}
		for i := range src { // any byte changed
			b := append([]byte{}, src...)
			b[i] ^= 0x41
			checkGzip(t, b)
		}
		checkGzip(t, append(append([]byte{}, src...), 0x1f)) // trailing garbage
	}
	// A name of 512 bytes without its NUL is refused.
	h := []byte{0x1f, 0x8b, 8, 8, 0, 0, 0, 0, 0, 255}
	checkGzip(t, append(h, bytes.Repeat([]byte("n"), 600)...))
}

func FuzzGzipMembers(f *testing.F) {
	for _, s := range gzipSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src []byte) { checkGzip(t, src) })
}

// BenchmarkGzipMembers reads a 1 MB gzip member with GzipMembers (the
// browser app's) and, alongside, with compress/gzip's Reader.
func BenchmarkGzipMembers(b *testing.B) {
	var buf bytes.Buffer
	w := stdgzip.NewWriter(&buf)
	x := uint32(1)
	for range 1 << 20 { // 1 MB of text that compresses about 2:1
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		w.Write([]byte{"aaaabbcdefghijklmnop\n"[x%21]})
	}
	w.Close()
	src := buf.Bytes()
	for _, c := range []struct {
		name string
		r    interface {
			Reset(io.Reader) error
			io.Reader
		}
	}{{"GzipMembers", new(GzipMembers)}, {"compress-gzip", new(stdgzip.Reader)}} {
		b.Run(c.name, func(b *testing.B) {
			dst := make([]byte, 0, 2<<20)
			for b.Loop() {
				c.r.Reset(bytes.NewReader(src))
				if _, err := readAll(c.r, dst[:0]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// readAll reads r to its end into dst's spare capacity (and beyond).
func readAll(r io.Reader, dst []byte) ([]byte, error) {
	for {
		if len(dst) == cap(dst) {
			dst = append(dst, 0)[:len(dst)]
		}
		n, err := r.Read(dst[len(dst):cap(dst)])
		dst = dst[:len(dst)+n]
		if err == io.EOF {
			return dst, nil
		}
		if err != nil {
			return dst, err
		}
	}
}
