package codec

import (
	"testing"

	"kwire/schemas"
	"kwire/schemas/sets"
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
