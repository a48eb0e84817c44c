package app

import (
	"reflect"
	"testing"

	"kwire/codec"
	"kwire/schemas"
	"kwire/schemas/sets"
)

// view is what the page shows of a state: the pickers' APIs and versions,
// the byte view, the tree, the form, and a draft's panel and comparison.
func view(t *testing.T, s *State) []string {
	t.Helper()
	released := s.Set.Name
	if s.IsDraft() {
		released = s.DraftBase
	}
	set, err := sets.Load(released)
	if err != nil {
		t.Fatal(err)
	}
	out := []string{s.Set.Name, s.API.Name, s.Versions().String(), s.HexRows(0, s.Rows()), s.Tree(), s.Legend(),
		s.Form(func(string) (bool, bool) { return true, true })}
	for _, e := range set.APIIndex() {
		out = append(out, e.Name)
	}
	if s.Draft != nil {
		out = append(out, s.DraftSummary(), s.DiagnosticsHTML(), s.CompareHTML())
	}
	return out
}

// The explorer's start with the releases of the bundle, each schema read
// when asked for (schemas.OpenSet), shows what it shows with every schema
// read: the first view (the address of the browser benchmark, and the
// default one), then a draft pasted and compared with the release.
func TestOpenedReleases(t *testing.T) {
	bundle, err := sets.Bundle()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sets.Reset)
	steps := func(t *testing.T) [][]string {
		var views [][]string
		s, err := New("", "JoinGroup")
		if err != nil {
			t.Fatal(err)
		}
		views = append(views, view(t, s))
		if err := s.Apply("?set=trunk&api=JoinGroup&v=9&dir=request"); err != nil {
			t.Fatal(err)
		}
		views = append(views, view(t, s))
		if err := s.Select("4.3", "JoinGroup", -1, codec.Response); err != nil {
			t.Fatal(err)
		}
		if err := s.LoadDraft(seed(t, seedKIP1071)); err != nil {
			t.Fatal(err)
		}
		if err := s.SelectDraft("StreamsGroupHeartbeat", -1, codec.Request); err != nil {
			t.Fatal(err)
		}
		return append(views, view(t, s))
	}
	sets.Reset()
	want := steps(t)
	if err := sets.Provide(bundle); err != nil {
		t.Fatal(err)
	}
	newest, err := sets.Load("")
	if err != nil {
		t.Fatal(err)
	}
	files := newest.Unread()
	if _, err := New("", "JoinGroup"); err != nil {
		t.Fatal(err)
	}
	// The headers, JoinGroup's request and response.
	if read := files - newest.Unread(); files < 100 || read > 2 {
		t.Errorf("the first view read %d schema files of %d more", read, files)
	}
	if err := sets.Provide(bundle); err != nil {
		t.Fatal(err)
	}
	got := steps(t)
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			for j := range want[i] {
				if j < len(got[i]) && got[i][j] != want[i][j] {
					t.Errorf("view %d, part %d differs:\n%.300s\nwant\n%.300s", i, j, got[i][j], want[i][j])
				}
			}
			t.Errorf("view %d: %d parts, want %d", i, len(got[i]), len(want[i]))
		}
	}
	var set *schemas.Set
	if set, err = sets.Load("4.3"); err != nil || set.Unread() == 0 {
		t.Errorf("4.3 was read whole (%v)", err)
	}
}
