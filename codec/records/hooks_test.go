package records

import (
	"bytes"
	"reflect"
	"testing"

	"kwire/tree"
)

// TestRecordHook: a Record hook that adds a node under the values that
// start with "hel" gets the key and value of every record as nodes with
// their text, and its nodes are stored under them (the other records'
// stay spans); RecordFilter, asked first without nodes, keeps the hook
// from the records it turns down, which are then as without a hook.
func TestRecordHook(t *testing.T) {
	b := mustEncode(t, sampleBatch(None))
	plain := Nodes(b, 0, Options{Path: "R"})
	calls := 0
	hook := func(key, value Part) {
		calls++
		if key.Node.Name != "key" || value.Node.Name != "value" || value.Node.Path == "" {
			t.Errorf("hook got %+v and %+v", *key.Node, *value.Node)
		}
		if bytes.HasPrefix(value.Data, []byte("hel")) {
			value.Budget.TakeNodes(1)
			value.Node.Value += ", seen"
			value.Node.Add(&tree.Node{Name: "inner", Offset: value.Base, Size: len(value.Data), Relative: value.Relative})
		}
	}
	hooked := Nodes(b, 0, Options{Path: "R", Record: hook})
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
	for _, v := range find(hooked, "value") {
		if len(v.Children) == 1 && v.Children[0].Name == "inner" && v.Children[0].Path == v.Path && v.Value == `"hello", seen` {
			seen++
		}
	}
	if seen != 1 {
		t.Fatalf("no value holds the hook's node:\n%s", (&tree.Node{Children: hooked}).Text())
	}
	asked := 0
	filtered := Nodes(b, 0, Options{Path: "R", Record: hook, RecordFilter: func(key, value Part) bool {
		asked++
		if key.Node != nil || value.Node != nil {
			t.Errorf("the filter got nodes")
		}
		return false
	}})
	if asked != records || calls != records {
		t.Errorf("filter asked %d times, hook called %d times, for %d records", asked, calls-records, records)
	}
	if !reflect.DeepEqual(filtered, plain) {
		t.Errorf("the records the filter turned down are not as without a hook:\n%s", (&tree.Node{Children: filtered}).Text())
	}
}
