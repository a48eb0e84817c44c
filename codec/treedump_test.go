//go:build !js

package codec

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"

	"kwire/codec/records"
	"kwire/schemas"
	"kwire/schemas/sets"
	"kwire/tree"
	"kwire/tree/treetest"
)

// The tree dump: an equivalence check of the object trees decodes build,
// for changes to how they are built that must change nothing. Run
//
//	go test ./codec -run TestTreeDump -treedump /tmp/before.txt -treedump-full /tmp/before -count=1
//
// before and after the change, and compare the files (diff, then diff -r
// the directories for the cases that differ). The dumps are derived from
// Kafka's schemas: keep them out of the repository.
var (
	treeDumpFile = flag.String("treedump", "", "TestTreeDump: write `FILE`, a line per case: its name and the sha256 of its dump")
	treeDumpFull = flag.String("treedump-full", "", "TestTreeDump: also write each case's whole dump into `DIR`/<case>.txt")
)

// treeDumpRandom is how many random values each API version gets (besides
// its smallest instance).
const treeDumpRandom = 2

// dumpRow is one node of a dump: the node's fields (Flat.Node), its
// depth and its number of children.
type dumpRow struct {
	n               *tree.Node
	depth, children int
}

// flatRows returns the rows of the nodes of fl, in preorder.
func flatRows(fl *tree.Flat) []dumpRow {
	rows := make([]dumpRow, 0, fl.Len())
	a := new(tree.Alloc)
	for i := range fl.Len() {
		d := 0
		if p := fl.Spans[i].Parent; p >= 0 {
			d = rows[p].depth + 1
		}
		rows = append(rows, dumpRow{fl.Node(i, a), d, fl.ChildCount(i)})
	}
	return rows
}

// dumpTree appends every node of fl, in preorder, a line each: depth,
// then every field of tree.Node (strings quoted), then the number of
// children; the depths count from base.
func dumpTree(b []byte, fl *tree.Flat, base int) []byte { return dumpRows(b, flatRows(fl), base) }

// dumpRows is dumpTree of the rows.
func dumpRows(b []byte, rows []dumpRow, base int) []byte {
	for _, r := range rows {
		b = dumpNode(b, r.n, base+r.depth, r.children)
	}
	return b
}

// dumpNode appends the line of one node of the dump.
func dumpNode(b []byte, n *tree.Node, depth, children int) []byte {
	b = strconv.AppendInt(b, int64(depth), 10)
	for _, s := range [...]string{n.Name, n.Type, n.Value, n.Detail, n.About} {
		b = append(b, ' ')
		b = strconv.AppendQuote(b, s)
	}
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(n.Offset), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(n.Size), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(n.Section), 10)
	b = append(b, ' ')
	b = strconv.AppendBool(b, n.Relative)
	b = append(b, ' ')
	b = strconv.AppendQuote(b, n.Path)
	b = append(b, ' ')
	b = strconv.AppendQuote(b, treetest.ErrText(n))
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(children), 10)
	return append(b, '\n')
}

// dumpDecode appends one decode's section of a case's dump: a title, the
// error (its text, or nil), the number of bytes read when known (-1 when
// not), then the tree (or "no tree").
func dumpDecode(b []byte, title string, fl *tree.Flat, read int, err error) []byte {
	b = append(b, "== "...)
	b = append(b, title...)
	b = append(b, "\nerr "...)
	if err != nil {
		b = strconv.AppendQuote(b, err.Error())
	} else {
		b = append(b, "nil"...)
	}
	b = append(b, "\nread "...)
	b = strconv.AppendInt(b, int64(read), 10)
	b = append(b, '\n')
	if fl == nil || fl.Len() == 0 {
		return append(b, "no tree\n"...)
	}
	return dumpTree(b, fl, 0)
}

// treeDumper gathers the cases: each is named, and its dump is the
// sections of every decode of its input.
type treeDumper struct {
	t     *testing.T
	out   *bufio.Writer
	full  string
	names map[string]bool // sanitized names, which must differ
	cases int
	nodes int
	bytes int64
	buf   []byte
	// text, when set, makes each case check its decodes' text trees
	// (TestFlatText) instead of dumping them.
	text *textCheck
}

// sanitize makes a case name a file name.
func sanitize(name string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			return r
		}
		return '_'
	}, name)
}

