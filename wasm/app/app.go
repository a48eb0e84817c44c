// Package app is the explorer page's state and logic, without the DOM: the
// selected schema set, API, version and direction, the frame being edited,
// its bytes and object tree, edits by field path, version switching, pasted
// input, JSON editing and the URL state. It builds and is tested on the
// host; package main in wasm/ binds it to the page.
//
// The explorer is compiled with GOOS=js GOARCH=wasm. In this package:
// upgrade.go: the capture's release report and address audit, from the
// values the list decodes anyway, the leaked fields' nodes for the tree;
// capture.go: the conversation list of a capture file, read in steps by
// Capture.Step with capture.Reader, or of pasted hex that holds several
// frames, PastedStream; its filter, its rows as HTML by range,
// State.OpenRow; the topic ids a capture's responses, or the responses
// pasted one by one before, named, codec.TopicNames, that the records of
// internal topics given by id are read with; IsKeyLog: a dropped key log,
// which UI keeps in memory only and reads the open capture again with);
// wasm/app's UI (ui.go) is the page's controller: it takes the page's events
// (input, change, click, key, paste, drop, scroll, hover) and draws through
// dom.Page (wasm/dom/page.go: dom.Browser in the browser; on the host
// wasm/dom/domtest's recorder, whose transcripts of each case TestUI
// compares with wasm/app/testdata/ui, -update); wasm/dom is the only package
// that imports syscall/js (Listeners.Later yields to the browser between
// steps); wasm/main.go only loads the schemas, builds the state and the UI
// and wires the events to it (about 100 lines; the interface calls cost 9.6
// KB gzip): the byte view and the tree are each a spacer as tall as all
// their rows or lines (20 px each, kwire.css) with the rows or lines in view
// drawn, redrawn on scroll, and after an edit only those that changed are
// written (app.Lines keeps the last HTML drawn and says which lines differ);
// the state keeps the tree shown as a tree.Flat (State.Flat, decoded by
// codec.Decode; its tests make it nodes, export_test.go), which the layout
// indexes and formats only where drawn; an edit of one field patches the
// Flat in place (codec.Patch) and keeps the layout, or moves the bytes'
// owners after the field (render.Layout.Resized) when its length changed,
// rather than decoding and laying out the message again (an edit of a 4 MB
// Fetch response: 43 ms natively before, 1.3 ms after, most of it encoding
// the message); the keys walk the tree's lines (State.TreeLineOf), drawn or
// not; the address is written at most once in 200 ms (history.replaceState
// cost Chromium 1 to 10 ms an edit); the whole tree's HTML is
// kwire.treeHTML() for the browser tests. At start (main) it takes the
// schema bundle app.js fetched and read while kwire.wasm compiled (its bytes
// when read by then, without waiting for the event loop), opens the newest
// release (schemas.OpenSet from the bundle's index: the two headers parsed,
// the other 278 files when asked for), builds the state (app.New, which
// parses JoinGroup's request and response, then the address's query) and
// draws; in Chromium on two shared cores that is about 110 to 120 ms before
// main (fetching and compiling kwire.wasm) and about 65 ms in it, of which
// about 30 ms fetch the bundle, read it and open the set (parsing the newest
// release whole took about 65 ms there, 5 ms natively: each file costs the
// browser about ten times what it costs natively, and the first one several
// milliseconds more, code running for the first time) and 15 to 20 ms are
// app.New (scripts/browser-bench.sh -startup, medians of 15 runs of 9 beside
// the release read whole, on a busy machine: Go main 162 → 102 ms, the set
// 134 → 45 ms, navigation 373 → 300 ms). Split again with scripts/startprobe
// (medians of 40 alternated navigations, Chromium 156, two busy cores): the
// document at about 20 ms, app.js at 45 to 60, kwire.wasm asked for at 55 to
// 60 (80 before app.js ran first), its body from the worker's cache in 50 to
// 80 ms, compiled 25 ms after its last byte, instantiated in 2.5 ms, Go's
// run to main 25 to 30 ms (package inits 10 to 13 ms of it: tree,
// codec/records and hash/crc32's tables about 2.5 ms each), main to the
// first render about 100 ms. Most of the Go time is V8 compiling code on its
// first call: about 1,030 functions (1.2 MB of code) are compiled lazily, on
// the main thread, before the first render, and TurboFan compiles some 34
// hot ones again in the background (schemas' and jsonc's parsers, xfmt's
// printer, maps, malloc). scripts/build-wasm.sh is the one place its build
// flags are written: kwire's packages are compiled without inlining but for
// the hot paths (codec but codec/sasl and codec/otlp, tree,
// schemas/jsonc), 43 KB gzip less with the browser
// benchmark unchanged; after the link scripts/wasmdata merges the linker's
// 59,000 data segments into 4 (the same memory at start; 99 KB gzip less).
// No fmt in the binary (52 KB gzip): kwire's packages format with
// internal/xfmt, gzip batches and the draft links are compressed by
// internal/deflate, hex is read by internal/xhex; sorts are sort.Slice, not
// slices (one pdqsort for all types, 22 KB). 1,589,761 → 1,418,260 bytes
// gzip, then 1,468,135 with the internal topics' and OTLP decoders in the
// browser, the form's nested fields, the tree drawn where seen and the
// decoders' and encoder's fast paths; 1,439,751 without the html package
// (its init keeps its 2,231 entities: render.EscapeHTML stands in for
// html.EscapeString, 22.8 KB), compress/gzip's Reader (records.gzipMembers,
// 2.3 KB) and fs.WalkDir (sets.walkFiles, 3.3 KB); 1,453,821 with edits
// patched, the schema set read file by file and the decoders' and encoder's
// speed-ups, 1,449,346 with jsonv and hexin compiled without inlining
// (4.5 KB; their speed natively unchanged), 1,448,670 with the layout's
// owners as runs and render compiled without inlining (4.5 KB; the Fetch
// load and the byte view's scroll in Chromium unchanged); 1,461,994 with
// Kafka's jars read in the browser (internal/unzip, 6 KB, for the app's own
// zip reader of 2 KB, and sets' jar.go, 7 KB; not the reader of
// Errors.class, 10 KB); 1,578,121 with TLS decryption (capture/tlsdec and
// the standard crypto, 116 KB); 1,552,814 with its own ciphers and hashes in
// the browser (capture/tlsdec/internal/tlscrypto, 67 KB less;
// internal/godebug and runtime.initMetrics stay: time imports godebug).
// 1,474,224 with the capture's release report and address audit
// (schemas/atlas, sets.Refuses, capture's report and audit, the explorer's
// picker and marks). scripts/wasm-top.sh prints where the bytes are; go
// build -ldflags=-dumpdep (with build-wasm.sh's flags) says why a function
// is linked.
package app

