package codec

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"kwire/codec/wire/wiretest"
	"kwire/tree/treetest"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kversion"

	"kwire/schemas"
	"kwire/schemas/sets"
	"kwire/tree"
)

// produced is what a test producer wrote to one topic.
type produced struct {
	topic string
	recs  []*kgo.Record
}

// recordText is how a test record shows in the tree: key, value and
// headers as the tree quotes them.
func recordText(key, value string, headers ...string) string {
	return strings.Join(append([]string{key, value}, headers...), "|")
}

// treeRecords returns the text of every record node in a tree, and the
// node values of every control record key.
func treeRecords(fl *tree.Flat) (recs []string, controls []string) {
	for i, n := range treetest.All(fl) {
		if n.Type != "Record" {
			continue
		}
		var key, value string
		var headers []string
		fl.Children(i, func(ci int) {
			switch c := fl.Node(ci, nil); c.Name {
			case "key":
				key = c.Value
				if strings.Contains(c.Value, "(COMMIT)") || strings.Contains(c.Value, "(ABORT)") {
					controls = append(controls, c.Value)
				}
			case "value":
				value = c.Value
			case "headers":
				fl.Children(ci, func(h int) {
					fl.Children(h, func(kv int) { headers = append(headers, fl.Node(kv, nil).Value) })
				})
			}
		})
		recs = append(recs, recordText(key, value, headers...))
	}
	return recs, controls
}

// TestKfakeRecords produces with franz-go's kgo into kfake with every codec,
// idempotent, non-idempotent and transactional producers (a committed and
// an aborted transaction), consumes everything back, and decodes every
// request and response frame on the wire with kwire: each must decode
// without error, and every record produced must show in the Produce
// requests and in the Fetch responses, with its key, value and headers.
// Each frame also goes through its JSON form and back, byte for byte
// (jsonRoundTrip). It runs once per release that kgo speaks, with that
// release's versions and schemas.
func TestKfakeRecords(t *testing.T) {
	for _, r := range []struct {
		set      string
		versions *kversion.Versions
	}{
		{"3.9", kversion.V3_9_0()},
		{"4.0", kversion.V4_0_0()},
		{"4.1", kversion.V4_1_0()},
		{"4.2", kversion.V4_2_0()},
		{"4.3", kversion.V4_3_0()},
		{"4.4", kversion.V4_4_0()},
	} {
		t.Run(r.set, func(t *testing.T) {
			set, err := sets.Load(r.set)
			if err != nil {
				t.Fatal(err)
			}
			kfakeRecords(t, set, r.versions)
		})
	}
}

