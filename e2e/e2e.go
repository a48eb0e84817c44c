// Package e2e drives the explorer page in a real browser (Debian's
// chromium, through chromedp): the tests in explorer_test.go and the
// benchmark program in scripts/browserbench share its helpers, which
// assemble the site from dist/ and web/, serve it with package server and
// start the browser. Large messages come from package codec/codectest.
package e2e

import (
	"context"
	"fmt"
	"io/fs"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/chromedp/chromedp"

	"kwire/server"
	"kwire/web"
)

// Chromium is the browser the tests drive.
const Chromium = "/usr/bin/chromium"

// Site assembles the explorer in a temporary directory (the files at the
// top of dist, then the static files of package web over them, so that
// edits to web/ are tested without a rebuild) and serves it with package server.
// dist must hold kwire.wasm and wasm_exec.js, as ./build.sh leaves them.
func Site(dist, tmp string) (*httptest.Server, error) {
	for _, f := range []string{"kwire.wasm", "wasm_exec.js"} {
		if _, err := os.Stat(filepath.Join(dist, f)); err != nil {
			abs, _ := filepath.Abs(dist)
			return nil, fmt.Errorf("%s/%s is missing: the browser tests need the built explorer; run ./build.sh first (it builds dist/)", abs, f)
		}
	}
	// The explorer is the files at the top of dist (the docs pages below
	// it are not needed here).
	entries, err := os.ReadDir(dist)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dist, e.Name()))
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(tmp, e.Name()), b, 0o644); err != nil {
			return nil, err
		}
	}
	err = fs.WalkDir(web.Files(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(web.Files(), p)
		if err != nil {
			return err
		}
		dst := filepath.Join(tmp, p)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		// A precompressed copy from the build would be served instead.
		if err := os.Remove(dst + ".gz"); err != nil && !os.IsNotExist(err) {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		return nil, err
	}
	h, err := server.New(tmp)
	if err != nil {
		return nil, err
	}
	return httptest.NewServer(h), nil
}

// Browser starts chromium headless; a missing browser is an error.
func Browser(ctx context.Context, width, height int) (context.Context, context.CancelFunc, error) {
	if _, err := exec.LookPath(Chromium); err != nil {
		return nil, nil, fmt.Errorf("no browser at %s: install Debian's chromium (apt-get install chromium; ./build.sh test does it)", Chromium)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(Chromium),
		chromedp.NoSandbox,
		chromedp.Headless,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(width, height),
	}
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	bctx, bcancel := chromedp.NewContext(actx)
	// Start the browser now, so that a failure shows here.
	if err := chromedp.Do(bctx, chromedp.Navigate("about:blank")); err != nil {
		bcancel()
		acancel()
		return nil, nil, fmt.Errorf("starting %s: %w", Chromium, err)
	}
	return bctx, func() { bcancel(); acancel() }, nil
}
