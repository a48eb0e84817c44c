package identify

import (
	"fmt"
	"slices"
	"testing"

	"kwire/codec"
	"kwire/schemas/sets"
)

// accuracy is how often the truth is the first, or among the first three,
// candidates. Each distinct response counts once; the traffic figures
// (w...) count it as many times as the recording saw it.
type accuracy struct {
	n, top1, top3    int
	strict           int // first, with the truth's own version
	same             int // not first, but read the same values as the first: only priors tell them apart
	wn, wtop1, wtop3 int
	wrong            []string
}

func (a accuracy) String() string {
	pc := func(k, n int) float64 { return 100 * float64(k) / float64(n) }
	return fmt.Sprintf("top-1 %.1f%% (%d/%d), top-3 %.1f%% (%d/%d); first with the version itself, not one that reads the same: %.1f%%; "+
		"not first but the same values as the first: %d; as often as the recording saw them: top-1 %.1f%%, top-3 %.1f%% of %d",
		pc(a.top1, a.n), a.top1, a.n, pc(a.top3, a.n), a.top3, a.n, pc(a.strict, a.n), a.same, pc(a.wtop1, a.wn), pc(a.wtop3, a.wn), a.wn)
}

func (a *accuracy) add(cs []Candidate, key, version int16, fr Framing, label string, seen int) {
	a.n++
	a.wn += seen
	truth := slices.IndexFunc(cs, func(c Candidate) bool {
		return c.Exact() && c.Has(key, version) && c.Dir == codec.Response && c.Framing == fr
	})
	if truth > 0 && cs[truth].sum == cs[0].sum {
		a.same++
		label += " (the same values)"
	}
	for i, c := range cs {
		if i == 3 {
			break
		}
		if c.Exact() && c.Has(key, version) && c.Dir == codec.Response && c.Framing == fr {
			if i == 0 {
				a.top1++
				a.wtop1 += seen
				if c.Version == version {
					a.strict++
				}
			}
			a.top3++
			a.wtop3 += seen
			if i > 0 {
				a.wrong = append(a.wrong, fmt.Sprintf("%s: ranked %d, after %s", label, i+1, describe(cs[0])))
			}
			return
		}
	}
	first := "nothing"
	if len(cs) > 0 {
		first = describe(cs[0])
	}
	a.wrong = append(a.wrong, fmt.Sprintf("%s: not in the first 3 (first %s)", label, first))
}

func describe(c Candidate) string {
	return fmt.Sprintf("%s v%d%s %s %s %.2f", c.API.Name, c.Version, also(c.Also), c.Dir, c.Framing, c.Score)
}

func also(vs []int16) string {
	if len(vs) == 0 {
		return ""
	}
	return fmt.Sprint(vs)
}

// measure ranks every response of a corpus as a whole frame and as a
// bare body, without the requests' help, and as a frame after its request.
func measure(t testing.TB, file string) (frames, bodies, streams accuracy) {
	for _, p := range readCorpus(t, file) {
		set, err := sets.ForVersion(p.key, p.version, true)
		if err != nil {
			t.Fatalf("key %d v%d: %v", p.key, p.version, err)
		}
		api := set.APIByKey(p.key)
		label := fmt.Sprintf("%s v%d", api.Name, p.version)
		frames.add(Rank(p.resp, Options{}), p.key, p.version, Frame, label+" frame", p.seen)
		streams.add(RankStream([][]byte{p.req, p.resp}, Options{})[1], p.key, p.version, Frame, label+" after its request", p.seen)
		hp, err := codec.PlanFor(set.ResponseHeader, codec.HeaderVersion(api, p.version, codec.Response))
		if err != nil {
			t.Fatal(err)
		}
		_, n, err := hp.Decode(p.resp[4:])
		if err != nil {
			t.Fatalf("%s: header: %v", label, err)
		}
		bodies.add(Rank(p.resp[4+n:], Options{}), p.key, p.version, Body, label+" body", p.seen)
	}
	return frames, bodies, streams
}

// The floors TestAccuracy holds each corpus to, in percent (just under
// what the ranking reaches), and the targets of issue 12 (top-1 95%,
// top-3 99%), which neither corpus reaches: almost every response ranked
// wrong reads the same values as the first candidate, another API's
// response (AddPartitionsToTxn, TxnOffsetCommit and AlterReplicaLogDirs
// as OffsetCommit; EndTxn, AddOffsetsToTxn and PushTelemetry as
// Heartbeat; small empty admin responses as each other), which only how
// often each is sent tells apart (recurrence), and only a request seen
// before decides (RankStream).
var floors = map[string]struct{ top1, top3 float64 }{
	corpusFile:  {90.0, 97.5},
	heldoutFile: {88.5, 97.5},
}

const targetTop1, targetTop3 = 95.0, 99.0

// TestAccuracy holds the ranking of the responses of both corpora (the
// one studied and the held-out one), as whole frames and as bare bodies,
// to the floors, and says whether it meets the targets.
func TestAccuracy(t *testing.T) {
	for _, file := range []string{corpusFile, heldoutFile} {
		frames, bodies, streams := measure(t, file)
		t.Logf("%s frames: %v", file, frames)
		t.Logf("%s bodies: %v", file, bodies)
		t.Logf("%s frames after their request: %v", file, streams)
		if streams.top1 != streams.n {
			t.Errorf("%s: a response after its request is not always first: %v %v", file, streams, streams.wrong)
		}
		floor := floors[file]
		for _, a := range []accuracy{frames, bodies} {
			for _, w := range a.wrong {
				t.Logf("%s: %s", file, w)
			}
			top1, top3 := 100*float64(a.top1)/float64(a.n), 100*float64(a.top3)/float64(a.n)
			if top1 < floor.top1 || top3 < floor.top3 {
				t.Errorf("%s: below the floors (top-1 %.1f%%, top-3 %.1f%%): %v", file, floor.top1, floor.top3, a)
			}
			if top1 < targetTop1 || top3 < targetTop3 {
				t.Logf("%s: below the targets (top-1 %.0f%%, top-3 %.0f%%): %v", file, targetTop1, targetTop3, a)
			}
		}
	}
}
