package e2e

import (
	"bytes"
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"kwire/schemas"
	"kwire/schemas/sets"
	"kwire/server"
	"kwire/site"
	"kwire/web"
)

// The docs pages work in a real browser behind kwire serve's handler and
// its Content-Security-Policy: docs.js filters the index and hover-links
// bytes and tree, and the browser reports no CSP violation and no script
// error. The site is built here from the sources (with placeholders for
// the explorer's wasm), not taken from dist/.
func TestDocsPages(t *testing.T) {
	out := t.TempDir()
	for _, f := range []string{"kwire.wasm", "wasm_exec.js"} {
		if err := os.WriteFile(filepath.Join(out, f), bytes.Repeat([]byte("/* build.sh */\n"), 100), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := site.Build(site.Options{Out: out, Explorer: web.Files()}); err != nil {
		t.Fatal(err)
	}
	h, err := server.New(out)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()

	ctx, cancel, err := Browser(context.Background(), 1200, 900)
	if err != nil {
		t.Fatal(err)
	}
	defer cancel()
	ctx, stop := context.WithTimeout(ctx, 2*time.Minute)
	defer stop()
	// CSP violations are recorded by a script the browser runs before each
	// page's own (injected through DevTools, so the policy does not apply).
	if _, err := chromedp.Call(ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{
		Source: `window.__csp = []; document.addEventListener("securitypolicyviolation", e => window.__csp.push(e.violatedDirective + " " + e.blockedURI));`,
	}); err != nil {
		t.Fatal(err)
	}
	var exceptions []string
	go func() {
		for ev, err := range chromedp.Events(ctx, runtime.ExceptionThrown) {
			if err != nil {
				return
			}
			exceptions = append(exceptions, ev.ExceptionDetails.Text)
		}
	}()
	eval := func(js string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
		if err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		return v
	}
	open := func(path, ready string) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"+path), chromedp.WaitVisible(ready)); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if v := eval(`JSON.stringify(window.__csp)`); v != "[]" {
			t.Errorf("%s: CSP violations %s", path, v)
		}
		if s := eval(`getComputedStyle(document.body).marginTop`); s != "0px" {
			t.Errorf("%s: docs.css not applied (body margin %s)", path, s)
		}
	}

	// The index: the filter shows (docs.js runs) and keeps the rows that
	// contain every word typed.
	open("apis/index.html", "#q")
	// The index has every API of every release, as its newest release
	// that has it shows it (the newest where it is not removed, else the
	// newest).
	byKey := map[int16]*schemas.API{}
	var keys []int16
	for _, r := range sets.Releases() {
		s, err := sets.Load(r.Name)
		if err != nil {
			t.Fatal(err)
		}
		for _, api := range s.APIs() {
			prev := byKey[api.Key]
			if prev == nil {
				keys = append(keys, api.Key)
			}
			if prev == nil || !api.Removed() || prev.Removed() {
				byKey[api.Key] = api
			}
		}
	}
	var apis []*schemas.API
	for _, k := range keys {
		apis = append(apis, byKey[k])
	}
	for _, q := range []string{"group", "11", "share ack", "unstable", "zzz"} {
		want := 0
		for _, api := range apis {
			text := strings.ToLower(fmt.Sprintf("%d %s", api.Key, api.Name))
			if api.Request.LatestVersionUnstable {
				text += " unstable"
			}
			if !api.Request.DeprecatedVersions.None {
				text += " deprecated"
			}
			ok := true
			for _, w := range strings.Fields(q) {
				ok = ok && strings.Contains(text, w)
			}
			if ok {
				want++
			}
		}
		got := eval(fmt.Sprintf(`(() => { const q = document.getElementById("q"); q.value = %q;
			q.dispatchEvent(new Event("input")); return String(document.querySelectorAll("#apis tbody tr:not([hidden])").length) })()`, q))
		if got != fmt.Sprint(want) {
			t.Errorf("filter %q: %s rows, want %d", q, got, want)
		}
	}

	// An API page: a tree line lights its bytes, a byte lights its node.
	open("apis/JoinGroup/index.html", "#request .tree")
	hover := func(sel string) string {
		return eval(fmt.Sprintf(`(() => { document.querySelector(%q).dispatchEvent(new MouseEvent("mouseover", {bubbles: true}));
			const sec = document.querySelector("#request");
			const bytes = Array.from(sec.querySelectorAll(".hex .hb.hl")).map(e => e.dataset.o).join(",");
			const lines = Array.from(sec.querySelectorAll(".tree .tn.hl .nm")).map(e => e.textContent).join(",");
			return bytes + "|" + lines })()`, sel))
	}
	// GroupId is byte 0x0f; Protocols spans 0x1b-0x1e.
	if got := hover(`#request .tree .tn[data-path="GroupId"]`); got != "15|GroupId" {
		t.Errorf("hover GroupId line: %s", got)
	}
	if got := hover(`#request .tree .tn[data-path="Protocols"]`); got != "27,28,29,30|Protocols" {
		t.Errorf("hover Protocols line: %s", got)
	}
	// Byte 0x0f lights GroupId's line; hovering the response does not
	// light the request.
	if got := hover(`#request .hex .hb[data-o="15"]`); got != "15|GroupId" {
		t.Errorf("hover byte 15: %s", got)
	}
	if got := hover(`#response .hex .hb[data-o="4"]`); got != "15|GroupId" {
		t.Errorf("hovering the response changed the request: %s", got)
	}
	if len(exceptions) > 0 {
		t.Errorf("script errors: %v", exceptions)
	}
}
