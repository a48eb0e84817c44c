package draft

import (
	"bytes"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"kwire/codec"
	"kwire/schemas"
	"kwire/schemas/sets"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// The seeds are the project's documents; they are read where they are,
// never copied into the repository.
const seedDir = "../../../shared/seeds"

const (
	seedStreams  = "000_e08e1a12af25dfbb.txt" // KIP-1071 StreamsGroupHeartbeat
	seedConsumer = "004_a31ea2133565d3fd.txt" // KIP-848 wiki page
)

func readSeed(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(seedDir, name))
	if err != nil {
		t.Fatalf("seed: %v", err)
	}
	return b
}

// pinned is the release the seeds are compared and numbered against: a
// release, so that the golden files do not change with each new trunk.
const pinned = "4.3"

func pinnedSet(t testing.TB) *schemas.Set {
	t.Helper()
	s, err := sets.Load(pinned)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// placeholder is the key a TBD draft gets against the pinned release:
// one above its highest key.
func placeholder(t testing.TB) int16 {
	s := pinnedSet(t)
	return s.APIs[len(s.APIs)-1].Key + 1
}

func loadSeed(t testing.TB, name string) (*Draft, []byte) {
	src := readSeed(t, name)
	return Load(src, Options{File: name, Base: pinnedSet(t)}), src
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (go test -update rewrites it):\n%s", path, firstDiff(got, string(want)))
	}
}

// report writes what a draft read: its diagnostics, its schemas, and the
// smallest frame of each.
func report(t *testing.T, d *Draft) string {
	var b strings.Builder
	fmt.Fprintf(&b, "== %s: %d warnings, %d errors\n", d.File, d.Warnings(), d.Errors())
	for _, g := range d.Diagnostics {
		fmt.Fprintf(&b, "%s\n", g)
	}
	for _, s := range d.Schemas {
		fmt.Fprintf(&b, "-- %s (%s, API %s) lines %d-%d key %d %s inSet=%v\n", s.Name, s.Type, s.API, s.Line, s.EndLine, s.Key, s.KeySource, s.InSet)
		for _, sf := range s.Skipped {
			fmt.Fprintf(&b, "   left out: %s (%s) at %d:%d\n", sf.Path, sf.Field.Type.Name, sf.Field.Pos.Line, sf.Field.Pos.Col)
		}
		if s.InSet && (s.Type == "request" || s.Type == "response") {
			dir := codec.Request
			if s.Type == "response" {
				dir = codec.Response
			}
			f, err := d.NewFrame(s.Name, dir)
			if err != nil {
				t.Fatalf("%s: %v", s.Name, err)
			}
			enc, err := f.Encode()
			if err != nil {
				t.Fatalf("%s: %v", s.Name, err)
			}
			fmt.Fprintf(&b, "   smallest %s v%d, %d bytes: %s\n", dir, f.Version, len(enc), hex.EncodeToString(enc))
		}
	}
	return b.String()
}

func TestSeedsGolden(t *testing.T) {
	var b strings.Builder
	for _, seed := range []string{seedStreams, seedConsumer} {
		d, _ := loadSeed(t, seed)
		b.WriteString(report(t, d))
	}
	golden(t, "seeds.golden", b.String())
}

