package sets

import (
	"errors"
	"io/fs"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"kwire/schemas"
)

func TestParseSource(t *testing.T) {
	r := ParseSource("4.3", "Apache Kafka 4.3.1\nref: 26b2\ncommit: 26b2\ndate: 2026-06-17\n")
	if r != (Release{"4.3", "4.3.1", "2026-06-17"}) || r.String() != "4.3 (4.3.1, 2026-06-17)" {
		t.Errorf("got %+v %q", r, r)
	}
	if got := ParseSource("x", "").String(); got != "x" {
		t.Errorf("no source: %q", got)
	}
}

// Releases are ordered by Kafka version, a snapshot before its release,
// whatever their names.
func TestReleaseOrder(t *testing.T) {
	in := []Release{
		{"trunk", "4.5.0-SNAPSHOT", ""}, {"a", "4.10.0", ""}, {"4.3", "4.3.1", ""},
		{"3.9", "3.9.1-SNAPSHOT", ""}, {"b", "4.5.0", ""}, {"4.0", "", ""}, {"mine", "", ""},
	}
	want := "mine 3.9 4.0 4.3 trunk b a"
	for range 5 {
		for i := range in { // a few orders of the input
			in[0], in[i] = in[i], in[0]
		}
		out := append([]Release(nil), in...)
		sortReleases(out)
		var got []string
		for _, r := range out {
			got = append(got, r.Name)
		}
		if strings.Join(got, " ") != want {
			t.Fatalf("got %v, want %s", got, want)
		}
	}
	rs := Releases()
	if rs[len(rs)-1].Name != "trunk" {
		t.Errorf("newest release %v", rs[len(rs)-1])
	}
}

// A frame's set is the newest release that has its version, derived here
// from the sets: for every API key and version of every set, ForVersion
// names a release that has it, and no newer release has it stable.
func TestForVersion(t *testing.T) {
	rs := Releases()
	index := map[string]int{}
	for i, r := range rs {
		index[r.Name] = i
	}
	checked := 0
	for _, r := range rs {
		s, _ := Load(r.Name)
		for _, a := range s.APIs() {
			if a.Removed() {
				continue
			}
			for v := a.Request.ValidVersions.Lo; v <= a.Request.ValidVersions.Hi; v++ {
				got, err := ForVersion(a.Key, v, false)
				if err != nil {
					t.Fatalf("%s v%d: %v", a.Name, v, err)
				}
				ga := got.APIByKey(a.Key)
				if ga == nil || !ga.Request.ValidVersions.Contains(v) {
					t.Fatalf("%s v%d: chose %s, which lacks it", a.Name, v, got.Name)
				}
				for _, newer := range rs[index[got.Name]+1:] {
					ns, _ := Load(newer.Name)
					if na := ns.APIByKey(a.Key); na != nil && na.Request.ValidVersions.Contains(v) && !Unstable(na, v) {
						t.Fatalf("%s v%d: chose %s, but %s has it stable", a.Name, v, got.Name, newer.Name)
					}
				}
				checked++
			}
		}
	}
	if checked < 500 {
		t.Errorf("only %d versions checked", checked)
	}
}

// A version above every release's names the newest release and its
// highest version; an unknown key says so.
func TestVersionNewerThanEvery(t *testing.T) {
	newest := Releases()[len(Releases())-1]
	s, _ := Load(newest.Name)
	fetch := s.APIByKey(1)
	hi := fetch.Request.ValidVersions.Hi
	_, err := ForVersion(1, hi+1, false)
	var verr *VersionError
	if !errors.As(err, &verr) || !verr.Newer() {
		t.Fatalf("got %v", err)
	}
	want := "FetchRequest v" + itoa(hi+1) + " is newer than every release kwire knows; the newest is v" + itoa(hi) + ", in " + newest.Name + " of " + newest.Date
	if err.Error() != want {
		t.Errorf("got  %s\nwant %s", err, want)
	}
	if _, err := ForVersion(30000, 0, true); err == nil || !strings.Contains(err.Error(), "no release kwire knows has an API with key 30000") {
		t.Errorf("unknown key: %v", err)
	}
	ns, a, err := NewestWith(1)
	if err != nil || ns.Name != newest.Name || a.Key != 1 {
		t.Errorf("NewestWith: %v %v", ns, err)
	}
}

