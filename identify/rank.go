// Package identify says what bytes are when nothing says it: it ranks
// every release, API, version, direction and framing (a whole frame or a
// bare body) whose layout decodes the bytes exactly, by how plausible the
// values read are, and names the closest candidates, with the offset where
// each failed, when none does.
//
// Says what bytes are when nothing says it (a response, a body from a log):
// a catalog of every distinct layout of every API version and direction
// across the releases (a layout that several releases share is listed once,
// with the newest), tried on the bytes as a whole frame and as a bare body
// with codec.Plan.Decode (the fast path), pruned by the size field, the
// request header's key and version, each version's smallest body, and
// layouts already seen to fail; the readings that use every byte are scored
// by the plausibility of their values (error codes the release knows and
// that fit the API, readable strings, timestamps, ports, counts, epochs, API
// keys and version ranges, ACL and config enums, uuids, unknown tags) and by
// a prior (catalog.go): how often clients send the API and version, its
// share of the responses of the labelled corpora averaged over them
// (sent.go, written by TestSent -sent from real clients' corpora, a real
// cluster's and kgo's against kfake, never the held-out ones), for an API no
// corpus holds whether it is an admin read, an admin write or internal;
// versions no corpus holds that no known release has as its newest, APIs the
// oldest does not have. The prior alone decides between APIs whose responses
// read the same values (a Heartbeat's and an EndTxn's, an OffsetCommit's and
// an AddPartitionsToTxn's): those are one answer with alternatives
// (Candidate.Same, SameText: "the same bytes read as EndTxn v3-v4 ...: only
// the request can tell"), as the versions of an API that read the same
// values are one candidate (Also, Versions: "v3-v4"), the most likely first.
// Bytes nothing decodes get the closest candidates, each with where it
// stopped. RankStream gives a response the API and version of the request
// with its correlation id; Instead is the one rule, for the command line and
// the explorer, for when bytes read as the request frame their header names
// are shown as another reading: a response frame that decodes every byte and
// scores better (a response's correlation id reads as a request's key and
// version: 7 as Produce v7, 300 as Produce v300), or a bare body when the
// request stops early; the ranking orders request and response readings by
// score alone. testdata/corpus.txt is its labelled corpus and
// testdata/heldout.txt a held-out one recorded with other names, releases,
// brokers and SASL mechanism (kgo clients against kfake, TestRecordCorpus
// -corpus); testdata/real/ one per real client against Apache Kafka 4.4
// (confluent-kafka, kafka-python, KafkaJS held out, kcat, Kafka's Java
// tools, kgo) and a real cluster's own traffic, recorded by
// scripts/realtraffic.sh (workloads in scripts/realtraffic/, captures turned
// into pairs by scripts/realcorpus with capture), with each API version's
// count of responses (# traffic lines); TestAccuracy holds each to floors
// and scripts/identify-accuracy.sh prints them per corpus (strict top-1,
// top-1 up to the same values, top-3, the truth in the tie set, refused,
// read as a request).
package identify

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"kwire/codec"
	"kwire/codec/wire"
	"kwire/schemas"
)

// Framing says whether bytes are a whole frame (size, header, body) or a
// bare body.
type Framing uint8

// The two framings.
const (
	Frame Framing = iota
	Body
)

// String is "frame" or "body".
func (f Framing) String() string {
	if f == Body {
		return "body"
	}
	return "frame"
}

// Candidate is one reading of the bytes.
type Candidate struct {
	Set     *schemas.Set // the newest release with this layout
	API     *schemas.API
	Version int16
	Dir     codec.Direction
	Framing Framing
	// Score is the plausibility of the values read, from 0 to 1; 0 for a
	// candidate that does not decode the bytes.
	Score float64
	// FailedAt is -1 when the candidate decodes every byte, else the
	// offset where it stopped (an error, or bytes left over).
	FailedAt int
	Err      error
	// ByCorrelation: a request seen earlier with the frame's correlation
	// id named the API and version.
	ByCorrelation bool
	// Also lists the other versions of the API that read the bytes the
	// same way, newest first: the bytes cannot tell them from Version.
	Also []int16
	// Same lists the readings of other APIs (in the same direction and
	// framing) that read the bytes as the same values, most likely first:
	// one answer with alternatives, which only the request (its
	// correlation id) tells apart. Only how often clients send each
	// (catalog.go's priors) put this one first.
	Same []Candidate

	sum       uint64  // what was read, see scorer
	closeness float64 // of a failed candidate: how plausible what it read was, less what it did not
}