import (
	"bytes"
	"errors"
	"slices"
	"strconv"
	"strings"

	"kwire/codec"
	"kwire/codec/wire"
	"kwire/hexin"
	"kwire/identify"
	"kwire/internal/xfmt"
	"kwire/render"
	"kwire/schemas"
	"kwire/schemas/draft"
	"kwire/schemas/sets"
	"kwire/tree"
)

// FoldChildren is how many children a tree node may have before the tree
// shows it folded (until the user unfolds it).
const FoldChildren = 32

// State is the explorer's state.
type State struct {
	// leakPaths are the tree paths the address audit marks (MarkLeaks).
	leakPaths []string
	// Set is the release the frame is read with: the one chosen, or with
	// the choice Auto the newest release that has the version.
	Set     *schemas.Set
	API     *schemas.API
	Version int16
	Dir     codec.Direction

	// Frame is the message being edited; nil when pasted bytes did not
	// decode (then Bytes, Flat and Err describe what was read).
	Frame *codec.Frame
	Bytes []byte
	// Flat is the tree shown, as spans whose text is formatted when it
	// is drawn (Root makes it nodes).
	Flat *tree.Flat
	// Layout indexes Flat over Bytes for drawing.
	Layout *render.Layout
	// Err is the last encode or decode error; ErrOffset its byte offset,
	// or -1.
	Err       error
	ErrOffset int
	// Pasted is set when the bytes came from the user (paste, file or a
	// link's hex) rather than from the form.
	Pasted bool
	// Body: the bytes are a bare body, without size and header (pasted
	// from a log and identified as one).
	Body bool
	// Dropped lists the fields whose values the last version switch left
	// out (they come back on switching back).
	Dropped []string

	// Draft is the pasted draft schema (nil when none), read from
	// DraftText against the released set DraftBase with the keys the
	// user chose for TBD keys (DraftKeys, by API name). Its APIs are
	// selected as the set named DraftSet.
	Draft     *draft.Draft
	DraftText string
	DraftBase string
	DraftKeys map[string]int16
	draftEnc  string // EncodeDraft(DraftText), for links

	fold map[string]bool // tree folding chosen by the user, by node key

	choice string // the set picker's value: Auto, a release, DraftSet
	guess  bool   // read a version newer than every release's as a guess
	// saslMech is the SASL mechanism SaslAuthenticate's bytes are read
	// with: the one its connection's SaslHandshake named, for a row of a
	// capture; "" (recognised from the bytes) for pasted bytes.
	saslMech string
	// trailing: the bytes are a capture's row, whose connection says their
	// direction, so bytes after the body are read as Kafka's broker reads
	// them (codec.DecodeOptions.Trailing); pasted bytes keep them an error.
	trailing bool
	// topicNames names the topic ids of the records shown (an internal
	// topic's records given by id are decoded by its format): those of a
	// capture's responses for its rows, those of the responses pasted
	// before (pasted) for pasted bytes.
	topicNames *codec.TopicNames
	// topicFormat is the user's choice of how records' keys and values
	// are read (codec.TopicAuto: by the topic's name or id).
	topicFormat codec.TopicFormat
	pasted      *codec.TopicNames

	shown    codec.DecodeOptions // how Root was decoded from Bytes
	shownErr error               // and the error it gave
	shownAs  *codec.Frame        // and the frame it gave: its release, API and version

	// reveal shows secrets (a SASL password, a token) in the tree and the
	// byte view instead of masking them (tree.Flat.Reveal); revealed says
	// whether Root was shown so.
	reveal, revealed bool
	// secrets says whether Root holds a secret, masked or revealed: found
	// once per decode, not on every redraw.
	secrets bool

	// Candidates are what pasted bytes that the current choice did not
	// decode may be instead, best first (see identify), each answer
	// followed by the readings of other APIs with the same values
	// (identify.Candidate.Same); Chosen is the one shown. seen holds the requests pasted before, by correlation id.
	// matched is the last ApiVersions response's versions ReleaseMatch
	// matched, matchText what it said.
	matched   []schemas.APIVersions
	matchText string

	Candidates []identify.Candidate
	Chosen     int
	// tieOf is, for each candidate, the index of the candidate whose
	// values it reads the same (one answer with alternatives), or -1.
	tieOf []int
	seen  map[int32]identify.Seen
}

