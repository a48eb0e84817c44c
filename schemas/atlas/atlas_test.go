package atlas

import (
	"os"
	"strings"
	"testing"

	"kwire/schemas"
	"kwire/schemas/sets"
)

// TestAgainstHandList holds the atlas derived from the schemas of 4.3
// and trunk to testdata/addresses.txt, written by hand: the same fields,
// kinds and versions, none more.
func TestAgainstHandList(t *testing.T) {
	src, err := os.ReadFile("testdata/addresses.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, release := range []string{"4.3", "trunk"} {
		s, err := sets.Load(release)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{}
		for i, line := range strings.Split(string(src), "\n") {
			f := strings.Fields(line)
			if len(f) == 0 || strings.HasPrefix(f[0], "#") {
				continue
			}
			if f[0] == "trunk" {
				if release != "trunk" {
					continue
				}
				f = f[1:]
			}
			if len(f) != 5 {
				t.Fatalf("addresses.txt:%d: want API direction path kind versions: %q", i+1, line)
			}
			api, err := s.LookupAPI(f[0])
			if err != nil {
				t.Fatalf("addresses.txt:%d: %v", i+1, err)
			}
			m := api.Request
			if f[1] == "response" {
				m = api.Response
			}
			vs, err := schemas.ParseVersions(f[4])
			if err != nil {
				t.Fatalf("addresses.txt:%d: %v", i+1, err)
			}
			want[f[0]+" "+f[1]+" "+f[2]] = f[3] + " " + vs.Intersect(m.ValidVersions).String()
		}
		got := map[string]string{}
		for _, f := range Of(s) {
			got[f.ID()] = f.Kind.String() + " " + f.Versions.String()
		}
		for id, w := range want {
			if got[id] != w {
				t.Errorf("%s: %s: derived %q, the hand list says %q", release, id, got[id], w)
			}
		}
		for id, g := range got {
			if _, ok := want[id]; !ok {
				t.Errorf("%s: %s (%s) is not in the hand list", release, id, g)
			}
		}
		if len(want) < 140 {
			t.Errorf("%s: only %d fields in the hand list", release, len(want))
		}
	}
}
