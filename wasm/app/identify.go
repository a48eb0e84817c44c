package app

import (
	"encoding/binary"
	"errors"
	"strconv"

	"kwire/capture"
	"kwire/codec"
	"kwire/identify"
)

// maxChips is how many answers the page offers, and maxSame how many
// readings with the same values beside the first (those identify's
// SameText names).
const maxChips, maxSame = 5, 4

// identify ranks bytes that the current choice did not decode and shows
// the best candidate; the current choice is tried first (it would come
// first if it decoded them), and a response whose correlation id a
// pasted request had is read as that request's response. asRequest: the
// bytes were read as the request their header names, which stays unless
// identify.Instead says otherwise.
func (s *State) identify(b []byte, asRequest bool) {
	o := identify.Options{Requests: s.seen, Max: maxChips}
	ranked, ok := []identify.Candidate(nil), true
	if asRequest {
		ranked, ok = identify.Instead(b, s.Err, o)
	} else {
		prefer := identify.Choice{Key: s.API.Key, Version: s.Version, Dir: s.Dir, Framing: identify.Frame}
		if s.Body {
			prefer.Framing = identify.Body
		}
		o.Prefer = &prefer
		ranked = identify.Rank(b, o)
	}
	if !ok {
		return
	}
	var cs []identify.Candidate
	var tie []int
	for _, c := range ranked {
		if c.Exact() {
			lead := len(cs)
			cs, tie = append(cs, c), append(tie, -1)
			if lead > 0 {
				continue // the alternatives of the answer shown only
			}
			for _, o := range c.Same[:min(len(c.Same), maxSame)] {
				cs, tie = append(cs, o), append(tie, lead)
			}
		}
	}
	if len(cs) == 0 {
		return // the error of the current choice stays
	}
	s.Candidates, s.tieOf = cs, tie
	s.Choose(0)
}

// SameAs is the index of the candidate whose values candidate i reads the
// same (a chip of the same answer), or -1.
func (s *State) SameAs(i int) int {
	if i < 0 || i >= len(s.tieOf) {
		return -1
	}
	return s.tieOf[i]
}

// Choose shows the bytes read as candidate i (a chip's click).
func (s *State) Choose(i int) error {
	if i < 0 || i >= len(s.Candidates) {
		return errors.New("no such candidate")
	}
	c := s.Candidates[i]
	s.Chosen = i
	s.choice, s.guess = Auto, false
	s.Set, s.API, s.Version, s.Dir = c.Set, c.API, c.Version, c.Dir
	s.Body = c.Framing == identify.Body
	s.show(s.Bytes, true)
	return s.Err
}

// ChipLabel names candidate i on its chip: "JoinGroupResponse v9", the
// versions that read the same bytes as ranges ("EndTxnResponse v3-v4"),
// and "(body)" for a bare body.
func (s *State) ChipLabel(i int) string {
	c := s.Candidates[i]
	l := c.Dir.Schema(c.API).Name + " " + c.Versions()
	if c.Framing == identify.Body {
		l += " (body)"
	}
	return l
}

// CandidatesText sums the candidates up above the chips: "Identified as
// HeartbeatResponse v4; the same bytes read as EndTxn v3-v4 and
// AddOffsetsToTxn v3-v4: only the request can tell, and 2 others" (other
// answers, not counting the readings with the same values), with how the
// first was found.
func (s *State) CandidatesText() string {
	if len(s.Candidates) == 0 {
		return ""
	}
	t := "Identified as " + s.ChipLabel(0)
	if same := s.Candidates[0].SameText(); same != "" {
		t += "; " + same
	}
	answers := 0
	for i := range s.Candidates {
		if s.SameAs(i) < 0 {
			answers++
		}
	}
	switch n := answers - 1; n {
	case 0:
	case 1:
		t += ", and 1 other"
	default:
		t += ", and " + strconv.Itoa(n) + " others"
	}
	if s.Candidates[0].ByCorrelation {
		t += " (by the correlation id of a request pasted before)"
	}
	return t
}

// remember notes a request frame shown without error by its correlation
// id, so that its response is identified by it, and the topic ids a
// response shown without error names, so that the records of an internal
// topic given by id are decoded.
func (s *State) remember(b []byte) {
	if s.Err == nil && s.Dir == codec.Response && s.API != nil && s.Frame != nil && capture.NamesTopics(s.API.Key) {
		if _, bp, err := s.Frame.Plans(); err == nil {
			s.topicNames.Add(bp, s.Frame.Body)
		}
	}
	if s.Err != nil || s.Dir != codec.Request || s.Body || s.API == nil || len(b) < 12 {
		return
	}
	if s.seen == nil {
		s.seen = map[int32]identify.Seen{}
	}
	s.seen[int32(binary.BigEndian.Uint32(b[8:]))] = identify.Seen{Key: s.API.Key, Version: s.Version}
}
