package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"kwire/capture"
	"kwire/capture/tlsdec"
	"kwire/codec"
	"kwire/codec/records"
	"kwire/codec/wire"
	"kwire/identify"
	"kwire/internal/textesc"
	"kwire/schemas/sets"
	"kwire/tree"
)

func init() {
	commands["capture"] = command{"decode the Kafka conversations of a pcap or pcapng file", cmdCapture}
}

// portsFlag is --port, repeatable.
type portsFlag []uint16

func (p *portsFlag) String() string { return fmt.Sprint(*p) }

func (p *portsFlag) Set(s string) error {
	n, err := strconv.ParseUint(s, 10, 16)
	if err != nil || n == 0 {
		return fmt.Errorf("%q is not a TCP port: give a number from 1 to 65535", s)
	}
	*p = append(*p, uint16(n))
	return nil
}

// captureRun is one kwire capture: its options and what it saw so far.
type captureRun struct {
	out     *bufio.Writer
	stderr  io.Writer
	format  string
	body    bool
	frame   int
	reveal  bool
	limits  records.Limits
	t0      time.Time
	failed  int
	frames  int
	conns   map[int]bool
	found   bool
	frameOK bool
	reader  *capture.Reader
	jobs    chan *job // to the workers
	order   chan *job // to the writer, in order
	done    chan struct{}
	copies  buffers // copies of frames (Event.Data) in flight
	bodies  buffers // their JSON
	ratio   atomic.Uint32
	upgrade *capture.Upgrade // --against
	audit   *capture.Audit   // --advertised
	leaks   []capture.Leak
}

func cmdCapture(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("kwire capture", flag.ContinueOnError)
	run := &captureRun{stderr: stderr, conns: map[int]bool{}}
	fs.StringVar(&run.format, "format", "table", "output: table (a line per frame) or json (an object per line)")
	fs.BoolVar(&run.body, "body", false, "with --format json: each frame decoded, as kwire decode --format json prints it")
	fs.IntVar(&run.frame, "frame", 0, "print frame `N` (the first column) as kwire decode prints it")
	var tf topicFormatFlag
	tf.register(fs, "capture")
	fs.BoolVar(&run.reveal, "reveal-secrets", false, "with --frame: show secrets (a SASL password, a bearer token) in the tree instead of masking them")
	var ports portsFlag
	fs.Var(&ports, "port", "read TCP port `N` as a Kafka broker's, besides "+fmt.Sprint(capture.DefaultPorts)+" (repeatable)")
	fs.IntVar(&run.limits.MaxDecompressed, "max-decompressed", records.DefaultMaxDecompressed, "decompress at most this many bytes of records in each message")
	fs.IntVar(&run.limits.MaxRecords, "max-records", records.DefaultMaxRecords, "decode at most this many records in each message")
	keylog := fs.String("keylog", os.Getenv("SSLKEYLOGFILE"), "decrypt TLS connections with the NSS key log `FILE` (SSLKEYLOGFILE's format; default $SSLKEYLOGFILE)")
	against := fs.String("against", "", "after the frames, a report of what release `R` would refuse of what each client sent (kwire apis lists the releases)")
	advertisedFlag := fs.String("advertised", "", "audit the responses for broker addresses other than these, the ones clients should be told (`HOST:PORT[,HOST:PORT...]`); exit 1 on any")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	keys, err := readKeyLog(fs, *keylog, stderr)
	if err != nil {
		return err
	}
	if err := oneOf("format", run.format, "table", "json"); err != nil {
		return err
	}
	if *against != "" {
		if err := checkRelease(*against); err != nil {
			return err
		}
		run.upgrade = capture.NewUpgrade()
	}
	var advertised []string
	if *advertisedFlag != "" {
		if advertised, err = parseAdvertised(*advertisedFlag); err != nil {
			return err
		}
		run.audit = capture.NewAudit(advertised)
	}
	if run.frame > 0 && (run.upgrade != nil || run.audit != nil) {
		return usageErr("--against and --advertised read the whole capture: not with --frame")
	}
	switch {
	case len(pos) != 1:
		return usageErr("give one capture FILE (pcap or pcapng)")
	case run.frame < 0:
		return usageErr("--frame must be 1 or more")
	case run.body && run.format != "json":
		return usageErr("--body goes with --format json")
	}
	f, err := os.Open(pos[0])
	if err != nil {
		return err
	}
	defer f.Close()
	var in io.Reader = f
	if st, err := f.Stat(); err == nil && isTerminal(stderr) {
		in = &progress{r: f, size: st.Size(), w: stderr, next: time.Now().Add(time.Second)}
	}
	run.out = bufio.NewWriterSize(stdout, 1<<16)
	if run.format == "table" && run.frame == 0 {
		fmt.Fprintf(run.out, "%-5s %-11s %-30s %-8s %-26s %-4s %-11s %-8s %-10s %-14s %s\n",
			"#", "TIME", "CONNECTION", "DIR", "API", "VER", "CORR", "SIZE", "LATENCY", "ERRORS", "STATUS")
	}
	run.reader = capture.NewReader(capture.Options{Ports: ports, Limits: run.limits, TopicFormat: tf.f, KeyLog: keys}, run.event)
	if run.frame == 0 {
		run.start()
	}
	rerr := run.reader.ReadAll(in)
	if run.frame == 0 {
		run.wait()
	}
	if p, ok := in.(*progress); ok {
		p.clear()
	}
	if run.upgrade != nil {
		rep, err := run.upgrade.Report(*against)
		if err != nil {
			return err
		}
		writeReport(run.out, rep, run.format)
	}
	if run.audit != nil {
		writeLeaks(run.out, run.leaks, run.audit.Checked, advertised, run.format)
	}
	run.out.Flush()
	if rerr != nil {
		printLine(stderr, "kwire: %s: %v", pos[0], rerr)
		run.failed++
	}
	if run.frame > 0 {
		if !run.found {
			printLine(stderr, "kwire: %s has no frame %d (the first column of kwire capture numbers them)", pos[0], run.frame)
			return exitError(1)
		}
		if !run.frameOK {
			return exitError(1)
		}
		return nil
	}
	r := run.reader
	printLine(stderr, "kwire: %s: %s (%d not TCP), %s, %s, %s", pos[0], plural(r.Packets, "packet"), r.NotTCP,
		plural(len(run.conns), "Kafka connection"), plural(run.frames, "frame"), plural(run.failed, "problem"))
	if len(run.leaks) > 0 {
		printLine(stderr, "kwire: %s: %s", pos[0], plural(len(run.leaks), "address leak"))
	}
	if run.failed > 0 || len(run.leaks) > 0 {
		return exitError(1)
	}
	return nil
}

