// Package site renders kwire's static docs site into a directory: an index
// of every API, one page per version of every API (the smallest legal
// request and response, their byte layout, object tree and schema), the
// error codes and a page on the primitive types and framing, for every
// embedded schema set. The default set is at apis/ (apis/index.html,
// apis/JoinGroup/index.html for the latest version, apis/JoinGroup/v8.html,
// apis/errors.html, apis/types.html), the others at apis/NAME/ (apis/3.9/).
// The explorer's files go to the top. Links are relative, so the site
// works under any path and from file://.
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
	// Sets are the schema sets to document; nil means every embedded set.
	// Default (sets.Default when empty) is at apis/, the others at apis/NAME/.
	Sets    []*schemas.Set
	Default string
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
	if o.Default == "" {
		o.Default = sets.Default
	}
	if o.Sets == nil {
		for _, n := range sets.Names() {
			s, err := sets.Load(n)
			if err != nil {
				return st, err
			}
			o.Sets = append(o.Sets, s)
		}
		if len(o.Sets) == 0 {
			return st, sets.ErrMissing
		}
	}
	b := &builder{out: o.Out, def: o.Default, sets: o.Sets}
	found := false
	for _, s := range o.Sets {
		found = found || s.Name == o.Default
	}
	if !found {
		return st, fmt.Errorf("site: the default set %q is not among the sets to build", o.Default)
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
	def       string
	sets      []*schemas.Set
	explorer  bool // the explorer's index.html is at the top of Out
	sharedCSS bool // the explorer's kwire.css is at the top of Out
	themeJS   bool // the explorer's theme.js (saved light/dark choice) is there
	pages     atomic.Int64
}

// job renders one file of the site; path is relative to Out, with slashes.
type job struct {
	path   string
	render func() ([]byte, error)
}

// setDir is the folder of a set's pages, relative to Out.
func (b *builder) setDir(s *schemas.Set) string {
	if s.Name == b.def {
		return Root
	}
	return Root + "/" + s.Name
}

// apiPath is the page of api at version v (the latest at NAME/index.html).
func (b *builder) apiPath(s *schemas.Set, api *schemas.API, v int16) string {
	if v == latest(api) {
		return b.setDir(s) + "/" + api.Name + "/index.html"
	}
	return fmt.Sprintf("%s/%s/v%d.html", b.setDir(s), api.Name, v)
}

// latest is the highest request version of api.
func latest(api *schemas.API) int16 { return api.Request.ValidVersions.Hi }

// hasVersion reports whether api has version v in both directions.
func hasVersion(api *schemas.API, v int16) bool {
	return api.Request != nil && api.Response != nil &&
		api.Request.ValidVersions.Contains(v) && api.Response.ValidVersions.Contains(v)
}

// jobs lists every file of the docs and creates their folders.
func (b *builder) jobs() ([]job, error) {
	var jobs []job
	if err := os.MkdirAll(filepath.Join(b.out, Root), 0o755); err != nil {
		return nil, err
	}
	jobs = append(jobs,
		job{Root + "/docs.css", func() ([]byte, error) { return b.css(), nil }},
		job{Root + "/docs.js", func() ([]byte, error) { return assets.ReadFile("assets/docs.js") }},
	)
	for _, s := range b.sets {
		dir := b.setDir(s)
		if err := os.MkdirAll(filepath.Join(b.out, filepath.FromSlash(dir)), 0o755); err != nil {
			return nil, err
		}
		jobs = append(jobs,
			job{dir + "/index.html", func() ([]byte, error) { return b.indexPage(s) }},
			job{dir + "/errors.html", func() ([]byte, error) { return b.errorsPage(s) }},
			job{dir + "/types.html", func() ([]byte, error) { return b.typesPage(s) }},
		)
		for _, api := range s.APIs {
			if api.Request == nil || api.Response == nil {
				return nil, fmt.Errorf("site: set %s: %s lacks a request or response schema", s.Name, api.Name)
			}
			if err := os.MkdirAll(filepath.Join(b.out, filepath.FromSlash(dir), api.Name), 0o755); err != nil {
				return nil, err
			}
			vs := api.Request.ValidVersions
			for v := vs.Lo; v <= vs.Hi && !vs.None; v++ {
				if !hasVersion(api, v) {
					continue
				}
				jobs = append(jobs, job{b.apiPath(s, api, v), func() ([]byte, error) { return b.apiPage(s, api, v) }})
			}
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
