package draft

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"kwire/schemas"
	"kwire/schemas/draft/drafttest"
)

// The seeds, the release they are pinned to, golden files: drafttest's.
const (
	seedStreams  = drafttest.SeedStreams
	seedConsumer = drafttest.SeedConsumer
	pinned       = drafttest.Pinned
)

var (
	readSeed    = drafttest.ReadSeed
	pinnedSet   = drafttest.PinnedSet
	placeholder = drafttest.Placeholder
	firstDiff   = drafttest.FirstDiff
)

func loadSeed(t testing.TB, name string) (*Draft, []byte) {
	src := readSeed(t, name)
	return Load(src, Options{File: name, Base: pinnedSet(t)}), src
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