// readKeyLog reads the key log of --keylog, or of SSLKEYLOGFILE when the
// flag is not given (a file that does not exist yet is then a note). A
// key log that cannot be read is a usage error; its secrets are never
// printed.
func readKeyLog(fs *flag.FlagSet, name string, stderr io.Writer) (*tlsdec.KeyLog, error) {
	if name == "" {
		return nil, nil
	}
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == "keylog" })
	f, err := os.Open(name)
	if err != nil {
		if !given {
			printLine(stderr, "kwire: SSLKEYLOGFILE: %v (TLS connections are not decrypted)", err)
			return nil, nil
		}
		return nil, usageErr("--keylog: %v", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, tlsdec.MaxKeyLog+1))
	if err == nil {
		var keys *tlsdec.KeyLog
		if keys, err = tlsdec.ParseKeyLog(b); err == nil {
			return keys, nil
		}
	}
	return nil, usageErr("--keylog %s: %v", name, err)
}

// job is one event on its way to the output: decoded by a worker,
// printed in order.
type job struct {
	e   capture.Event
	res chan rendered
}

// rendered is what an event prints: out, then, for a line with a body,
// the body (from run.bodies, handed back once written) and the end of
// the line.
type rendered struct {
	out    []byte
	body   []byte
	stderr string
	failed bool
}

// buffers is a free list of byte buffers, reused from one event to the
// next: the copies of frames being decoded, and their JSON, which can be
// many times their size (growing a new buffer for each costs more than
// writing it). It keeps at most its capacity of them.
type buffers chan []byte

func (b buffers) get() []byte {
	select {
	case x := <-b:
		return x[:0]
	default:
		return nil
	}
}

func (b buffers) put(x []byte) {
	select {
	case b <- x:
	default:
	}
}