// The defects of the two drafts, each at its line and column.
func TestSeedDiagnostics(t *testing.T) {
	P := strconv.Itoa(int(placeholder(t)))
	type want struct {
		line, col int
		sev       Severity
		msg       string // a part of the message
		at        string // what the paste holds at the position
	}
	cases := map[string][]want{
		seedStreams: {
			{1, 1, Warning, "text outside the JSON is ignored (line 1, before the first schema)", "Page History"},
			{4, 13, Warning, "apiKey is TBD; using placeholder " + P + ", unused in " + pinned, "TBD"},
			{25, 63, Warning, "string broken over 3 lines", "\n\t\t\t\tUsed to"},
			{39, 3, Warning, "5 no-break spaces (U+00A0) read as plain spaces", "\u00a0"},
			{49, 48, Error, `field "SourceTopics": unknown type "[]int32int16"; the field is left out`, `"[]int32int16"`},
			{51, 52, Error, `field "SourceTopicRegex": unknown type "[]int32int16"; the field is left out`, `"[]int32int16"`},
			{58, 6, Warning, `missing "," between two fields`, "\t\n \n \u00a0 \u00a0{"},
			{122, 13, Warning, "apiKey is TBD; using placeholder " + P, "TBD"},
			{163, 107, Warning, `"default": null is not quoted; read as "null"`, "null,"},
			{215, 7, Warning, `missing "," between two common structs`, "\n    {"},
		},
		seedConsumer: {
			{1, 1, Warning, "text outside the JSON is ignored (lines 1-22, before the first schema)", "THIS IS A TEST"},
			{24, 11, Warning, "apiKey is TBD; using placeholder " + P + ", unused in " + pinned, "TBD"},
			{54, 35, Warning, `missing "," between two fields`, "\n{ \"name\": \"MetadataBytes\""},
			{59, 3, Warning, "text outside the JSON is ignored (lines 59-66, between schemas)", "|\nRequired ACL"},
			{68, 11, Warning, "apiKey is TBD; using placeholder " + P, "TBD"},
			{102, 11, Warning, "apiKey is TBD; using 71, the key of ConsumerGroupDescribeResponse", "TBD"},
			{105, 9, Warning, "request ConsumerGroupDescribe is not named ConsumerGroupDescribeRequest; paired with ConsumerGroupDescribeResponse by name", `"ConsumerGroupDescribe"`},
			{124, 11, Warning, "apiKey 71 is GetTelemetrySubscriptions in " + pinned, "71,"},
			{174, 44, Warning, `missing "," between two fields`, "\n{ \"name\": \"AssignmentMetadataBytes\""},
			{178, 1, Warning, `struct "Assignment" is defined twice (the same way)`, `{ "name": "TargetAssignment"`},
			{181, 1, Warning, `struct "TopicPartition" is defined twice (the same way)`, `{ "name": "AssignmentPartitions"`},
			{185, 27, Warning, `missing "," between two fields`, "\n{ \"name\": \"Partitions\""},
			{190, 44, Warning, `missing "," between two fields`, "\n{ \"name\": \"AssignmentMetadataBytes\""},
			{195, 1, Warning, `field "AuthorizedOperations": versions 3+ are outside the versions 0 it can appear in: it is never on the wire`, `{ "name": "AuthorizedOperations"`},
			{200, 1, Warning, "text outside the JSON is ignored (lines 200-228, after the last schema)", "|\nResponse Handling"},
		},
	}
	for seed, wants := range cases {
		d, src := loadSeed(t, seed)
		for _, w := range wants {
			found := false
			for _, g := range d.Diagnostics {
				if g.Line == w.line && g.Col == w.col && g.Severity == w.sev && strings.Contains(g.Message, w.msg) {
					found = true
					if !bytes.HasPrefix(src[g.Offset:], []byte(w.at)) {
						t.Errorf("%s:%d:%d: the paste holds %q there, want %q", seed, w.line, w.col, src[g.Offset:min(len(src), g.Offset+20)], w.at)
					}
				}
			}
			if !found {
				t.Errorf("%s: no %s at %d:%d containing %q; got:\n%s", seed, w.sev, w.line, w.col, w.msg, diagList(d))
			}
		}
	}
}

func diagList(d *Draft) string {
	var b strings.Builder
	for _, g := range d.Diagnostics {
		fmt.Fprintf(&b, "  %s\n", g)
	}
	return b.String()
}

// Every diagnostic's line and column agree with its offset, counted
// afresh in the paste, and every field of a loaded message points into
// the paste at its opening brace.
func TestSeedPositions(t *testing.T) {
	for _, seed := range []string{seedStreams, seedConsumer} {
		d, src := loadSeed(t, seed)
		for _, g := range d.Diagnostics {
			line := 1 + bytes.Count(src[:g.Offset], []byte("\n"))
			col := g.Offset - (bytes.LastIndexByte(src[:g.Offset], '\n') + 1) + 1
			if g.Line != line || g.Col != col {
				t.Errorf("%s: %s is at %d:%d by its offset", seed, g, line, col)
			}
		}
		for _, s := range d.Schemas {
			if src[s.Start] != '{' || (s.End < len(src) && src[s.End-1] != '}') {
				t.Errorf("%s: schema %s spans %q...%q", seed, s.Name, src[s.Start], src[s.End-1])
			}
			if s.Message == nil {
				continue
			}
			var check func(fs []*schemas.Field)
			check = func(fs []*schemas.Field) {
				for _, f := range fs {
					p := f.Pos
					if p.Offset < s.Start || p.Offset >= s.End || src[p.Offset] != '{' || p.File != seed ||
						!bytes.Contains(src[p.Offset:min(len(src), p.Offset+80)], []byte(`"`+f.Name+`"`)) {
						t.Errorf("%s: field %s at %v does not point at its object", seed, f.Name, p)
					}
					check(f.Fields)
				}
			}
			check(s.Message.Fields)
			for _, c := range s.Message.CommonStructs {
				check(c.Fields)
			}
		}
	}
	// The Topology field of KIP-1071 starts with a tab: column 2.
	d, _ := loadSeed(t, seedStreams)
	for _, f := range d.Schema("StreamsGroupHeartbeatRequest").Message.Fields {
		if f.Name == "Topology" && (f.Pos.Line != 24 || f.Pos.Col != 2) {
			t.Errorf("Topology at %v, want 24:2", f.Pos)
		}
	}
}

