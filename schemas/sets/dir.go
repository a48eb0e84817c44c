package sets

import (
	"fmt"
	"io/fs"
	"path"
	"strings"

	"kwire/schemas"
)

// ProvideFiles replaces the sets with files given by path, as a dropped
// folder or zip holds them (the same three shapes as UseDir; base names
// a lone set).
func ProvideFiles(files map[string][]byte, base string) error {
	m := memFS{}
	for p, b := range files {
		p = strings.TrimPrefix(path.Clean("/"+strings.ReplaceAll(p, "\\", "/")), "/")
		if fs.ValidPath(p) {
			m[p] = b
		}
	}
	out, err := readDir(m, base)
	if err != nil {
		return err
	}
	mu.Lock()
	defer mu.Unlock()
	data = out
	loaded = map[string]*schemas.Set{}
	return nil
}

// setFiles are the files of a set folder that kwire reads.
func setFile(rel string) bool {
	dir, name, _ := strings.Cut(rel, "/")
	switch {
	case rel == "SOURCE" || rel == "errors.tsv":
		return true
	case strings.Contains(name, "/") || !strings.HasSuffix(name, ".json"):
		return false
	}
	for _, d := range schemas.SchemaDirs {
		if dir == d {
			return true
		}
	}
	return false
}

// readDir finds the sets in fsys and copies their files into a memFS
// laid out as the embedded sets are ("data/NAME/message/X.json").
func readDir(fsys fs.FS, base string) (memFS, error) {
	out := memFS{}
	add := func(root, name string) error {
		return fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel := strings.TrimPrefix(strings.TrimPrefix(p, root), "/")
			if root == "." {
				rel = p
			}
			if !setFile(rel) {
				return nil
			}
			b, err := fs.ReadFile(fsys, p)
			if err != nil {
				return err
			}
			out["data/"+name+"/"+rel] = b
			return nil
		})
	}
	isDir := func(p string) bool { st, err := fs.Stat(fsys, p); return err == nil && st.IsDir() }
	switch {
	case isDir("message"):
		if err := add(".", base); err != nil {
			return nil, err
		}
	default:
		entries, err := fs.ReadDir(fsys, ".")
		if err != nil {
			return nil, err
		}
		jsonFiles := false
		for _, e := range entries {
			if e.IsDir() && isDir(e.Name()+"/message") {
				if err := add(e.Name(), e.Name()); err != nil {
					return nil, err
				}
			}
			jsonFiles = jsonFiles || (!e.IsDir() && strings.HasSuffix(e.Name(), ".json"))
		}
		if len(out) == 0 && jsonFiles {
			for _, e := range entries {
				if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") {
					b, err := fs.ReadFile(fsys, e.Name())
					if err != nil {
						return nil, err
					}
					out["data/custom/message/"+e.Name()] = b
				}
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no schemas found: give a folder of sets (each with message/), a set (with message/) or a folder of Kafka's message JSON")
	}
	return out, nil
}

// Reset goes back to the sets built in (after UseDir or ProvideFiles).
func Reset() {
	mu.Lock()
	defer mu.Unlock()
	data = embedded()
	loaded = map[string]*schemas.Set{}
}