// start starts the workers that decode and render events, as many as
// there are processors, and the writer that prints them in order. At
// most one event per worker waits to be printed.
func (run *captureRun) start() {
	n := runtime.GOMAXPROCS(0)
	run.jobs = make(chan *job)
	run.order = make(chan *job, n)
	run.done = make(chan struct{})
	// An event's copy is in the channels or with a worker, its JSON with
	// a worker or waiting to be written.
	run.copies, run.bodies = make(buffers, 2*n+2), make(buffers, 2*n+2)
	for range n {
		go func() {
			for j := range run.jobs {
				r := run.render(&j.e)
				run.copies.put(j.e.Data)
				j.res <- r
			}
		}()
	}
	go func() {
		defer close(run.done)
		for j := range run.order {
			r := <-j.res
			if r.stderr != "" {
				printLine(run.stderr, "kwire: %s", r.stderr)
			}
			run.out.Write(r.out)
			if r.body != nil {
				run.out.Write(r.body)
				run.out.WriteString("}\n")
				run.bodies.put(r.body)
			}
			if r.failed {
				run.failed++
			}
		}
	}()
}

// wait waits for every event to be printed.
func (run *captureRun) wait() {
	close(run.jobs)
	close(run.order)
	<-run.done
}

// event hands one event on (its bytes copied: the reader reuses them).
func (run *captureRun) event(e *capture.Event) {
	if run.t0.IsZero() {
		run.t0 = e.Start
	}
	if e.Conn != nil {
		run.conns[e.Conn.ID] = true
	}
	if run.frame > 0 {
		if e.N == run.frame {
			run.found = true
			run.frameOK = run.printFrame(e)
			run.reader.Stop()
		}
		return
	}
	if e.Kind == capture.KindFrame {
		run.frames++
	}
	if run.upgrade != nil {
		run.upgrade.Add(e)
	}
	if run.audit != nil {
		run.leaks = append(run.leaks, run.audit.Add(e)...)
	}
	j := &job{e: *e, res: make(chan rendered, 1)}
	j.e.Data = append(run.copies.get(), e.Data...)
	run.order <- j
	run.jobs <- j
}

// render decodes an event and formats its line.
func (run *captureRun) render(e *capture.Event) rendered {
	var f *codec.Frame
	var fl *tree.Flat
	var ranked *identify.Candidate // a response without its request, identified by the ranking
	status, failed := "ok", false
	switch e.Kind {
	case capture.KindNote:
		return rendered{stderr: e.Note, failed: true}
	case capture.KindFrame:
		if run.format == "json" && run.body {
			return run.renderBody(e)
		}
		var err error
		f, fl, err = e.Decode(run.limits)
		if s := capture.FrameStatus(e.Incomplete, fl, err); s != "" {
			status, failed = s, true
		}
		if c, ok := rankUnpaired(e); ok {
			ranked, status = &c, rankedStatus(status, c)
		}
	case capture.KindSkipped:
		status, failed = e.Note, !(e.Conn.MidStream && e.Offset == 0)
	case capture.KindTLS:
		status, failed = e.Note, !e.TLS.Decrypted && !e.NotKafka
	case capture.KindSASL:
		status = e.Note
	}
	if run.format == "json" {
		return rendered{out: run.jsonLine(e, status, capture.ErrorCodes(f), false, ranked), failed: failed}
	}
	api, ver, corr, latency := "-", "-", "-", ""
	switch e.Kind {
	case capture.KindFrame:
		api, ver, corr = capture.APIName(e.Key), strconv.Itoa(int(e.Version)), strconv.Itoa(int(e.Correlation))
		if e.Dir == codec.Response && e.Request == nil {
			api, ver = "?", "?"
			if ranked != nil { // marked: not named by a request
				api, ver = ranked.API.Name+"?", strings.ReplaceAll(ranked.Versions(), "v", "")+"?"
			}
		}
		if e.Dir == codec.Request && len(e.Data) < 12 {
			api, ver, corr = "?", "?", "?"
		}
	case capture.KindSASL:
		api = "(SASL token)"
	case capture.KindTLS:
		api = "(TLS)"
	case capture.KindSkipped:
		api = "(skipped)"
	}
	if e.Request != nil {
		latency = fmt.Sprintf("%.3fms", float64(e.Time.Sub(e.Request.Time).Microseconds())/1000)
	}
	codes := strings.Join(capture.ErrorCodes(f), ",")
	line := fmt.Sprintf("%-5d %-11.6f %-30s %-8s %-26s %-4s %-11s %-8d %-10s %-14s %s",
		e.N, e.Time.Sub(run.t0).Seconds(), e.Conn, e.Dir, api, ver, corr, e.Size, latency, codes, status)
	return rendered{out: []byte(textesc.Escape(strings.TrimRight(line, " ")) + "\n"), failed: failed}
}

