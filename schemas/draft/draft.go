// Package draft reads draft Kafka message schemas as KIP authors paste
// them: it accepts what Kafka's own files accept (JSON with comments),
// repairs what drafts get wrong (missing or trailing commas, strings broken
// over lines, an unquoted "default": null, "apiKey": TBD, a wiki page
// around the JSON, several schemas in one paste), reports each repair and
// each error as a Diagnostic at its line and column in the paste, and
// loads what it can into a schemas.Set that encodes and decodes like a
// released one.
package draft

import (
	"bytes"
	"sort"
	"strings"

	"kwire/internal/xfmt"
	"kwire/schemas"
)

// Severity says whether a diagnostic was repaired or not.
type Severity uint8

const (
	// Warning: the reader repaired it, or it does not stop the schema
	// from loading; Kafka's generator would still reject most of them.
	Warning Severity = iota
	// Error: it could not be repaired; what it concerns is left out.
	Error
)

// String is "warning" or "error".
func (s Severity) String() string {
	if s == Error {
		return "error"
	}
	return "warning"
}

// MarshalText writes "warning" or "error".
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Diagnostic is one thing the reader repaired or could not, at a place in
// the paste. Line and Col count from 1 (Col in bytes, as schemas.Pos);
// Offset is the byte offset in the paste.
type Diagnostic struct {
	Severity   Severity `json:"severity"`
	Line       int      `json:"line"`
	Col        int      `json:"col"`
	Offset     int      `json:"offset"`
	Message    string   `json:"message"`
	Suggestion string   `json:"suggestion,omitempty"`
	Schema     string   `json:"schema,omitempty"` // the name of the schema it is in, when known
}

// String formats the diagnostic as "LINE:COL: severity: message (suggestion)".
func (d Diagnostic) String() string {
	s := xfmt.Sprintf("%d:%d: %s: %s", d.Line, d.Col, d.Severity, d.Message)
	if d.Suggestion != "" {
		s += " (" + d.Suggestion + ")"
	}
	return s
}

// Options say how to read a draft.
type Options struct {
	// File names the paste in positions ("" for none).
	File string
	// Base is the released set the draft goes with: its request and
	// response headers frame the draft's messages, a TBD apiKey gets a
	// placeholder it does not use, and keys are checked against it. Nil:
	// no headers (frames cannot be built) and no checks.
	Base *schemas.Set
	// Keys are the API keys the user chose for APIs whose key is TBD, by
	// API name ("StreamsGroupHeartbeat"); they replace the placeholders.
	Keys map[string]int16
	// Check, when set, is called for each request and response of the
	// draft's set, at its latest version; an error it returns is reported
	// as a diagnostic: "NAME vN does not encode: ERROR".
	// draftcodec's Load sets it to the codec's encode check (this
	// package does not import the codec).
	Check func(set *schemas.Set, api *schemas.API, dir schemas.Direction, m *schemas.Message, version int16) error
}

// KeySource says where a schema's API key came from.
type KeySource uint8

// Where keys come from.
const (
	KeyWritten     KeySource = iota // written in the schema
	KeyPartner                      // TBD here, written in the request or response it pairs with
	KeyPlaceholder                  // TBD: a placeholder unused in the base set and the draft
	KeyChosen                       // TBD: chosen by the user (Options.Keys)
	KeyNone                         // not a request or response
)

// String names the source: written, partner, placeholder, chosen, none.
func (k KeySource) String() string {
	return [...]string{"written", "partner", "placeholder", "chosen", "none"}[k]
}

// Schema is one schema object found in the paste.
type Schema struct {
	// Message is the schema as loaded, without the fields in Skipped; its
	// positions (fields, structs) point into the paste. Nil when nothing
	// could be loaded.
	Message *schemas.Message
	Name    string // as written ("" when absent)
	Type    string // request, response, ...
	API     string // the API name: Name without its Request/Response suffix
	// Start and End are the byte span of the object in the paste; Line and
	// EndLine its first and last lines.
	Start, End    int
	Line, EndLine int
	// Key is the API key used, and KeySource where it came from.
	Key       int16
	KeySource KeySource
	// Repaired is the object as Kafka's generator would read it: the
	// repairs made, the placeholder key written. Fields with errors are
	// still in it (they are left out of Message only).
	Repaired []byte
	// Skipped are the fields left out, with their positions in the paste.
	Skipped []schemas.SkippedField
	// InSet reports whether Message is in Draft.Set (false for a duplicate
	// name or a schema without a name).
	InSet bool
}

