package codec

import (
	"testing"

	"kwire/codec/records"
	"kwire/schemas"
	"kwire/schemas/sets"
	"kwire/tree"
)

// loadSet loads a schema set or fails the test.
func loadSet(tb testing.TB, name string) *schemas.Set {
	tb.Helper()
	set, err := sets.Load(name)
	if err != nil {
		tb.Fatal(err)
	}
	return set
}

// mustPlan returns the plan of a named message at version v.
func mustPlan(tb testing.TB, set *schemas.Set, msg string, v int16) *Plan {
	tb.Helper()
	m := set.Message(msg)
	if m == nil {
		tb.Fatalf("set %s has no message %s", set.Name, msg)
	}
	p, err := PlanFor(m, v)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// recordTree is the tree of the records field b at offset base as
// records.Spans makes it (what a message's tree holds): a Flat whose
// roots are its batches.
func recordTree(b []byte, base int, o records.Options) *tree.Flat {
	f := &tree.Flat{}
	records.Spans(f, -1, b, base, o)
	f.Done()
	return f
}