// New returns the state showing the smallest request of api in set (""
// picks the default set).
func New(set, api string) (*State, error) {
	s := &State{fold: map[string]bool{}}
	if err := s.Select(set, api, -1, codec.Request); err != nil {
		return nil, err
	}
	return s, nil
}

// Auto is the set choice that reads each frame with the newest release
// that has its version.
const Auto = sets.Auto

// Releases lists the releases the explorer knows, oldest first.
func Releases() []sets.Release { return sets.Releases() }

// Choice is the set picker's value: Auto, a release's name, or DraftSet.
func (s *State) Choice() string {
	if s.choice == "" {
		return s.Set.Name
	}
	return s.choice
}

// ReleaseText says which release the frame is read with.
func (s *State) ReleaseText() string {
	if s.Frame == nil && s.Pasted {
		return "" // the bytes did not decode: no release read them
	}
	if s.IsDraft() {
		return "read with the pasted draft, framed with the headers of " + s.DraftBase
	}
	return "read with the schemas of " + sets.ReleaseOf(s.Set.Name).String()
}

// CanGuess reports whether the bytes failed only because their version is
// newer than every release's: Guess then reads them with the newest
// layout.
func (s *State) CanGuess() bool {
	var verr *sets.VersionError
	return !s.guess && errors.As(s.Err, &verr) && verr.Newer()
}

