package schemas

import (
	"errors"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"

	"kwire/internal/xfmt"
)

// OpenSet is LoadSet reading only the headers, SOURCE and errors.tsv at
// once, and of every other schema file its top-level "name", "type" and
// "apiKey" (APIIndex); each file is parsed and validated when something
// asks for its message or API, and its errors, if any, are reported then:
// LookupAPI returns them, with their file:line:col, and Broken lists them
// (with those of every file: Messages, APIs and Broken read them all). A
// file whose top-level keys cannot be read is read with every file; of
// files that clash (two schemas of one name, an API key of two APIs) the
// first read is kept, as LoadSet keeps the first in its order. In the
// browser, parsing the newest release whole took most of the explorer's
// start-up (about 65 ms; 5 ms natively), where its first view needs four
// files.
func OpenSet(fsys fs.FS, name string) (*Set, error) {
	s := &Set{Name: name, byName: map[string]*Message{}, byKey: map[int16]*API{}, apiName: map[string]*API{}, lazy: &lazySet{}}
	l := s.lazy
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
			f := lazyFile{path: path.Join(dir, e.Name())}
			if f.src, err = fs.ReadFile(fsys, f.path); err != nil {
				return nil, err
			}
			f.top = scanTop(f.src)
			if f.top.api() && f.top.key >= 0 && f.top.key <= 1<<15-1 {
				l.index = append(l.index, APIEntry{Key: int16(f.top.key), Name: f.top.apiName()})
			}
			l.files = append(l.files, f)
		}
	}
	if src, err := fs.ReadFile(fsys, "SOURCE"); err == nil {
		s.Source = string(src)
	}
	if tsv, err := fs.ReadFile(fsys, "errors.tsv"); err == nil {
		errs, err := parseErrors(tsv)
		if err != nil {
			return nil, xfmt.Errorf("schema set %s: errors.tsv: %w", name, err)
		}
		s.SetErrors(errs)
	}
	// The index by key, each key once (its first file's API).
	sort.SliceStable(l.index, func(i, j int) bool { return l.index[i].Key < l.index[j].Key })
	index := l.index[:0]
	for i, e := range l.index {
		if i == 0 || e.Key != l.index[i-1].Key {
			index = append(index, e)
		}
	}
	l.index = index
	s.need("", header)()
	return s, nil
}

// APIEntry names an API of a set.
type APIEntry struct {
	Key  int16
	Name string
}

// APIIndex lists the key and name of every API of the set by key without
// reading its schemas: what APIs lists, but for an OpenSet set's APIs whose
// request or response has not been read and does not load (LookupAPI says
// why).
func (s *Set) APIIndex() []APIEntry {
	if s.lazy != nil {
		return s.lazy.index
	}
	out := make([]APIEntry, len(s.apis))
	for i, a := range s.apis {
		out[i] = APIEntry{a.Key, a.Name}
	}
	return out
}

// Unread counts the schema files of an OpenSet set not read yet.
func (s *Set) Unread() int {
	n := 0
	if l := s.lazy; l != nil {
		defer s.need("", none)()
		for _, f := range l.files {
			if !f.read {
				n++
			}
		}
	}
	return n
}

// lazySet is what an OpenSet set knows of its files; its mutex guards the
// set's maps and lists while files are read.
type lazySet struct {
	mu    sync.Mutex
	files []lazyFile // in the order LoadSet reads them
	index []APIEntry
	all   bool // every file read
}

type lazyFile struct {
	path string
	src  []byte
	top  topKeys
	read bool
	err  error // what Parse said, for a file that did not load
}

// topKeys are what scanTop reads of a schema.
type topKeys struct {
	name, typ string
	key       int // -1 when absent
}

func (t topKeys) api() bool { return t.typ == "request" || t.typ == "response" }

func (t topKeys) apiName() string {
	m := Message{Name: t.name, Type: t.typ}
	return m.APIName()
}

// What need reads besides a name: nothing, the headers, every file, or the
// API of that key.
const (
	none   = -1
	header = -2
	every  = -3
)

