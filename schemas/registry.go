package schemas

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"path"
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
type Set struct {
	Name           string
	Source         string // the set's SOURCE file
	Messages       []*Message
	APIs           []*API // sorted by key
	RequestHeader  *Message
	ResponseHeader *Message
	Errors         []ErrorCode
	// Broken are the files that did not load, each with its errors
	// (file:line:col); the set holds every other file.
	Broken []error

	byName  map[string]*Message
	byKey   map[int16]*API
	apiName map[string]*API
	errs    map[int16]ErrorCode
}

// SchemaDirs are the folders of a set that hold schemas.
var SchemaDirs = []string{"message", "coordinator", "metadata"}

// LoadSet reads and validates every schema of a set rooted at fsys. A file
// that does not load is left out and listed in Broken: one broken file
// never takes the set down. An error means the set has no message/ folder
// or a file could not be read.
func LoadSet(fsys fs.FS, name string) (*Set, error) {
	s := &Set{Name: name}
	for _, dir := range SchemaDirs {
		entries, err := fs.ReadDir(fsys, dir)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && dir != "message" {
				continue
			}
			return nil, xfmt.Errorf("schema set %s: %w", name, err)
		}
		for _, e := range entries {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") {
				continue
			}
			file := path.Join(dir, e.Name())
			src, err := fs.ReadFile(fsys, file)
			if err != nil {
				return nil, err
			}
			m, err := Parse(file, src)
			if err != nil {
				s.Broken = append(s.Broken, err)
				continue
			}
			s.Messages = append(s.Messages, m)
		}
	}
	if src, err := fs.ReadFile(fsys, "SOURCE"); err == nil {
		s.Source = string(src)
	}
	if tsv, err := fs.ReadFile(fsys, "errors.tsv"); err == nil {
		s.Errors, err = parseErrors(tsv)
		if err != nil {
			return nil, xfmt.Errorf("schema set %s: errors.tsv: %w", name, err)
		}
	}
	s.index() // clashes are in s.Broken
	s.dropHalfAPIs()
	return s, nil
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

// NewSet builds a registry from messages already parsed (drafts).
func NewSet(name string, msgs []*Message) (*Set, error) {
	s := &Set{Name: name, Messages: msgs}
	return s, s.index()
}

func (s *Set) index() error {
	s.byName = map[string]*Message{}
	s.byKey = map[int16]*API{}
	s.apiName = map[string]*API{}
	s.errs = map[int16]ErrorCode{}
	for _, e := range s.Errors {
		s.errs[e.Code] = e
	}
	kept := s.Messages[:0]
	var conflicts []error
	for _, m := range s.Messages {
		if err := s.add(m); err != nil {
			conflicts = append(conflicts, err)
			continue
		}
		kept = append(kept, m)
	}
	s.Messages = kept
	sort.Slice(s.APIs, func(i, j int) bool { return s.APIs[i].Key < s.APIs[j].Key })
	for _, a := range s.APIs {
		s.apiName[strings.ToLower(a.Name)] = a
	}
	sort.Slice(s.Messages, func(i, j int) bool { return s.Messages[i].Name < s.Messages[j].Name })
	s.Broken = append(s.Broken, conflicts...)
	return errors.Join(conflicts...)
}

// dropHalfAPIs leaves out an API whose request or response did not load
// (its broken file is in Broken already).
func (s *Set) dropHalfAPIs() {
	apis := s.APIs[:0]
	for _, a := range s.APIs {
		if a.Request == nil || a.Response == nil {
			delete(s.byKey, a.Key)
			continue
		}
		apis = append(apis, a)
	}
	s.APIs = apis
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
			s.APIs = append(s.APIs, a)
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
func (s *Set) Message(name string) *Message { return s.byName[name] }

// APIByKey returns the API with that key, or nil.
func (s *Set) APIByKey(key int16) *API { return s.byKey[key] }

// LookupAPI finds an API by key ("11") or name, case-insensitively, with or
// without a Request/Response suffix ("JoinGroup", "joingrouprequest").
func (s *Set) LookupAPI(nameOrKey string) (*API, error) {
	if n, err := strconv.Atoi(nameOrKey); err == nil {
		if a := s.byKey[int16(n)]; a != nil && n >= 0 && n <= 1<<15-1 {
			return a, nil
		}
		return nil, xfmt.Errorf("set %s has no API with key %d", s.Name, n)
	}
	low := strings.ToLower(nameOrKey)
	for _, suffix := range []string{"", "request", "response"} {
		if a := s.apiName[strings.TrimSuffix(low, suffix)]; a != nil {
			return a, nil
		}
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
