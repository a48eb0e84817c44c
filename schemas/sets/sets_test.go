package sets

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"kwire/schemas"
)

// Every set loads whole: one message per schema file, no broken file,
// both headers, the error table and both sides of every API.
func TestLoadEvery(t *testing.T) {
	if len(Names()) < 2 {
		t.Fatalf("sets: %v", Names())
	}
	for _, name := range Names() {
		s, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		fsys, _ := FS(name)
		files := 0
		for _, dir := range schemas.SchemaDirs {
			matches, _ := fs.Glob(fsys, dir+"/*.json")
			files += len(matches)
		}
		if len(s.Messages()) != files || len(s.Broken()) > 0 {
			t.Errorf("%s: %d schemas of %d files; broken: %v", name, len(s.Messages()), files, s.Broken())
		}
		if s.RequestHeader == nil || s.ResponseHeader == nil || len(s.Errors) < 100 {
			t.Errorf("%s: headers or errors missing", name)
		}
		for _, a := range s.APIs() {
			if a.Request == nil || a.Response == nil {
				t.Errorf("%s: API %s lacks a request or a response", name, a.Name)
			}
		}
	}
	newest := Releases()[len(Releases())-1].Name
	for _, n := range []string{"", Auto} {
		if s, _ := Load(n); s.Name != newest {
			t.Errorf("Load(%q) = %s, want the newest, %s", n, s.Name, newest)
		}
	}
	if _, err := Load("2.0"); err == nil || !strings.Contains(err.Error(), `no schema set "2.0"`) {
		t.Errorf("unknown set: %v", err)
	}
}

func TestLookupAPI(t *testing.T) {
	s, _ := Load("trunk")
	for _, q := range []string{"11", "JoinGroup", "joingroup", "JoinGroupRequest", "JOINGROUPRESPONSE"} {
		if a, err := s.LookupAPI(q); err != nil || a.Key != 11 {
			t.Errorf("LookupAPI(%q) = %v, %v", q, a, err)
		}
	}
	if _, err := s.LookupAPI("Nope"); err == nil {
		t.Error("LookupAPI(Nope) succeeded")
	}
	if _, err := s.LookupAPI("70000"); err == nil {
		t.Error("LookupAPI(70000) succeeded")
	}
}

// A build without schema sets says how to provide them.
func TestMissing(t *testing.T) {
	empty := fstest.MapFS{"data/README.md": {Data: []byte("x")}}
	if _, err := load(empty, "trunk"); !errors.Is(err, ErrMissing) || !strings.Contains(err.Error(), "run ./build.sh") {
		t.Errorf("got %v", err)
	}
}

// The bundle the browser app fetches holds every file of every set, and
// sets provided from it load as the embedded ones do.
func TestBundle(t *testing.T) {
	b, err := Bundle()
	if err != nil {
		t.Fatal(err)
	}
	// Identical files are stored once: the bundle is smaller than the
	// files, and every set reads back whole.
	total := 0
	fs.WalkDir(data, "data", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.Count(p, "/") > 1 {
			b, _ := fs.ReadFile(data, p)
			total += len(b)
		}
		return nil
	})
	if len(Names()) > 2 && len(b) > total*3/4 {
		t.Errorf("bundle of %d bytes for %d bytes of files", len(b), total)
	}
	t.Logf("bundle: %d bytes for %d bytes of files", len(b), total)
	before, _ := Load("trunk")
	saved := data
	defer func() { mu.Lock(); use(saved); mu.Unlock() }()
	if err := Provide(b); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(Names(), ","), strings.Join(names(saved), ","); got != want {
		t.Errorf("names after Provide: %s", got)
	}
	after, err := Load("trunk")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range Names() {
		if s, err := Load(n); err != nil || len(s.Broken()) > 0 {
			t.Errorf("%s from the bundle: %v %v", n, err, s.Broken())
		}
	}
	if after == before || len(after.Messages()) != len(before.Messages()) || len(after.Errors) != len(before.Errors) || after.Source != before.Source {
		t.Errorf("provided set differs: %d/%d messages", len(after.Messages()), len(before.Messages()))
	}
	for _, c := range []struct{ bundle, want string }{
		{`{"trunk/message/X.json": "{}"}`, `it does not start with "kwire schema bundle 2"`},
		{bundleMagic + "../x 2\n{}\n", `at byte 22: bad file name "../x"`},
		{bundleMagic + "/abs 2\n{}\n", `at byte 22: bad file name "/abs"`},
		{bundleMagic + "a/b.json 2\n{}\nc/d.json -1\n", `at byte 36: want a line "path size"`},
		{bundleMagic + "a/b.json 3\n{}\n", `at byte 22: a/b.json should have 3 bytes and a newline; 3 bytes are left`},
		{bundleMagic + "a/b.json 2\n{}x", `a/b.json should have 2 bytes and a newline`},
		{bundleMagic + "a/b.json", `at byte 22: want a line "path size"`},
		{bundleMagic + "a/b.json 99999999999999999999\n", `want a line "path size"`},
	} {
		err := Provide([]byte(c.bundle))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Provide(%q): %v, want %q", c.bundle, err, c.want)
		}
	}
	for _, c := range []struct{ bundle, want string }{
		{bundleMagic + "a/b.json =a/c.json\n", `at byte 22: "a/b.json" refers to "a/c.json", which is not before it`},
		{bundleMagic + "a/b.json 2\n{}\n../x =a/b.json\n", `refers to "a/b.json"`},
	} {
		if err := Provide([]byte(c.bundle)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Provide(%q): %v, want %q", c.bundle, err, c.want)
		}
	}
	if err := Provide([]byte(bundleMagic + "t/message/a.json 2\n{}\nt/b c.json 0\n\n")); err == nil {
		t.Error("a name with a space was accepted")
	}
}

// memFS passes the standard checks of a file system.
func TestMemFS(t *testing.T) {
	m := memFS{"data/a/x.json": []byte("{}"), "data/a/sub/y.json": []byte("[]"), "data/README.md": []byte("r")}
	if err := fstest.TestFS(m, "data/a/x.json", "data/a/sub/y.json", "data/README.md"); err != nil {
		t.Fatal(err)
	}
}