// Draft is a paste read.
type Draft struct {
	File   string
	Source []byte
	// Schemas are the schema objects found, in paste order.
	Schemas []*Schema
	// Set holds the draft's messages (and the base set's headers unless the
	// draft has its own); nil when no schema loaded. Its APIs are the
	// draft's, paired by name.
	Set *schemas.Set
	// Diagnostics are sorted by position.
	Diagnostics []Diagnostic

	base   *schemas.Set
	idx    lineIndex
	counts [2]int // by severity
}

// SetName is the name of a draft's set.
const SetName = "draft"

// Load reads a paste. It never fails: what cannot be read is reported in
// Diagnostics and left out.
func Load(src []byte, o Options) *Draft {
	d := &Draft{File: o.File, Source: src, base: o.Base, idx: newLineIndex(src)}
	regions := d.scan()
	d.keys(regions, o)
	for _, r := range regions {
		d.load(r)
	}
	d.buildSet()
	d.check(o.Check)
	sort.SliceStable(d.Diagnostics, func(i, j int) bool { return d.Diagnostics[i].Offset < d.Diagnostics[j].Offset })
	for _, g := range d.Diagnostics {
		d.counts[g.Severity]++
	}
	if n := len(d.Diagnostics); n > MaxDiagnostics {
		more := d.Diagnostics[MaxDiagnostics]
		sev := Warning
		for _, g := range d.Diagnostics[MaxDiagnostics:] {
			sev = max(sev, g.Severity)
		}
		d.Diagnostics = d.Diagnostics[:MaxDiagnostics]
		d.diag(sev, more.Offset, "", xfmt.Sprintf("%d more diagnostics are not listed", n-MaxDiagnostics), "")
	}
	return d
}

// MaxDiagnostics is how many diagnostics a draft lists; one more says how
// many were left out.
const MaxDiagnostics = 1000

// Errors counts the diagnostics of severity Error, listed or not.
func (d *Draft) Errors() int { return d.counts[Error] }

// Warnings counts the diagnostics of severity Warning, listed or not.
func (d *Draft) Warnings() int { return d.counts[Warning] }

// APIs are the draft's request/response pairs, by key.
func (d *Draft) APIs() []*schemas.API {
	if d.Set == nil {
		return nil
	}
	return d.Set.APIs()
}

// LookupAPI finds a draft API by name (with or without its Request or
// Response suffix, in any case) or key.
func (d *Draft) LookupAPI(nameOrKey string) (*schemas.API, error) {
	if d.Set == nil {
		return nil, xfmt.Errorf("the draft has no schema that loaded")
	}
	return d.Set.LookupAPI(nameOrKey)
}

// Schema returns the schema of that message name, or nil.
func (d *Draft) Schema(name string) *Schema {
	for _, s := range d.Schemas {
		if s.Name == name && s.InSet {
			return s
		}
	}
	return nil
}

// Key returns the key an API of the draft uses (named as LookupAPI takes
// it) and where the key came from: a placeholder or the user's choice is
// what the page offers to change (Options.Keys).
func (d *Draft) Key(api string) (int16, KeySource, bool) {
	a, err := d.LookupAPI(api)
	if err != nil {
		return 0, KeyNone, false
	}
	for _, s := range d.Schemas {
		if s.InSet && s.API == a.Name && s.Key == a.Key {
			return s.Key, s.KeySource, true
		}
	}
	return 0, KeyNone, false
}

// diag adds a diagnostic at an offset of the paste.
func (d *Draft) diag(sev Severity, off int, schema, msg, suggestion string) {
	line, col := d.idx.pos(off)
	d.Diagnostics = append(d.Diagnostics, Diagnostic{Severity: sev, Line: line, Col: col, Offset: off, Message: msg, Suggestion: suggestion, Schema: schema})
}

// schemaKeys are the keys a schema object may start with: the reader
// looks for a '{' followed by one of them.
var schemaKeys = map[string]bool{
	"apiKey": true, "type": true, "name": true, "validVersions": true, "flexibleVersions": true,
	"deprecatedVersions": true, "latestVersionUnstable": true, "listeners": true, "fields": true, "commonStructs": true,
}

