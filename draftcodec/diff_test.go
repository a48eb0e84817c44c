package draftcodec

import (
	"fmt"
	"strings"
	"testing"

	"kwire/codec"
	"kwire/schemas/draft"
)

func diffText(diffs []*Diff) string {
	var b strings.Builder
	for _, df := range diffs {
		fmt.Fprintf(&b, "== %s: draft v%d %d bytes, released v%d %d bytes (%+d)\n", df.Name, df.DraftVersion, len(df.DraftBytes), df.ReleasedVersion, len(df.ReleasedBytes), df.SizeDelta())
		for _, r := range df.Rows {
			fmt.Fprintf(&b, "%-8s %s%s", r.Kind, strings.Repeat("  ", r.Depth), r.Path)
			if r.Detail != "" {
				fmt.Fprintf(&b, ": %s", r.Detail)
			}
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func TestDiffGolden(t *testing.T) {
	var b strings.Builder
	for _, seed := range []string{seedStreams, seedConsumer} {
		d, _ := loadSeed(t, seed)
		b.WriteString(diffText(Compare(d, pinnedSet(t))))
	}
	golden(t, "diff.golden", b.String())
}

// KIP-1071's draft against the pinned release's StreamsGroupHeartbeat: what changed,
// and by how many bytes the smallest frames differ.
func TestDiffStreamsGroupHeartbeat(t *testing.T) {
	d, _ := loadSeed(t, seedStreams)
	base := pinnedSet(t)
	diffs := Compare(d, base)
	if len(diffs) != 2 {
		t.Fatalf("%d diffs", len(diffs))
	}
	req, resp := diffs[0], diffs[1]
	if req.Name != "StreamsGroupHeartbeatRequest" || resp.Name != "StreamsGroupHeartbeatResponse" || req.Err != nil || resp.Err != nil {
		t.Fatalf("%s %v, %s %v", req.Name, req.Err, resp.Name, resp.Err)
	}
	row := func(df *Diff, path string) draft.Row {
		for _, r := range df.Rows {
			if r.Path == path {
				return r
			}
		}
		t.Fatalf("%s: no row %s", df.Name, path)
		return draft.Row{}
	}
	for _, c := range []struct {
		df     *Diff
		path   string
		kind   draft.ChangeKind
		detail string
	}{
		{req, "GroupId", draft.Same, ""},
		{req, "Topology.TopologyId", draft.Added, "added: string 0+"},
		{req, "Topology.Epoch", draft.Removed, "removed: int32 0+"},
		{req, "Topology.Subtopologies.StateChangelogTopics.ReplicationFactor", draft.Removed, "removed: int16 0+"},
		{req, "Topology.Subtopologies.StateChangelogTopics.TopicConfigs", draft.Versions, `nullable 0+ → none; default null → ""`},
		{req, "Topology.Subtopologies.CopartitionGroups.SourceTopics", draft.Retyped, `left out of the draft: unknown type "[]int32int16"; type []int32int16 → []int16`},
		{req, "Topology.Subtopologies.CopartitionGroups.RepartitionSourceTopics", draft.Retyped, "type []int32 → []int16"},
		{req, "UserEndpoint.Port", draft.Retyped, "type int32 → uint16"},
		{resp, "GroupTopologyId", draft.Added, "added: string 0+ nullable 0+"},
		{resp, "MemberId", draft.Versions, `nullable 0+ → none; default null → ""`},
		{resp, "PartitionsByUserEndpoint.UserEndpoint.Port", draft.Retyped, "type int32 → uint16"},
	} {
		if r := row(c.df, c.path); r.Kind != c.kind || r.Detail != c.detail {
			t.Errorf("%s %s: %s %q, want %s %q", c.df.Name, c.path, r.Kind, r.Detail, c.kind, c.detail)
		}
	}
	// The sizes, field by field: the request loses Epoch for TopologyId
	// (4 bytes for 1), EndpointInformationEpoch (int32), two
	// ReplicationFactors (2 bytes each) and the two []int16 of
	// CopartitionGroups that the draft got wrong (3 bytes each: a compact
	// length and one element), and gains 2 bytes in
	// RepartitionSourceTopics (int32 elements) and 2 in Port (int32):
	// -3 -4 -4 -6 +2 +2 = -13. The response gains GroupTopologyId (1
	// byte) and 2 bytes of Port, and loses EndpointInformationEpoch (4)
	// and one of the two []TopicPartition the release has (8 bytes: a
	// length, a topic, a one-element []int32, tagged fields): -9.
	if req.SizeDelta() != -13 || resp.SizeDelta() != -9 {
		t.Errorf("size deltas %+d, %+d; want -13, -9", req.SizeDelta(), resp.SizeDelta())
	}
	// Both instances are what the codec decodes, with their own sets.
	for _, c := range []struct {
		b   []byte
		dir codec.Direction
	}{{req.DraftBytes, codec.Request}, {resp.DraftBytes, codec.Response}} {
		a, _ := d.LookupAPI("StreamsGroupHeartbeat")
		if _, _, err := codec.Decode(c.b, codec.DecodeOptions{Set: d.Set, API: a, Version: 0, Dir: c.dir}); err != nil {
			t.Error(err)
		}
		ra, _ := base.LookupAPI("StreamsGroupHeartbeat")
		rb := req.ReleasedBytes
		if c.dir == codec.Response {
			rb = resp.ReleasedBytes
		}
		if _, _, err := codec.Decode(rb, codec.DecodeOptions{Set: base, API: ra, Version: req.ReleasedVersion, Dir: c.dir}); err != nil {
			t.Error(err)
		}
	}
	if req.Count(draft.Added) != 1 || req.Count(draft.Removed) != 4 || req.Count(draft.Retyped) != 4 {
		t.Errorf("request: %d added, %d removed, %d retyped", req.Count(draft.Added), req.Count(draft.Removed), req.Count(draft.Retyped))
	}
	if len(req.Changes()) != req.Count(draft.Added)+req.Count(draft.Removed)+req.Count(draft.Retyped)+req.Count(draft.Versions)+req.Count(draft.Changed) {
		t.Error("Changes and Count disagree")
	}
}
