// Command realcorpus turns captures of real Kafka traffic into a labelled
// corpus of identify's (identify/testdata/real/*.txt): every response
// whose request the capture holds, labelled by that request's API key and
// version (kwire's capture package pairs them by connection and
// correlation id), one line per distinct response (its bytes after the
// correlation id) with how many times the capture saw it, at most
// -per distinct responses of an API version (pairs of at most -max bytes:
// the corpora stay small); and, first, a comment line
// per API version with how many responses of it the captures hold, the
// traffic that identify's priors are counted from.
//
//	go run ./scripts/realcorpus -ports "P1 P2" -out FILE [-per 5] [-max BYTES] CAPTURE...
package main

import (
	"bytes"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"kwire/capture"
	"kwire/codec"
)

func main() {
	ports := flag.String("ports", "", "the brokers' ports, separated by spaces or commas")
	out := flag.String("out", "", "the corpus file to write")
	per := flag.Int("per", 5, "distinct responses kept of an API version")
	maxSize := flag.Int("max", 3<<10, "pairs (request and response) larger than this many bytes are counted but not kept")
	flag.Parse()
	if *out == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: realcorpus -ports \"P1 P2\" -out FILE CAPTURE...")
		os.Exit(2)
	}
	var opts capture.Options
	for _, p := range strings.FieldsFunc(*ports, func(r rune) bool { return r == ' ' || r == ',' }) {
		n, err := strconv.ParseUint(p, 10, 16)
		if err != nil {
			fmt.Fprintf(os.Stderr, "realcorpus: -ports: %q is not a port\n", p)
			os.Exit(2)
		}
		opts.Ports = append(opts.Ports, uint16(n))
	}
	c := corpus{per: *per, max: *maxSize, reqs: map[int][]byte{}, count: map[string]int{}, line: map[string]int{},
		distinct: map[[2]int16]int{}, total: map[[2]int16]int{}}
	for _, name := range flag.Args() {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, "realcorpus:", err)
			os.Exit(1)
		}
		_, err = capture.Read(f, opts, c.event)
		f.Close()
		if err != nil {
			fmt.Fprintf(os.Stderr, "realcorpus: %s: %v\n", name, err)
			os.Exit(1)
		}
		c.reqs = map[int][]byte{} // event numbers start again
	}
	if err := os.WriteFile(*out, c.bytes(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "realcorpus:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "realcorpus: %s: %d responses, %d kept\n", *out, c.responses, len(c.lines)/2)
}

// corpus collects the pairs of the captures read.
type corpus struct {
	per, max  int
	reqs      map[int][]byte   // request frames by event number
	count     map[string]int   // how often each distinct response was seen
	line      map[string]int   // its line
	distinct  map[[2]int16]int // distinct responses kept of an API version
	total     map[[2]int16]int // responses of an API version
	lines     []string
	responses int
}

func (c *corpus) event(e *capture.Event) {
	if e.Kind != capture.KindFrame || e.Incomplete != "" {
		return
	}
	if e.Dir == codec.Request {
		c.reqs[e.N] = bytes.Clone(e.Data)
		return
	}
	if e.Request == nil || len(e.Data) < 8 {
		return
	}
	req, ok := c.reqs[e.Request.N]
	if !ok {
		return
	}
	delete(c.reqs, e.Request.N)
	key, ver := e.Request.Key, e.Request.Version
	c.responses++
	c.total[[2]int16{key, ver}]++
	id := fmt.Sprintf("%d %d %x", key, ver, e.Data[8:])
	c.count[id]++
	if i, ok := c.line[id]; ok {
		c.lines[i] = c.lines[i][:strings.LastIndexByte(c.lines[i], ' ')+1] + strconv.Itoa(c.count[id])
		return
	}
	if c.count[id] > 1 || len(req)+len(e.Data) > c.max || c.distinct[[2]int16{key, ver}] >= c.per {
		return
	}
	c.distinct[[2]int16{key, ver}]++
	c.line[id] = len(c.lines) + 1
	c.lines = append(c.lines, fmt.Sprintf("request %d %d %s", key, ver, hex.EncodeToString(req)),
		fmt.Sprintf("response %d %d %s 1", key, ver, hex.EncodeToString(e.Data)))
}

// bytes is the corpus file: the traffic per API version as comments, then
// the pairs.
func (c *corpus) bytes() []byte {
	var b strings.Builder
	keys := make([][2]int16, 0, len(c.total))
	for k := range c.total {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b [2]int16) int {
		if a[0] != b[0] {
			return int(a[0]) - int(b[0])
		}
		return int(a[1]) - int(b[1])
	})
	for _, k := range keys {
		fmt.Fprintf(&b, "# traffic %d %d %d\n", k[0], k[1], c.total[k])
	}
	for _, l := range c.lines {
		b.WriteString(l + "\n")
	}
	return []byte(b.String())
}
