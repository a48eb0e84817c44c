package domtest

import (
	"testing"
)

func TestQueryAndClosest(t *testing.T) {
	p := New("tree", "form")
	row := p.Add(p.El("tree"), "div", "class", "tn parent", "data-n", "3")
	g := p.Add(row, "span", "class", "g")
	d := p.Add(p.El("form"), "details", "data-key", "b:Topics")
	for _, c := range []struct {
		sel  string
		want *Elem
	}{
		{`.tn[data-n="3"]:not(.fold)`, row},
		{`.tn.parent`, row},
		{`div[data-n]`, row},
		{`.g`, g},
		{`.tn[data-n="4"]`, nil},
		{`.tn:not(.parent)`, nil},
		{`details:not([open])`, nil}, // in #form, not #tree
	} {
		got := p.El("tree").Query(c.sel)
		if c.want == nil && got.Valid() || c.want != nil && got != c.want {
			t.Errorf("Query(%s) = %v, want %v", c.sel, got, c.want)
		}
	}
	if g.Closest(".tn") != row || g.Closest("#tree") != p.El("tree") || g.Closest("#form").Valid() {
		t.Error("Closest")
	}
	if d.Closest("details:not([open])") != d {
		t.Error("Closest of a closed details")
	}
	if n := len(p.El("tree").QueryAll("[data-n]")); n != 1 {
		t.Errorf("QueryAll: %d", n)
	}
}

func TestTranscript(t *testing.T) {
	p := New("status")
	st := p.El("status")
	st.SetText("bad")
	st.Toggle("bad", true)
	st.Toggle("bad", true) // no change: not recorded
	p.ByID("missing").SetText("x")
	p.After(200, func() { st.SetProp("hidden", true) })
	p.Publish("editMs", 3.5)
	p.Publish("capDone", 2)
	p.Run(10)
	want := `#status text "bad"
#status class bad true
after 200ms
publish editMs
publish capDone = 2
#status hidden true
`
	if got := p.Transcript(); got != want {
		t.Errorf("transcript:\n%s\nwant:\n%s", got, want)
	}
	if p.Transcript() != "" {
		t.Error("Transcript does not forget")
	}
}
