package draftcodec_test

import (
	"encoding/hex"
	"fmt"

	"kwire/codec"
	"kwire/draftcodec"
	"kwire/schemas/draft"
	"kwire/schemas/sets"
)

// A KIP page pasted with its schema: the text around it is ignored, the
// missing comma and the TBD key are repaired and reported, and the draft
// encodes like a released API, with a placeholder key the user can change
// through Options.Keys.
func ExampleLoad() {
	paste := `Request schema (see the KIP):
{
  "apiKey": TBD,
  "type": "request",
  "name": "ShoeSizeRequest",
  "validVersions": "0",
  "flexibleVersions": "0+",
  "fields": [
    { "name": "Left", "type": "int8", "versions": "0+" }
    { "name": "Right", "type": "int8", "versions": "0+" }
  ]
}`
	base, err := sets.Load("3.9") // a release that no longer changes
	if err != nil {
		panic(err)
	}
	d := draftcodec.Load([]byte(paste), draft.Options{File: "kip.txt", Base: base})
	for _, g := range d.Diagnostics {
		fmt.Println(g)
	}
	f, err := draftcodec.NewFrame(d, "ShoeSize", codec.Request)
	if err != nil {
		panic(err)
	}
	b, err := f.Encode()
	if err != nil {
		panic(err)
	}
	fmt.Println(hex.EncodeToString(b))
	// Output:
	// 1:1: warning: text outside the JSON is ignored (line 1, before the first schema) (paste only the schema JSON)
	// 3:13: warning: apiKey is TBD; using placeholder 88, unused in 3.9 (write the key once it is assigned, or choose another)
	// 9:57: warning: missing "," between two fields (add "," at the end of line 9)
	// 0000000e0058000000000000000000000000
}

// The draft next to the released schema of the same name.
func ExampleCompare() {
	paste := `{ "apiKey": 12, "type": "request", "name": "HeartbeatRequest", "validVersions": "0-4", "flexibleVersions": "4+",
  "fields": [
    { "name": "GroupId", "type": "string", "versions": "0+" },
    { "name": "GenerationId", "type": "int64", "versions": "0+" },
    { "name": "MemberId", "type": "string", "versions": "0+" }
  ]
}`
	trunk, _ := sets.Load("trunk")
	d := draftcodec.Load([]byte(paste), draft.Options{Base: trunk})
	for _, df := range draftcodec.Compare(d, trunk) {
		for _, r := range df.Changes() {
			fmt.Printf("%s %s: %s\n", r.Kind, r.Path, r.Detail)
		}
		fmt.Printf("smallest frame: %d bytes, %s's %d (%+d)\n", len(df.DraftBytes), trunk.Name, len(df.ReleasedBytes), df.SizeDelta())
	}
	// Output:
	// retyped GenerationId: type int64 → int32
	// removed GroupInstanceId: removed: string 3+ nullable 3+
	// smallest frame: 26 bytes, trunk's 23 (+3)
}
