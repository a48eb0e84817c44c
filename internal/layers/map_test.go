package layers

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestArchitectureMap holds ARCHITECTURE.md to the code: its layers table
// says what Table says, and every package of the module has a row in its
// packages table (its own, or a folder's above it).
func TestArchitectureMap(t *testing.T) {
	b, err := os.ReadFile("../../ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	section := func(title string) string {
		i := strings.Index(doc, "\n## "+title+"\n")
		if i < 0 {
			t.Fatalf("ARCHITECTURE.md has no section %q", title)
		}
		s := doc[i+len(title)+5:]
		if j := strings.Index(s, "\n## "); j >= 0 {
			s = s[:j]
		}
		return s
	}
	code := regexp.MustCompile("`([^`]+)`")
	names := func(cell string) []string {
		var out []string
		for _, m := range code.FindAllStringSubmatch(cell, -1) {
			out = append(out, strings.TrimSuffix(m[1], "/"))
		}
		return out
	}
	// rows: the cells of a table's rows, its header and separator aside.
	rows := func(s string) [][]string {
		var out [][]string
		lines := strings.Split(s, "\n")
		for i, l := range lines {
			if !strings.HasPrefix(l, "| ") || i+1 < len(lines) && strings.HasPrefix(lines[i+1], "|---") {
				continue // not a row, or the header
			}
			cells := strings.Split(strings.Trim(l, "| "), " | ")
			for i := range cells {
				cells[i] = strings.TrimSpace(cells[i])
			}
			out = append(out, cells)
		}
		return out
	}

	// Layers: name, packages, may import (the lower layers by name, "all
	// of the above" for every one, the base's own name for the base).
	var got, want []string
	for i, r := range rows(section("Layers")) {
		if len(r) != 3 {
			t.Errorf("ARCHITECTURE.md, Layers: a row of %d cells: %q", len(r), r)
			continue
		}
		if r[2] == "all of the above" && i < len(Table) {
			var below []string
			for _, l := range Table[:i] {
				below = append(below, l.Name)
			}
			r[2] = strings.Join(below, ", ")
		}
		pkgs := names(r[1])
		slices.Sort(pkgs)
		got = append(got, r[0]+" | "+strings.Join(pkgs, " ")+" | "+r[2])
	}
	for i, l := range Table {
		imports := strings.Join(l.Imports, ", ")
		if i == 0 {
			imports = l.Name
		}
		pkgs := slices.Clone(l.Packages)
		slices.Sort(pkgs)
		want = append(want, l.Name+" | "+strings.Join(pkgs, " ")+" | "+imports)
	}
	if !slices.Equal(got, want) {
		t.Errorf("ARCHITECTURE.md's layers table:\n%s\nwant (internal/layers.Table):\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// Packages: every package has a row.
	var listed []string
	for _, r := range rows(section("Packages")) {
		listed = append(listed, names(r[0])...)
	}
	for pkg := range imports(t, "linux", "amd64") {
		if !covered(pkg, listed) {
			t.Errorf("%s has no row in ARCHITECTURE.md's packages table", pkg)
		}
	}
	for _, p := range listed {
		if _, err := os.Stat("../../" + p); err != nil {
			t.Errorf("ARCHITECTURE.md lists %s, which is no folder", p)
		}
	}
}

// covered: pkg or a folder above it is listed.
func covered(pkg string, listed []string) bool {
	for p := pkg; p != "."; {
		if slices.Contains(listed, p) {
			return true
		}
		i := strings.LastIndex(p, "/")
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return false
}
