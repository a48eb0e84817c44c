package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kwire/schemas/sets"
)

// kwire site writes the explorer's files at the top and the docs under
// apis/, and says what it wrote.
func TestSiteCommand(t *testing.T) {
	dir := t.TempDir()
	out, errs, code := kwire(t, "", "site", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "docs pages") || !strings.Contains(out, dir) {
		t.Errorf("output %q", out)
	}
	for _, f := range []string{"index.html", "kwire.css", "apis/index.html", "apis/JoinGroup/index.html",
		"apis/JoinGroup/index.html.gz", "apis/JoinGroup/v0.html", "apis/releases.html", "apis/release/" + sets.Newest() + ".html",
		"apis/errors.html", "apis/types.html", "apis/docs.css", "apis/docs.js"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("missing %s", f)
		}
	}
	if _, errs, code := kwire(t, "", "site"); code != 2 || !strings.Contains(errs, "--out DIR") {
		t.Errorf("without --out: exit %d, %q", code, errs)
	}
}

func TestServeMissingDir(t *testing.T) {
	_, errs, code := kwire(t, "", "serve", filepath.Join(t.TempDir(), "none"))
	if code != 1 || !strings.Contains(errs, "run ./build.sh first") {
		t.Errorf("exit %d, %q", code, errs)
	}
}

func TestServeBadAddr(t *testing.T) {
	dir := t.TempDir()
	for _, addr := range []string{"bogus", "127.0.0.1:http", ":99999", "127.0.0.1:-1"} {
		_, errs, code := kwire(t, "", "serve", "--addr", addr, dir)
		if code != 2 || !strings.Contains(errs, "--addr") || strings.Contains(errs, "serving") {
			t.Errorf("--addr %s: exit %d, %q", addr, code, errs)
		}
	}
	// An address of another machine is an error too, not a free port here.
	if _, errs, code := kwire(t, "", "serve", "--addr", "192.0.2.1:0", dir); code != 1 || strings.Contains(errs, "serving") {
		t.Errorf("--addr 192.0.2.1:0: exit %d, %q", code, errs)
	}
}

func TestUsageErrors(t *testing.T) {
	_, errs, code := kwire(t, "", "encode", "--bogus")
	if code != 2 || strings.Count(errs, "-bogus") != 1 {
		t.Errorf("exit %d, %q", code, errs)
	}
}