// scan finds the schema objects in the paste and reports the text around
// them.
func (d *Draft) scan() []*region {
	src := d.Source
	var regions []*region
	type stretch struct{ start, end int }
	var text []stretch
	var others []*region // objects that are not schemas
	lineStart, newStretch := true, true
	unclosed := len(src) // a "/*" from here on is not closed
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case isSpace(c):
			if c == '\n' {
				lineStart = true
			}
			i++
			continue
		case oddSpace(src[i:]) > 0:
			i += oddSpace(src[i:])
			continue
		case c == '/' && i+1 < len(src) && (src[i+1] == '/' || src[i+1] == '*') && (lineStart || i > 0 && isSpace(src[i-1])):
			if src[i+1] == '/' {
				for i < len(src) && src[i] != '\n' {
					i++
				}
				continue
			}
			if i < unclosed { // no "*/" follows unclosed
				if end := bytes.Index(src[i+2:], []byte("*/")); end >= 0 {
					i += end + 4
					continue
				}
				unclosed = i
			}
		case c == '{' && looksLikeSchema(src, i):
			r := repairObject(src, i, d.idx)
			if isSchema(r) {
				regions = append(regions, r)
			} else {
				others = append(others, r)
			}
			i = max(r.end, i+1)
			lineStart, newStretch = false, true
			continue
		}
		// Text: up to the end of the line, or to a '{' that starts a schema.
		start := i
		for i < len(src) && src[i] != '\n' && !(src[i] == '{' && looksLikeSchema(src, i)) {
			i++
		}
		if i == start {
			i++
		}
		if n := len(text); n > 0 && !newStretch {
			text[n-1].end = i
		} else {
			text = append(text, stretch{start, i})
			newStretch = false
		}
		lineStart = false
	}
	if len(regions) == 0 {
		text = nil // the error below says it all
	}
	for _, t := range text {
		where := "before the first schema"
		switch {
		case t.start > regions[len(regions)-1].start:
			where = "after the last schema"
		case t.start > regions[0].start:
			where = "between schemas"
		}
		from, to := d.idx.line(t.start), d.idx.line(max(t.start, t.end-1))
		lines := xfmt.Sprintf("line %d", from)
		if to > from {
			lines = xfmt.Sprintf("lines %d-%d", from, to)
		}
		d.diag(Warning, t.start, "", xfmt.Sprintf("text outside the JSON is ignored (%s, %s)", lines, where), "paste only the schema JSON")
	}
	for _, r := range others {
		d.diag(Warning, r.start, "", "a JSON object that is not a schema (no apiKey, validVersions or fields) is ignored", "paste whole schemas")
	}
	if len(regions) == 0 {
		d.diag(Error, 0, "", "no schema found: a schema is a JSON object with \"name\", \"type\", \"validVersions\" and \"fields\"", "paste a schema such as Kafka's clients/src/main/resources/common/message/*.json")
	}
	return regions
}

// looksLikeSchema reports whether the '{' at i starts a schema object: a
// member name of a schema follows, then a colon. The look-ahead is
// bounded.
func looksLikeSchema(src []byte, i int) bool {
	j := i + 1
	limit := min(len(src), i+1024)
	for j < limit {
		switch {
		case isSpace(src[j]):
			j++
			continue
		case oddSpace(src[j:]) > 0:
			j += oddSpace(src[j:])
			continue
		case src[j] == '/' && j+1 < len(src) && src[j+1] == '/':
			for j < limit && src[j] != '\n' {
				j++
			}
			continue
		case src[j] == '/' && j+1 < len(src) && src[j+1] == '*':
			end := bytes.Index(src[min(j+2, limit):limit], []byte("*/"))
			if end < 0 {
				return false
			}
			j += end + 4
			continue
		}
		break
	}
	if j >= limit {
		return false
	}
	var key string
	switch {
	case src[j] == '"':
		end := bytes.IndexByte(src[j+1:limit], '"')
		if end < 0 {
			return false
		}
		key, j = string(src[j+1:j+1+end]), j+end+2
	case isCurly(src[j:]) && j+3 <= limit:
		rest := string(src[j+3 : limit])
		end := strings.IndexAny(rest, "\u201c\u201d\"")
		if end < 0 {
			return false
		}
		key = rest[:end]
		j += 3 + end + 1
	default:
		end := wordEnd(src, j)
		key, j = string(src[j:end]), end
	}
	if !schemaKeys[key] {
		return false
	}
	for j < limit && (isSpace(src[j]) || src[j] >= 0x80) && src[j] != ':' {
		if src[j] >= 0x80 && !isCurly(src[j:]) && oddSpace(src[j:]) == 0 {
			return false
		}
		j++
	}
	return j < limit && src[j] == ':'
}

// isSchema reports whether an object read is a schema rather than, say,
// a field quoted on its own.
func isSchema(r *region) bool {
	has := func(k string) bool { _, ok := r.top[k]; return ok }
	if has("versions") && !has("validVersions") {
		return false // a field
	}
	return has("apiKey") || has("validVersions") || has("fields") || has("commonStructs") || has("flexibleVersions")
}

// apiName is a schema's API name: its name without the suffix of its type.
func apiName(name, typ string) string {
	switch typ {
	case "request":
		return strings.TrimSuffix(name, "Request")
	case "response":
		return strings.TrimSuffix(name, "Response")
	}
	return name
}
