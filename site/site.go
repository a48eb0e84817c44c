// Package site renders kwire's static docs site into a directory, across
// every embedded Kafka release: an index of every API any release has, one
// page per API version that any release has (the smallest legal request and
// response, their byte layout, object tree and schema, rendered from the
// newest release that has the version, stable before unstable, with the
// releases that have it and how its schema differs between them), a matrix
// of APIs against releases, a page per release with what changed since the
// one before, the error codes and a page on the primitive types and framing
// (from the newest release). Paths: apis/index.html, apis/JoinGroup/index.html
// for the highest version, apis/JoinGroup/v8.html, apis/releases.html,
// apis/release/4.1.html, apis/errors.html, apis/types.html. The explorer's
// files go to the top. Links are relative, so the site works under any path
// and from file://.
//
// Renders the docs site across the releases: an index of every API of every
// release, a page per API version that any release has (facts, bytes, tree,
// schema with its comments, version history; rendered from the newest
// release that has the version, stable first, with the releases that have it
// and the differences of its schema between them), a matrix of APIs against
// releases, a page per release (what changed since the one before), errors,
// types and framing (from the newest release), the address atlas
// (addresses.go, linked from the index; the nav of the API pages unchanged).
package site

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/klauspost/compress/gzip"

	"kwire/schemas"
	"kwire/schemas/sets"
)

// Options say what to build and where.
type Options struct {
	// Out is the directory the site is written into (created if missing).
	Out string
	// Sets are the releases to document, oldest first; nil means every
	// embedded release in the order of sets.Releases. The last is the
	// newest: the index, error codes and types pages are its.
	Sets []*schemas.Set
	// Explorer holds the explorer's static files (index.html, kwire.css,
	// ...), copied to the top of Out; nil when there is no explorer. Pages
	// link to the explorer only when it has an index.html.
	Explorer fs.FS
	// NoGzip skips writing NAME.gz next to each compressible file.
	NoGzip bool
}

// Stats count what Build wrote.
type Stats struct {
	Pages     int   // HTML pages written by the docs
	Files     int   // files in Out afterwards, .gz included
	Bytes     int64 // total size of Out without the .gz files
	GzipBytes int64 // total size of the .gz files
}

// Root is the folder of the docs inside Out (the explorer links to
// apis/index.html).
const Root = "apis"

// Build writes the site into o.Out.
func Build(o Options) (Stats, error) {
	var st Stats
	if o.Sets == nil {
		for _, r := range sets.Releases() {
			s, err := sets.Load(r.Name)
			if err != nil {
				return st, err
			}
			o.Sets = append(o.Sets, s)
		}
		if len(o.Sets) == 0 {
			return st, sets.ErrMissing
		}
	}
	b, err := newBuilder(o.Out, o.Sets)
	if err != nil {
		return st, err
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return st, err
	}
	if o.Explorer != nil {
		if err := copyFS(o.Out, o.Explorer); err != nil {
			return st, fmt.Errorf("site: copying the explorer: %w", err)
		}
		if _, err := fs.Stat(o.Explorer, "index.html"); err == nil {
			b.explorer = true
		}
		if _, err := fs.Stat(o.Explorer, "kwire.css"); err == nil {
			b.sharedCSS = true
		}
		if _, err := fs.Stat(o.Explorer, "theme.js"); err == nil {
			b.themeJS = true
		}
	}
	jobs, err := b.jobs()
	if err != nil {
		return st, err
	}
	if err := run(jobs, func(j job) error {
		data, err := j.render()
		if err != nil {
			return fmt.Errorf("site: %s: %w", j.path, err)
		}
		return os.WriteFile(filepath.Join(o.Out, filepath.FromSlash(j.path)), data, 0o644)
	}); err != nil {
		return st, err
	}
	st.Pages = int(b.pages.Load())
	if err := gzipTree(o.Out, !o.NoGzip); err != nil {
		return st, err
	}
	err = filepath.WalkDir(o.Out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		st.Files++
		if strings.HasSuffix(p, ".gz") {
			st.GzipBytes += info.Size()
		} else {
			st.Bytes += info.Size()
		}
		return nil
	})
	return st, err
}

// builder holds what every page needs.
type builder struct {
	out       string
	sets      []*schemas.Set // the releases, oldest first
	rels      []sets.Release // of sets, in the same order
	apis      []*apiEntry    // every API key of every release, by key
	byKey     map[int16]*apiEntry
	explorer  bool // the explorer's index.html is at the top of Out
	sharedCSS bool // the explorer's kwire.css is at the top of Out
	themeJS   bool // the explorer's theme.js (saved light/dark choice) is there
	pages     atomic.Int64
}

