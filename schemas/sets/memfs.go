package sets

import (
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"
)

// memFS is a read-only file system in memory, from file paths to their
// contents; folders are implied by the paths. It does what LoadSet asks of
// a file system (ReadDir, ReadFile, Stat, Sub) and no more: the browser
// app reads the sets from it, and testing/fstest would add 65 KB there.
type memFS map[string][]byte

func (m memFS) ReadFile(name string) ([]byte, error) {
	if b, ok := m[name]; ok && fs.ValidPath(name) {
		return append([]byte(nil), b...), nil // the caller may change it
	}
	return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrNotExist}
}

func (m memFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	prefix := name + "/"
	if name == "." {
		prefix = ""
	}
	seen := map[string]bool{}
	var out []fs.DirEntry
	for p := range m {
		rest, ok := strings.CutPrefix(p, prefix)
		if !ok {
			continue
		}
		child, _, isDir := strings.Cut(rest, "/")
		if seen[child] {
			continue
		}
		seen[child] = true
		size := len(m[p])
		if isDir {
			size = 0
		}
		out = append(out, memInfo{name: child, dir: isDir, size: size})
	}
	if len(out) == 0 {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, nil
}

func (m memFS) Open(name string) (fs.File, error) {
	if b, err := m.ReadFile(name); err == nil {
		return &memFile{memInfo: memInfo{name: path.Base(name), size: len(b)}, r: strings.NewReader(string(b))}, nil
	}
	if entries, err := m.ReadDir(name); err == nil {
		return &memFile{memInfo: memInfo{name: path.Base(name), dir: true}, r: strings.NewReader(""), entries: entries}, nil
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// memInfo describes a file or folder of a memFS.
type memInfo struct {
	name string
	dir  bool
	size int
}

func (i memInfo) Name() string               { return i.name }
func (i memInfo) Size() int64                { return int64(i.size) }
func (i memInfo) ModTime() time.Time         { return time.Time{} }
func (i memInfo) IsDir() bool                { return i.dir }
func (i memInfo) Sys() any                   { return nil }
func (i memInfo) Type() fs.FileMode          { return i.Mode().Type() }
func (i memInfo) Info() (fs.FileInfo, error) { return i, nil }
func (i memInfo) Mode() fs.FileMode {
	if i.dir {
		return fs.ModeDir | 0o555
	}
	return 0o444
}

type memFile struct {
	memInfo
	r       io.Reader
	entries []fs.DirEntry // of a folder, not yet read
}

// ReadDir reads a folder's entries as fs.ReadDirFile does.
func (f *memFile) ReadDir(n int) ([]fs.DirEntry, error) {
	if !f.dir {
		return nil, &fs.PathError{Op: "readdir", Path: f.name, Err: fs.ErrInvalid}
	}
	if n <= 0 {
		out := f.entries
		f.entries = nil
		return out, nil
	}
	if len(f.entries) == 0 {
		return nil, io.EOF
	}
	k := min(n, len(f.entries))
	out := f.entries[:k]
	f.entries = f.entries[k:]
	return out, nil
}

func (f *memFile) Stat() (fs.FileInfo, error) { return f.memInfo, nil }
func (f *memFile) Read(b []byte) (int, error) {
	if f.dir {
		return 0, &fs.PathError{Op: "read", Path: f.name, Err: fs.ErrInvalid}
	}
	return f.r.Read(b)
}
func (f *memFile) Close() error { return nil }