func kfakeRecords(t *testing.T, set *schemas.Set, versions *kversion.Versions) {
	codecs := map[string]kgo.CompressionCodec{
		"none": kgo.NoCompression(), "gzip": kgo.GzipCompression(), "snappy": kgo.SnappyCompression(),
		"lz4": kgo.Lz4Compression(), "zstd": kgo.ZstdCompression(),
	}
	var topics []string
	for name := range codecs {
		topics = append(topics, "t-"+name)
	}
	topics = append(topics, "t-plain", "t-txn")
	cluster, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, topics...))
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	capt := &wiretest.Recorder{}
	client := func(opts ...kgo.Opt) *kgo.Client {
		base := []kgo.Opt{kgo.SeedBrokers(cluster.ListenAddrs()...), kgo.Dialer(capt.Dial), kgo.MaxVersions(versions)}
		cl, err := kgo.NewClient(append(base, opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		return cl
	}
	var all []produced
	batch := func(topic string, n int, prefix string) produced {
		p := produced{topic: topic}
		for i := range n {
			r := &kgo.Record{Topic: topic, Value: []byte(fmt.Sprintf("%s value %d", prefix, i))}
			if i%3 != 2 { // some records without a key
				r.Key = []byte("key-" + strconv.Itoa(i))
			}
			if i%2 == 0 {
				r.Headers = []kgo.RecordHeader{{Key: "trace", Value: []byte(prefix)}, {Key: "n", Value: []byte(strconv.Itoa(i))}}
			}
			p.recs = append(p.recs, r)
		}
		return p
	}
	produce := func(cl *kgo.Client, p produced) {
		if err := cl.ProduceSync(ctx, p.recs...).FirstErr(); err != nil {
			t.Fatalf("produce to %s: %v", p.topic, err)
		}
		all = append(all, p)
	}
	// Idempotent (kgo's default), one producer per codec.
	for name, c := range codecs {
		cl := client(kgo.ProducerBatchCompression(c))
		produce(cl, batch("t-"+name, 20, name))
		// Larger batches: snappy in more than one block, gzip and lz4
		// past their small-input paths.
		for i, n := range []int{200, 3000} {
			produce(cl, batch("t-"+name, n, fmt.Sprintf("%s large %d", name, i)))
		}
		cl.Close()
	}
	// Not idempotent.
	cl := client(kgo.DisableIdempotentWrite())
	produce(cl, batch("t-plain", 5, "plain"))
	cl.Close()
	// Transactional: one committed, one aborted transaction.
	txn := client(kgo.TransactionalID("kwire-txn"), kgo.ProducerBatchCompression(kgo.Lz4Compression()))
	for _, end := range []kgo.TransactionEndTry{kgo.TryCommit, kgo.TryAbort} {
		if err := txn.BeginTransaction(); err != nil {
			t.Fatal(err)
		}
		label := "committed"
		if end == kgo.TryAbort {
			label = "aborted"
		}
		produce(txn, batch("t-txn", 4, label))
		if err := txn.EndTransaction(ctx, end); err != nil {
			t.Fatal(err)
		}
	}
	txn.Close()
	want := 0
	for _, p := range all {
		want += len(p.recs)
	}
	// Consume everything, aborted records too.
	cons := client(kgo.ConsumeTopics(topics...), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.FetchIsolationLevel(kgo.ReadUncommitted()))
	got := 0
	for got < want {
		fs := cons.PollFetches(ctx)
		if err := ctx.Err(); err != nil {
			t.Fatalf("consumed %d of %d records: %v", got, want, err)
		}
		fs.EachError(func(topic string, p int32, err error) { t.Errorf("fetch %s/%d: %v", topic, p, err) })
		got += fs.NumRecords()
	}
	cons.Close()

	// Decode every frame.
	var produceRecs, fetchRecs, controls []string
	codecsSeen := map[string]bool{}
	nFrames, nFetch, exact, compressed, recompressed := 0, 0, 0, 0, 0
	sent, recv := capt.Streams()
	for i := range sent {
		reqs, resps := wiretest.Frames(sent[i]), wiretest.Frames(recv[i])
		type reqInfo struct{ key, version int16 }
		byCorr := map[int32]reqInfo{}
		for _, b := range reqs {
			nFrames++
			f, fl, err := Decode(b, DecodeOptions{Set: set, Dir: Request})
			if err != nil {
				t.Errorf("request %x: %v", b[4:8], err)
				continue
			}
			byCorr[int32(binary.BigEndian.Uint32(b[8:]))] = reqInfo{f.API.Key, f.Version}
			if e := treetest.FirstError(fl); e != nil {
				t.Errorf("%s v%d request: %s %s [%d]: %s", f.API.Name, f.Version, e.Path, e.Name, e.Offset, e.Err)
			}
			ok, c, r := jsonRoundTrip(t, f, b)
			exact, compressed, recompressed = exact+btoi(ok), compressed+btoi(c), recompressed+btoi(r)
			if f.API.Name == "Produce" {
				if c {
					editAcks(t, f, fl, b)
				}
				recs, _ := treeRecords(fl)
				produceRecs = append(produceRecs, recs...)
			}
		}
		for _, b := range resps {
			nFrames++
			ri, ok := byCorr[int32(binary.BigEndian.Uint32(b[4:]))]
			if !ok {
				t.Errorf("response with correlation id %x has no request", b[4:8])
				continue
			}
			api := set.APIByKey(ri.key)
			f, fl, err := Decode(b, DecodeOptions{Set: set, API: api, Version: ri.version, Dir: Response})
			if err != nil {
				t.Errorf("%s v%d response: %v", api.Name, ri.version, err)
				continue
			}
			if e := treetest.FirstError(fl); e != nil {
				t.Errorf("%s v%d response: %s %s [%d]: %s", api.Name, ri.version, e.Path, e.Name, e.Offset, e.Err)
			}
			ok, c, r := jsonRoundTrip(t, f, b)
			exact, compressed, recompressed = exact+btoi(ok), compressed+btoi(c), recompressed+btoi(r)
			if f.API.Name == "Fetch" {
				nFetch++
				recs, ctl := treeRecords(fl)
				fetchRecs = append(fetchRecs, recs...)
				controls = append(controls, ctl...)
				for _, n := range treetest.All(fl) {
					if n.Name == "records" && n.Section == tree.Record {
						codecsSeen[n.Type] = true
					}
				}
			}
		}
	}
	t.Logf("set %s: %d frames decoded, %d Fetch responses, %d records produced; %d of %d frames (%d with compressed batches) the same bytes after their JSON form; "+
		"without the compressed bytes in the JSON, %d would differ", set.Name, nFrames, nFetch, want, exact, nFrames, compressed, recompressed)
	if compressed == 0 {
		t.Error("no frame with compressed batches went through the JSON round trip")
	}
	for _, p := range all {
		for _, r := range p.recs {
			key := "null"
			if r.Key != nil {
				key = strconv.Quote(string(r.Key))
			}
			var hs []string
			for _, h := range r.Headers {
				hs = append(hs, strconv.Quote(h.Key), strconv.Quote(string(h.Value)))
			}
			text := recordText(key, strconv.Quote(string(r.Value)), hs...)
			if !contains(produceRecs, text) {
				t.Errorf("%s: record %s not in any Produce request", p.topic, text)
			}
			if !contains(fetchRecs, text) {
				t.Errorf("%s: record %s not in any Fetch response", p.topic, text)
			}
		}
	}
	for _, c := range []string{"[]Record", "gzip", "snappy", "lz4", "zstd"} {
		if !codecsSeen[c] {
			t.Errorf("no %s batch in the Fetch responses (saw %v)", c, codecsSeen)
		}
	}
	var commit, abort bool
	for _, c := range controls {
		commit = commit || strings.Contains(c, "(COMMIT)")
		abort = abort || strings.Contains(c, "(ABORT)")
	}
	if !commit || !abort {
		t.Errorf("control records: %q, want a COMMIT and an ABORT", controls)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// treeErrors lists the error nodes of a tree.
func treeErrors(f *tree.Flat) []string {
	var out []string
	for _, n := range treetest.All(f) {
		if n.Err != nil {
			out = append(out, fmt.Sprintf("%s %s [%d]: %s", n.Path, n.Name, n.Offset, n.Err))
		}
	}
	return out
}

// editAcks changes Acks in the value of a Produce request decoded from
// b and encodes it: the Acks bytes alone change, the compressed batches
// are written as the producer wrote them.
func editAcks(t *testing.T, f *Frame, fl *tree.Flat, b []byte) {
	t.Helper()
	_, bp, err := f.Plans()
	if err != nil {
		t.Fatal(err)
	}
	at := -1
	if _, n := treetest.Find(fl, "Acks", "Acks"); n != nil {
		at = n.Offset
	}
	g := *f
	g.Body = f.Body.Clone()
	acks := &g.Body.List()[bp.Root.Field("Acks").Index]
	*acks = Int(acks.Int() ^ 2) // -1 and 1 become -3 and 3
	b2, err := g.Encode()
	if err != nil {
		t.Fatal(err)
	}
	want := bytes.Clone(b)
	binary.BigEndian.PutUint16(want[at:], uint16(acks.Int()))
	if at < 0 || !bytes.Equal(b2, want) {
		t.Errorf("Produce v%d with Acks changed at offset %d: other bytes changed too\n%x\n%x", f.Version, at, want, b2)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// jsonRoundTrip sets a frame from the JSON of f (decoded from b) and
// encodes it: the bytes must be b's, compressed batches included (their
// JSON keeps the producer's compressed bytes). It reports whether they
// were, and whether the JSON holds compressed batches.
func jsonRoundTrip(t *testing.T, f *Frame, b []byte) (exact, compressed, recompressed bool) {
	t.Helper()
	j, err := f.JSON(len(b))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(j, []byte("rawHex")) {
		t.Errorf("%s v%d %s: a batch left as raw bytes in the JSON:\n%s", f.API.Name, f.Version, f.Dir, j)
	}
	compressed = bytes.Contains(j, []byte(`"compressedHex"`))
	g := &Frame{Set: f.Set, API: f.API, Version: f.Version, Dir: f.Dir}
	if err := g.SetJSON(j); err != nil {
		t.Fatalf("%s v%d %s: SetJSON: %v\n%s", f.API.Name, f.Version, f.Dir, err, j)
	}
	b2, err := g.Encode()
	if err != nil {
		t.Fatalf("%s v%d %s: encode: %v", f.API.Name, f.Version, f.Dir, err)
	}
	if compressed {
		// Without the compressed bytes, the batches are compressed anew.
		h := &Frame{Set: f.Set, API: f.API, Version: f.Version, Dir: f.Dir}
		if err := h.SetJSON(compressedHex.ReplaceAll(j, nil)); err != nil {
			t.Fatal(err)
		}
		b3, err := h.Encode()
		recompressed = err == nil && !bytes.Equal(b, b3)
	}
	if !bytes.Equal(b, b2) {
		t.Errorf("%s v%d %s: the JSON round trip changed the bytes\n%x\n%x", f.API.Name, f.Version, f.Dir, b, b2)
		return false, compressed, recompressed
	}
	return true, compressed, recompressed
}

var compressedHex = regexp.MustCompile(`,\s*"compressedHex": "[0-9a-f]*"`)
