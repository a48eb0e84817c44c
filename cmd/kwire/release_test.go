package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"kwire/schemas/sets"
)

// Frames of the newest versions (Produce, Fetch, ApiVersions at their
// highest, every API from key 90 up) and of versions only an old release
// has decode with no --set, and the root line names the release used.
func TestDecodeAutoRelease(t *testing.T) {
	rs := sets.Releases()
	newest := rs[len(rs)-1]
	ns, _ := sets.Load(newest.Name)
	type frame struct {
		set, api string
		version  int16
	}
	var frames []frame
	for _, a := range ns.APIs() {
		if !a.Removed() && (a.Key >= 90 || a.Key <= 1 || a.Key == 18) {
			frames = append(frames, frame{newest.Name, a.Name, a.Request.ValidVersions.Hi})
		}
	}
	old, err := sets.ForVersion(0, 0, false) // Produce v0, gone since 4.0
	if err != nil {
		t.Fatal(err)
	}
	frames = append(frames, frame{old.Name, "Produce", 0})
	for _, f := range frames {
		out, errs, code := kwire(t, "", "encode", "--set", f.set, "--api", f.api, "--version", fmt.Sprint(f.version))
		if code != 0 {
			t.Fatalf("encode %v: %s", f, errs)
		}
		a, err := ns.LookupAPI(f.api)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := sets.ForVersion(a.Key, f.version, false)
		out, errs, code = kwire(t, strings.TrimSpace(out), "decode")
		first, _, _ := strings.Cut(out, "\n")
		if code != 0 || !strings.Contains(first, " v"+fmt.Sprint(f.version)+" ") || !strings.HasSuffix(first, "read with the schemas of "+sets.ReleaseOf(want.Name).String()) {
			t.Errorf("%v: exit %d %q %s", f, code, first, errs)
		}
	}
}

// An ApiVersions response names the release whose versions it
// advertises; one API off, the closest release and that API.
func TestDecodeAPIVersionsRelease(t *testing.T) {
	for _, r := range sets.Releases() {
		s, _ := sets.Load(r.Name)
		var keys []string
		for _, a := range s.APIs() {
			if !a.Removed() {
				keys = append(keys, fmt.Sprintf(`{"ApiKey":%d,"MinVersion":%d,"MaxVersion":%d}`, a.Key, a.Request.ValidVersions.Lo, a.Request.ValidVersions.Hi))
			}
		}
		json := `{"ErrorCode":0,"ApiKeys":[` + strings.Join(keys, ",") + `]}`
		out, errs, code := kwire(t, json, "encode", "--set", r.Name, "--response", "--api", "ApiVersions", "--version", "3", "--json", "-")
		if code != 0 {
			t.Fatalf("%s: %s", r.Name, errs)
		}
		_, errs, code = kwire(t, strings.TrimSpace(out), "decode", "--response", "--api", "ApiVersions", "--version", "3")
		if code != 0 || !strings.Contains(errs, "the advertised versions match") || !strings.Contains(errs, r.String()) {
			t.Errorf("%s: exit %d %q", r.Name, code, errs)
		}
	}
}

// --schemas reads sets from a folder at run time, in its three shapes; a
// broken file is named with its line and column and the rest of its set
// still works.
func TestSchemasFolder(t *testing.T) {
	defer sets.Reset()
	src, err := sets.FS("4.3")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	set := filepath.Join(dir, "mine")
	err = fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, _ := fs.ReadFile(src, p)
		if p == "message/SyncGroupRequest.json" {
			b = []byte(strings.Replace(string(b), `"type": "string"`, `"type": "strin"`, 1))
		}
		os.MkdirAll(filepath.Join(set, filepath.Dir(p)), 0o755)
		return os.WriteFile(filepath.Join(set, p), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, shape := range []string{dir, set, filepath.Join(set, "message")} {
		out, errs, code := kwire(t, "", "--schemas", shape, "apis")
		if code != 0 || !strings.Contains(out, "JoinGroup") || strings.Contains(out, "SyncGroup ") ||
			!regexp.MustCompile(`broken file, left out: message/SyncGroupRequest.json:\d+:\d+: field "\w+": unknown type "strin"`).MatchString(out) {
			t.Errorf("%s: exit %d %s\n%s", shape, code, errs, out)
		}
		out, errs, code = kwire(t, "0000001d000b000900000000000000010000000000000000010101020101000100", "decode", "--schemas="+shape)
		if code != 0 || !strings.Contains(out, "JoinGroupRequest message v9") {
			t.Errorf("%s: decode exit %d %s", shape, code, errs)
		}
	}
	if _, errs, code := kwire(t, "", "apis", "--schemas", t.TempDir()); code != 2 || !strings.Contains(errs, "no schemas found") {
		t.Errorf("empty folder: exit %d %q", code, errs)
	}
}
