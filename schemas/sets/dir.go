package sets

import (
	"io/fs"
	"path"
	"sort"
	"strings"

	"kwire/internal/xfmt"
	"kwire/schemas"
)

// AddFiles adds the sets found in files (by path, as a dropped folder or
// zip holds them: a folder of sets, one set, or a folder of schema JSON;
// base names a lone set) to those there are, for as long as the program
// runs. A set named as one there is gets "-dropped" after its name. It
// returns the names of the sets added.
func AddFiles(files map[string][]byte, base string) ([]string, error) {
	m := memFS{}
	for p, b := range files {
		p = strings.TrimPrefix(path.Clean("/"+strings.ReplaceAll(p, "\\", "/")), "/")
		if fs.ValidPath(p) && p != "." {
			m[p] = b
		}
	}
	add, err := readDir(m, base, base)
	if err != nil {
		return nil, err
	}
	return addSets(add)
}

// addSets adds the sets of add (laid out as data) to those there are,
// renaming those whose name is taken, and returns their names.
func addSets(add memFS) ([]string, error) {
	mu.Lock()
	defer mu.Unlock()
	merged := memFS{}
	err := walkFiles(data, "data", func(p string) error {
		b, err := fs.ReadFile(data, p)
		merged[p] = b
		return err
	})
	if err != nil && len(names(data)) > 0 {
		return nil, err
	}
	taken := map[string]bool{}
	for _, n := range names(data) {
		taken[n] = true
	}
	rename := map[string]string{}
	for p, b := range add {
		name, rest, _ := strings.Cut(strings.TrimPrefix(p, "data/"), "/")
		to, ok := rename[name]
		if !ok {
			to = name
			for taken[to] {
				to += "-dropped"
			}
			rename[name] = to
		}
		merged["data/"+to+"/"+rest] = b
	}
	var added []string
	for _, to := range rename {
		added = append(added, to)
		delete(loaded, to)
	}
	sort.Slice(added, func(i, j int) bool { return added[i] < added[j] }) // sort.Strings is slices.Sort: a copy of pdqsort more in the browser app
	data, releaseList, versionsOf = merged, nil, map[string]schemas.Versions{}
	return added, nil
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
// laid out as the embedded sets are ("data/NAME/message/X.json"): a set
// at the top is named base, loose schema files make a set named loose.
func readDir(fsys fs.FS, base, loose string) (memFS, error) {
	out := memFS{}
	add := func(root, name string) error {
		return walkFiles(fsys, root, func(p string) error {
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
					out["data/"+loose+"/message/"+e.Name()] = b
				}
			}
		}
	}
	if len(out) == 0 {
		return nil, xfmt.Errorf("no schemas found: give a folder of sets (each with message/), a set (with message/) or a folder of Kafka's message JSON")
	}
	return out, nil
}

// Reset goes back to the sets built in (after UseDir or AddFiles).
func Reset() {
	mu.Lock()
	defer mu.Unlock()
	use(embedded())
}

// walkFiles calls fn with the path of each file under the folder root,
// in fs.WalkDir's order, and stops at the first error: fs.WalkDir (its
// Stat of the root, FileInfoToDirEntry) costs the browser app 3.3 KB of
// gzip more.
func walkFiles(fsys fs.FS, root string, fn func(p string) error) error {
	entries, err := fs.ReadDir(fsys, root)
	if err != nil {
		return err
	}
	for _, e := range entries {
		p := path.Join(root, e.Name())
		if e.IsDir() {
			err = walkFiles(fsys, p, fn)
		} else {
			err = fn(p)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
