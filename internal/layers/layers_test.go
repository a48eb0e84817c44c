package layers

import (
	"os"
	"os/exec"
	"path"
	"slices"
	"strings"
	"testing"
)

const module = "kwire"

// layerOf returns the index in Table of the layer that places pkg (a path
// in the module), or -1.
func layerOf(pkg string) int {
	for i, l := range Table {
		for _, p := range l.Packages {
			if p == pkg || strings.HasSuffix(p, "/...") && strings.HasPrefix(pkg, strings.TrimSuffix(p, "...")) {
				return i
			}
		}
	}
	return -1
}

// imports lists, for each package of the module, the packages of the
// module it imports (tests aside), as go list reads them for goos/goarch.
func imports(t *testing.T, goos, goarch string) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./...")
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list (%s/%s): %v", goos, goarch, err)
	}
	m := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg, ok := inModule(f[0])
		if !ok {
			t.Fatalf("go list: %q is not in the module", f[0])
		}
		m[pkg] = nil
		for _, imp := range f[1:] {
			if p, ok := inModule(imp); ok {
				m[pkg] = append(m[pkg], p)
			}
		}
	}
	return m
}

func inModule(imp string) (string, bool) {
	return strings.CutPrefix(imp, module+"/")
}

// allowed says whether layer i may import layer j.
func allowed(i, j int) bool {
	if i == j {
		return true
	}
	for _, name := range Table[i].Imports {
		if name == Table[j].Name {
			return true
		}
	}
	return false
}

// Every package of the module has a layer and imports only its own layer
// and the layers its layer lists, natively and in the browser build.
func TestLayers(t *testing.T) {
	seen := map[string]bool{}
	for _, target := range [][2]string{{"linux", "amd64"}, {"js", "wasm"}} {
		for pkg, imps := range imports(t, target[0], target[1]) {
			seen[pkg] = true
			i := layerOf(pkg)
			if i < 0 {
				t.Errorf("%s is in no layer: place it in internal/layers.Table (and ARCHITECTURE.md)", pkg)
				continue
			}
			for _, imp := range imps {
				j := layerOf(imp)
				if j < 0 {
					continue // reported as a package of its own
				}
				if !allowed(i, j) {
					t.Errorf("%s (layer %s) imports %s (layer %s) in the %s/%s build: %s may import only %s and %s",
						pkg, Table[i].Name, imp, Table[j].Name, target[0], target[1], Table[i].Name, Table[i].Name, strings.Join(Table[i].Imports, ", "))
				}
			}
		}
	}
	// The table names packages that exist, and a layer lists only layers
	// below it.
	for i, l := range Table {
		for _, p := range l.Packages {
			found := false
			for pkg := range seen {
				found = found || pkg == p || strings.HasSuffix(p, "/...") && strings.HasPrefix(pkg, strings.TrimSuffix(p, "..."))
			}
			if !found {
				t.Errorf("layer %s: no package %s", l.Name, p)
			}
		}
		for _, name := range l.Imports {
			below := false
			for _, m := range Table[:i] {
				below = below || m.Name == name
			}
			if !below {
				t.Errorf("layer %s imports %s, which is not a layer below it", l.Name, name)
			}
		}
	}
}

// The check itself: an import up or sideways is refused, one down is not.
func TestAllowed(t *testing.T) {
	for _, c := range []struct {
		from, to string
		ok       bool
	}{
		{"schemas/draft", "schemas", true},
		{"schemas/draft", "codec", false}, // the codec is above the schemas
		{"schemas", "tree", false},        // sideways
		{"codec/records", "schemas", false},
		{"codec/records", "codec/wire", true},
		{"codec", "schemas/sets", true},
		{"draftcodec", "schemas/draft", true},
		{"tree", "render", true}, // one layer (go refuses cycles)
		{"render", "codec", false},
		{"identify", "codec/codectest", false}, // a test helper is above what it helps
		{"wasm/app", "draftcodec", true},
		{"scripts/wasmtop", "jsonv", true},
		{"tree", "internal/textesc", true},
		{"internal/textesc", "tree", false}, // the escaper is below the trees
		{"hexin", "tree", true},
		{"codec", "hexin", false}, // pasted text is read above the codec
		{"codec", "draftcodec", false},
		{"codec/codectest", "codec", true},
		{"codec", "codec/codectest", false}, // a helper of tests is above all but the programs
		{"codec/records", "codec/records/recordstest", false},
		{"capture/capturetest", "codec/wire/wiretest", true},
		{"schemas/draft/drafttest", "schemas/sets", true},
		{"wasm/app", "schemas/sets/setstest", true},
	} {
		if got := allowed(layerOf(c.from), layerOf(c.to)); got != c.ok {
			t.Errorf("%s imports %s: allowed %v, want %v", c.from, c.to, got, c.ok)
		}
	}
}

// The folders show the layers: internal/ holds the base (and this
// table), codec/ the wire and the codec, schemas/ the schemas, and a
// …test package, a helper of tests beside what it helps (as
// net/http/httptest is), is in the testing layer, or among the programs
// when it helps one.
func TestFolders(t *testing.T) {
	for pkg := range imports(t, "linux", "amd64") {
		i := layerOf(pkg)
		if i < 0 {
			continue // TestLayers reports it
		}
		var want []string
		switch {
		case strings.HasSuffix(path.Base(pkg), "test"):
			want = []string{"testing", "programs"}
		case pkg == "internal/layers":
			want = []string{"programs"}
		case strings.HasPrefix(pkg, "internal/"):
			want = []string{"base"}
		case pkg == "codec" || strings.HasPrefix(pkg, "codec/"):
			want = []string{"wire", "codec"}
		case pkg == "schemas" || strings.HasPrefix(pkg, "schemas/"):
			want = []string{"schemas"}
		default:
			continue
		}
		if !slices.Contains(want, Table[i].Name) {
			t.Errorf("%s is in layer %s: its folder holds %s", pkg, Table[i].Name, strings.Join(want, " or "))
		}
	}
}