// Guess reads the bytes shown with the newest layout of their API, as a
// guess that the tree's root says; the frame can then be edited.
func (s *State) Guess() error {
	s.guess = true
	s.show(s.Bytes, true)
	return s.Err
}

// ReleaseMatch says, for an ApiVersions response, which releases the
// versions it advertises match; "" for other frames.
func (s *State) ReleaseMatch() string {
	if s.Frame == nil {
		return ""
	}
	adv := s.Frame.Advertised()
	if adv == nil {
		return ""
	}
	// Drawn on every edit; matched again only when the versions changed
	// (matching reads every release's APIs).
	if s.matched == nil || !slices.Equal(adv, s.matched) {
		s.matched, s.matchText = adv, sets.Describe(sets.MatchAdvertised(adv))
	}
	return s.matchText
}

// auto reports whether the set is chosen per frame.
func (s *State) auto() bool { return s.choice == Auto }

// Select shows the smallest instance of api (a name or key) at version
// (-1: the latest) and direction in the named set; "" and Auto choose the
// newest release that has the API at that version.
func (s *State) Select(setName, api string, version int, dir codec.Direction) error {
	if setName == "" {
		setName = Auto
	}
	set, err := s.loadSet(setName)
	if err != nil {
		return err
	}
	a, err := set.LookupAPI(strings.TrimSpace(api))
	if setName == Auto && (err != nil || a.Removed()) {
		if older, oa := sets.FindAPI(strings.TrimSpace(api)); older != nil {
			set, a, err = older, oa, nil
		}
	}
	if err != nil {
		return err
	}
	if setName == Auto && version >= 0 && version <= 1<<15-1 {
		if vs, e := sets.ForVersion(a.Key, int16(version), dir == codec.Response); e == nil {
			set, a = vs, vs.APIByKey(a.Key)
		}
	}
	s.choice, s.guess = setName, false
	msg := dir.Schema(a)
	if msg == nil {
		return xfmt.Errorf("%s has no %s", a.Name, dir)
	}
	v := msg.ValidVersions.Hi
	if version >= 0 {
		if !msg.ValidVersions.Contains(int16(version)) {
			return xfmt.Errorf("%s has no version %d (valid: %s)", msg.Name, version, msg.ValidVersions)
		}
		v = int16(version)
	}
	f, err := codec.NewFrame(set, a, v, dir)
	if err != nil {
		return err
	}
	s.Set, s.API, s.Version, s.Dir = set, a, v, dir
	s.Frame, s.Pasted, s.Dropped, s.Body = f, false, nil, false
	s.Candidates, s.Chosen, s.tieOf = nil, 0, nil
	return s.Encode()
}

// loadSet returns the named set: a released one, or the draft's.
func (s *State) loadSet(name string) (*schemas.Set, error) {
	if name != DraftSet {
		return sets.Load(name)
	}
	if s.Draft == nil || s.Draft.Set == nil {
		return nil, errors.New("no draft schema loaded: paste one in the schema panel")
	}
	return s.Draft.Set, nil
}

// Versions returns the valid versions of the selected API and direction:
// with Auto, those of every release together.
func (s *State) Versions() schemas.Versions {
	if !s.auto() {
		return s.Dir.Schema(s.API).ValidVersions
	}
	return sets.VersionsOf(s.Dir.Schema(s.API))
}

// Encode re-encodes the frame and rebuilds the tree from its bytes.
func (s *State) Encode() error {
	if s.Frame == nil {
		return errors.New("nothing to encode: the bytes did not decode")
	}
	// An edit changes the length little: room for the last bytes spares
	// a 4 MB message the copies of growing its buffer.
	var b []byte
	var err error
	if s.Body {
		b, err = s.Frame.EncodeBody()
	} else {
		b, err = s.Frame.Append(make([]byte, 0, len(s.Bytes)+64))
	}
	if err != nil {
		s.Err, s.ErrOffset = err, -1
		return err
	}
	s.show(b, false)
	return s.Err
}

