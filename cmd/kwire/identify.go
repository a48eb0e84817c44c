package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"kwire/codec"
	"kwire/codec/records"
	"kwire/codec/wire"
	"kwire/identify"
	"kwire/tree"
)

func init() {
	commands["identify"] = command{"say which API, version and direction bytes are, best first", cmdIdentify}
}

// shown is how many candidates identify prints, and decode lists.
const shown = 5

func cmdIdentify(args []string, stdin io.Reader, stdout, _ io.Writer) error {
	fs := flag.NewFlagSet("kwire identify", flag.ContinueOnError)
	file := fs.String("file", "", "read raw bytes from this file")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	data, err := readBytes(pos, *file, stdin, false)
	if err != nil {
		return err
	}
	frames := identify.Frames(data)
	if frames == nil {
		cs := identify.Rank(data, identify.Options{Max: shown})
		printCandidates(stdout, cs, len(data))
		return exitFor(cs)
	}
	// A stream: each frame in turn, requests naming their responses.
	var failed error
	off := 0
	for i, cs := range identify.RankStream(frames, identify.Options{Max: shown}) {
		fmt.Fprintf(stdout, "# frame %d at 0x%04x\n", i+1, off)
		printCandidates(stdout, cs, len(frames[i]))
		off += len(frames[i])
		if err := exitFor(cs); err != nil {
			failed = err
		}
	}
	return failed
}

// exitFor is exit status 1 when no candidate decodes every byte.
func exitFor(cs []identify.Candidate) error {
	if len(cs) == 0 || !cs[0].Exact() {
		return exitError(1)
	}
	return nil
}

// printCandidates prints a header line, then one line a candidate:
// SCORE KEY NAME vVERSION DIRECTION RELEASE FRAMING, and what else is
// known (the versions that read the same, where a failed one stops).
func printCandidates(w io.Writer, cs []identify.Candidate, size int) {
	if len(cs) > 0 && cs[0].Exact() {
		fmt.Fprintf(w, "# %d bytes: readings that decode every byte, best first\n", size)
	} else {
		fmt.Fprintf(w, "# %d bytes: nothing decodes every byte; the closest, with where each stops\n", size)
	}
	for _, c := range cs {
		printLine(w, "%s", candidateLine(c))
	}
}

// candidateLine is one line of printCandidates.
func candidateLine(c identify.Candidate) string {
	line := fmt.Sprintf("%.2f %d %s v%d %s %s %s", c.Score, c.API.Key, c.API.Name, c.Version, c.Dir, c.Set.Name, c.Framing)
	var notes []string
	if c.ByCorrelation {
		notes = append(notes, "by correlation id")
	}
	if len(c.Also) > 0 {
		vs := make([]string, len(c.Also))
		for i, v := range c.Also {
			vs[i] = "v" + strconv.Itoa(int(v))
		}
		notes = append(notes, "same bytes as "+strings.Join(vs, " "))
	}
	if len(c.Same) > 0 {
		notes = append(notes, c.SameText())
	}
	if !c.Exact() {
		why := c.Err.Error()
		var de *wire.DecodeError
		if errors.As(c.Err, &de) {
			why = de.Err.Error()
			if de.Path != "" {
				why = de.Path + ": " + why
			}
		}
		notes = append(notes, fmt.Sprintf("stops at 0x%04x: %s", c.FailedAt, why))
	}
	if len(notes) > 0 {
		line += " (" + strings.Join(notes, "; ") + ")"
	}
	return line
}

// identified is decode without --api: the candidates for the bytes, as
// identify ranks them, of the direction and framing the flags allow.
func identified(data []byte, t *target) []identify.Candidate {
	return identify.Rank(data, identify.Options{Max: shown, Keep: t.keep})
}

// keep says whether the flags allow a direction and framing.
func (t *target) keep(d codec.Direction, fr identify.Framing) bool {
	return !(t.response && d != codec.Response || t.request && d != codec.Request || t.body && fr != identify.Body)
}

// decodeIdentified decodes data as the best candidate (with the limits,
// SASL mechanism and topic format of o), and lists it and the others on stderr.
func decodeIdentified(data []byte, cs []identify.Candidate, o codec.DecodeOptions, stderr io.Writer) (*codec.Frame, *tree.Flat, error) {
	best := cs[0]
	if best.Exact() {
		printLine(stderr, "kwire: identified as %s", candidateLine(best))
	} else {
		printLine(stderr, "kwire: nothing decodes every byte; read as the closest, %s", candidateLine(best))
	}
	for _, c := range cs[1:] {
		printLine(stderr, "kwire: or %s", candidateLine(c))
	}
	return codec.Decode(data, codec.DecodeOptions{Set: best.Set, API: best.API, Version: best.Version, Dir: best.Dir,
		BodyOnly: best.Framing == identify.Body, Limits: o.Limits, SASLMechanism: o.SASLMechanism, TopicFormat: o.TopicFormat})

}

// identifiedJSON adds to a frame's JSON form the candidates and which was
// chosen.
func identifiedJSON(j []byte, cs []identify.Candidate) []byte {
	j = bytes.TrimRight(j, " \n")
	j = bytes.TrimRight(j[:len(j)-1], " \n") // up to the closing brace
	j = append(j, ",\n  \"identified\": {\n    \"candidates\": ["...)
	for i, c := range cs {
		if i > 0 {
			j = append(j, ',')
		}
		j = fmt.Appendf(j, "\n      {\"api_key\": %d, \"api_name\": ", c.API.Key)
		j = records.AppendJSONString(j, []byte(c.API.Name))
		j = fmt.Appendf(j, ", \"version\": %d, \"direction\": \"%s\", \"framing\": \"%s\", \"set\": ", c.Version, c.Dir, c.Framing)
		j = records.AppendJSONString(j, []byte(c.Set.Name))
		j = fmt.Appendf(j, ", \"score\": %.2f}", c.Score)
	}
	j = append(j, "\n    ],\n    \"chosen\": 0"...)
	if len(cs) > 0 && len(cs[0].Same) > 0 {
		// The APIs and versions that read these bytes as the same
		// values: only the request can tell them apart.
		j = append(j, ",\n    \"same_values\": ["...)
		for i, c := range append([]identify.Candidate{cs[0]}, cs[0].Same...) {
			if i > 0 {
				j = append(j, ',')
			}
			j = fmt.Appendf(j, "\n      {\"api_key\": %d, \"api_name\": ", c.API.Key)
			j = records.AppendJSONString(j, []byte(c.API.Name))
			vs := append([]int16{c.Version}, c.Also...)
			slices.Sort(vs)
			j = append(j, ", \"versions\": ["...)
			for k, v := range vs {
				if k > 0 {
					j = append(j, ", "...)
				}
				j = strconv.AppendInt(j, int64(v), 10)
			}
			j = append(j, "], \"text\": "...)
			j = records.AppendJSONString(j, []byte(c.Dir.Schema(c.API).Name+" "+c.Versions()))
			j = append(j, '}')
		}
		j = append(j, "\n    ],\n    \"note\": "...)
		j = records.AppendJSONString(j, []byte(cs[0].SameText()))
	}
	return append(j, "\n  }\n}\n"...)
}