// All six drafts load, pair, encode their smallest frame, and decode it
// back with the draft's set; a request frame names the API by the key the
// draft settled on (a placeholder, or the partner's).
func TestSeedsEncode(t *testing.T) {
	ph := placeholder(t)
	want := map[string]struct {
		key int16
		src KeySource
	}{
		"StreamsGroupHeartbeatRequest":           {ph, KeyPlaceholder},
		"StreamsGroupHeartbeatResponse":          {ph, KeyPlaceholder},
		"ConsumerGroupInstallAssignmentRequest":  {ph, KeyPlaceholder},
		"ConsumerGroupInstallAssignmentResponse": {ph, KeyPlaceholder},
		"ConsumerGroupDescribe":                  {71, KeyPartner},
		"ConsumerGroupDescribeResponse":          {71, KeyWritten},
	}
	seen := 0
	for _, seed := range []string{seedStreams, seedConsumer} {
		d, _ := loadSeed(t, seed)
		if d.Set == nil {
			t.Fatalf("%s: no set", seed)
		}
		for _, s := range d.Schemas {
			w, ok := want[s.Name]
			if !ok || !s.InSet || s.Message == nil {
				t.Errorf("%s: unexpected schema %q (in set %v)", seed, s.Name, s.InSet)
				continue
			}
			seen++
			if s.Key != w.key || s.KeySource != w.src {
				t.Errorf("%s: key %d (%s), want %d (%s)", s.Name, s.Key, s.KeySource, w.key, w.src)
			}
			a, err := d.LookupAPI(s.Name) // found by name, with or without its suffix
			if err != nil || a.Request == nil || a.Response == nil || a.Key != w.key {
				t.Fatalf("%s: API %+v, %v", s.Name, a, err)
			}
			dir := codec.Request
			if s.Type == "response" {
				dir = codec.Response
			}
			f, err := d.NewFrame(s.API, dir)
			if err != nil {
				t.Fatal(err)
			}
			b, err := f.Encode()
			if err != nil {
				t.Fatalf("%s: %v", s.Name, err)
			}
			back, root, err := codec.Decode(b, codec.DecodeOptions{Set: d.Set, API: a, Version: f.Version, Dir: dir})
			if err != nil || root == nil || back.API != a || root.Name != s.Name {
				t.Fatalf("%s: decode: %v (root %v)", s.Name, err, root)
			}
			if !back.Body.Equal(f.Body) {
				t.Errorf("%s: the body did not come back", s.Name)
			}
			if dir == codec.Request {
				if k, ok := back.HeaderField("RequestApiKey"); !ok || k.Int() != int64(w.key) {
					t.Errorf("%s: the header's api key is %d, want %d", s.Name, k.Int(), w.key)
				}
			}
		}
	}
	if seen != 6 {
		t.Errorf("%d draft schemas, want 6", seen)
	}
}

// Both drafts of the ConsumerGroupDescribe pair are found under every
// name the user may type.
func TestPairedByName(t *testing.T) {
	d, _ := loadSeed(t, seedConsumer)
	for _, q := range []string{"ConsumerGroupDescribe", "ConsumerGroupDescribeRequest", "consumergroupdescriberesponse", "71"} {
		a, err := d.LookupAPI(q)
		if err != nil || a.Request == nil || a.Request.Name != "ConsumerGroupDescribe" || a.Response.Name != "ConsumerGroupDescribeResponse" {
			t.Errorf("LookupAPI(%q) = %+v, %v", q, a, err)
		}
	}
}

// A key the user picks replaces the placeholder, and frames carry it.
func TestChosenKey(t *testing.T) {
	src := readSeed(t, seedStreams)
	d := Load(src, Options{File: seedStreams, Base: pinnedSet(t), Keys: map[string]int16{"StreamsGroupHeartbeat": 88}})
	k, from, ok := d.Key("StreamsGroupHeartbeat")
	if !ok || k != 88 || from != KeyChosen {
		t.Fatalf("key %d %s %v", k, from, ok)
	}
	f, err := d.NewFrame("StreamsGroupHeartbeat", codec.Request)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := f.Encode()
	if b[4] != 0 || b[5] != 88 {
		t.Errorf("header starts % x, want key 88", b[4:6])
	}
	if !strings.Contains(diagList(d), "4:13: warning: apiKey is TBD; using 88, as chosen") {
		t.Errorf("diagnostics:\n%s", diagList(d))
	}
	// The repaired text holds the key, and parses as a released schema does.
	s := d.Schema("StreamsGroupHeartbeatRequest")
	if !bytes.Contains(s.Repaired, []byte(`"apiKey": 88,`)) {
		t.Errorf("repaired text: %.80s", s.Repaired)
	}
}

// BenchmarkLoad reads the two seed drafts (repairs, pairing, parsing and
// the encode check of each API).
func BenchmarkLoad(b *testing.B) {
	base := pinnedSet(b)
	var srcs [][]byte
	size := 0
	for _, seed := range []string{seedStreams, seedConsumer} {
		srcs = append(srcs, readSeed(b, seed))
		size += len(srcs[len(srcs)-1])
	}
	b.SetBytes(int64(size))
	for b.Loop() {
		for _, src := range srcs {
			Load(src, Options{Base: base})
		}
	}
}
