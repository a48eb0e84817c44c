package unzip

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"strings"
	"testing"

	"kwire/schemas/sets/setstest"
)

func zipOf(t testing.TB, names []string, data [][]byte) []byte { return setstest.Zip(t, names, data) }

// readZip reads a zip with archive/zip, its files in order.
func readZip(b []byte) ([]File, error) {
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, err
	}
	var out []File
	for _, f := range zr.File {
		if strings.HasSuffix(f.Name, "/") {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, err
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return nil, err
		}
		out = append(out, File{Name: f.Name, Data: data})
	}
	return out, nil
}

func sameFiles(a, b []File) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || !bytes.Equal(a[i].Data, b[i].Data) {
			return false
		}
	}
	return true
}

var (
	sampleNames = []string{"a/message/X.json", "a/SOURCE", "b.txt", "empty.json"}
	sampleData  = [][]byte{[]byte(strings.Repeat(`{"name": "x"} `, 300)), []byte("Apache Kafka 9.9.9\n"), []byte("stored"), nil}
)

// Read reads what archive/zip writes, as archive/zip reads it, with the
// entries' dates; want chooses the entries decompressed.
func TestRead(t *testing.T) {
	z := zipOf(t, sampleNames, sampleData)
	got, err := Read(z, nil, Default)
	want, _ := readZip(z)
	if err != nil || !sameFiles(got, want) || len(got) != 4 {
		t.Fatalf("%v: %q", err, got)
	}
	if got[0].Date != "2026-10-06" {
		t.Errorf("date %q", got[0].Date)
	}
	got, err = Read(z, func(name string) bool { return strings.HasSuffix(name, ".json") }, Default)
	if err != nil || len(got) != 2 || got[0].Name != "a/message/X.json" || got[1].Name != "empty.json" {
		t.Fatalf("%v: %q", err, got)
	}
}

// end returns the offset of the end record of z.
func end(z []byte) int {
	return bytes.LastIndex(z, []byte("PK\x05\x06"))
}