// apiEntry is one API key across the releases.
type apiEntry struct {
	key int16
	// name is the API's name in the newest release that has it (not
	// removed): the folder of its pages.
	name string
	// in holds the API in each release (builder.sets order), nil where
	// the release lacks the key.
	in []*schemas.API
	// versions are the versions that some release has in both
	// directions, ascending: one page each.
	versions []int16
}

// top is the highest version of an entry: its page is NAME/index.html.
func (e *apiEntry) top() int16 {
	if len(e.versions) == 0 {
		return -1
	}
	return e.versions[len(e.versions)-1]
}

// current is the release index and API of the newest release that has the
// entry's API and has not removed it (the last to have it when every
// release that has the key lists it removed).
func (e *apiEntry) current() (int, *schemas.API) {
	last := -1
	for i := len(e.in) - 1; i >= 0; i-- {
		if a := e.in[i]; a != nil {
			if !a.Removed() {
				return i, a
			}
			if last < 0 {
				last = i
			}
		}
	}
	return last, e.in[last]
}

// with lists the releases (indexes into builder.sets, oldest first) that
// have version v of the entry in both directions.
func (e *apiEntry) with(v int16) []int {
	var out []int
	for i, a := range e.in {
		if a != nil && hasVersion(a, v) {
			out = append(out, i)
		}
	}
	return out
}

// source is the release a version's page is rendered from, by
// sets.ForVersion's rule over both directions: the newest release that has
// the version, one where it is stable before one where it is not; -1 when
// no release has it.
func (e *apiEntry) source(v int16) int {
	rs := e.with(v)
	for i := len(rs) - 1; i >= 0; i-- {
		if !sets.Unstable(e.in[rs[i]], v) {
			return rs[i]
		}
	}
	if len(rs) == 0 {
		return -1
	}
	return rs[len(rs)-1]
}

// newBuilder indexes the releases' APIs.
func newBuilder(out string, ss []*schemas.Set) (*builder, error) {
	if len(ss) == 0 {
		return nil, errors.New("site: no schema sets to build")
	}
	b := &builder{out: out, sets: ss, byKey: map[int16]*apiEntry{}}
	for i, s := range ss {
		b.rels = append(b.rels, sets.ParseSource(s.Name, s.Source))
		for _, api := range s.APIs() {
			if api.Request == nil || api.Response == nil {
				return nil, fmt.Errorf("site: set %s: %s lacks a request or response schema", s.Name, api.Name)
			}
			e := b.byKey[api.Key]
			if e == nil {
				e = &apiEntry{key: api.Key, in: make([]*schemas.API, len(ss))}
				b.byKey[api.Key] = e
				b.apis = append(b.apis, e)
			}
			e.in[i] = api
		}
	}
	sort.Slice(b.apis, func(i, j int) bool { return b.apis[i].key < b.apis[j].key })
	for _, e := range b.apis {
		_, api := e.current()
		e.name = api.Name
		for _, a := range e.in {
			e.versions = append(e.versions, versionsOf(a)...)
		}
		slices.Sort(e.versions)
		e.versions = slices.Compact(e.versions)
	}
	return b, nil
}

// newest is the newest release's set.
func (b *builder) newest() *schemas.Set { return b.sets[len(b.sets)-1] }

// release is the release of a set of the builder.
func (b *builder) release(s *schemas.Set) sets.Release {
	if i := slices.Index(b.sets, s); i >= 0 {
		return b.rels[i]
	}
	return sets.ParseSource(s.Name, s.Source)
}

// job renders one file of the site; path is relative to Out, with slashes.
type job struct {
	path   string
	render func() ([]byte, error)
}

// apiPath is the page of an API at version v (the highest at
// NAME/index.html), whichever release it is rendered from.
func (b *builder) apiPath(key, v int16) string {
	e := b.byKey[key]
	if v == e.top() {
		return Root + "/" + e.name + "/index.html"
	}
	return fmt.Sprintf("%s/%s/v%d.html", Root, e.name, v)
}

// releasePath is the page of what changed in a release.
func releasePath(name string) string { return Root + "/release/" + name + ".html" }

// matrixPath is the page of every API against every release.
const matrixPath = Root + "/releases.html"

// latest is the highest request version of api in its set.
func latest(api *schemas.API) int16 { return api.Request.ValidVersions.Hi }

