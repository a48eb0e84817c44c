package schemas

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"kwire/internal/xfmt"
)

// API is a request/response pair sharing an API key.
type API struct {
	Key      int16
	Name     string // "JoinGroup"
	Request  *Message
	Response *Message
}

// Direction says whether a message is a request or a response (codec's
// frames are of one direction: codec.Direction is this type).
type Direction uint8

// The two directions.
const (
	Request Direction = iota
	Response
)

// String is "request" or "response".
func (d Direction) String() string {
	if d == Response {
		return "response"
	}
	return "request"
}

// Schema is the request or response schema of api.
func (d Direction) Schema(api *API) *Message {
	if d == Response {
		return api.Response
	}
	return api.Request
}

// ErrorCode is one row of errors.tsv.
type ErrorCode struct {
	Code    int16
	Name    string
	Message string
}

// Set is the registry of one schema set: every message of message/,
// coordinator/ and metadata/, the request/response pairs by key and name,
// the two headers and the error codes.
//
// A set opened with OpenSet reads its schemas when they are asked for
// (Message, APIByKey, LookupAPI read the files of one message or API;
// Messages, APIs and Broken every file): what it gives is what LoadSet's
// gives.
type Set struct {
	Name           string
	Source         string // the set's SOURCE file
	RequestHeader  *Message
	ResponseHeader *Message
	Errors         []ErrorCode

	messages []*Message // sorted by name
	apis     []*API     // sorted by key
	broken   []error

	byName map[string]*Message
	byKey  map[int16]*API
	errs   map[int16]ErrorCode

	// lazy holds the files of an OpenSet set not read yet; nil for a set
	// read whole.
	lazy *lazySet
}

// Messages lists every message of the set by name.
func (s *Set) Messages() []*Message {
	s.need("", every)() // then the set stays as it is
	return s.messages
}

// APIs lists the set's APIs by key: those whose request and response
// both loaded.
func (s *Set) APIs() []*API {
	s.need("", every)() // then the set stays as it is
	return s.apis
}

// Broken lists the files that did not load, each with its errors
// (file:line:col); the set holds every other file.
func (s *Set) Broken() []error {
	s.need("", every)() // then the set stays as it is
	return s.broken
}

// SchemaDirs are the folders of a set that hold schemas.
var SchemaDirs = []string{"message", "coordinator", "metadata"}

// LoadSet reads and validates every schema of a set rooted at fsys. A file
// that does not load is left out and listed in Broken: one broken file
// never takes the set down. An error means the set has no message/ folder
// or a file could not be read.
func LoadSet(fsys fs.FS, name string) (*Set, error) {
	s, err := OpenSet(fsys, name)
	if err == nil && s.lazy != nil {
		s.need("", every)()
		s.lazy = nil
	}
	return s, err
}

// SetErrors gives the set an error table (a draft set takes the one of the
// set it was written against).
func (s *Set) SetErrors(errs []ErrorCode) {
	s.Errors = errs
	s.errs = make(map[int16]ErrorCode, len(errs))
	for _, e := range errs {
		s.errs[e.Code] = e
	}
}

// NewSet builds a registry from messages already parsed (drafts); a
// message that clashes with one before it is left out, with an error.
func NewSet(name string, msgs []*Message) (*Set, error) {
	s := &Set{Name: name, byName: map[string]*Message{}, byKey: map[int16]*API{}}
	for _, m := range msgs {
		if err := s.add(m); err != nil {
			s.broken = append(s.broken, err)
			continue
		}
		s.messages = append(s.messages, m)
	}
	s.sort()
	return s, errors.Join(s.broken...)
}

// sort lists the APIs by key and the messages by name.
func (s *Set) sort() {
	s.apis = s.apis[:0]
	for _, a := range s.byKey {
		s.apis = append(s.apis, a)
	}
	sort.Slice(s.apis, func(i, j int) bool { return s.apis[i].Key < s.apis[j].Key })
	sort.Slice(s.messages, func(i, j int) bool { return s.messages[i].Name < s.messages[j].Name })
}

