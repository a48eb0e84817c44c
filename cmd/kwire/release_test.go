package main

import (
	"fmt"
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
	for _, a := range ns.APIs {
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
		for _, a := range s.APIs {
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