// hasVersion reports whether api has version v in both directions.
func hasVersion(api *schemas.API, v int16) bool {
	return api.Request != nil && api.Response != nil &&
		api.Request.ValidVersions.Contains(v) && api.Response.ValidVersions.Contains(v)
}

// jobs lists every file of the docs and creates their folders.
func (b *builder) jobs() ([]job, error) {
	var jobs []job
	for _, dir := range []string{Root, Root + "/release"} {
		if err := os.MkdirAll(filepath.Join(b.out, filepath.FromSlash(dir)), 0o755); err != nil {
			return nil, err
		}
	}
	newest := b.newest()
	jobs = append(jobs,
		job{Root + "/docs.css", func() ([]byte, error) { return b.css(), nil }},
		job{Root + "/docs.js", func() ([]byte, error) { return assets.ReadFile("assets/docs.js") }},
		job{Root + "/index.html", b.indexPage},
		job{Root + "/errors.html", func() ([]byte, error) { return b.errorsPage(newest) }},
		job{Root + "/types.html", func() ([]byte, error) { return b.typesPage(newest) }},
		job{matrixPath, b.matrixPage},
		job{addressesPath, b.addressesPage},
	)
	for i := range b.sets {
		jobs = append(jobs, job{releasePath(b.sets[i].Name), func() ([]byte, error) { return b.releasePage(i) }})
	}
	for _, e := range b.apis {
		if err := os.MkdirAll(filepath.Join(b.out, Root, e.name), 0o755); err != nil {
			return nil, err
		}
		for _, v := range e.versions {
			s := b.sets[e.source(v)]
			jobs = append(jobs, job{b.apiPath(e.key, v), func() ([]byte, error) { return b.apiPage(s, s.APIByKey(e.key), v) }})
		}
	}
	return jobs, nil
}

// run calls f for every job on one goroutine per CPU and returns the
// first error. A panic in a job (a codec bug on one page) is returned as
// that job's error rather than ending the build without a word.
func run(jobs []job, f func(job) error) error {
	f = guard(f)
	var (
		next  atomic.Int64
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	for range max(runtime.GOMAXPROCS(0), 1) {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(jobs) {
					return
				}
				if err := f(jobs[i]); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
					return
				}
			}
		})
	}
	wg.Wait()
	return first
}

// guard turns a panic in f into an error naming the job.
func guard(f func(job) error) func(job) error {
	return func(j job) (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("site: %s: panic: %v", j.path, r)
			}
		}()
		return f(j)
	}
}

// copyFS copies every file of src into dir.
func copyFS(dir string, src fs.FS) error {
	return fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := fs.ReadFile(src, p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
}

// compressible are the extensions that get a .gz sibling.
var compressible = map[string]bool{".html": true, ".css": true, ".js": true, ".wasm": true, ".json": true, ".svg": true, ".txt": true, ".tsv": true}

// MinGzip is the smallest file worth compressing.
const MinGzip = 512

// gzipTree writes NAME.gz next to every compressible file of dir (the
// explorer's kwire.wasm and wasm_exec.js included), replacing stale ones;
// without write it removes them, so that no stale .gz is served.
func gzipTree(dir string, write bool) error {
	var files []job
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !compressible[strings.ToLower(path.Ext(p))] {
			return err
		}
		files = append(files, job{path: p})
		return nil
	})
	if err != nil {
		return err
	}
	sort.Slice(files, func(i, j int) bool { return files[i].path < files[j].path })
	return run(files, func(j job) error {
		gzPath := j.path + ".gz"
		var data []byte
		if write {
			if data, err = os.ReadFile(j.path); err != nil {
				return err
			}
		}
		if len(data) < MinGzip {
			if err := os.Remove(gzPath); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
			return nil
		}
		var buf bytes.Buffer
		zw, err := gzip.NewWriterLevel(&buf, gzip.DefaultCompression)
		if err != nil {
			return err
		}
		if _, err := zw.Write(data); err != nil {
			return err
		}
		if err := zw.Close(); err != nil {
			return err
		}
		return os.WriteFile(gzPath, buf.Bytes(), 0o644)
	})
}

// rel is the relative URL from the page at from to the file at to (both
// relative to Out, with slashes).
func rel(from, to string) string {
	fd := strings.Split(path.Dir(from), "/")
	if path.Dir(from) == "." {
		fd = nil
	}
	td := strings.Split(to, "/")
	i := 0
	for i < len(fd) && i < len(td)-1 && fd[i] == td[i] {
		i++
	}
	return strings.Repeat("../", len(fd)-i) + strings.Join(td[i:], "/")
}
