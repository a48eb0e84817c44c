package records

import (
	"flag"
	"fmt"
	"kwire/tree/treetest"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// controlBatch is a transactional COMMIT marker (coordinator epoch 5).
func controlBatch() Batch {
	b := Batch{
		BaseOffset: 10, Magic: 2, Attributes: AttrTransactional | AttrControl, BaseTimestamp: 1700000000000,
		ProducerID: 4000, ProducerEpoch: 1, BaseSequence: -1, PartitionLeaderEpoch: 0,
		Records: []Record{{Key: []byte{0, 0, 0, 1}, Value: []byte{0, 0, 0, 0, 0, 5}}},
	}
	b.Fill()
	return b
}

// TestGoldenTrees compares the text trees of representative records fields
// with testdata/trees.golden (go test -update rewrites it).
func TestGoldenTrees(t *testing.T) {
	cases := []struct {
		name string
		b    []byte
	}{
		{"uncompressed batch with headers", mustEncode(t, sampleBatch(None))},
		{"control batch (COMMIT)", mustEncode(t, controlBatch())},
		{"lz4 batch", mustEncode(t, sampleBatch(LZ4))},
		{"legacy v1 gzip wrapper, then a v0 message", append(legacyMsg(102, 1, 1, 1600000000002, nil, gzipStd(t, innerSet(1))),
			legacyMsg(103, 0, 0, 0, []byte("x"), nil)...)},
		{"batch, then a partial batch", func() []byte {
			b := mustEncode(t, sampleBatch(None))
			return append(b, b[:70]...)
		}()},
	}
	var out strings.Builder
	for _, c := range cases {
		fmt.Fprintf(&out, "== %s (%d bytes)\n%s\n", c.name, len(c.b), treetest.Text(Tree(c.b, 0, Options{Path: "Records"})))
	}
	const file = "testdata/trees.golden"
	if *update {
		if err := os.WriteFile(file, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if out.String() != string(want) {
		t.Errorf("trees differ from %s (go test -update rewrites it):\n%s", file, out.String())
	}
}