// Each refusal says what, and where: the entry, or the byte offset.
func TestRefused(t *testing.T) {
	z := zipOf(t, sampleNames, sampleData)
	le := binary.LittleEndian
	// A bomb: a megabyte of zeros deflates to about a thousand bytes.
	bomb := zipOf(t, []string{"common/message/Bomb.json"}, [][]byte{make([]byte, 1<<20)})
	big := zipOf(t, []string{"big.json"}, [][]byte{bytes.Repeat([]byte("0123456789abcdef"), 1<<16)})
	many := func(count uint16) []byte {
		b := append([]byte(nil), z...)
		e := end(b)
		le.PutUint16(b[e+8:], count)
		le.PutUint16(b[e+10:], count)
		return b
	}
	// A million entries, as zip64 says it: locator and end record.
	million := func() []byte {
		b := append([]byte(nil), z[:end(z)]...)
		cdOff := le.Uint32(z[end(z)+16:])
		cdSize := le.Uint32(z[end(z)+12:])
		rec := make([]byte, 56)
		le.PutUint32(rec, sigEnd64)
		le.PutUint64(rec[4:], 44)
		le.PutUint64(rec[24:], 1_000_000)
		le.PutUint64(rec[32:], 1_000_000)
		le.PutUint64(rec[40:], uint64(cdSize))
		le.PutUint64(rec[48:], uint64(cdOff))
		off := len(b)
		b = append(b, rec...)
		loc := make([]byte, 20)
		le.PutUint32(loc, sigLocator)
		le.PutUint64(loc[8:], uint64(off))
		le.PutUint32(loc[16:], 1)
		b = append(b, loc...)
		e := make([]byte, 22)
		le.PutUint32(e, sigEnd)
		le.PutUint16(e[8:], 0xffff)
		le.PutUint16(e[10:], 0xffff)
		le.PutUint32(e[12:], 0xffffffff)
		le.PutUint32(e[16:], 0xffffffff)
		return append(b, e...)
	}
	corrupt := append([]byte(nil), z...)
	corrupt[60] ^= 0xff // inside X.json's deflated bytes
	for _, c := range []struct {
		name string
		b    []byte
		lim  Limits
		want string
	}{
		{"not a zip", []byte("PK\x03\x04 not a zip"), Default, "not a zip"},
		{"empty", nil, Default, "not a zip"},
		{"cut", z[:len(z)-30], Default, "not a zip"},
		{"cut inside", append(append([]byte(nil), z[:40]...), z[48:]...), Default, "runs past its end record"},
		{"corrupt", corrupt, Default, `entry "a/message/X.json"`},
		{"dot dot", zipOf(t, []string{"../../etc/passwd"}, [][]byte{nil}), Default, `entry "../../etc/passwd" (at byte`},
		{"dot dot inside", zipOf(t, []string{"common/../../x.json"}, [][]byte{nil}), Default, `a ".." in its path`},
		{"absolute", zipOf(t, []string{"/etc/passwd"}, [][]byte{nil}), Default, "an absolute path"},
		{"drive", zipOf(t, []string{"C:/x"}, [][]byte{nil}), Default, "an absolute path"},
		{"backslash", zipOf(t, []string{`..\x`}, [][]byte{nil}), Default, "a backslash"},
		{"twice", zipOf(t, []string{"x.json", "x.json"}, [][]byte{nil, nil}), Default, "a second entry"},
		{"bomb", bomb, Default, "a ratio over 100 to 1 (a zip bomb?)"},
		{"entry too big", big, Limits{Entries: 10, EntryBytes: 1 << 19, TotalBytes: 2 << 20, Ratio: 1000}, "at most 524288 are read from one entry"},
		{"too much in all", z, Limits{Entries: 10, EntryBytes: 1 << 20, TotalBytes: 100, Ratio: 100}, "more than 100 bytes decompressed"},
		{"too many entries", z, Limits{Entries: 3, EntryBytes: 1 << 20, TotalBytes: 1 << 20, Ratio: 100}, "5 entries; at most 3 are read"},
		{"count past the directory", many(40000), Default, "40000 entries cannot fit"},
		{"a million", million(), Default, "1000000 entries; at most 50000 are read"},
	} {
		got, err := Read(c.b, nil, c.lim)
		var ze *Error
		if err == nil || !errors.As(err, &ze) || !strings.Contains(err.Error(), c.want) || got != nil {
			t.Errorf("%s: %v (%d files), want %q", c.name, err, len(got), c.want)
		}
	}
	// A bomb not asked for is not decompressed; its name is still checked.
	if got, err := Read(bomb, func(string) bool { return false }, Default); err != nil || len(got) != 0 {
		t.Errorf("a bomb not read: %v", err)
	}
}

// Every cut of a zip is refused or read as archive/zip reads it, and
// never panics.
func TestCuts(t *testing.T) {
	z := zipOf(t, sampleNames, sampleData)
	for n := range len(z) {
		got, err := Read(z[:n], nil, Default)
		if err == nil {
			t.Fatalf("cut at %d: read %d files", n, len(got))
		}
	}
}

// FuzzRead: Read never fails otherwise than with an *Error, stays within
// its limits, and where archive/zip reads the same bytes both read the
// same files (archive/zip has rules of its own for odd archives, such as
// bytes before the first entry or names with "..", that Read may read or
// refuse otherwise).
func FuzzRead(f *testing.F) {
	f.Add(zipOf(f, sampleNames, sampleData))
	f.Add(zipOf(f, []string{"x.json"}, [][]byte{[]byte("{}")}))
	f.Add(zipOf(f, []string{"common/message/Bomb.json"}, [][]byte{make([]byte, 100<<10)}))
	lim := Limits{Entries: 100, EntryBytes: 1 << 20, TotalBytes: 2 << 20, Ratio: 100}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := Read(b, nil, lim)
		if err != nil {
			var ze *Error
			if !errors.As(err, &ze) || got != nil {
				t.Fatalf("%T %v, %d files", err, err, len(got))
			}
			return
		}
		var total int64
		for _, v := range got {
			total += int64(len(v.Data))
			if checkName(v.Name) != nil {
				t.Fatalf("name %q", v.Name)
			}
		}
		if len(got) > lim.Entries || total > lim.TotalBytes {
			t.Fatalf("%d files, %d bytes", len(got), total)
		}
		want, werr := readZip(b)
		if werr == nil && !sameFiles(got, want) {
			t.Fatalf("Read %q, archive/zip %q", got, want)
		}
	})
}