// add records a case whose dump is d.
func (td *treeDumper) add(name string, d []byte) {
	s := sanitize(name)
	if td.names[s] {
		td.t.Fatalf("two cases named %s", s)
	}
	td.names[s] = true
	sum := sha256.Sum256(d)
	td.out.WriteString(s + " " + hex.EncodeToString(sum[:]) + "\n")
	td.cases++
	td.bytes += int64(len(d))
	for i, c := range d { // node lines start with their depth
		if c >= '0' && c <= '9' && (i == 0 || d[i-1] == '\n') {
			td.nodes++
		}
	}
	if td.full != "" {
		if err := os.WriteFile(filepath.Join(td.full, s+".txt"), d, 0o644); err != nil {
			td.t.Fatal(err)
		}
	}
}

// frameCase decodes frame with o, then its truncations and corruptions,
// and adds them as the case name, after any sections already in pre.
func (td *treeDumper) frameCase(name string, frame []byte, o DecodeOptions, pre []byte) {
	if td.text != nil {
		td.text.frame(td.t, name, frame, o)
		td.cases++
		return
	}
	d := append(td.buf[:0], pre...)
	_, fl, err := Decode(frame, o)
	d = dumpDecode(d, "frame "+strconv.Itoa(len(frame))+" bytes", fl, -1, err)
	for _, n := range damageCuts(len(frame)) {
		_, fl, err := Decode(frame[:n], o)
		d = dumpDecode(d, "cut at "+strconv.Itoa(n), fl, -1, err)
	}
	bad := make([]byte, len(frame))
	for _, at := range damageSpots(name, len(frame)) {
		copy(bad, frame)
		bad[at] = 0xff
		_, fl, err := Decode(bad, o)
		d = dumpDecode(d, "0xff at "+strconv.Itoa(at), fl, -1, err)
	}
	td.buf = d
	td.add(name, d)
}

// damageCuts are where a frame of n bytes is cut short.
func damageCuts(n int) []int {
	if n < 2 {
		return nil
	}
	return []int{n / 3, n / 2, n - 1}
}

// damageSpots are the three bytes of a frame of n bytes set to 0xff:
// drawn from a stream seeded by the case's name.
func damageSpots(name string, n int) []int {
	if n == 0 {
		return nil
	}
	h := sha256.Sum256([]byte(name))
	r := rand.New(rand.NewPCG(uint64(h[0])<<8|uint64(h[1]), uint64(h[2])<<8|uint64(h[3])))
	return []int{r.IntN(n), r.IntN(n), r.IntN(n)}
}

