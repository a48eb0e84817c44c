package codec

import (
	"runtime"
	"testing"
	"weak"

	"kwire/schemas"
)

// A message's plans go with it: a draft read again on every keystroke
// leaves no plans (and no messages) behind.
func TestPlansGoWithTheirMessage(t *testing.T) {
	const src = `{"apiKey": 9999, "type": "request", "name": "DraftRequest", "validVersions": "0-2", "flexibleVersions": "1+",
		"fields": [{"name": "Name", "type": "string", "versions": "0+"}, {"name": "Ids", "type": "[]int32", "versions": "2+"}]}`
	var gone []weak.Pointer[schemas.Message]
	for range 20 {
		m, err := schemas.Parse("draft.json", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		for v := int16(0); v <= 2; v++ {
			p, err := PlanFor(m, v)
			if err != nil {
				t.Fatal(err)
			}
			if again, _ := PlanFor(m, v); again != p {
				t.Fatalf("v%d compiled twice", v)
			}
		}
		gone = append(gone, weak.Make(m))
	}
	runtime.GC()
	runtime.GC()
	kept := 0
	for _, w := range gone {
		if w.Value() != nil {
			kept++
		}
	}
	if kept > 0 {
		t.Errorf("%d of %d messages still reachable after their plans were made", kept, len(gone))
	}
}
