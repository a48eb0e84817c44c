package app

import (
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"kwire/codec"
	"kwire/schemas/sets"
)

// With the auto choice a version only an older release has (Produce v0,
// which 4.0 removed) is read with that release, by selection, by version
// switch and by paste, and the page says which.
func TestAutoRelease(t *testing.T) {
	s, err := New("", "Produce")
	if err != nil {
		t.Fatal(err)
	}
	newest := sets.Releases()[len(sets.Releases())-1].Name
	if s.Choice() != Auto || s.Set.Name != newest {
		t.Fatalf("choice %s, set %s", s.Choice(), s.Set.Name)
	}
	old, err := sets.ForVersion(0, 0, false) // Produce v0
	if err != nil {
		t.Fatal(err)
	}
	if vs := s.Versions(); vs.Lo != 0 || !s.Set.APIByKey(0).Request.ValidVersions.Contains(vs.Hi) {
		t.Errorf("auto versions %v", vs)
	}
	if err := s.SetVersion(0); err != nil {
		t.Fatal(err)
	}
	if s.Set.Name != old.Name || s.Version != 0 || s.Err != nil {
		t.Fatalf("v0 read with %s: %v", s.Set.Name, s.Err)
	}
	if !strings.Contains(s.ReleaseText(), old.Name) || !strings.Contains(s.Query(), "set=auto") {
		t.Errorf("%q, %q", s.ReleaseText(), s.Query())
	}
	v0 := hex.EncodeToString(s.Bytes)
	// Pasted as JoinGroup in the newest release: the frame's header picks.
	if err := s.Select(Auto, "JoinGroup", -1, codec.Request); err != nil {
		t.Fatal(err)
	}
	if err := s.Paste(v0); err != nil {
		t.Fatal(err)
	}
	if s.API.Key != 0 || s.Set.Name != old.Name {
		t.Errorf("pasted Produce v0: %s in %s", s.API.Name, s.Set.Name)
	}
	// A pinned release keeps its own versions; old links keep working.
	if err := s.Apply("set=trunk&api=JoinGroup&v=9&dir=request"); err != nil || s.Choice() != "trunk" || s.Set.Name != "trunk" {
		t.Errorf("set=trunk: %v %s", err, s.Choice())
	}
	if err := s.Apply("set=trunk&api=Produce&v=0"); err == nil {
		t.Errorf("trunk has no Produce v0")
	}
}

// A pasted ApiVersions response names the release whose versions it
// advertises.
func TestReleaseMatch(t *testing.T) {
	r := sets.Releases()[0]
	set, _ := sets.Load(r.Name)
	s, err := New(r.Name, "ApiVersions")
	if err != nil {
		t.Fatal(err)
	}
	if s.ReleaseMatch() != "" {
		t.Errorf("a request: %q", s.ReleaseMatch())
	}
	var keys []string
	for _, a := range set.APIs() {
		if !a.Removed() {
			keys = append(keys, fmt.Sprintf(`{"ApiKey":%d,"MinVersion":%d,"MaxVersion":%d}`, a.Key, a.Request.ValidVersions.Lo, a.Request.ValidVersions.Hi))
		}
	}
	if err := s.Select(r.Name, "ApiVersions", 3, codec.Response); err != nil {
		t.Fatal(err)
	}
	if err := s.SetJSON(`{"ErrorCode":0,"ApiKeys":[` + strings.Join(keys, ",") + `]}`); err != nil {
		t.Fatal(err)
	}
	m := s.ReleaseMatch()
	if !strings.Contains(m, "match") || !strings.Contains(m, r.String()) {
		t.Errorf("match: %q", m)
	}
	// Matched once, not on every redraw; again when the versions change.
	if err := s.SetField("b:ThrottleTimeMs", "5"); err != nil {
		t.Fatal(err)
	}
	adv := testing.AllocsPerRun(10, func() { s.Frame.Advertised() })
	if n := testing.AllocsPerRun(10, func() { s.ReleaseMatch() }); n > adv {
		t.Errorf("%v allocations to say the same match again, %v to read the versions", n, adv)
	}
	if err := s.SetField("b:ApiKeys[0].MaxVersion", "999"); err != nil {
		t.Fatal(err)
	}
	if m2 := s.ReleaseMatch(); m2 == m {
		t.Errorf("after MaxVersion 999: the same match %q", m2)
	}
}

// A request newer than every release fails with the newest version named;
// Guess reads it with that layout and the tree says it is a guess.
func TestGuessButton(t *testing.T) {
	s, err := New("", "Fetch")
	if err != nil {
		t.Fatal(err)
	}
	hi := s.Version
	b := append([]byte(nil), s.Bytes...)
	b[7]++
	// Shown before: a version only an old release has, so that the
	// guess must not take the release shown.
	if err := s.Select(Auto, "Produce", 0, codec.Request); err != nil {
		t.Fatal(err)
	}
	if err := s.Load(b); err == nil || !s.CanGuess() {
		t.Fatalf("v%d: %v, can guess %v", hi+1, err, s.CanGuess())
	}
	if !strings.Contains(s.ErrorText(), "is newer than every release") {
		t.Errorf("error %q", s.ErrorText())
	}
	if err := s.Guess(); err != nil || s.CanGuess() || s.Frame == nil || !s.Frame.Guessed {
		t.Fatalf("guess: %v", err)
	}
	newest := sets.Releases()[len(sets.Releases())-1].Name
	if !strings.Contains(s.Root().Type, "a guess") || s.Version != hi+1 || s.Set.Name != newest || s.Frame.Layout != hi {
		t.Errorf("root %s %s v%d", s.Root().Name, s.Root().Type, s.Version)
	}
	if err := s.SetField("b:MaxWaitMs", "7"); err != nil || s.Err != nil {
		t.Errorf("edit of a guess: %v %v", err, s.Err)
	}
}