// show decodes b with the current selection into the tree and layout;
// with adopt, the decoded frame becomes the one edited (else the frame
// keeps its values, including those the version leaves out).
func (s *State) show(b []byte, adopt bool) {
	// The smallest message's tree calls its array elements samples, as
	// the docs pages do.
	sample := !adopt && s.isSmallest(b)
	opts := codec.DecodeOptions{Set: s.Set, API: s.API, Version: s.Version, Dir: s.Dir, Sample: sample, BodyOnly: s.Body}
	if s.auto() && s.Dir == codec.Request && !s.Body {
		opts.Choose = sets.Choice{}
	}
	opts.Guess, opts.SASLMechanism, opts.TopicNames, opts.TopicFormat = s.guess, s.saslMech, s.topicNames, s.topicFormat
	opts.Trailing = s.trailing
	var f *codec.Frame
	flat, err := s.Flat, s.shownErr
	// The tree shown stands for the same bytes read the same way (an
	// edit that changed no byte, or undone after failing); the frame
	// decoded is only needed to adopt it.
	same := flat != nil && flat.Len() > 0 && opts == s.shown && s.reveal == s.revealed
	switch {
	case same && bytes.Equal(b, s.Bytes) && !adopt:
	case same && !adopt && err == nil && s.patch(b):
		// An edit of one field: its node decoded alone (codec.Patch).
		flat = s.Flat
	default:
		f, flat, err = codec.Decode(b, opts)
		if s.reveal {
			flat.Reveal(b)
		}
		s.shown, s.shownErr, s.revealed, s.shownAs = opts, err, s.reveal, f
		s.Layout = render.Relayout(s.Layout, flat, len(b))
		s.secrets = flat.HasSecret()
	}
	s.Bytes, s.Flat, s.Err, s.ErrOffset = b, flat, err, -1
	var de *wire.DecodeError
	if errors.As(err, &de) {
		s.ErrOffset = de.Offset
	}
	if err == nil && s.Dir == codec.Request && !s.Body && f != nil && f.API != nil {
		s.Set, s.API, s.Version = f.Set, f.API, f.Version
	}
	switch {
	case !adopt:
	case err == nil:
		s.Frame = f
	default:
		s.Frame = nil
	}
}

// patch brings the tree shown up to date with b, the bytes shown after an
// edit of one field, by decoding that field alone (codec.Patch, which
// changes s.Flat in place), as an edit in a 4 MB Fetch response should
// cost what it changes; it reports false when the message must be
// decoded whole.
func (s *State) patch(b []byte) bool {
	f := s.shownAs
	if f == nil || f.API == nil {
		return false
	}
	o := s.shown
	o.Set, o.API, o.Version, o.Dir = f.Set, f.API, f.Version, f.Dir
	flat := s.Flat
	id := codec.Patch(flat, s.Bytes, b, o)
	if id < 0 {
		return false
	}
	// The field's span took its new size; the owners of the bytes after
	// it move by the difference, and the layout formats anew the nodes
	// whose text may have changed (Resized).
	delta, sp := len(b)-len(s.Bytes), flat.Spans[id]
	l, ok := s.Layout.Resized(flat, int(sp.Off), int(sp.Size)-delta, int(sp.Size))
	if !ok {
		l = render.Relayout(s.Layout, flat, len(b))
	}
	s.Layout = l
	return true
}

// TopicFormat is how the keys and values of records are read: "auto"
// (as their topic's, when the message names an internal topic), "plain",
// or an internal topic's format ("consumer-offsets", ...).
func (s *State) TopicFormat() string { return s.topicFormat.String() }

// SetTopicFormat reads the keys and values of records as name says
// (TopicFormat) and shows the bytes again.
func (s *State) SetTopicFormat(name string) error {
	f, err := codec.ParseTopicFormat(name)
	if err != nil {
		return err
	}
	s.topicFormat = f
	if s.Bytes != nil {
		s.show(s.Bytes, true) // the frame keeps the format, for its JSON form
	}
	return nil
}

// Secrets says whether the tree shown has secrets (masked or revealed):
// the page then offers to reveal or mask them.
func (s *State) Secrets() bool { return s.secrets }

