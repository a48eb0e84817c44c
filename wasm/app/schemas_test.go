package app

import (
	"archive/zip"
	"bytes"
	"io"
	"io/fs"
	"path"
	"strings"
	"testing"

	"kwire/codec"
	"kwire/schemas/sets"
)

// zipOf writes files with archive/zip, deflated or stored by name.
func zipOf(t testing.TB, files map[string][]byte) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, b := range files {
		method := zip.Deflate
		if strings.HasSuffix(name, ".txt") {
			method = zip.Store
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: method})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(b)
	}
	zw.Create("folder/")
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// readZip reads a zip with archive/zip.
func readZip(b []byte) (map[string][]byte, error) {
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
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
		out[path.Clean("/" + f.Name)[1:]] = data // as unzip names them
	}
	return out, nil
}

func sameFiles(a, b map[string][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || !bytes.Equal(v, w) {
			return false
		}
	}
	return true
}

var zipSample = map[string][]byte{
	"a/message/X.json": []byte(strings.Repeat(`{"name": "x"} `, 300)),
	"a/SOURCE":         []byte("Apache Kafka 9.9.9\ndate: 2027-01-01\n"),
	"b.txt":            []byte("stored"),
	"empty.json":       nil,
}

// unzip reads what archive/zip writes, as archive/zip reads it.
func TestUnzip(t *testing.T) {
	z := zipOf(t, zipSample)
	got, err := unzip(z)
	if err != nil || !sameFiles(got, zipSample) {
		t.Fatalf("%v: %q", err, got)
	}
	for _, c := range []struct {
		b    []byte
		want string
	}{
		{[]byte("PK\x03\x04 not a zip"), "no end of central directory"},
		{z[:len(z)-30], "no end of central directory"},
		{append(append([]byte(nil), z[:40]...), z[40+8:]...), ""},
	} {
		if _, err := unzip(c.b); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%d bytes: %v, want %q", len(c.b), err, c.want)
		}
	}
}

// FuzzUnzip: unzip never fails otherwise than with an error, stays within
// its limits, and where archive/zip reads the same bytes both read the
// same files (archive/zip has rules of its own for odd archives, such as
// bytes before the first entry, that unzip may read or refuse otherwise).
func FuzzUnzip(f *testing.F) {
	f.Add(zipOf(f, zipSample))
	f.Add(zipOf(f, map[string][]byte{"x.json": []byte("{}")}))
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := unzip(b)
		if err != nil {
			return
		}
		total := 0
		for _, v := range got {
			total += len(v)
		}
		if len(got) > maxZipFiles || total > maxZipBytes {
			t.Fatalf("%d files, %d bytes", len(got), total)
		}
		want, werr := readZip(b)
		if werr == nil && !sameFiles(got, want) {
			t.Fatalf("unzip %q, archive/zip %q", got, want)
		}
	})
}

// A dropped folder (or zip) of schemas becomes a release for the page:
// selected with the API shown, a broken file listed with the draft
// reader's diagnostics at its line.
func TestAddSchemas(t *testing.T) {
	defer sets.Reset()
	src, err := sets.FS("4.3")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := fs.ReadFile(src, p)
			if p == "message/SyncGroupRequest.json" {
				b = []byte(strings.Replace(string(b), `"type": "string"`, `"type": "strin"`, 1))
			}
			files["mine/"+p] = b
		}
		return nil
	})
	if !DroppedSchemas(files, true) || DroppedSchemas(map[string][]byte{"frame.bin": {0, 1}}, false) {
		t.Fatal("DroppedSchemas")
	}
	s := newState(t)
	report, err := s.AddSchemas(files)
	if err != nil {
		t.Fatal(err)
	}
	if s.Choice() != "mine" || s.Set.Name != "mine" || s.API.Name != "JoinGroup" || s.Err != nil {
		t.Errorf("selected %s %s: %v", s.Choice(), s.API.Name, s.Err)
	}
	if !strings.Contains(report, "release mine added") || !strings.Contains(report, `mine: message/SyncGroupRequest.json:`) || !strings.Contains(report, `unknown type "strin"`) {
		t.Errorf("report:\n%s", report)
	}
	// The same as a zip: another release, named apart.
	report, err = s.AddSchemas(map[string][]byte{"mine.zip": zipOf(t, files)})
	if err != nil || !strings.Contains(report, "release mine-dropped added") || s.Set.Name != "mine-dropped" {
		t.Errorf("zip: %v\n%s", err, report)
	}
	// The released ones are still there, and auto still reads with them.
	if err := s.Select(Auto, "JoinGroup", 9, codec.Request); err != nil || s.Set.Name == "mine" {
		t.Errorf("auto after a drop: %v %s", err, s.Set.Name)
	}
}
