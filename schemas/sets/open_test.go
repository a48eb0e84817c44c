package sets

import (
	"io/fs"
	"math/rand"
	"reflect"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"kwire/schemas"
)

// bundled returns the set of that name as the browser app reads it: from
// the bundle, with the index Bundle writes.
func bundled(t testing.TB, name string) fs.FS {
	t.Helper()
	b, err := Bundle()
	if err != nil {
		t.Fatal(err)
	}
	m, err := readBundle(b)
	if err != nil {
		t.Fatal(err)
	}
	sub, err := fs.Sub(m, "data/"+name)
	if err != nil {
		t.Fatal(err)
	}
	return sub
}

func messageNames(ms []*schemas.Message) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Name)
	}
	return out
}

func errorTexts(errs []error) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

// A set opened from the bundle reads its schemas as they are asked for,
// in any order, and gives what the set read whole gives: the same APIs
// (by key and name, before and after every file is read), messages, and
// models, for every release.
func TestOpenSetAsLoadSet(t *testing.T) {
	for _, name := range Names() {
		fsys, _ := FS(name)
		whole, err := schemas.LoadSet(fsys, name)
		if err != nil {
			t.Fatal(err)
		}
		open, err := schemas.OpenSet(bundled(t, name), name)
		if err != nil {
			t.Fatal(err)
		}
		files := open.Unread()
		if files < len(whole.Messages())-2 || open.RequestHeader == nil || open.ResponseHeader == nil {
			t.Fatalf("%s: %d files left unread of %d; headers %v %v", name, files, len(whole.Messages()), open.RequestHeader, open.ResponseHeader)
		}
		if !reflect.DeepEqual(open.APIIndex(), whole.APIIndex()) {
			t.Errorf("%s: APIIndex differs:\n%v\n%v", name, open.APIIndex(), whole.APIIndex())
		}
		if open.Source != whole.Source || !reflect.DeepEqual(open.Errors, whole.Errors) {
			t.Errorf("%s: SOURCE or errors.tsv differ", name)
		}
		// Ask for every API and message in a random order, each by a
		// different way.
		rng := rand.New(rand.NewSource(int64(len(name))))
		apis := whole.APIs()
		for _, i := range rng.Perm(len(apis)) {
			want := apis[i]
			var got *schemas.API
			switch i % 3 {
			case 0:
				got, err = open.LookupAPI(strings.ToUpper(want.Name) + "RESPONSE")
			case 1:
				got = open.APIByKey(want.Key)
			case 2:
				open.Message(want.Response.Name)
				got, err = open.LookupAPI(want.Name)
			}
			if err != nil || got == nil || got.Key != want.Key || got.Name != want.Name ||
				!reflect.DeepEqual(got.Request, want.Request) || !reflect.DeepEqual(got.Response, want.Response) {
				t.Fatalf("%s: API %s read alone differs: %v", name, want.Name, err)
			}
		}
		for _, m := range whole.Messages() {
			if got := open.Message(m.Name); !reflect.DeepEqual(got, m) {
				t.Fatalf("%s: %s read alone differs", name, m.Name)
			}
		}
		if open.Unread() != 0 {
			t.Errorf("%s: %d files unread after every message was asked for", name, open.Unread())
		}
		if got, want := messageNames(open.Messages()), messageNames(whole.Messages()); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: messages differ:\n%v\n%v", name, got, want)
		}
		if !reflect.DeepEqual(open.APIIndex(), whole.APIIndex()) || len(open.APIs()) != len(whole.APIs()) || len(open.Broken()) != 0 {
			t.Errorf("%s: after every file, %d APIs of %d; broken %v", name, len(open.APIs()), len(whole.APIs()), open.Broken())
		}
	}
}

// Readers in several goroutines at once read each file once and agree
// (go test -race checks the locking).
func TestOpenSetConcurrent(t *testing.T) {
	open, err := schemas.OpenSet(bundled(t, "trunk"), "trunk")
	if err != nil {
		t.Fatal(err)
	}
	index := open.APIIndex()
	got := make([][]*schemas.API, 4)
	var wg sync.WaitGroup
	for g := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, e := range index {
				a, err := open.LookupAPI(e.Name)
				if err != nil {
					t.Error(err)
					return
				}
				got[g] = append(got[g], a)
			}
			open.Messages()
		}()
	}
	wg.Wait()
	for g := range got {
		if !reflect.DeepEqual(got[g], open.APIs()) {
			t.Fatalf("goroutine %d read other APIs", g)
		}
	}
}

