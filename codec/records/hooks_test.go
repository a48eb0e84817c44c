package records

import (
	"bytes"
	"testing"

	"kwire/tree"
	"kwire/tree/treetest"
)

// TestRecordHook: a Record hook that adds a node under the values that
// start with "hel" gets the key and value of every record as spans of the
// tree, the key's the last and the value's added when asked for; its
// nodes join the tree under them, and the label it gives is kept (the other
// records' stay spans); RecordFilter, asked first without the tree, keeps
// the hook from the records it turns down, which are then as without a
// hook.
func TestRecordHook(t *testing.T) {
	b := mustEncode(t, sampleBatch(None))
	plain := Tree(b, 0, Options{Path: "R"})
	calls := 0
	hook := func(key, value Part) {
		calls++
		if key.Span != key.Flat.Len()-1 || key.Flat.Node(key.Span, nil).Name != "key" || key.Path == "" || value.Span != -1 {
			t.Errorf("hook got the key %+v and value %+v", key, value)
		}
		value.Open()
		at := value.Span
		value.Open()
		if value.Span != at || at != value.Flat.Len()-1 || value.Flat.Node(at, nil).Name != "value" || value.Path != key.Path {
			t.Errorf("hook got the value %+v", value)
		}
		if bytes.HasPrefix(value.Data, []byte("hel")) {
			value.Budget.TakeNodes(1)
			value.Label("seen", "")
			value.Flat.Row(value.Span, tree.Node{Name: "inner", Offset: value.Base, Size: len(value.Data), Relative: value.Relative, Path: value.Path})
		}
	}
	hooked := Tree(b, 0, Options{Path: "R", Record: hook})
	records := 0
	for _, n := range walk(plain) {
		if n.Type == "Record" {
			records++
		}
	}
	if calls != records || records == 0 {
		t.Fatalf("%d calls for %d records", calls, records)
	}
	seen := 0
	for i, v := range treetest.All(hooked) {
		if kids := treetest.Children(hooked, i); v.Name == "value" && len(kids) == 1 {
			if c := hooked.Node(kids[0], nil); c.Name == "inner" && c.Path == v.Path && v.Value == `"hello", seen` {
				seen++
			}
		}
	}
	if seen != 1 {
		t.Fatalf("no value holds the hook's node:\n%s", treetest.Text(hooked))
	}
	asked := 0
	filtered := Tree(b, 0, Options{Path: "R", Record: hook, RecordFilter: func(key, value Part) bool {
		asked++
		if key.Flat != nil || value.Flat != nil || key.Span >= 0 || value.Span >= 0 {
			t.Errorf("the filter got the tree")
		}
		return false
	}})
	if asked != records || calls != records {
		t.Errorf("filter asked %d times, hook called %d times, for %d records", asked, calls-records, records)
	}
	if d := treetest.Diff(filtered, plain); d != "" {
		t.Errorf("the records the filter turned down are not as without a hook: %s", d)
	}
}