// Revealed says whether secrets are shown.
func (s *State) Revealed() bool { return s.reveal }

// Reveal shows the secrets of the tree and the byte view (on) or masks
// them again. The JSON form and the bytes are the same either way.
func (s *State) Reveal(on bool) {
	s.reveal = on
	if s.Bytes != nil {
		s.show(s.Bytes, false)
	}
}

// isSmallest reports whether b is the smallest message of the selection.
func (s *State) isSmallest(b []byte) bool {
	f, err := codec.NewFrame(s.Set, s.API, s.Version, s.Dir)
	if err != nil {
		return false
	}
	small, err := f.Encode()
	return err == nil && bytes.Equal(small, b)
}

// Paste decodes bytes given as text (hex in any common shape, or base64):
// a request names its API and version in its header; a response is read
// as the selected API and version.
func (s *State) Paste(text string) error {
	b, err := hexin.Parse(text)
	if err != nil {
		return err
	}
	return s.Load(b)
}

// Load decodes raw bytes (a dropped file, or pasted text once parsed).
// With response selected, bytes that do not decode as the response but
// do as a request (which names its API) are taken as that request. Bytes
// that decode as neither, and a request frame that another reading
// decodes whole and better (identify.Instead), are identified: the
// candidates that decode them are offered, and the best is shown.
func (s *State) Load(b []byte) error {
	if s.pasted == nil {
		s.pasted = codec.NewTopicNames()
	}
	return s.load(b, "", s.pasted, false)
}

// load is Load with the SASL mechanism of the bytes' connection and the
// topic names of their stream; row: the bytes are a capture's row.
func (s *State) load(b []byte, saslMech string, names *codec.TopicNames, row bool) error {
	s.Pasted, s.Dropped, s.guess, s.saslMech, s.topicNames, s.trailing = true, nil, false, saslMech, names, row
	s.Candidates, s.Chosen, s.tieOf = nil, 0, nil
	s.show(b, true)
	if s.Err != nil && s.Dir == codec.Response {
		api, version, body := s.API, s.Version, s.Body
		s.Dir, s.Body = codec.Request, false
		s.show(b, true)
		if s.Err != nil {
			s.Dir, s.API, s.Version, s.Body = codec.Response, api, version, body
			s.show(b, true)
		}
	}
	switch {
	case s.Dir == codec.Request && !s.Body:
		s.identify(b, true) // unless the request reads best (identify.Instead)
	case s.Err != nil:
		s.identify(b, false)
	}
	s.remember(b)
	return s.Err
}

// ErrorText describes the current error, with its offset when it has one.
func (s *State) ErrorText() string {
	if s.Err == nil {
		return ""
	}
	if s.ErrOffset >= 0 {
		// A wire.DecodeError says "offset N (0xNNNN): path: what".
		return "decode error at " + s.Err.Error()
	}
	return s.Err.Error()
}

// HexString is the frame's bytes as plain hex.
func (s *State) HexString() string { return xfmt.Sprintf("%x", s.Bytes) }