// Has says whether the candidate is the API key and version, or reads
// the bytes as that version does.
func (c Candidate) Has(key, version int16) bool {
	return c.API.Key == key && (c.Version == version || slices.Contains(c.Also, version))
}

// InTie says whether the candidate, or one of the readings with the same
// values (Same), is the API key and version.
func (c Candidate) InTie(key, version int16) bool {
	return c.Has(key, version) || slices.ContainsFunc(c.Same, func(o Candidate) bool { return o.Has(key, version) })
}

// Versions is the candidate's version and those that read the same bytes
// (Also), as ranges: "v4", "v3-v4", "v0-v2, v4".
func (c Candidate) Versions() string {
	vs := append([]int16{c.Version}, c.Also...)
	slices.Sort(vs)
	var b strings.Builder
	for i := 0; i < len(vs); {
		j := i
		for j+1 < len(vs) && vs[j+1] == vs[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		b.WriteString("v" + strconv.Itoa(int(vs[i])))
		if j > i {
			b.WriteString("-v" + strconv.Itoa(int(vs[j])))
		}
		i = j + 1
	}
	return b.String()
}

// SameText says which other APIs read the bytes as the same values:
// "the same bytes read as EndTxn v3-v4 and AddOffsetsToTxn v3-v4: only
// the request can tell", the first four by name and how many others;
// "" when none does.
func (c Candidate) SameText() string {
	if len(c.Same) == 0 {
		return ""
	}
	const named = 4 // then "and N others"
	var b strings.Builder
	b.WriteString("the same bytes read as ")
	for i, o := range c.Same[:min(named, len(c.Same))] {
		switch {
		case i == 0:
		case i == len(c.Same)-1:
			b.WriteString(" and ")
		default:
			b.WriteString(", ")
		}
		b.WriteString(o.API.Name + " " + o.Versions())
	}
	if n := len(c.Same) - named; n > 0 {
		b.WriteString(" and " + strconv.Itoa(n) + " other")
		if n > 1 {
			b.WriteString("s")
		}
	}
	b.WriteString(": only the request can tell")
	return b.String()
}

// Exact says whether the candidate decodes every byte.
func (c Candidate) Exact() bool { return c.FailedAt < 0 }

// Seen is a request seen earlier, by its API key and version.
type Seen struct{ Key, Version int16 }

// Options say what is known besides the bytes.
type Options struct {
	// Requests seen earlier by correlation id: a response frame with one
	// of them is read as the response of that request first.
	Requests map[int32]Seen
	// Prefer is the current choice of a caller: when it decodes the
	// bytes exactly it comes first (after a response named by its
	// correlation id), whatever its score.
	Prefer *Choice
	// Max bounds the candidates returned (0: every exact one, or the 5
	// closest when none is exact).
	Max int
	// Keep, when set, says which directions and framings are tried.
	Keep func(codec.Direction, Framing) bool
}

// Choice names a candidate: API key, version, direction and framing.
type Choice struct {
	Key     int16
	Version int16
	Dir     codec.Direction
	Framing Framing
}

// closest is how many failed candidates are returned when none decodes.
const closest = 5

// Rank returns the readings of b, best first: those that decode every
// byte by score (a request seen with the frame's correlation id,
// Options.Prefer and a request frame first), else the closest ones: by
// the plausibility of what they read before they failed, less a little
// for each byte they did not read. The answer is never empty while any
// release is known and Options.Keep keeps anything.
func Rank(b []byte, o Options) []Candidate {
	c := load()
	r := ranker{b: b, c: c, tries: map[tryKey]tryResult{}}
	frameOK := len(b) >= 4 && int64(int32(binary.BigEndian.Uint32(b))) == int64(len(b)-4)
	keep := func(i int, fr Framing) bool { return o.Keep == nil || o.Keep(c.entries[i].dir, fr) }
	var exact []Candidate
	for i := range c.entries {
		if !keep(i, Body) {
			continue
		}
		if cand, ok := r.try(i, Body, false); ok {
			exact = append(exact, cand)
		}
	}
	for i := range c.entries {
		if !frameOK || !keep(i, Frame) {
			continue
		}
		if cand, ok := r.try(i, Frame, false); ok {
			exact = append(exact, cand)
		}
	}
	if len(exact) > 0 {
		r.order(exact, o)
		exact = merge(exact)
		if o.Max > 0 && len(exact) > o.Max {
			exact = exact[:o.Max]
		}
		return exact
	}
	// Nothing fits: every candidate, even those too long for the bytes
	// and frames whose size is wrong, read as far as it goes.
	var failed []Candidate
	for i := range c.entries {
		for _, fr := range []Framing{Frame, Body} {
			if keep(i, fr) {
				cand, _ := r.try(i, fr, true)
				failed = append(failed, cand)
			}
		}
	}
	sort.SliceStable(failed, func(i, j int) bool {
		a, b := failed[i], failed[j]
		if a.closeness != b.closeness {
			return a.closeness > b.closeness
		}
		return less(a, b)
	})
	n := closest
	if o.Max > 0 {
		n = o.Max
	}
	return failed[:min(n, len(failed))]
}

// merge folds each candidate into an earlier one of the same API,
// direction and framing that read the same values from the bytes, into
// its Also: the bytes cannot tell those versions apart, whatever their
// priors, and the first (the most likely) stands for them all. Then it
// folds each of another API that reads the same values into the Same of
// the earlier one: one answer with alternatives. A response named by its
// request's correlation id stands alone.
func merge(cs []Candidate) []Candidate {
	var out []Candidate
	for _, c := range cs {
		i := slices.IndexFunc(out, func(k Candidate) bool {
			return k.API.Key == c.API.Key && k.Dir == c.Dir && k.Framing == c.Framing && k.sum == c.sum &&
				k.ByCorrelation == c.ByCorrelation
		})
		if i < 0 {
			out = append(out, c)
			continue
		}
		if !slices.Contains(out[i].Also, c.Version) && out[i].Version != c.Version {
			out[i].Also = append(out[i].Also, c.Version)
		}
	}
	var tied []Candidate
	for _, c := range out {
		i := slices.IndexFunc(tied, func(k Candidate) bool {
			return k.Dir == c.Dir && k.Framing == c.Framing && k.sum == c.sum && !k.ByCorrelation && !c.ByCorrelation
		})
		if i < 0 {
			tied = append(tied, c)
			continue
		}
		tied[i].Same = append(tied[i].Same, c)
	}
	return tied
}

// order sorts exact candidates: by correlation id, then the preferred
// choice, then by score, whatever the direction: a request frame's header
// names its API and version, but a response's correlation id may read as
// one (14 as Produce v14), so a request reading never outranks a response
// reading with a better score.
func (r *ranker) order(cs []Candidate, o Options) {
	if len(r.b) >= 8 && o.Requests != nil {
		if s, ok := o.Requests[int32(binary.BigEndian.Uint32(r.b[4:]))]; ok {
			for i := range cs {
				c := &cs[i]
				c.ByCorrelation = c.Framing == Frame && c.Dir == codec.Response && c.API.Key == s.Key && c.Version == s.Version
			}
		}
	}
	rank := func(c Candidate) int {
		switch {
		case c.ByCorrelation:
			return 0
		case o.Prefer != nil && *o.Prefer == Choice{c.API.Key, c.Version, c.Dir, c.Framing}:
			return 1
		}
		return 2
	}
	sort.SliceStable(cs, func(i, j int) bool {
		a, b := cs[i], cs[j]
		if ra, rb := rank(a), rank(b); ra != rb {
			return ra < rb
		}
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		return less(a, b)
	})
}

// less orders candidates of equal merit so that the ranking is the same
// every time: frames before bodies, a request frame (whose header names
// its API and version) before a response frame, a response body before a
// request body, then by key and newest version.
func less(a, b Candidate) bool {
	switch {
	case a.Framing != b.Framing:
		return a.Framing < b.Framing
	case a.Dir != b.Dir && a.Framing == Frame:
		return a.Dir == codec.Request
	case a.Dir != b.Dir:
		return a.Dir > b.Dir
	case a.API.Key != b.API.Key:
		return a.API.Key < b.API.Key
	}
	return a.Version > b.Version
}

type tryKey struct {
	layout int
	start  int
}

type tryResult struct {
	n   int
	err error
}

// ranker tries the catalog's entries on one input, remembering which
// layouts failed where, so that a layout several APIs share is read once.
type ranker struct {
	b     []byte
	c     *catalog
	tries map[tryKey]tryResult
	hdrs  map[*codec.Plan]hdrResult
}

type hdrResult struct {
	v   codec.Value
	n   int
	err error
}

// errTooShort stands for the failure of a layout whose smallest body is
// longer than the bytes left, not read in the first pass.
var errTooShort = errors.New("fewer bytes than the smallest body of this version")

// try reads b as entry i with a framing. It returns the candidate and
// whether it decodes every byte. Unless all is set, it gives up early on
// what cannot fit: a frame of a request with another key or version, a
// body longer than the bytes.
func (r *ranker) try(i int, fr Framing, all bool) (Candidate, bool) {
	e := &r.c.entries[i]
	cand := Candidate{Set: e.set, API: e.api, Version: e.version, Dir: e.dir, Framing: fr}
	// fail returns cand as failed at off, and how close it came.
	fail := func(off int, err error, pen float64) (Candidate, bool) {
		cand.FailedAt, cand.Err = off, err
		unread := len(r.b) - off
		if overrun(err) {
			unread /= 2 // the bytes may be cut short in the field that failed
		}
		cand.closeness = -pen - penUnread*float64(unread)
		return cand, false
	}
	start, end := 0, len(r.b)
	var hv codec.Value
	if fr == Frame {
		if len(r.b) < 4 {
			return fail(0, wire.Errorf(0, wire.ErrShort, "a frame starts with an int32 size; only %d bytes", len(r.b)), e.prior)
		}
		if e.dir == codec.Request && (len(r.b) < 8 || int16(binary.BigEndian.Uint16(r.b[4:])) != e.api.Key || int16(binary.BigEndian.Uint16(r.b[6:])) != e.version) {
			if !all {
				return cand, false
			}
			return fail(4, wire.Errorf(4, wire.ErrValue, "the request header names another API or version"), e.prior)
		}
		if size := int64(int32(binary.BigEndian.Uint32(r.b))); size >= 0 && size < int64(end-4) {
			end = 4 + int(size)
		}
		h := r.header(e.header)
		if h.err != nil {
			off, err := failOffset(h.err, 4)
			return fail(off, err, e.prior)
		}
		hv, start = h.v, 4+h.n
		if e.dir == codec.Request && !headerNames(e, hv) {
			return fail(4, errors.New("the request header names another API or version"), e.prior)
		}
	}
	key := tryKey{e.layout, start}
	res, ok := r.tries[key]
	if !ok && !all && e.body.MinSize() > end-start {
		return fail(end, errTooShort, e.prior)
	}
	var v codec.Value
	if !ok || all || res.err == nil && res.n == end-start {
		v, res.n, res.err = e.body.Decode(r.b[start:end])
		r.tries[key] = res
	}
	pen, sum := e.prior, uint64(0)
	if all || res.err == nil && start+res.n == len(r.b) {
		pen, sum = r.score(e, fr, hv, v) // of what was read, before any failure
	}
	switch {
	case res.err != nil:
		off, err := failOffset(res.err, start)
		return fail(off, err, pen)
	case start+res.n != len(r.b):
		off := start + res.n
		return fail(off, wire.Errorf(off, wire.ErrTrailing, "%d bytes after the end of the body", len(r.b)-off), pen)
	case fr == Frame && int32(binary.BigEndian.Uint32(r.b)) < 0:
		return fail(0, wire.Errorf(0, wire.ErrLength, "a frame's size is never negative (%d)", int32(binary.BigEndian.Uint32(r.b))), pen)
	case fr == Frame && int64(int32(binary.BigEndian.Uint32(r.b))) != int64(len(r.b)-4):
		// Read to the end, but the frame's size says more bytes follow.
		return fail(len(r.b), wire.Errorf(len(r.b), wire.ErrShort, "the frame says %d bytes follow but only %d do",
			int32(binary.BigEndian.Uint32(r.b)), len(r.b)-4), pen)
	}
	cand.Score, cand.sum, cand.FailedAt = math.Exp(-pen/4), sum, -1
	return cand, true
}

// overrun says whether err is a field that runs past the end of the
// bytes, as the last field of bytes cut short does, by less than the
// bytes could hold again.
func overrun(err error) bool {
	var de *wire.DecodeError
	if !errors.As(err, &de) {
		return false
	}
	if errors.Is(err, wire.ErrShort) {
		return true
	}
	// "string length 45 exceeds the 44 bytes left" (decoder.primitive)
	f := strings.Fields(de.Err.Error())
	if i := slices.Index(f, "exceeds"); i >= 1 && i+2 < len(f) && f[i-2] == "length" {
		need, e1 := strconv.Atoi(f[i-1])
		left, e2 := strconv.Atoi(f[i+2])
		return e1 == nil && e2 == nil && need <= 2*left+16
	}
	return false
}

// penLargeCorrelation is the penalty of a response's correlation id above
// 65535.
const penLargeCorrelation = 2

// penUnread is the penalty of each byte a failed candidate did not read.
const penUnread = 0.05

// score returns the penalty of a reading of the bytes and the sum of what
// it read (see scorer).
func (r *ranker) score(e *entry, fr Framing, hv, v codec.Value) (float64, uint64) {
	s := scorer{set: e.set, api: e.api.Name, dir: e.dir, words: e.words, pen: e.prior}
	if fr == Frame {
		s.structV(e.header.Root, hv)
		if e.dir == codec.Response && len(r.b) >= 8 {
			switch corr := int32(binary.BigEndian.Uint32(r.b[4:])); {
			case corr < 0:
				s.pen++ // clients count correlation ids up from 0
			case corr > 0xffff:
				// The 65,537th request of a connection; a request frame's
				// API key (1 and up) and version read as a correlation id
				// are one.
				s.pen += penLargeCorrelation
			}
		}
	} else if len(r.b) >= 4 && int64(int32(binary.BigEndian.Uint32(r.b))) == int64(len(r.b)-4) {
		s.pen += 3 // it starts with the size a frame of it would have
	}
	s.message(e.body.Root, v, e.dir)
	return s.pen, s.sum
}

// header decodes the header of a frame (after its size) with hp, once per
// header plan.
func (r *ranker) header(hp *codec.Plan) hdrResult {
	if h, ok := r.hdrs[hp]; ok {
		return h
	}
	if r.hdrs == nil {
		r.hdrs = map[*codec.Plan]hdrResult{}
	}
	end := len(r.b)
	if size := int64(int32(binary.BigEndian.Uint32(r.b))); size >= 0 && size < int64(end-4) {
		end = 4 + int(size)
	}
	var h hdrResult
	h.v, h.n, h.err = hp.Decode(r.b[4:end])
	r.hdrs[hp] = h
	return h
}

// headerNames says whether a request header value names e's key and
// version.
func headerNames(e *entry, hv codec.Value) bool {
	k, v := e.header.Root.Field("RequestApiKey"), e.header.Root.Field("RequestApiVersion")
	if k == nil || v == nil || len(hv.List()) <= max(k.Index, v.Index) {
		return false
	}
	return hv.List()[k.Index].Int() == int64(e.api.Key) && hv.List()[v.Index].Int() == int64(e.version)
}

// failOffset is where err says decoding stopped, counted from the start of
// the input (err's offsets count from base).
func failOffset(err error, base int) (int, error) {
	var de *wire.DecodeError
	if errors.As(err, &de) {
		shifted := *de
		shifted.Offset += base
		return shifted.Offset, &shifted
	}
	return base, err
}
