package sets

import (
	"errors"
	"io/fs"
	"slices"
	"testing"
	"testing/fstest"
)

// walkFiles visits the files fs.WalkDir visits, in its order, from any
// root, and stops at fn's error.
func TestWalkFilesAsWalkDir(t *testing.T) {
	fsys := fstest.MapFS{
		"a/message/B.json":   {Data: []byte("b")},
		"a/message/A.json":   {Data: []byte("a")},
		"a/README.md":        {Data: []byte("r")},
		"a/z/deep/x/y.json":  {Data: []byte("y")},
		"b.json":             {Data: []byte("b")},
		"a/message-2/C.json": {Data: []byte("c")},
		"empty":              {Mode: fs.ModeDir},
	}
	for _, root := range []string{".", "a", "a/message", "empty", "missing"} {
		var want, got []string
		wantErr := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			want = append(want, p)
			return nil
		})
		gotErr := walkFiles(fsys, root, func(p string) error { got = append(got, p); return nil })
		if !slices.Equal(got, want) || (gotErr == nil) != (wantErr == nil) {
			t.Errorf("root %q: walkFiles %q, %v; fs.WalkDir %q, %v", root, got, gotErr, want, wantErr)
		}
	}
	stop := errors.New("stop")
	n := 0
	err := walkFiles(fsys, ".", func(string) error { n++; return stop })
	if err != stop || n != 1 {
		t.Errorf("walkFiles went on after an error: %d calls, %v", n, err)
	}
}