// JSON is the frame's JSON form (api, version, header, body).
func (s *State) JSON() string {
	if s.Frame == nil {
		return ""
	}
	b, err := s.Frame.JSON(len(s.Bytes))
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// JSONErrorSpan is where in text, the JSON given to SetJSON, err (what
// it returned) is: the bytes of the value (or key) at fault, or the line
// of a syntax error; ok is false when err says no place.
func JSONErrorSpan(text string, err error) (start, end int, ok bool) {
	var je *codec.JSONError
	if !errors.As(err, &je) || je.Line == 0 || je.End > len(text) {
		return 0, 0, false
	}
	if je.End > je.Offset {
		return je.Offset, je.End, true
	}
	start = strings.LastIndexByte(text[:je.Offset], '\n') + 1
	end = strings.IndexByte(text[je.Offset:], '\n')
	if end < 0 {
		return start, len(text), true
	}
	return start, je.Offset + end, true
}

// SetJSON replaces the frame's value with JSON (a body, or the frame form
// JSON writes) and re-encodes. A *codec.JSONError says where it is wrong.
func (s *State) SetJSON(text string) error {
	if s.Frame == nil {
		return errors.New("the bytes did not decode; fix them or pick an API to start over")
	}
	f := *s.Frame
	f.Header, f.Body = f.Header.Clone(), f.Body.Clone()
	if err := f.SetJSON([]byte(text)); err != nil {
		return err
	}
	old := s.Frame
	s.Frame = &f
	if err := s.Encode(); err != nil {
		s.Frame = old
		return err
	}
	return nil
}

// SetVersion switches the version, keeping every value the new version
// still has; Dropped lists the fields that are left out.
func (s *State) SetVersion(v int16) error {
	if s.Frame == nil {
		return s.Select(s.Choice(), s.API.Name, int(v), s.Dir)
	}
	if !s.Versions().Contains(v) {
		return xfmt.Errorf("%s has no version %d", s.Dir.Schema(s.API).Name, v)
	}
	set, api := s.Set, s.API
	if s.auto() {
		if vs, err := sets.ForVersion(s.API.Key, v, s.Dir == codec.Response); err == nil {
			set, api = vs, vs.APIByKey(s.API.Key)
		}
		if !bytes.Equal(s.Dir.Schema(api).Source, s.Dir.Schema(s.API).Source) {
			// Another release's schema: values do not carry over field
			// by field.
			return s.Select(Auto, s.API.Name, int(v), s.Dir)
		}
	}
	oldH, oldB, err := s.Frame.Plans()
	if err != nil {
		return err
	}
	f := &codec.Frame{Set: set, API: api, Version: v, Dir: s.Dir, Header: s.Frame.Header.Clone(), Body: s.Frame.Body.Clone()}
	newH, newB, err := f.Plans()
	if err != nil {
		return err
	}
	var dropped []string
	if !s.Body {
		carry(oldH.Root, newH.Root, &f.Header, newH.Smallest(), "header.", &dropped)
	}
	carry(oldB.Root, newB.Root, &f.Body, newB.Smallest(), "", &dropped)
	old := *s
	s.Frame, s.Set, s.API, s.Version, s.Dropped = f, set, api, v, dropped
	if err := s.Encode(); err != nil {
		*s = old
		return err
	}
	return nil
}

// carry fits the struct value v, written for plan from, to plan to: values
// the new version cannot hold (null where it is not nullable) become the
// smallest, and fields present before but not now with a value other than
// their default are listed in dropped.
func carry(from, to *codec.StructPlan, v *codec.Value, smallest codec.Value, path string, dropped *[]string) {
	if v.IsNull() || len(v.List()) != len(to.Fields) {
		return
	}
	for i, tf := range to.Fields {
		ff := from.Fields[i]
		fv := &v.List()[i]
		name := path + tf.Field.Name
		if ff.Present && !tf.Present {
			if !ff.IsDefault(*fv) {
				*dropped = append(*dropped, name)
			}
			continue
		}
		if !tf.Present {
			continue
		}
		var small codec.Value
		if i < len(smallest.List()) {
			small = smallest.List()[i]
		}
		if fv.IsNull() && !tf.Nullable {
			*fv = small.Clone()
			if ff.Present {
				*dropped = append(*dropped, name+" (null is not allowed now)")
			}
			continue
		}
		if !ff.Present && !tf.IsTagged && ff.IsDefault(*fv) {
			// Newly present and never set: the smallest value, as a new
			// message has. A value set at an earlier version comes back.
			*fv = small.Clone()
			continue
		}
		switch {
		case tf.Kind == schemas.KindStruct && tf.Struct != nil && ff.Struct != nil:
			carry(ff.Struct, tf.Struct, fv, small, name+".", dropped)
		case tf.Kind == schemas.KindArray && tf.Elem == schemas.KindStruct && !fv.IsNull():
			var es codec.Value
			if len(small.List()) > 0 {
				es = small.List()[0]
			}
			for j := range fv.List() {
				carry(ff.Struct, tf.Struct, &fv.List()[j], es, name+"["+strconv.Itoa(j)+"].", dropped)
			}
		}
	}
}
