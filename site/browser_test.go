package site

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"kwire/schemas"
	"kwire/server"
)

const chromium = "/usr/bin/chromium"

// The docs pages work in a real browser behind kwire serve's handler and
// its Content-Security-Policy: docs.js filters the index and hover-links
// bytes and tree, and the browser reports no CSP violation and no script
// error.
func TestBrowser(t *testing.T) {
	if _, err := exec.LookPath(chromium); err != nil {
		t.Fatalf("no browser at %s: install Debian's chromium (./build.sh test does it)", chromium)
	}
	out, _ := builtSite(t)
	h, err := server.New(out)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()

	actx, acancel := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(chromium), chromedp.NoSandbox, chromedp.Headless, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.WindowSize(1200, 900))
	defer acancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, stop := context.WithTimeout(ctx, 2*time.Minute)
	defer stop()
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("starting %s: %v", chromium, err)
	}
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
	// that has it shows it.
	var apis []*schemas.API
	for _, e := range testBuilder(t, false).apis {
		_, api := e.current()
		apis = append(apis, api)
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