// captureLine is the JSON of one event, without its body.
type captureLine struct {
	N             int      `json:"n"`
	Kind          string   `json:"kind"`
	Time          string   `json:"time"`
	Conn          string   `json:"conn"`
	ConnID        int      `json:"conn_id"`
	Dir           string   `json:"dir"`
	APIKey        *int16   `json:"api_key"`
	APIName       string   `json:"api_name,omitempty"`
	APIVersion    *int16   `json:"api_version"`
	CorrelationID *int32   `json:"correlation_id"`
	Size          int      `json:"size"`
	LatencyMs     *float64 `json:"latency_ms,omitempty"`
	ErrorCodes    []string `json:"error_codes,omitempty"`
	Packet        int      `json:"packet"`
	Status        string   `json:"status"`
	TLS           *tlsLine `json:"tls,omitempty"`
	// Ranked: a response whose request the capture lacks, its API and
	// version the ranking's best (identify), not a request's.
	Ranked bool `json:"ranked,omitempty"`
}

// tlsLine is the TLS status of a connection's events.
type tlsLine struct {
	Version   string `json:"version,omitempty"`
	Suite     string `json:"suite,omitempty"`
	Resumed   string `json:"resumed,omitempty"`
	Decrypted bool   `json:"decrypted"`
	Why       string `json:"why,omitempty"`
}

var kindNames = map[capture.Kind]string{capture.KindFrame: "frame", capture.KindSASL: "sasl", capture.KindTLS: "tls", capture.KindSkipped: "skipped"}

// renderBody is render of a frame with --format json --body: the values
// alone are decoded (no tree) and written as JSON, which reads the records;
// a frame that fails, or whose records JSON holds an entry that did not
// read ("note") or a wrong CRC ("crc", written only then), is decoded
// again with its tree, which says what is wrong.
func (run *captureRun) renderBody(e *capture.Event) rendered {
	f, err := e.DecodeValues(run.limits)
	var body []byte
	bg := records.NewBudget(run.limits)
	if f != nil && f.API != nil {
		buf := slices.Grow(run.bodies.get(), run.jsonSize(e.Size))
		if j, err := f.AppendJSONBudget(buf, e.Size, bg); err == nil {
			body = j
			run.learnSize(e.Size, len(j))
		}
	}
	var fl *tree.Flat
	if err != nil || bg.Unread > 0 {
		f, fl, err = e.Decode(run.limits)
	}
	codes := capture.ErrorCodes(f)
	status := capture.FrameStatus(e.Incomplete, fl, err)
	failed := status != ""
	if !failed {
		status = "ok"
	}
	var ranked *identify.Candidate
	if c, ok := rankUnpaired(e); ok {
		ranked, status = &c, rankedStatus(status, c)
	}
	return rendered{out: run.jsonLine(e, status, codes, body != nil, ranked), body: body, failed: failed}
}

// jsonSize is what the JSON of a frame of size bytes is likely to take,
// for the frames large enough for it to matter: the frame's size times
// the largest ratio seen (up to maxJSONRatio), so that its buffer is
// grown once rather than doubled step by step.
func (run *captureRun) jsonSize(size int) int {
	if size < minLearned {
		return 0
	}
	return size * int(run.ratio.Load()) / 16
}

// learnSize keeps the largest ratio of a frame's JSON to its size, in
// sixteenths.
func (run *captureRun) learnSize(size, json int) {
	if size < minLearned {
		return
	}
	r := min(uint32(json*16/size+1), maxJSONRatio*16)
	for {
		old := run.ratio.Load()
		if r <= old || run.ratio.CompareAndSwap(old, r) {
			return
		}
	}
}

const (
	minLearned   = 64 << 10
	maxJSONRatio = 8
)

