package identify

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"kwire/codec"
	"kwire/schemas/sets"
)

// accuracy is how often the truth is found, over the responses of a
// corpus: each distinct response once (n), and as often as the recording
// saw it (traffic, w...).
type accuracy struct {
	n, strict, same, top3, tie, tieN int
	refused, asRequest, exactN       int
	wn, wstrict, wsame, wtop3        int
	wrong                            []string
}

// pc is k of n in percent.
func pc(k, n int) float64 {
	if n == 0 {
		return 100
	}
	return 100 * float64(k) / float64(n)
}

func (a accuracy) String() string {
	return fmt.Sprintf("strict top-1 %.1f%%, top-1 up to the same values %.1f%%, top-3 %.1f%%, truth in the tie set %.1f%% (of %d whose truth reads as the first), "+
		"refused %d, read as a request %d (of %d that a response reads whole), of %d distinct; as often as recorded: %.1f%%, %.1f%%, %.1f%% of %d",
		pc(a.strict, a.n), pc(a.same, a.n), pc(a.top3, a.n), pc(a.tie, a.tieN), a.tieN, a.refused, a.asRequest, a.exactN, a.n,
		pc(a.wstrict, a.wn), pc(a.wsame, a.wn), pc(a.wtop3, a.wn), a.wn)
}

// truthIs says whether a candidate is the truth's reading itself (or a
// version that reads the same bytes).
func truthIs(c Candidate, key, version int16, fr Framing) bool {
	return c.Exact() && c.Has(key, version) && c.Dir == codec.Response && c.Framing == fr
}

// add counts the ranking cs (Options.Max 3: what kwire identify's first
// three lines say) of one response.
func (a *accuracy) add(cs []Candidate, all []Candidate, key, version int16, fr Framing, label string, seen int) {
	a.n++
	a.wn += seen
	inTie := func(c Candidate) bool {
		return truthIs(c, key, version, fr) || slices.ContainsFunc(c.Same, func(o Candidate) bool { return truthIs(o, key, version, fr) })
	}
	if len(cs) > 0 && cs[0].API.Key == key && cs[0].Version == version && truthIs(cs[0], key, version, fr) {
		a.strict++
		a.wstrict += seen
	}
	// The tie set: when the truth's own reading gives the values of the
	// first, is it named among the first's readings with the same values?
	if t := slices.IndexFunc(all, inTie); t >= 0 && len(cs) > 0 && all[t].sum == cs[0].sum && all[t].Dir == cs[0].Dir && all[t].Framing == cs[0].Framing {
		a.tieN++
		if inTie(cs[0]) {
			a.tie++
		}
	}
	for i, c := range cs {
		if i == 3 {
			break
		}
		if inTie(c) {
			if i == 0 {
				a.same++
				a.wsame += seen
			} else {
				a.wrong = append(a.wrong, fmt.Sprintf("%s: ranked %d, after %s", label, i+1, describe(cs[0])))
			}
			a.top3++
			a.wtop3 += seen
			return
		}
	}
	first := "nothing"
	if len(cs) > 0 {
		first = describe(cs[0])
	}
	a.wrong = append(a.wrong, fmt.Sprintf("%s: not in the first 3 (first %s)", label, first))
}

// decoded counts what kwire decode without flags does with a response
// frame (identify.Instead after the request reading): refused when
// nothing is shown though a response reading decodes every byte, or read
// as a request.
func (a *accuracy) decoded(b []byte, all []Candidate, label string) {
	if !slices.ContainsFunc(all, func(c Candidate) bool { return c.Exact() && c.Dir == codec.Response && c.Framing == Frame }) {
		return
	}
	a.exactN++
	_, _, err := codec.Decode(b, codec.DecodeOptions{Dir: codec.Request, Choose: sets.Choice{}})
	if _, ok := Instead(b, err, Options{Max: 5}); !ok {
		if err != nil {
			a.refused++
			a.wrong = append(a.wrong, label+": refused ("+err.Error()+")")
		} else {
			a.asRequest++
			a.wrong = append(a.wrong, label+": read as a request")
		}
	}
}

func describe(c Candidate) string {
	s := fmt.Sprintf("%s %s %s %s %.2f", c.API.Name, c.Versions(), c.Dir, c.Framing, c.Score)
	if len(c.Same) > 0 {
		s += " (" + c.SameText() + ")"
	}
	return s
}