// A set with files that do not load, opened with its index, says why when
// the file is asked for (LookupAPI returns its errors with file:line:col)
// and, once every file is read, lists the same broken files as the set
// read whole; it leaves out the same APIs.
func TestOpenSetBroken(t *testing.T) {
	trunk, _ := FS("trunk")
	m := fstest.MapFS{}
	err := fs.WalkDir(trunk, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, err := fs.ReadFile(trunk, p)
			m[p] = &fstest.MapFile{Data: b}
			return err
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	// One request that does not validate (a field of an unknown type), one
	// response that is not JSON, one data schema with a bad version range.
	jg := m["message/JoinGroupRequest.json"]
	jg.Data = []byte(strings.Replace(string(jg.Data), `"type": "string"`, `"type": "strung"`, 1))
	m["message/HeartbeatResponse.json"].Data = []byte("{ \"name\": \"HeartbeatResponse\",\n  \"type\": \"response\",\n  \"apiKey\": 12,\n  \"fields\": [ }")
	if !strings.Contains(string(jg.Data), "strung") {
		t.Fatal("JoinGroupRequest.json has no string field to break")
	}
	whole, err := schemas.LoadSet(m, "trunk")
	if err != nil {
		t.Fatal(err)
	}
	index, err := schemas.WriteIndex(m, "trunk")
	if err != nil {
		t.Fatal(err)
	}
	m[schemas.IndexFile] = &fstest.MapFile{Data: index}
	open, err := schemas.OpenSet(m, "trunk")
	if err != nil {
		t.Fatal(err)
	}
	if open.Unread() == 0 {
		t.Fatal("the set with an index was read whole")
	}
	wantErr := errorTexts(whole.Broken())
	if len(wantErr) != 2 {
		t.Fatalf("broken: %v", wantErr)
	}
	for _, q := range []string{"JoinGroup", "11", "Heartbeat", "HeartbeatRequest"} {
		a, err := open.LookupAPI(q)
		if a != nil || err == nil || !strings.Contains(strings.Join(wantErr, "\n"), err.Error()) ||
			!strings.Contains(err.Error(), ".json:") {
			t.Errorf("LookupAPI(%q) = %v, %v; want one of the errors %q", q, a, err, wantErr)
		}
		if wa, werr := whole.LookupAPI(q); wa != nil || werr == nil {
			t.Errorf("whole set: LookupAPI(%q) = %v, %v", q, wa, werr)
		}
	}
	if open.APIByKey(11) != nil || open.Message("JoinGroupResponse") == nil || whole.Message("JoinGroupResponse") == nil {
		t.Error("a half API is kept, or its half that loads is not")
	}
	if got := errorTexts(open.Broken()); !reflect.DeepEqual(got, wantErr) {
		t.Errorf("Broken:\n%q\nwant\n%q", got, wantErr)
	}
	if got, want := messageNames(open.Messages()), messageNames(whole.Messages()); !reflect.DeepEqual(got, want) {
		t.Errorf("messages differ:\n%v\n%v", got, want)
	}
	if !reflect.DeepEqual(open.APIIndex(), whole.APIIndex()) && len(open.APIs()) != len(whole.APIs()) {
		t.Errorf("%d APIs of %d", len(open.APIs()), len(whole.APIs()))
	}
	for _, a := range whole.APIs() {
		if a.Key == 11 || a.Key == 12 {
			t.Errorf("the whole set keeps API %s", a.Name)
		}
	}
}

// An index that is not one WriteIndex wrote is not trusted: the set is
// read whole.
func TestOpenSetBadIndex(t *testing.T) {
	m := fstest.MapFS{
		"message/RequestHeader.json": {Data: []byte(`{"type": "header", "name": "RequestHeader", "validVersions": "0-2", "flexibleVersions": "2+", "fields": []}`)},
		schemas.IndexFile:            {Data: []byte("message/RequestHeader.json RequestHeader header -1\n")},
	}
	s, err := schemas.OpenSet(m, "x")
	if err != nil || s.Unread() != 0 || s.RequestHeader == nil || len(s.Messages()) != 1 {
		t.Fatalf("%v, %v", s, err)
	}
}
