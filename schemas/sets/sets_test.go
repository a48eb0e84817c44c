package sets

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"
)

func TestLoadBoth(t *testing.T) {
	want := map[string]int{"3.9": 235, "trunk": 269} // every file of message/, coordinator/, metadata/
	for name, files := range want {
		s, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Messages) != files {
			t.Errorf("%s: %d schemas, want %d", name, len(s.Messages), files)
		}
		if s.RequestHeader == nil || s.ResponseHeader == nil || len(s.Errors) < 100 {
			t.Errorf("%s: headers or errors missing", name)
		}
		for _, a := range s.APIs {
			if a.Request == nil || a.Response == nil {
				t.Errorf("%s: API %s lacks a request or a response", name, a.Name)
			}
		}
	}
	if s, _ := Load(""); s.Name != Default {
		t.Errorf("default set %s", s.Name)
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