// An API that a release stopped having is removed in that release, as
// derived from the sets: every removed API of the newest set was present
// in an older one.
func TestRemoval(t *testing.T) {
	s, _ := Load(Auto)
	n := 0
	for _, a := range s.APIs() {
		removed, last, ok := Removal(a.Key)
		if a.Removed() != ok {
			t.Errorf("%s: removed %v, Removal says %v", a.Name, a.Removed(), ok)
		}
		if !ok {
			continue
		}
		n++
		ls, _ := Load(last.Name)
		rs, _ := Load(removed.Name)
		if la := ls.APIByKey(a.Key); la == nil || la.Removed() {
			t.Errorf("%s: last in %s, which lacks it", a.Name, last.Name)
		}
		if ra := rs.APIByKey(a.Key); ra != nil && !ra.Removed() {
			t.Errorf("%s: removed in %s, which has it", a.Name, removed.Name)
		}
	}
	t.Logf("%d removed APIs", n)
}

// One broken file leaves the rest of its set loaded, and is named with
// its line and column.
func TestBrokenFile(t *testing.T) {
	trunk, _ := FS("trunk")
	m := fstest.MapFS{}
	for _, f := range []string{"message/RequestHeader.json", "message/ResponseHeader.json", "message/JoinGroupRequest.json", "message/JoinGroupResponse.json", "message/SyncGroupResponse.json"} {
		b, err := readAll(trunk, f)
		if err != nil {
			t.Fatal(err)
		}
		m[f] = &fstest.MapFile{Data: b}
	}
	m["message/SyncGroupRequest.json"] = &fstest.MapFile{Data: []byte("{\n  \"apiKey\": 14,\n  \"type\": \"request\", \"name\": \"SyncGroupRequest\",\n  \"validVersions\": \"0-5\", \"flexibleVersions\": \"4+\",\n  \"fields\": [ { \"name\": \"GroupId\", \"type\": \"strin\", \"versions\": \"0+\" } ]\n}\n")}
	s, err := schemas.LoadSet(m, "t")
	if err != nil {
		t.Fatal(err)
	}
	if s.APIByKey(11) == nil || s.APIByKey(14) != nil || len(s.Broken()) != 1 {
		t.Fatalf("APIs %v, broken %v", s.APIs(), s.Broken())
	}
	if got := s.Broken()[0].Error(); !strings.Contains(got, `message/SyncGroupRequest.json:5:44: field "GroupId": unknown type "strin"`) {
		t.Errorf("broken: %s", got)
	}
}

func itoa(v int16) string { return strconv.Itoa(int(v)) }

func readAll(fsys fs.FS, name string) ([]byte, error) { return fs.ReadFile(fsys, name) }

// VersionsOf spans every release's versions of an API, as loading every
// set says, without parsing the releases it reads a file of.
func TestVersionsOf(t *testing.T) {
	mu.Lock()
	use(embedded())
	mu.Unlock()
	newest, _ := Load(Auto)
	got := map[*schemas.Message]schemas.Versions{}
	for _, a := range newest.APIs() {
		for _, m := range []*schemas.Message{a.Request, a.Response} {
			got[m] = VersionsOf(m)
		}
	}
	mu.Lock()
	n := len(loaded)
	mu.Unlock()
	if n != 1 {
		t.Errorf("%d sets parsed for the versions of %d APIs, want the newest alone", n, len(newest.APIs()))
	}
	for m, g := range got {
		want := schemas.NoVersions
		for _, r := range Releases() {
			s, _ := Load(r.Name)
			if ra := s.APIByKey(int16(m.APIKey)); ra != nil {
				o := ra.Request.ValidVersions
				if m.Type == "response" {
					o = ra.Response.ValidVersions
				}
				switch {
				case o.None:
				case want.None:
					want = o
				default:
					want.Lo, want.Hi = min(want.Lo, o.Lo), max(want.Hi, o.Hi)
				}
			}
		}
		if g != want {
			t.Errorf("%s: %v, want %v", m.Name, g, want)
		}
	}
}
