//go:build js

package records

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"reflect"
	"testing"
)

// In the browser app, a zstd batch decodes (internal/codecs/zstd.go): the tree shows its
// records and Parse returns them. Its JSON form stays hex, since the app
// cannot compress it again, so that the JSON encodes back to the same
// bytes. Run it with the browser build:
//
//	GOOS=js GOARCH=wasm go test -exec "$(go env GOROOT)/lib/wasm/go_js_wasm_exec" -run TestZstdBrowser ./codec/records/
func TestZstdBrowser(t *testing.T) {
	// mustEncode(t, sampleBatch(Zstd)), written by the native build.
	b, _ := hex.DecodeString("00000000000000640000007c0000000702c11f63df0004000000020000018bcfe568000000018bcfe5681e000000000000002a0003000000090000000328b52ffd0400f10100360000000c757365722d310a68656c6c6f020a747261636506616263140018020108000102ff002c003c0410d0bad0bbd18ed187010404683101046832005ae21159")
	if e := errs(Tree(b, 0, Options{})); e != nil {
		t.Fatalf("errors %q", e)
	}
	if n := len(find(Tree(b, 0, Options{}), "Record[2]")); n != 1 {
		t.Errorf("%d third records in the tree, want 1", n)
	}
	got, err := Parse(b)
	if want := sampleBatch(Zstd); err != nil || len(got) != 1 || !reflect.DeepEqual(got[0].Records, want.Records) {
		t.Fatalf("Parse: %+v, %v", got, err)
	}
	// Alone, the batch is a hex string; beside a batch that is written
	// out, it is rawHex with a note.
	none := mustEncode(t, sampleBatch(None))
	for _, field := range [][]byte{b, append(append([]byte{}, none...), b...)} {
		j := AppendJSON(nil, field, nil)
		if bytes.Contains(j, []byte(`"zstd"`)) || len(field) > len(b) && !bytes.Contains(j, []byte("cannot compress them again")) {
			t.Errorf("JSON %s", j)
		}
		var raw any
		if err := json.Unmarshal(j, &raw); err != nil {
			t.Fatal(err)
		}
		if back, err := FromJSON(raw); err != nil || !bytes.Equal(back, field) {
			t.Errorf("JSON encodes back to %x, %v", back, err)
		}
	}
}