// add indexes one message; a message that clashes with one already
// indexed (same name, or an API key named otherwise) is refused.
func (s *Set) add(m *Message) error {
	if prev, dup := s.byName[m.Name]; dup {
		return xfmt.Errorf("%s: two schemas are named %s (the other is %s); this one is left out", m.File, m.Name, prev.File)
	}
	switch m.Type {
	case "header":
		switch m.Name {
		case "RequestHeader":
			s.RequestHeader = m
		case "ResponseHeader":
			s.ResponseHeader = m
		}
	case "request", "response":
		key := int16(m.APIKey)
		a := s.byKey[key]
		if a != nil && a.Name != m.APIName() {
			return xfmt.Errorf("%s: api key %d is used by %s and %s; this one is left out", m.File, key, a.Name, m.APIName())
		}
		if a == nil {
			a = &API{Key: key, Name: m.APIName()}
			s.byKey[key] = a
		}
		if m.Type == "request" {
			a.Request = m
		} else {
			a.Response = m
		}
	}
	s.byName[m.Name] = m
	return nil
}

// Removed says whether the API is kept in the set only to reserve its key
// ("validVersions": "none" and no fields).
func (a *API) Removed() bool { return a.Request.ValidVersions.None }

// Message returns the schema with that name, or nil.
func (s *Set) Message(name string) *Message {
	defer s.need(name, none)()
	return s.byName[name]
}

// APIByKey returns the API with that key, or nil.
func (s *Set) APIByKey(key int16) *API {
	defer s.need("", int(key))()
	return s.byKey[key]
}

// LookupAPI finds an API by key ("11") or name, case-insensitively, with or
// without a Request/Response suffix ("JoinGroup", "joingrouprequest"). Of
// an API whose schemas an OpenSet set could not read, it returns their
// errors.
func (s *Set) LookupAPI(nameOrKey string) (*API, error) {
	n, err := strconv.Atoi(nameOrKey)
	numeric, key := err == nil, none
	low := strings.ToLower(nameOrKey)
	for _, e := range s.APIIndex() {
		name := strings.ToLower(e.Name)
		if numeric && int(e.Key) == n || !numeric && low == name {
			key = int(e.Key)
			break
		}
		if !numeric && key == none && (low == name+"request" || low == name+"response") {
			key = int(e.Key)
		}
	}
	defer s.need("", key)()
	if a := s.byKey[int16(key)]; a != nil && key != none {
		return a, nil
	}
	if l := s.lazy; l != nil {
		for _, f := range l.files {
			if f.key == key && key != none && f.err != nil {
				return nil, f.err
			}
		}
	}
	if numeric {
		return nil, xfmt.Errorf("set %s has no API with key %d", s.Name, n)
	}
	return nil, xfmt.Errorf("set %s has no API named %q (try `kwire apis`)", s.Name, nameOrKey)
}

// ErrorCode returns the error with that code.
func (s *Set) ErrorCode(code int16) (ErrorCode, bool) {
	e, ok := s.errs[code]
	return e, ok
}

func parseErrors(tsv []byte) ([]ErrorCode, error) {
	var out []ErrorCode
	sc := bufio.NewScanner(bytes.NewReader(tsv))
	line := 0
	for sc.Scan() {
		line++
		if line == 1 || sc.Text() == "" {
			continue
		}
		cols := strings.SplitN(sc.Text(), "\t", 3)
		if len(cols) < 2 {
			return nil, xfmt.Errorf("line %d: want code, name, message", line)
		}
		code, err := strconv.ParseInt(cols[0], 10, 16)
		if err != nil {
			return nil, xfmt.Errorf("line %d: %v", line, err)
		}
		e := ErrorCode{Code: int16(code), Name: cols[1]}
		if len(cols) == 3 {
			e.Message = cols[2]
		}
		out = append(out, e)
	}
	return out, sc.Err()
}
