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

// IndexFile is the file of a set that lets OpenSet read its schemas when
// they are asked for (WriteIndex writes it). It is made at build time for
// the browser's bundle (sets.Bundle), never kept with Kafka's files.
const IndexFile = "kwire-index.tsv"

// WriteIndex lists the schema files of the set at fsys in LoadSet's order,
// each as a line "path\tname\ttype\tapiKey" of what Parse reads in it
// (apiKey -1 when it has none), for OpenSet. Of a file that is not JSON
// whose name ends in Request or Response it guesses the name from the
// file's and the key from its API's other half, so that the API's errors
// are found when it is asked for; of other such files name and type are
// empty.
func WriteIndex(fsys fs.FS, name string) ([]byte, error) {
	paths, err := schemaFiles(fsys, name)
	if err != nil {
		return nil, err
	}
	ms := make([]*Message, len(paths))
	keys := map[string]int{} // message names to their API keys
	for i, p := range paths {
		src, err := fs.ReadFile(fsys, p)
		if err != nil {
			return nil, err
		}
		ms[i], _ = Parse(p, src)
		if ms[i] != nil {
			keys[ms[i].Name] = ms[i].APIKey
		}
	}
	var out []byte
	for i, p := range paths {
		m := ms[i]
		if m == nil {
			m = &Message{Name: strings.TrimSuffix(path.Base(p), ".json"), APIKey: -1}
			for _, h := range [2][3]string{{"request", "Request", "Response"}, {"response", "Response", "Request"}} {
				if api, ok := strings.CutSuffix(m.Name, h[1]); ok {
					if key, ok := keys[api+h[2]]; ok {
						m.Type, m.APIKey = h[0], key
					}
				}
			}
		}
		if m.Type == "" || strings.ContainsAny(m.Name+m.Type, "\t\n") {
			m = &Message{APIKey: -1}
		}
		out = append(out, p+"\t"+m.Name+"\t"+m.Type+"\t"+strconv.Itoa(m.APIKey)+"\n"...)
	}
	return out, nil
}

// schemaFiles lists the schema files of a set, in the order LoadSet reads
// them.
func schemaFiles(fsys fs.FS, name string) ([]string, error) {
	var paths []string
	for _, dir := range SchemaDirs {
		entries, err := fs.ReadDir(fsys, dir)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && dir != "message" {
				continue
			}
			return nil, xfmt.Errorf("schema set %s: %w", name, err)
		}
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") {
				paths = append(paths, path.Join(dir, e.Name()))
			}
		}
	}
	return paths, nil
}

// OpenSet is LoadSet for a set with an IndexFile: it reads the headers,
// SOURCE and errors.tsv at once, and every other schema file when
// something asks for its message or API, then reports its errors, if any:
// LookupAPI returns them, with their file:line:col, and Broken lists them
// (with those of every file: Messages, APIs and Broken read them all). Of
// files that clash (two schemas of one name, an API key of two APIs) the
// first read is kept, as LoadSet keeps the first in its order. A set
// without an index is read whole, as LoadSet reads it. In the browser,
// parsing the newest release whole took most of the explorer's start-up
// (about 65 ms; 5 ms natively), where its first view needs four files.
func OpenSet(fsys fs.FS, name string) (*Set, error) {
	s := &Set{Name: name, byName: map[string]*Message{}, byKey: map[int16]*API{}, lazy: &lazySet{fsys: fsys}}
	l := s.lazy
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
	index, err := fs.ReadFile(fsys, IndexFile)
	lines := strings.Split(string(index), "\n")
	for _, line := range lines[:len(lines)-1] {
		cols := strings.Split(line, "\t")
		if len(cols) != 4 {
			err = fs.ErrInvalid
			break
		}
		f := lazyFile{path: cols[0], name: cols[1], header: cols[2] == "header", key: none}
		if key, err := strconv.Atoi(cols[3]); err == nil && key >= 0 && key <= 1<<15-1 && (cols[2] == "request" || cols[2] == "response") {
			f.key = key
			if cols[2] == "request" {
				l.index = append(l.index, APIEntry{Key: int16(key), Name: strings.TrimSuffix(f.name, "Request")}) // its APIName
			}
		}
		l.files = append(l.files, f)
	}
	if err != nil { // no index, or one WriteIndex did not write: read every file now
		paths, err := schemaFiles(fsys, name)
		if err != nil {
			return nil, err
		}
		l.files, l.index = nil, nil
		for _, p := range paths {
			l.files = append(l.files, lazyFile{path: p, key: none})
		}
		s.need("", every)()
		s.lazy = nil
		return s, nil
	}
	sort.Slice(l.index, func(i, j int) bool { return l.index[i].Key < l.index[j].Key })
	s.need("", header)()
	return s, nil
}

// APIEntry names an API of a set.
type APIEntry struct {
	_    [0]func() // not comparable: no equality function in the browser app
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
		out[i] = APIEntry{Key: a.Key, Name: a.Name}
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
	fsys  fs.FS
	files []lazyFile // in the order LoadSet reads them
	index []APIEntry
	all   bool // every file read
	// asked holds the names and keys (as text) need read the files of:
	// asked again, as each frame of a capture asks, it has nothing to read
	// and returns at once instead of going through every file.
	asked map[string]bool
}

type lazyFile struct {
	_      [0]func() // not comparable: no equality function in the browser app
	path   string
	name   string // as the index gives them
	key    int    // the API's key, none for other files
	header bool
	read   bool
	err    error // what Parse said, for a file that did not load
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
	ask, memo := name, key >= 0 || name != ""
	if key >= 0 {
		ask = strconv.Itoa(key) // names are never numbers
	}
	if l.all || memo && l.asked[ask] {
		return l.mu.Unlock
	}
	for _, f := range l.files {
		if name != "" && f.name == name && f.key != none {
			key = f.key
		}
	}
	for i := range l.files {
		f := &l.files[i]
		if f.read || !(key == every || name != "" && f.name == name || key == header && f.header || key >= 0 && f.key == key) {
			continue
		}
		f.read = true
		var m *Message
		src, err := fs.ReadFile(l.fsys, f.path)
		if err == nil {
			m, err = Parse(f.path, src)
		}
		if err == nil {
			err = s.add(m)
		}
		if f.err = err; err == nil {
			s.messages = append(s.messages, m)
		}
	}
	for k, a := range s.byKey {
		if a.Request == nil || a.Response == nil {
			delete(s.byKey, k)
		}
	}
	if memo {
		if l.asked == nil {
			l.asked = map[string]bool{}
		}
		l.asked[ask] = true
	}
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