// TestTreeDump writes the hashes (and with -treedump-full the dumps) of
// the trees of: every API version of every release, both directions, as
// its smallest instance and random values, framed (Decode) and as a bare
// body (Plan.DecodeTree), cut short
// and corrupted; Produce requests and
// Fetch responses whose records are batches of each codec and legacy
// messages; nested formats, internal topics, SASL and OTLP payloads; and
// identify's corpora of real frames. It does nothing without -treedump.
func TestTreeDump(t *testing.T) {
	if *treeDumpFile == "" {
		t.Skip("no -treedump FILE")
	}
	start := time.Now()
	f, err := os.Create(*treeDumpFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	td := &treeDumper{t: t, out: bufio.NewWriter(f), full: *treeDumpFull, names: map[string]bool{}}
	if td.full != "" {
		if err := os.MkdirAll(td.full, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	counts := td.run()
	if err := td.out.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d cases (%v), %d nodes, %.1f MB of dump, in %v", td.cases, counts, td.nodes, float64(td.bytes)/1e6, time.Since(start).Round(time.Millisecond))
}

// run makes every case of the dump and returns how many each part made.
func (td *treeDumper) run() map[string]int {
	counts := map[string]int{}
	for _, part := range []struct {
		name string
		f    func(*testing.T, *treeDumper)
	}{
		{"versions", dumpVersions},
		{"records", dumpRecords},
		{"nested", dumpNested},
		{"topics", dumpTopics},
		{"sasl", dumpSASL},
		{"otlp", dumpOTLP},
		{"corpus", dumpCorpus},
	} {
		before := td.cases
		part.f(td.t, td)
		counts[part.name] = td.cases - before
	}
	return counts
}

// dumpVersions: every API version of every release, both directions:
// the smallest frame and random ones, decoded as frames and their bodies
// alone.
func dumpVersions(t *testing.T, td *treeDumper) {
	forEachVersion(t, func(t *testing.T, set *schemas.Set, api *schemas.API, v int16, dir Direction) {
		o := DecodeOptions{Set: set, Dir: dir}
		if dir == Response {
			o.API, o.Version = api, v
		}
		for i := -1; i < treeDumpRandom; i++ {
			f, err := NewFrame(set, api, v, dir)
			if err != nil {
				t.Fatal(err)
			}
			which := "smallest"
			if i >= 0 {
				hp, bp, err := f.Plans()
				if err != nil {
					t.Fatal(err)
				}
				s1, s2 := seedFor(set.Name, api.Key, v, dir, 200+i)
				r := rand.New(rand.NewPCG(s1, s2))
				f.Header, f.Body = Random(hp, r), Random(bp, r)
				which = "random" + strconv.Itoa(i)
			}
			name := fmt.Sprintf("v/%s/%s/v%d/%s/%s", set.Name, api.Name, v, dir, which)
			frame, err := f.Encode()
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			body, err := f.EncodeBody()
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			_, bp, _ := f.Plans()
			if td.text != nil {
				td.text.body(t, name, bp, body, TreeOptions{Set: set})
				td.frameCase(name, frame, o, nil)
				continue
			}
			_, fl, n, err := bp.DecodeTree(body, tree.Node{}, TreeOptions{Set: set})
			pre := dumpDecode(nil, "body "+strconv.Itoa(len(body))+" bytes (Plan.DecodeTree)", fl, n, err)
			td.frameCase(name, frame, o, pre)
		}
	})
}

// setRecords sets every records field of v, a value of sp, to recs.
func setRecords(sp *StructPlan, v Value, recs []byte) int {
	n := 0
	for _, fp := range sp.Fields {
		if !fp.Present {
			continue
		}
		fv := v.List()[fp.Index]
		switch {
		case fp.Kind == schemas.KindRecords:
			v.List()[fp.Index] = String(string(recs))
			n++
		case fp.Kind == schemas.KindStruct && !fv.IsNull():
			n += setRecords(fp.Struct, fv, recs)
		case fp.Kind == schemas.KindArray && fp.Elem == schemas.KindStruct:
			for _, e := range fv.List() {
				n += setRecords(fp.Struct, e, recs)
			}
		}
	}
	return n
}

// dumpBatches returns records fields by name: a RecordBatch v2 of each
// codec (three records with keys, values and headers), legacy messages of
// magic 0 and 1, a gzip legacy wrapper, and all of them together.
func dumpBatches(t *testing.T) (names []string, fields map[string][]byte) {
	fields = map[string][]byte{}
	var all []byte
	add := func(name string, b records.Batch) {
		enc, err := records.Encode([]records.Batch{b})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		names = append(names, name)
		fields[name] = enc
		all = append(all, enc...)
	}
	for c := records.None; c <= records.Zstd; c++ {
		b := records.Batch{BaseOffset: 10 * int64(c), Magic: 2, Attributes: int16(c), BaseTimestamp: 1700000000000, ProducerID: 7, BaseSequence: 3, PartitionLeaderEpoch: 2}
		for i := range 3 {
			b.Records = append(b.Records, records.Record{OffsetDelta: int32(i), TimestampDelta: int64(i),
				Key: []byte("key-" + strconv.Itoa(i)), Value: []byte(`{"n":` + strconv.Itoa(i) + `,"s":"` + strings.Repeat("v", 20*i) + `"}`),
				Headers: []records.Header{{Key: []byte("h"), Value: []byte{byte(i), 0xfe}}}})
		}
		b.Fill()
		add("v2-"+c.String(), b)
	}
	add("magic0", records.Batch{BaseOffset: 50, Magic: 0, Key: []byte("k0"), Value: []byte("legacy value 0")})
	add("magic1", records.Batch{BaseOffset: 51, Magic: 1, BaseTimestamp: 1600000000000, Key: nil, Value: []byte("legacy value 1")})
	add("magic1-gzip", records.Batch{BaseOffset: 54, Magic: 1, Attributes: int16(records.Gzip), BaseTimestamp: 1600000000003, Messages: []records.Batch{
		{BaseOffset: 0, Magic: 1, BaseTimestamp: 1600000000001, Key: []byte("a"), Value: []byte("inner 0")},
		{BaseOffset: 1, Magic: 1, BaseTimestamp: 1600000000002, Value: []byte("inner 1")},
		{BaseOffset: 2, Magic: 1, BaseTimestamp: 1600000000003, Key: []byte("c"), Value: nil},
	}})
	names = append(names, "all")
	fields["all"] = all
	return names, fields
}

// dumpRecords: Produce requests and Fetch responses of 3.9 and trunk, at
// their lowest, middle and highest versions, whose records fields hold
// each of dumpBatches; the hostile tests' Produce v9 frame and the
// records benchmark's Fetch v16 frame with each.
func dumpRecords(t *testing.T, td *treeDumper) {
	names, fields := dumpBatches(t)
	for _, setName := range []string{"3.9", "trunk"} {
		set := loadSet(t, setName)
		for _, c := range []struct {
			api string
			dir Direction
		}{{"Produce", Request}, {"Fetch", Response}} {
			api, err := set.LookupAPI(c.api)
			if err != nil {
				t.Fatal(err)
			}
			vr := c.dir.Schema(api).ValidVersions
			for _, v := range []int16{vr.Lo, (vr.Lo + vr.Hi) / 2, vr.Hi} {
				o := DecodeOptions{Set: set, Dir: c.dir}
				if c.dir == Response {
					o.API, o.Version = api, v
				}
				for _, rn := range names {
					f, err := NewFrame(set, api, v, c.dir)
					if err != nil {
						t.Fatal(err)
					}
					_, bp, _ := f.Plans()
					if setRecords(bp.Root, f.Body, fields[rn]) == 0 {
						t.Fatalf("%s %s v%d: no records field", setName, c.api, v)
					}
					frame, err := f.Encode()
					if err != nil {
						t.Fatal(err)
					}
					td.frameCase(fmt.Sprintf("r/%s/%s/v%d/%s", setName, c.api, v, rn), frame, o, nil)
				}
			}
		}
	}
	trunk, v40 := loadSet(t, "trunk"), loadSet(t, "4.0")
	fetch, _ := trunk.LookupAPI("Fetch")
	for _, rn := range names {
		td.frameCase("r/produceFrame/"+rn, produceFrame(t, fields[rn], fields["v2-none"]), DecodeOptions{Set: v40, Dir: Request}, nil)
		td.frameCase("r/benchFetch/"+rn, benchFetch(fields[rn]), DecodeOptions{Set: trunk, API: fetch, Version: benchFetchVers, Dir: Response}, nil)
	}
	// A bigger Fetch: 10 batches of 20 records, gzip.
	var bigBatches []records.Batch
	for i := range 10 {
		b := records.Batch{BaseOffset: int64(20 * i), Magic: 2, Attributes: int16(records.Gzip), ProducerID: -1, ProducerEpoch: -1, BaseSequence: -1}
		for j := range 20 {
			b.Records = append(b.Records, records.Record{OffsetDelta: int32(j), Key: []byte("k" + strconv.Itoa(j)), Value: bytes.Repeat([]byte{'a' + byte(j)}, 30)})
		}
		b.Fill()
		bigBatches = append(bigBatches, b)
	}
	big, err := records.Encode(bigBatches)
	if err != nil {
		t.Fatal(err)
	}
	td.frameCase("r/benchFetch/gzip-10x20", benchFetch(big), DecodeOptions{Set: trunk, API: fetch, Version: benchFetchVers, Dir: Response}, nil)
	// The same with a budget of 300 nodes: the tree says what it left out.
	td.frameCase("r/benchFetch/gzip-10x20-budget", benchFetch(big), DecodeOptions{Set: trunk, API: fetch, Version: benchFetchVers, Dir: Response, Limits: records.Limits{MaxNodes: 300}}, nil)
}

// dumpNested: the inputs of nested_test.go: consumer subscriptions and
// assignments, connect metadata, a newer subscription version, damaged
// metadata, and Envelope requests.
func dumpNested(t *testing.T, td *treeDumper) {
	trunk := loadSet(t, "trunk")
	add := func(name, api string, version int16, dir Direction, body string) {
		a, err := trunk.LookupAPI(api)
		if err != nil {
			t.Fatal(err)
		}
		b := frameFromJSON(t, api, version, dir, body)
		td.frameCase("n/"+name, b, DecodeOptions{Set: trunk, API: a, Version: version, Dir: dir}, nil)
	}
	meta := subscription(t)
	add("joingroup-subscription", "JoinGroup", 9, Request, fmt.Sprintf(`{"GroupId":"g","SessionTimeoutMs":45000,"RebalanceTimeoutMs":60000,"MemberId":"","ProtocolType":"consumer","Protocols":[{"Name":"range","Metadata":"%x"}],"Reason":"why"}`, meta))
	add("joingroup-connect", "JoinGroup", 9, Request, `{"GroupId":"g","SessionTimeoutMs":45000,"RebalanceTimeoutMs":60000,"MemberId":"","ProtocolType":"connect","Protocols":[{"Name":"sessioned","Metadata":"000100000000"}]}`)
	ab := (&kmsg.ConsumerMemberAssignment{Version: 3, Topics: []kmsg.ConsumerMemberAssignmentTopic{{Topic: "orders", Partitions: []int32{1, 3}}}}).AppendTo(nil)
	add("syncgroup-v3", "SyncGroup", 3, Response, fmt.Sprintf(`{"ErrorCode":0,"Assignment":"%x"}`, ab))
	add("syncgroup-v5", "SyncGroup", 5, Response, fmt.Sprintf(`{"ErrorCode":0,"ProtocolType":"consumer","ProtocolName":"range","Assignment":"%x"}`, ab))
	newer := append([]byte(nil), meta...)
	newer[1] = 9
	newer = append(newer, 0xca, 0xfe)
	add("joingroup-newer", "JoinGroup", 9, Response, fmt.Sprintf(`{"ErrorCode":0,"GenerationId":1,"ProtocolType":"consumer","ProtocolName":"range","Leader":"m","MemberId":"m","Members":[{"MemberId":"m","Metadata":"%x"}]}`, newer))
	add("joingroup-sniff", "JoinGroup", 6, Response, fmt.Sprintf(`{"ErrorCode":0,"GenerationId":1,"ProtocolName":"range","Leader":"m","MemberId":"m","Members":[{"MemberId":"m","Metadata":"%x"},{"MemberId":"n","Metadata":"00010203"}]}`, meta))
	for i, bad := range [][]byte{nil, {0}, {0xff, 0xff}, meta[:len(meta)-3], {0, 0, 0x7f, 0xff, 0xff, 0xff}, append(append([]byte{}, meta...), 1), {0, 3, 0, 0, 0, 1, 0, 200}} {
		add("joingroup-hostile-"+strconv.Itoa(i), "JoinGroup", 9, Request, fmt.Sprintf(`{"GroupId":"g","ProtocolType":"consumer","Protocols":[{"Name":"range","Metadata":"%x"}],"Reason":"r"}`, bad))
	}
	inner := frameFromJSON(t, "JoinGroup", 9, Request, fmt.Sprintf(`{"GroupId":"g","ProtocolType":"consumer","Protocols":[{"Name":"range","Metadata":"%x"}]}`, meta))
	pb := (&kmsg.DefaultPrincipalData{Version: 0, Type: "User", Name: "alice", TokenAuthenticated: true}).AppendTo(nil)
	add("envelope", "Envelope", 0, Request, fmt.Sprintf(`{"RequestData":"%x","RequestPrincipal":"%x","ClientHostAddress":"7f000001"}`, inner[4:], pb))
	add("envelope-bad-request", "Envelope", 0, Request, fmt.Sprintf(`{"RequestData":"ffff0000","RequestPrincipal":"%x","ClientHostAddress":"7f000001"}`, pb))
	add("envelope-bad-principal", "Envelope", 0, Request, fmt.Sprintf(`{"RequestData":"%x","RequestPrincipal":"0001%x","ClientHostAddress":"7f000001"}`, inner[4:], pb[2:]))
}

// dumpTopics: Produce requests to the internal topics, their records
// random keys and values of every coordinator record type of trunk at its
// highest version and of the first metadata records; by topic id (the
// guess); as the user's choice, compressed and in a legacy message.
func dumpTopics(t *testing.T, td *treeDumper) {
	set := loadSet(t, "trunk")
	r := rand.New(rand.NewPCG(3, 4))
	req := DecodeOptions{Set: set, Dir: Request}
	for _, f := range []TopicFormat{TopicConsumerOffsets, TopicTransactionState, TopicShareGroupState} {
		keys := coordinatorKeys(set, f)
		var types []int
		for typ := range keys {
			types = append(types, int(typ))
		}
		sort.Ints(types)
		for _, typ := range types {
			l := keys[int16(typ)]
			kp := mustPlan(t, set, l.key.Name, l.version)
			vp := mustPlan(t, set, l.value.Name, l.value.ValidVersions.Hi)
			rec := topicRecord{versionedBytes(t, kp, int16(typ), Random(kp, r)), versionedBytes(t, vp, l.value.ValidVersions.Hi, Random(vp, r))}
			td.frameCase(fmt.Sprintf("t/%s/%s", f, l.value.Name), produceTo(t, set, 9, topicFormats[f].topic, "", rec), req, nil)
		}
	}
	meta := metadataRecords(set)
	var mkeys []int
	for k := range meta {
		mkeys = append(mkeys, int(k))
	}
	sort.Ints(mkeys)
	for _, k := range mkeys[:min(len(mkeys), 8)] {
		m := meta[int16(k)]
		p := mustPlan(t, set, m.Name, m.ValidVersions.Hi)
		value, err := p.Append(metadataFrame(int16(k), m.ValidVersions.Hi), Random(p, r))
		if err != nil {
			t.Fatal(err)
		}
		td.frameCase("t/cluster-metadata/"+m.Name, produceTo(t, set, 9, "__cluster_metadata", "", topicRecord{nil, value}), req, nil)
	}
	key := (&kmsg.TxnMetadataKey{Version: 0, TransactionalID: "tx"}).AppendTo(nil)
	value := (&kmsg.TxnMetadataValue{Version: 1, ProducerID: 3}).AppendTo(nil)
	if set.Message("ProduceRequest").ValidVersions.Contains(13) {
		td.frameCase("t/by-id-guessed", produceTo(t, set, 13, "", "AAAAAAAAAAAAAAAAAAAAAQ", topicRecord{key, value}), req, nil)
	}
	chosen := req
	chosen.TopicFormat = TopicTransactionState
	td.frameCase("t/chosen", produceTo(t, set, 12, "orders", "", topicRecord{key, value}), chosen, nil)
	plain := req
	plain.TopicFormat = TopicPlain
	td.frameCase("t/plain", produceTo(t, set, 12, "__transaction_state", "", topicRecord{key, value}), plain, nil)
	ok := (&kmsg.OffsetCommitKey{Version: 1, Group: "g", Topic: "orders", Partition: 4}).AppendTo(nil)
	ov := (&kmsg.OffsetCommitValue{Version: 3, Offset: 12}).AppendTo(nil)
	b := records.Batch{Magic: 2, Attributes: int16(records.Gzip), ProducerID: -1, ProducerEpoch: -1, BaseSequence: -1, Records: []records.Record{{Key: ok, Value: ov}, {Key: ok, Value: []byte{0, 3, 1}}}}
	b.Fill()
	gz, err := records.Encode([]records.Batch{b})
	if err != nil {
		t.Fatal(err)
	}
	lg, err := records.Encode([]records.Batch{{Magic: 1, BaseTimestamp: 1700000000000, Key: ok, Value: ov}})
	if err != nil {
		t.Fatal(err)
	}
	offsets := DecodeOptions{Set: loadSet(t, "4.0"), Dir: Request, TopicFormat: TopicConsumerOffsets}
	td.frameCase("t/offsets-gzip", produceFrame(t, gz), offsets, nil)
	td.frameCase("t/offsets-legacy", produceFrame(t, lg), offsets, nil)
}

// dumpSASL: SaslAuthenticate frames of sasl_test.go's mechanisms.
func dumpSASL(t *testing.T, td *treeDumper) {
	trunk := loadSet(t, "trunk")
	api, _ := trunk.LookupAPI("SaslAuthenticate")
	jwt := "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGljZSIsImV4cCI6MTcwMDAwMDAwMH0.c2lnbmF0dXJl"
	for i, c := range []struct {
		auth string
		dir  Direction
		mech string
	}{
		{"admin\x00alice\x00secret-pw", Request, ""},
		{"\x00bob\x00pw", Request, ""},
		{"n,a=admin,n=user,r=fyko+d2lbbFgONRv9qkxdawL", Request, ""},
		{"r=abc,s=QSXCR+Q6sek8bf92,i=4096", Response, ""},
		{"c=biws,r=abc,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=", Request, ""},
		{"v=rmF9pqV8S7suAoZWja4dJRkFsKQ=", Response, ""},
		{"n,a=alice,\x01auth=Bearer " + jwt + "\x01host=broker\x01port=9092\x01\x01", Request, ""},
		{"n,,\x01auth=Bearer opaque-token\x01\x01", Request, ""},
		{`{"status":"invalid_token","scope":"s"}`, Response, ""},
		{"", Response, ""},
		{"\x00\x01\x02opaque", Request, ""},
		{"admin\x00alice\x00pw", Request, "PLAIN"},
		{"n,,\x01=x\x01auth=Bearer " + jwt + "\x01\x01", Request, "OAUTHBEARER"},
	} {
		o := DecodeOptions{Set: trunk, API: api, Version: 2, Dir: c.dir, SASLMechanism: c.mech}
		td.frameCase("s/"+strconv.Itoa(i), saslFrame(t, []byte(c.auth), c.dir), o, nil)
	}
}

// dumpOTLP: PushTelemetry requests of otlp_test.go's metrics, with each
// codec, and cut metrics.
func dumpOTLP(t *testing.T, td *treeDumper) {
	trunk := loadSet(t, "trunk")
	api, _ := trunk.LookupAPI("PushTelemetry")
	o := DecodeOptions{Set: trunk, API: api, Version: 0, Dir: Request}
	plain := otlpMetrics()
	for c, name := range []string{"none", "gzip", "snappy", "lz4", "zstd"} {
		td.frameCase("o/"+name, telemetryFrame(t, c, compressTest(c, plain)), o, nil)
	}
	td.frameCase("o/cut", telemetryFrame(t, 0, plain[:len(plain)*2/3]), o, nil)
	td.frameCase("o/wrong-codec", telemetryFrame(t, 1, plain), o, nil)
}

// dumpCorpus: the real frames of identify's corpora, decoded with the
// release that has their version as TestPatchCorpus does (trunk, guessed,
// for versions none has).
func dumpCorpus(t *testing.T, td *treeDumper) {
	trunk := loadSet(t, "trunk")
	for _, file := range []string{"../identify/testdata/corpus.txt", "../identify/testdata/heldout.txt"} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		base := strings.TrimSuffix(filepath.Base(file), ".txt")
		for ln, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			var dirName, hexText string
			var key, version int16
			if _, err := fmt.Sscan(line, &dirName, &key, &version, &hexText); err != nil {
				t.Fatalf("%s:%d: %v", file, ln+1, err)
			}
			b, err := hex.DecodeString(hexText)
			if err != nil {
				t.Fatalf("%s:%d: %v", file, ln+1, err)
			}
			dir := Request
			if dirName == "response" {
				dir = Response
			}
			o := DecodeOptions{Dir: dir, Version: version}
			if o.Set, err = sets.ForVersion(key, version, dir == Response); err != nil {
				o.Set, o.Guess = trunk, true
			}
			o.API = o.Set.APIByKey(key)
			if o.API == nil {
				t.Fatalf("%s:%d: no API %d in %s", file, ln+1, key, o.Set.Name)
			}
			td.frameCase(fmt.Sprintf("c/%s/%d/%s/v%d/%s", base, ln+1, o.API.Name, version, dir), b, o, nil)
		}
	}
}

// TestTreeDumpRuns checks the dumper: the dump of a small frame's
// decode is the same twice, and a change to any field of any node of
// it (found by reflection, so a field added to tree.Node is covered or
// fails here), to its depth or number of children, or to the error
// changes its hash.
func TestTreeDumpRuns(t *testing.T) {
	set := loadSet(t, "trunk")
	api, err := set.LookupAPI("JoinGroup")
	if err != nil {
		t.Fatal(err)
	}
	f, err := NewFrame(set, api, 9, Request)
	if err != nil {
		t.Fatal(err)
	}
	frame, err := f.Encode()
	if err != nil {
		t.Fatal(err)
	}
	decode := func() (*tree.Flat, error) {
		_, fl, err := Decode(frame[:len(frame)-1], DecodeOptions{Set: set, Dir: Request})
		return fl, err
	}
	hash := func(fl *tree.Flat, err error) string {
		s := sha256.Sum256(dumpDecode(nil, "frame", fl, -1, err))
		return hex.EncodeToString(s[:])
	}
	// A case as TestTreeDump writes it: its line is its name and the hash
	// of its dump file, which has the frame's decode and its six damaged
	// ones; twice the same.
	run := func() (line, full string, nodes int) {
		var out bytes.Buffer
		dir := t.TempDir()
		td := &treeDumper{t: t, out: bufio.NewWriter(&out), full: dir, names: map[string]bool{}}
		td.frameCase("x/JoinGroup v9", frame, DecodeOptions{Set: set, Dir: Request}, nil)
		td.out.Flush()
		b, err := os.ReadFile(filepath.Join(dir, "x_JoinGroup_v9.txt"))
		if err != nil {
			t.Fatal(err)
		}
		return out.String(), string(b), td.nodes
	}
	line, full, count := run()
	sum := sha256.Sum256([]byte(full))
	if want := "x_JoinGroup_v9 " + hex.EncodeToString(sum[:]) + "\n"; line != want {
		t.Errorf("case line %q, want %q", line, want)
	}
	if n := strings.Count(full, "\n== ") + 1; n != 7 || count < 7*10 {
		t.Errorf("%d decodes and %d nodes in the dump:\n%s", n, count, full)
	}
	if line2, full2, _ := run(); line2 != line || full2 != full {
		t.Error("two runs of a case dump differently")
	}

	fl, derr := decode()
	if derr == nil {
		t.Fatal("a frame cut short decodes without error")
	}
	h := hash(fl, derr)
	if fl2, err2 := decode(); hash(fl2, err2) != h {
		t.Fatal("two decodes of a frame dump differently")
	}
	if hash(fl, nil) == h {
		t.Error("the error is not in the dump")
	}
	// The rows of the tree, changed one field at a time: the section of
	// the dump is what dumpDecode writes of them.
	rows := flatRows(fl)
	if d := dumpDecode(nil, "frame", fl, -1, derr); !bytes.HasSuffix(d, dumpRows(nil, rows, 0)) {
		t.Fatal("the dump is not its rows'")
	}
	rowsHash := func() string {
		d := dumpDecode(nil, "frame", &tree.Flat{}, -1, derr)
		s := sha256.Sum256(append(d[:len(d)-len("no tree\n")], dumpRows(nil, rows, 0)...))
		return hex.EncodeToString(s[:])
	}
	if rowsHash() != h {
		t.Fatal("the rows dump differently from the tree")
	}
	if len(rows) < 10 {
		t.Fatalf("only %d nodes", len(rows))
	}
	ty := reflect.TypeFor[tree.Node]()
	changed := 0
	for ri := range rows {
		n, r := rows[ri].n, &rows[ri]
		for _, k := range []*int{&r.depth, &r.children} {
			*k++
			if rowsHash() == h {
				t.Errorf("node %q: a change of its depth or children leaves the hash as it was", n.Path+" "+n.Name)
			}
			*k--
		}
		for i := range ty.NumField() {
			saved := *n
			fv := reflect.ValueOf(n).Elem().Field(i)
			switch fv.Kind() {
			case reflect.String:
				fv.SetString(fv.String() + "x")
			case reflect.Int:
				fv.SetInt(fv.Int() + 1)
			case reflect.Uint8:
				fv.SetUint(fv.Uint() ^ 1)
			case reflect.Bool:
				fv.SetBool(!fv.Bool())
			case reflect.Interface: // Err: its text changed
				fv.Set(reflect.ValueOf(errors.New(treetest.ErrText(n) + "x")))
			default:
				t.Fatalf("tree.Node.%s: a %s, which the dump test cannot change", ty.Field(i).Name, fv.Kind())
			}
			if rowsHash() == h {
				t.Errorf("node %q: a change of its %s leaves the hash as it was", n.Path+" "+n.Name, ty.Field(i).Name)
			}
			*n = saved
			changed++
		}
		// A character moved from one field to the next changes it too.
		if n.Name != "" {
			saved := *n
			n.Name, n.Type = n.Name[:len(n.Name)-1], n.Name[len(n.Name)-1:]+n.Type
			if rowsHash() == h {
				t.Errorf("node %q: a character moved from Name to Type leaves the hash as it was", n.Name)
			}
			*n = saved
		}
	}
	if rowsHash() != h {
		t.Fatal("the tree restored dumps differently")
	}
	// The depth, which the numbers of children imply: a tree dumped one
	// level down differs.
	if bytes.Equal(dumpTree(nil, fl, 0), dumpTree(nil, fl, 1)) {
		t.Error("the depth is not in the dump")
	}
	t.Logf("%d nodes, %d field changes", len(rows), changed)
}