// measure ranks every response of a corpus as a whole frame and as a
// bare body, without the requests' help, and as a frame after its
// request; requests counts the requests that decode without flags does
// not show as requests.
func measure(t testing.TB, file string) (frames, bodies, streams accuracy, requests int) {
	for _, p := range readCorpus(t, file) {
		set, err := sets.ForVersion(p.key, p.version, true)
		if err != nil {
			t.Fatalf("key %d v%d: %v", p.key, p.version, err)
		}
		api := set.APIByKey(p.key)
		label := fmt.Sprintf("%s v%d", api.Name, p.version)
		all := Rank(p.resp, Options{})
		frames.add(first(all, 3), all, p.key, p.version, Frame, label+" frame", p.seen)
		frames.decoded(p.resp, all, label+" frame")
		s := RankStream([][]byte{p.req, p.resp}, Options{Max: 3})[1]
		streams.add(s, s, p.key, p.version, Frame, label+" after its request", p.seen)
		hp, err := codec.PlanFor(set.ResponseHeader, codec.HeaderVersion(api, p.version, codec.Response))
		if err != nil {
			t.Fatal(err)
		}
		_, n, err := hp.Decode(p.resp[4:])
		if err != nil {
			t.Fatalf("%s: header: %v", label, err)
		}
		body := p.resp[4+n:]
		all = Rank(body, Options{})
		bodies.add(first(all, 3), all, p.key, p.version, Body, label+" body", p.seen)
		_, _, err = codec.Decode(p.req, codec.DecodeOptions{Dir: codec.Request, Choose: sets.Choice{}})
		cs, ok := Instead(p.req, err, Options{Max: 5})
		switch {
		case err == nil && ok:
			requests++
			t.Logf("%s: %s request read as %s", file, label, describe(cs[0]))
		case err != nil:
			// The codec's to answer for: librdkafka 2.16's Metadata v13
			// requests have 3 bytes after the body.
			t.Logf("%s: %s request does not decode: %v", file, label, err)
		}
	}
	return frames, bodies, streams, requests
}

// first is cs cut to n, as Options.Max cuts it.
func first(cs []Candidate, n int) []Candidate { return cs[:min(n, len(cs))] }

// The labelled corpora: kgo's against kfake (corpusFile studied,
// heldoutFile held out), and real clients' against a real Apache Kafka
// 4.4 broker and a real cluster's own traffic (testdata/real/, recorded
// by scripts/realtraffic.sh). heldoutReal, KafkaJS's, is measured but
// never studied: no prior or score was shaped by what it shows.
const heldoutReal = "testdata/real/kafkajs.txt"

// corpora lists the corpus files, the real ones in their folder's order.
func corpora(t testing.TB) []string {
	real, err := filepath.Glob("testdata/real/*.txt")
	if err != nil || len(real) == 0 {
		t.Fatalf("no real-traffic corpus in testdata/real (%v)", err)
	}
	return append([]string{corpusFile, heldoutFile}, real...)
}

// floor is what TestAccuracy holds a corpus's frames to, in percent:
// top-1 up to the same values, top-3 and the truth in the tie set;
// weighted: the first two of every response as often as recorded (what a
// user pasting frames sees), else of each distinct response once.
type floor struct {
	same, top3, tie float64
	weighted        bool
}

// floorOf: every real-traffic corpus (each client's, and the real
// cluster's own: brokers and controllers, whose registrations and raft
// calls read as client APIs' responses with other values) is held to
// top-1 up to the same values 97%, top-3 99.5%, the truth in the tie set
// always (issue 22), of every response as recorded; kgo's against
// kfake, each distinct response once
// (kfake's SaslHandshake lists no mechanism: its six zero bytes, which
// that recording saw on every connection, read as a Heartbeat's), to
// just under what the ranking reaches.
func floorOf(file string) floor {
	switch file {
	case corpusFile:
		return floor{98.5, 99.5, 100, false}
	case heldoutFile:
		return floor{98.5, 99.5, 100, false}
	}
	return floor{97, 99.5, 100, true}
}

// TestAccuracy holds the ranking of the responses of every corpus, as
// whole frames, to its floors: strict top-1 (the API and version
// themselves), top-1 up to the readings with the same values, top-3, the
// truth in the tie set; no response that a response reading decodes
// whole is refused or read as a request by decode, no request read as
// anything else; and a response after its request is always first. Bare
// bodies are measured and logged.
func TestAccuracy(t *testing.T) {
	for _, file := range corpora(t) {
		frames, bodies, streams, requests := measure(t, file)
		name := strings.TrimPrefix(file, "testdata/")
		if file == heldoutReal || file == heldoutFile {
			name += " (held out)"
		}
		t.Logf("%s frames: %v", name, frames)
		t.Logf("%s bodies: %v", name, bodies)
		if streams.same != streams.n {
			t.Errorf("%s: a response after its request is not always first: %v %v", file, streams, streams.wrong)
		}
		if requests > 0 {
			t.Errorf("%s: %d requests not read as requests", file, requests)
		}
		for _, w := range frames.wrong {
			t.Logf("%s: %s", name, w)
		}
		f := floorOf(file)
		same, top3, of := frames.same, frames.top3, frames.n
		if f.weighted {
			same, top3, of = frames.wsame, frames.wtop3, frames.wn
		}
		if pc(same, of) < f.same || pc(top3, of) < f.top3 || pc(frames.tie, frames.tieN) < f.tie {
			t.Errorf("%s: below the floors (top-1 up to the same values %.1f%%, top-3 %.1f%%, truth in the tie set %.0f%%; weighted %v): %v",
				file, f.same, f.top3, f.tie, f.weighted, frames)
		}
		if frames.refused+frames.asRequest > 0 {
			t.Errorf("%s: %d responses refused, %d read as requests, that a response reading decodes whole", file, frames.refused, frames.asRequest)
		}
	}
}