// need reads the files of an OpenSet set that a message name or an API key
// (or header, every) asks for, a request or response with the other half
// of its API (an API of which either does not load is left out), and
// returns with the set locked: the caller calls what it returns when done
// with the set's maps.
func (s *Set) need(name string, key int) (unlock func()) {
	l := s.lazy
	if l == nil {
		return func() {}
	}
	l.mu.Lock()
	if l.all {
		return l.mu.Unlock
	}
	for _, f := range l.files {
		if name != "" && f.top.name == name && f.top.api() {
			key = f.top.key
		}
	}
	for i := range l.files {
		f := &l.files[i]
		switch {
		case f.read:
			continue
		case key == every, name != "" && f.top.name == name,
			key == header && f.top.typ == "header",
			key >= 0 && f.top.key == key && f.top.api():
		default:
			continue
		}
		f.read = true
		m, err := Parse(f.path, f.src)
		if err == nil {
			err = s.add(m)
		}
		if f.err = err; err == nil {
			s.messages = append(s.messages, m)
		}
	}
	apis := s.apis[:0]
	for _, a := range s.apis {
		if a.Request != nil && a.Response != nil {
			apis = append(apis, a)
			continue
		}
		delete(s.byKey, a.Key)
		delete(s.apiName, strings.ToLower(a.Name))
	}
	s.apis = apis
	if key == every {
		s.sort()
		for _, f := range l.files {
			if f.err != nil {
				s.broken = append(s.broken, f.err)
			}
		}
		l.all = true
	}
	return l.mu.Unlock
}

// scanTop reads a schema's top-level "name", "type" and "apiKey" (-1 when
// absent or not read) as Parse reads them, stopping once it has all three
// or at what it cannot read.
func scanTop(src []byte) (t topKeys) {
	t.key = -1
	i := skipSpace(src, 0)
	if i >= len(src) || src[i] != '{' {
		return t
	}
	for {
		i = skipSpace(src, i+1)
		end := skipValue(src, i)
		if end < 0 || src[i] != '"' {
			return t
		}
		key := text(src[i:end])
		i = skipSpace(src, end)
		if i >= len(src) || src[i] != ':' {
			return t
		}
		i = skipSpace(src, i+1)
		end = skipValue(src, i)
		if end < 0 {
			return t
		}
		switch lit := text(src[i:end]); key {
		case "name":
			t.name = lit
		case "type":
			t.typ = lit
		case "apiKey":
			if n, err := strconv.Atoi(lit); err == nil {
				t.key = n
			}
		}
		if i = skipSpace(src, end); i >= len(src) || src[i] != ',' || t.name != "" && t.typ != "" && t.key >= 0 {
			return t
		}
	}
}

// skipSpace returns the offset of the first byte at or after i that is
// not white space or in a comment.
func skipSpace(src []byte, i int) int {
	for i < len(src) {
		switch c := src[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := strings.Index(string(src[i+2:]), "*/")
			if end < 0 {
				return len(src)
			}
			i += end + 4
		default:
			return i
		}
	}
	return i
}

// skipValue returns the end of the JSON value (with comments and trailing
// commas) that starts at i, or -1.
func skipValue(src []byte, i int) int {
	depth, start := 0, i
	for i < len(src) {
		c := src[i]
		switch {
		case c == '"':
			i++
			for i < len(src) && src[i] != '"' {
				if src[i] == '\\' {
					i++
				}
				i++
			}
			if i >= len(src) {
				return -1
			}
			i++
		case c == '{' || c == '[':
			depth++
			i++
		case c == '}' || c == ']':
			if depth == 0 {
				return i // after a bare literal
			}
			depth--
			i++
		case c == '/':
			j := skipSpace(src, i)
			if j == i {
				return -1
			}
			i = j
			continue
		case depth == 0 && (c == ',' || c == ':' || c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			return i
		default:
			i++
			continue
		}
		if depth == 0 {
			return i // a string, object or array ends here
		}
	}
	if depth == 0 && i > start {
		return i
	}
	return -1
}