// jsonLine is the JSON line of an event; with a body, only its start: the
// body follows, then "}\n".
func (run *captureRun) jsonLine(e *capture.Event, status string, codes []string, body bool, ranked *identify.Candidate) []byte {
	l := captureLine{N: e.N, Kind: kindNames[e.Kind], Time: e.Time.UTC().Format(time.RFC3339Nano), Conn: e.Conn.String(), ConnID: e.Conn.ID,
		Dir: e.Dir.String(), Size: e.Size, Packet: e.Packet, Status: status, ErrorCodes: codes}
	if e.Kind == capture.KindFrame && (e.Dir == codec.Request && len(e.Data) >= 12 || e.Request != nil) {
		key, v := e.Key, e.Version
		l.APIKey, l.APIVersion, l.APIName = &key, &v, capture.APIName(key)
	} else if ranked != nil {
		key, v := ranked.API.Key, ranked.Version
		l.APIKey, l.APIVersion, l.APIName, l.Ranked = &key, &v, ranked.API.Name, true
	}
	if e.Kind == capture.KindFrame {
		c := e.Correlation
		l.CorrelationID = &c
	}
	if e.Request != nil {
		ms := float64(e.Time.Sub(e.Request.Time).Microseconds()) / 1000
		l.LatencyMs = &ms
	}
	if t := e.TLS; t != nil {
		l.TLS = &tlsLine{Version: t.Version, Suite: t.Suite, Resumed: t.Resumed, Decrypted: t.Decrypted, Why: t.Why}
	}
	b, _ := json.Marshal(l)
	if body {
		return append(b[:len(b)-1], `,"body":`...)
	}
	return append(b, '\n')
}

// printFrame prints a frame's tree as kwire decode does and says whether
// it decoded.
func (run *captureRun) printFrame(e *capture.Event) bool {
	if e.Kind != capture.KindFrame {
		printLine(run.stderr, "kwire: %d is not a Kafka frame: %s", e.N, e.Note)
		return false
	}
	f, fl, err := e.Decode(run.limits)
	if fl != nil && fl.Len() > 0 {
		var top func(*tree.Node)
		if f.API != nil {
			top = func(root *tree.Node) { root.About = "read with the schemas of " + sets.ReleaseOf(f.Set.Name).String() }
		}
		if run.reveal {
			fl.Reveal(e.Data)
		}
		fl.WriteText(run.out, 0, top)
	}
	run.out.Flush()
	if e.Incomplete != "" {
		printLine(run.stderr, "kwire: frame %d is incomplete: %s", e.N, e.Incomplete)
	}
	if err != nil {
		printLine(run.stderr, "kwire: %s", capture.FrameStatus("", nil, err))
		return false
	}
	if fl != nil && fl.Len() > 0 {
		if j, off := fl.FirstError(0); j >= 0 {
			printLine(run.stderr, "kwire: decode error at %s", wire.NodeError(fl.Node(j, nil), off))
			return false
		}
	}
	return e.Incomplete == ""
}

// isTerminal says whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progress reports how much of the file was read, once a second, on a
// terminal.
type progress struct {
	r          io.Reader
	size, done int64
	w          io.Writer
	next       time.Time
	shown      bool
}

func (p *progress) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	p.done += int64(n)
	if now := time.Now(); now.After(p.next) {
		p.next = now.Add(time.Second)
		p.shown = true
		fmt.Fprintf(p.w, "\rkwire: read %d of %d MB (%d%%)", p.done>>20, p.size>>20, p.done*100/max(p.size, 1))
	}
	return n, err
}

func (p *progress) clear() {
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

// rankedStatus is a frame's status with the reading the ranking chose:
// "...; ranked as Heartbeat v4 (the same bytes read as ...)".
func rankedStatus(status string, c identify.Candidate) string {
	status += "; ranked as " + c.API.Name + " " + c.Versions()
	if same := c.SameText(); same != "" {
		status += " (" + same + ")"
	}
	return status
}

// rankUnpaired identifies a whole response frame whose request the
// capture lacks by identify's ranking of its readings as a response
// frame: the best, when it decodes every byte.
func rankUnpaired(e *capture.Event) (identify.Candidate, bool) {
	if e.Kind != capture.KindFrame || e.Dir != codec.Response || e.Request != nil || e.Incomplete != "" {
		return identify.Candidate{}, false
	}
	keep := func(d codec.Direction, fr identify.Framing) bool { return d == codec.Response && fr == identify.Frame }
	cs := identify.Rank(e.Data, identify.Options{Max: 1, Keep: keep})
	if len(cs) == 0 || !cs[0].Exact() {
		return identify.Candidate{}, false
	}
	return cs[0], true
}
