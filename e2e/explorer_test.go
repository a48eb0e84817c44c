package e2e

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"kwire/capture/capturetest"
	"kwire/codec"
	"kwire/codec/codectest"
	"kwire/schemas/sets"
	"kwire/schemas/sets/setstest"
	"kwire/wasm/app"
)

// The smallest JoinGroup v9 request, 33 bytes, as the seed page
// ../shared/seeds/001_0440a39f43fe127e.txt lays it out.
const joinGroup9 = "0000001d000b000900000000000000010000000000000000010101020101000100"

// page is the browser tab the subtests share.
type tab struct {
	t    *testing.T
	ctx  context.Context
	base string
}

func (p *tab) do(actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, time.Minute)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		p.t.Fatal(err)
	}
}

func eval[T any](p *tab, js string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, time.Minute)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		p.t.Fatalf("%s: %v", js, err)
	}
	return v
}

// location returns location[prop] once the explorer has written its
// state into the address (it waits a little after a change).
func (p *tab) location(prop string) string {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, time.Minute)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(async () => {
		while (window.kwire && kwire.urlPending) await new Promise(r => setTimeout(r, 10));
		return location.`+prop+`;
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("location.%s: %v", prop, err)
	}
	return v
}

// treeCount counts the elements of the whole tree (drawn or not) that
// match sel.
func (p *tab) treeCount(sel string) int {
	p.t.Helper()
	return eval[int](p, fmt.Sprintf(`(() => {
		const d = document.createElement('div');
		d.innerHTML = kwire.treeHTML();
		return d.querySelectorAll(%q).length;
	})()`, sel))
}

// open loads the page with a query and waits for the app.
func (p *tab) open(query string) {
	p.t.Helper()
	p.do(chromedp.Navigate(p.base+"/index.html?"+query), chromedp.WaitVisible(`body[data-ready="1"]`))
}

// hexText is the bytes the byte view shows, as hex.
func (p *tab) hexText() string {
	return eval[string](p, `Array.from(document.querySelectorAll('#hexrows .hb[data-o]')).map(e => e.textContent).join('')`)
}

// treeText is the tree as the user reads it.
// The page draws the lines in view; the whole tree's HTML (kwire.treeHTML)
// is read as the page would show it.
func (p *tab) treeText() string {
	return eval[string](p, `(() => {
		const d = document.createElement('div');
		d.innerHTML = kwire.treeHTML();
		document.getElementById('tree').after(d);
		const text = d.innerText;
		d.remove();
		return text;
	})()`)
}

func (p *tab) status() string {
	return eval[string](p, `document.getElementById('status').textContent`)
}

// pick sets a picker and fires its change event, as a user's choice does.
func (p *tab) pick(id, value string) {
	p.t.Helper()
	eval[bool](p, fmt.Sprintf(`(() => { const e = document.getElementById(%q); e.value = %q; e.dispatchEvent(new Event('change', {bubbles: true})); return true })()`, id, value))
}

// setField sets a form input's text and fires input, as typing does.
func (p *tab) setField(key, value string) {
	p.t.Helper()
	ok := eval[bool](p, fmt.Sprintf(`(() => { const e = document.getElementById('k-' + %q); if (!e) return false; e.focus(); e.value = %q; e.dispatchEvent(new Event('input', {bubbles: true})); return true })()`, key, value))
	if !ok {
		p.t.Fatalf("no form field %s", key)
	}
}

// center is the middle of the first element matching a selector, in
// viewport coordinates, after scrolling it into view.
func (p *tab) center(sel string) (float64, float64) {
	p.t.Helper()
	// Scrolled into view, then found again once the page has drawn what
	// the scroll shows (the tree draws the lines in view anew).
	if eval[bool](p, fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) return false; const r = e.getBoundingClientRect(); e.scrollIntoView({block: 'nearest'}); const s = e.getBoundingClientRect(); return r.y != s.y })()`, sel)) {
		time.Sleep(100 * time.Millisecond)
	}
	xy := eval[[]float64](p, fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) return null; e.scrollIntoView({block: 'nearest'}); const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2] })()`, sel))
	if len(xy) != 2 {
		p.t.Fatalf("nothing matches %s", sel)
	}
	return xy[0], xy[1]
}

func (p *tab) hover(sel string) {
	p.t.Helper()
	x, y := p.center(sel)
	p.do(chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x, y))
}

func (p *tab) click(sel string) {
	p.t.Helper()
	x, y := p.center(sel)
	p.do(chromedp.MouseClickXY(x, y))
}

func (p *tab) shot(name string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, time.Minute)
	defer cancel()
	b, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatal(err)
	}
	dir := filepath.Join("testdata", "screenshots")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), b, 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// treeLine returns the tree's line for a node name, as text.
func treeLine(tree, name string) string {
	for _, l := range strings.Split(tree, "\n") {
		if strings.Contains(l, "+-- "+name+" ") {
			return l
		}
	}
	return ""
}

func encodeJoinGroup(t *testing.T, version int16, groupID string) string {
	t.Helper()
	set, err := sets.Load("trunk")
	if err != nil {
		t.Fatal(err)
	}
	api, _ := set.LookupAPI("JoinGroup")
	f, err := codec.NewFrame(set, api, version, codec.Request)
	if err != nil {
		t.Fatal(err)
	}
	_, bp, _ := f.Plans()
	f.Body.List()[bp.Root.Field("GroupId").Index] = codec.String(groupID)
	b, err := f.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

var spaces = regexp.MustCompile(`\s+`)

// seedTree is the request tree of the JoinGroup seed page, spaces folded.
func seedTree(t *testing.T) string {
	b, err := os.ReadFile("../../shared/seeds/001_0440a39f43fe127e.txt")
	if err != nil {
		t.Fatalf("the seed page: %v", err)
	}
	s := string(b)
	i := strings.Index(s, "JoinGroupRequest message v9")
	j := strings.Index(s[i:], "kafka message schema")
	if i < 0 || j < 0 {
		t.Fatal("no request tree in the seed page")
	}
	return strings.TrimSpace(spaces.ReplaceAllString(s[i:i+j], " "))
}

func TestExplorer(t *testing.T) {
	tmp := t.TempDir()
	srv, err := Site(filepath.Join("..", "dist"), tmp)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ctx, cancel, err := Browser(context.Background(), 1400, 1000)
	if err != nil {
		t.Fatal(err)
	}
	defer cancel()
	ctx, stop := context.WithTimeout(ctx, 5*time.Minute)
	defer stop()

	// Any dialog (an alert from injected markup) fails the test.
	var dialogs atomic.Int32
	go func() {
		for _, err := range chromedp.Events(ctx, page.JavascriptDialogOpening) {
			if err != nil {
				return
			}
			dialogs.Add(1)
			chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
		}
	}()
	var exceptions atomic.Int32
	go func() {
		for ev, err := range chromedp.Events(ctx, runtime.ExceptionThrown) {
			if err != nil {
				return
			}
			exceptions.Add(1)
			t.Logf("page exception: %s", exceptionText(ev))
		}
	}()
	p := &tab{t: t, ctx: ctx, base: srv.URL}

	t.Run("pick JoinGroup v9", func(t *testing.T) {
		p.t = t
		p.open("")
		p.pick("dir", "request")
		p.pick("api", "11") // by key
		p.pick("version", "9")
		if got := p.hexText(); got != joinGroup9 {
			t.Fatalf("byte view\n got %s\nwant %s", got, joinGroup9)
		}
		if got, want := strings.TrimSpace(spaces.ReplaceAllString(p.treeText(), " ")), seedTree(t); got != want {
			t.Errorf("tree differs from the seed page:\n got %s\nwant %s", got, want)
		}
		loc := p.location("search")
		if loc != "?set=auto&api=JoinGroup&v=9&dir=request" {
			t.Errorf("URL state %s", loc)
		}
		t.Logf("load %.0f wasm start %.0f ms, ready at %.0f ms", eval[float64](p, `kwire.loadMs`), eval[float64](p, `kwire.startMs`), eval[float64](p, `kwire.readyMs`))
		p.shot("light")
	})

	t.Run("edit GroupId", func(t *testing.T) {
		p.t = t
		p.do(chromedp.Click(`[id="k-b:GroupId"]`), chromedp.SendKeys(`[id="k-b:GroupId"]`, "g1"))
		got := p.hexText()
		if want := encodeJoinGroup(t, 9, "g1"); got != want {
			t.Fatalf("after typing g1\n got %s\nwant %s", got, want)
		}
		// size 31; GroupId at 0x0f is now 03 'g' '1'; the rest moved by 2.
		if got[:8] != "0000001f" || got[30:36] != "036731" {
			t.Errorf("size or GroupId bytes wrong: %s", got)
		}
		tree := p.treeText()
		if l := treeLine(tree, "GroupId"); !strings.Contains(l, `= "g1" (compact, len+1=3) [0x000f, 3B]`) {
			t.Errorf("GroupId line: %q", l)
		}
		if l := treeLine(tree, "SessionTimeoutMs"); !strings.Contains(l, "[0x0012, 4B]") {
			t.Errorf("SessionTimeoutMs did not move: %q", l)
		}
		if a := eval[string](p, `document.activeElement.id`); a != "k-b:GroupId" {
			t.Errorf("focus moved to %q", a)
		}
		// Out of range numbers are refused at the field.
		p.setField("b:SessionTimeoutMs", "2147483648")
		if msg := eval[string](p, `document.getElementById('e-b:SessionTimeoutMs').textContent`); !strings.Contains(msg, "-2147483648 to 2147483647") {
			t.Errorf("range error %q", msg)
		}
		if p.hexText() != got {
			t.Errorf("a refused value changed the bytes")
		}
		p.setField("b:SessionTimeoutMs", "30000")
		if h := p.hexText(); h[36:44] != "00007530" {
			t.Errorf("SessionTimeoutMs bytes %s", h[36:44])
		}
	})

	t.Run("hover", func(t *testing.T) {
		p.t = t
		p.hover(`#tree .tn[data-path="GroupId"]`)
		lit := eval[[]string](p, `Array.from(document.querySelectorAll('#hexrows .hb.hl')).map(e => e.dataset.o)`)
		if strings.Join(lit, ",") != "15,16,17" {
			t.Errorf("hovering GroupId lit bytes %v, want 15,16,17", lit)
		}
		p.hover(`#hexrows .hb[data-o="20"]`) // inside RebalanceTimeoutMs? no: SessionTimeoutMs is 0x12-0x15
		line := eval[string](p, `(document.querySelector('#tree .tn.hl .nm') || {}).textContent || ''`)
		if line != "SessionTimeoutMs" {
			t.Errorf("hovering byte 20 lit %q, want SessionTimeoutMs", line)
		}
		p.click(`#hexrows .hb[data-o="16"]`)
		if a := eval[string](p, `document.activeElement.id`); a != "k-b:GroupId" {
			t.Errorf("clicking a GroupId byte focused %q", a)
		}
		p.click(`#tree .tn[data-path="Protocols[0].Name"] .nm`)
		if a := eval[string](p, `document.activeElement.id`); a != "k-b:Protocols[0].Name" {
			t.Errorf("clicking the Name line focused %q", a)
		}
	})

	t.Run("markup shows as text", func(t *testing.T) {
		p.t = t
		x := `<img src=x onerror=alert(1)>`
		p.setField("b:GroupId", x)
		time.Sleep(200 * time.Millisecond)
		if n := eval[int](p, `document.querySelectorAll('img').length`); n != 0 {
			t.Errorf("%d img elements on the page", n)
		}
		if l := treeLine(p.treeText(), "GroupId"); !strings.Contains(l, `"`+x+`"`) {
			t.Errorf("GroupId line does not show the string: %q", l)
		}
		if asc := eval[string](p, `Array.from(document.querySelectorAll('#hexrows .ab')).map(e => e.textContent).join('')`); !strings.Contains(asc, x) {
			t.Errorf("ASCII column %q", asc)
		}
		if dialogs.Load() != 0 {
			t.Errorf("a dialog opened")
		}
		p.setField("b:GroupId", "g1")
	})

	t.Run("switch version", func(t *testing.T) {
		p.t = t
		p.setField("b:Reason", "rejoin")
		p.pick("version", "5")
		if got, want := p.hexText(), encodeJoinGroup(t, 5, "g1"); got[:28] != want[:28] || !strings.Contains(got, "000267310000753") {
			t.Errorf("v5 bytes\n got %s\nwant GroupId g1 and SessionTimeoutMs 30000 kept", got)
		}
		if d := eval[string](p, `document.getElementById('dropped').textContent`); !strings.Contains(d, "Reason") {
			t.Errorf("dropped fields not listed: %q", d)
		}
		if eval[bool](p, `!!document.getElementById('k-b:Reason')`) {
			t.Errorf("v5 form shows Reason")
		}
		p.pick("version", "9")
		if v := eval[string](p, `document.getElementById('k-b:Reason').value`); v != "rejoin" {
			t.Errorf("Reason after switching back: %q", v)
		}
	})

	t.Run("JSON", func(t *testing.T) {
		p.t = t
		p.click("#jsonpanel > summary")
		// The view is filled on the toggle event, which follows the click.
		ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
		defer cancel()
		chromedp.Run(ctx, chromedp.Poll[bool](`document.getElementById('json').value !== ''`))
		if j := eval[string](p, `document.getElementById('json').value`); !strings.Contains(j, `"GroupId": "g1"`) {
			t.Fatalf("JSON view: %s", j)
		}
		bad := "{\n  \"GroupId\": \"a\",\n  oops\n}"
		p.do(chromedp.SetValue("#json", bad), chromedp.Click(`button[data-act="json-apply"]`))
		if e := eval[string](p, `document.getElementById('jsonerr').textContent`); !strings.Contains(e, "JSON line 3") {
			t.Errorf("JSON error %q, want it at line 3", e)
		}
		if sel := eval[int](p, `document.getElementById('json').selectionStart`); sel != strings.Index(bad, "  oops") {
			t.Errorf("the selection starts at %d, not at line 3", sel)
		}
		// A value that does not fit its field: the selection is the value.
		bad = "{\n  \"GroupId\": \"é\",\n  \"SessionTimeoutMs\": 99999999999\n}"
		p.do(chromedp.SetValue("#json", bad), chromedp.Click(`button[data-act="json-apply"]`))
		if e := eval[string](p, `document.getElementById('jsonerr').textContent`); !strings.Contains(e, "JSON line 3, column 23 (byte 43): SessionTimeoutMs: int32: 99999999999 is not an integer") {
			t.Errorf("JSON error %q, want it at line 3, column 23", e)
		}
		if sel := eval[string](p, `(t => t.value.slice(t.selectionStart, t.selectionEnd))(document.getElementById('json'))`); sel != "99999999999" {
			t.Errorf("the selection is %q, want the number out of range", sel)
		}
		before := p.hexText()
		p.do(chromedp.SetValue("#json", `{"GroupId": "json"}`), chromedp.Click(`button[data-act="json-apply"]`))
		if h := p.hexText(); h == before || !strings.Contains(h, "056a736f6e") {
			t.Errorf("JSON not applied: %s", h)
		}
		if v := eval[string](p, `document.getElementById('k-b:GroupId').value`); v != "json" {
			t.Errorf("the form shows GroupId %q", v)
		}
		p.click("#jsonpanel > summary")
		p.setField("b:GroupId", "g1")
	})

	t.Run("keyboard", func(t *testing.T) {
		p.t = t
		p.click(`#tree .tn[data-path="GroupId"] .nm`)
		p.do(chromedp.Focus("#tree"), chromedp.KeyEvent(kb.ArrowDown))
		if sel := eval[string](p, `(document.querySelector('#tree .tn.sel') || {dataset: {}}).dataset.path || ''`); sel != "SessionTimeoutMs" {
			t.Errorf("ArrowDown selected %q", sel)
		}
		p.do(chromedp.KeyEvent(kb.Enter))
		if a := eval[string](p, `document.activeElement.id`); a != "k-b:SessionTimeoutMs" {
			t.Errorf("Enter focused %q", a)
		}
	})

	t.Run("permalink", func(t *testing.T) {
		p.t = t
		before := p.hexText()
		href := p.location("href")
		if !strings.Contains(href, "hex="+before) {
			t.Fatalf("the link does not carry the bytes: %s", href)
		}
		p.do(chromedp.Navigate("about:blank"))
		p.do(chromedp.Navigate(href), chromedp.WaitVisible(`body[data-ready="1"]`))
		if got := p.hexText(); got != before {
			t.Errorf("after reload\n got %s\nwant %s", got, before)
		}
		if v := eval[string](p, `document.getElementById('k-b:GroupId').value`); v != "g1" {
			t.Errorf("GroupId after reload: %q", v)
		}
	})

	t.Run("dark theme", func(t *testing.T) {
		p.t = t
		p.click("#theme")
		if th := eval[string](p, `document.documentElement.dataset.theme`); th != "dark" {
			t.Errorf("theme %q", th)
		}
		p.hover(`#tree .tn[data-path="Protocols"]`)
		p.shot("dark")
		p.click("#theme")
	})

	t.Run("releases", func(t *testing.T) {
		p.t = t
		p.open("")
		// The set picker: auto first, then every release, newest first,
		// with its date.
		rs := sets.Releases()
		opts := eval[[]string](p, `Array.from(document.querySelectorAll('#set option')).map(o => o.value + ' / ' + o.textContent)`)
		if len(opts) != len(rs)+1 || !strings.HasPrefix(opts[0], "auto / auto") || eval[string](p, `document.getElementById('set').value`) != "auto" {
			t.Errorf("set picker %q", opts)
		}
		for i, r := range rs {
			if want := r.Name + " / " + r.Name + " (" + r.Date + ")"; opts[len(rs)-i] != want {
				t.Errorf("set picker entry %d: %q, want %q", len(rs)-i, opts[len(rs)-i], want)
			}
		}
		// A version only an old release has is read with it, and the
		// page says so.
		old, err := sets.ForVersion(0, 0, false) // Produce v0
		if err != nil {
			t.Fatal(err)
		}
		oa, _ := old.LookupAPI("Produce")
		f, err := codec.NewFrame(old, oa, 0, codec.Request)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := f.Encode()
		p.do(chromedp.SetValue("#paste", hex.EncodeToString(b)), chromedp.Click(`button[data-act="decode"]`))
		if rel := eval[string](p, `document.getElementById('release').textContent`); !strings.Contains(rel, "read with the schemas of "+old.Name+" (") {
			t.Errorf("release shown: %q", rel)
		}
		if tree := p.treeText(); !strings.HasPrefix(tree, "ProduceRequest message v0 ") || strings.Contains(tree, "ERROR") {
			t.Errorf("Produce v0 tree:\n%s", tree)
		}
		// A version newer than every release: the error names the
		// newest, and a button reads it as a guess.
		newest, _ := sets.Load(sets.Auto)
		fa := newest.APIByKey(1)
		f, err = codec.NewFrame(newest, fa, fa.Request.ValidVersions.Hi, codec.Request)
		if err != nil {
			t.Fatal(err)
		}
		b, _ = f.Encode()
		b[7]++
		p.do(chromedp.SetValue("#paste", hex.EncodeToString(b)), chromedp.Click(`button[data-act="decode"]`))
		if st := p.status(); !strings.Contains(st, "is newer than every release kwire knows") || eval[bool](p, `document.getElementById('guessbar').hidden`) {
			t.Errorf("newer version: status %q, guess hidden %v", st, eval[bool](p, `document.getElementById('guessbar').hidden`))
		}
		p.shot("newer")
		p.click("#guess")
		if tree := p.treeText(); !strings.Contains(strings.SplitN(tree, "\n", 2)[0], fmt.Sprintf("a guess: newer than every release known, read with the v%d layout", fa.Request.ValidVersions.Hi)) || strings.Contains(tree, "ERROR") {
			t.Errorf("guess tree:\n%.300s", tree)
		}
		if !eval[bool](p, `document.getElementById('guessbar').hidden`) {
			t.Errorf("the guess button stays after guessing")
		}
		if rel := eval[string](p, `document.getElementById('release').textContent`); !strings.Contains(rel, newest.Name) {
			t.Errorf("guessed with %q", rel)
		}
		p.shot("guess")
	})

	t.Run("nested form", func(t *testing.T) {
		p.t = t
		// A consumer's JoinGroup v9 request (the README's): a click on the
		// subscribed topic in the tree focuses its own input, under the
		// metadata's hex; typing writes the metadata and the frame again.
		const join = "0000005e000b000900000000000000096d792d67726f75700000afc8ffffffff010009636f6e73756d6572020672616e67652d00030000000100066f7264657273ffffffff0000000100066f7264657273000000010000000000000005ffff000000"
		const key = "b:Protocols[0].Metadata.ConsumerProtocolSubscription.Topics[0]"
		p.do(chromedp.SetValue("#paste", join), chromedp.Click(`button[data-act="decode"]`))
		p.click(`#tree .tn[data-path="Protocols[0].Metadata.ConsumerProtocolSubscription.Topics[0]"] .nm`)
		if a := eval[string](p, `document.activeElement.id`); a != "k-"+key {
			t.Fatalf("the click focused %q", a)
		}
		p.setField(key, "orders-eu")
		got := p.hexText()
		if !strings.HasPrefix(got, "00000061") || !strings.Contains(got, hex.EncodeToString([]byte("orders-eu"))) || p.status() != "" {
			t.Errorf("after the edit: status %q, bytes %s", p.status(), got)
		}
		if meta := eval[string](p, `document.getElementById('k-b:Protocols[0].Metadata').value`); !strings.Contains(meta, hex.EncodeToString([]byte("orders-eu"))) {
			t.Errorf("the metadata's hex was not written again: %s", meta)
		}
		if l := treeLine(p.treeText(), "string[0]"); !strings.Contains(l, `"orders-eu"`) {
			t.Errorf("tree line %q", l)
		}
		// The hex edited: the fields under it follow.
		meta := eval[string](p, `document.getElementById('k-b:Protocols[0].Metadata').value`)
		p.setField("b:Protocols[0].Metadata", strings.Replace(meta, hex.EncodeToString([]byte("orders-eu")), hex.EncodeToString([]byte("orders-us")), 1))
		if v := eval[string](p, `document.getElementById('k-`+key+`').value`); v != "orders-us" {
			t.Errorf("the topic's input after the hex edit: %q", v)
		}
		p.shot("nested-form")
	})

	t.Run("internal topic", func(t *testing.T) {
		p.t = t
		// A Produce v9 request of one offset commit to __consumer_offsets
		// (the README's): its key and value decoded in the tree; an edit of
		// the committed offset in the JSON form writes the value, the
		// record's and the batch's lengths and the CRC again.
		const produce = "0000009d000000090000000000000000ffff000003e802135f5f636f6e73756d65725f6f66667365747302000000006f000000000000000000000062ffffffff02d12be2f40000000000000000018bcfe568000000018bcfe56800ffffffffffffffffffffffffffff00000001600000002400010002673100066f726465727300000003300003000000000000002a0000000500000000018bcfe5680000000000"
		p.do(chromedp.SetValue("#paste", produce), chromedp.Click(`button[data-act="decode"]`))
		tree := p.treeText()
		if !strings.Contains(tree, "OffsetCommitKey") || !strings.Contains(tree, "OffsetCommitValue") || strings.Contains(tree, "ERROR") {
			t.Fatalf("tree:\n%s", tree)
		}
		p.click("#jsonpanel > summary")
		ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
		defer cancel()
		chromedp.Run(ctx, chromedp.Poll[bool](`document.getElementById('json').value !== ''`))
		j := eval[string](p, `document.getElementById('json').value`)
		if !strings.Contains(j, `"offset": 42`) {
			t.Fatalf("JSON form:\n%s", j)
		}
		p.do(chromedp.SetValue("#json", strings.Replace(j, `"offset": 42`, `"offset": 4200000000`, 1)), chromedp.Click(`button[data-act="json-apply"]`))
		if e := eval[string](p, `document.getElementById('jsonerr').textContent`); e != "" {
			t.Fatalf("JSON error %q", e)
		}
		tree = p.treeText()
		if l := treeLine(tree, "offset"); !strings.Contains(l, "4200000000") || strings.Contains(tree, "ERROR") || p.status() != "" {
			t.Errorf("after the edit: %q, status %q\n%s", l, p.status(), tree)
		}
		p.shot("internal-topic")
		p.click("#jsonpanel > summary")
		// The records picker lists every format codec reads, and plain
		// shows the key and value as bytes.
		if got := eval[[]string](p, `Array.from(document.querySelectorAll('#topicfmt option')).map(o => o.value)`); strings.Join(got, " ") != strings.Join(codec.TopicFormatNames(), " ") {
			t.Errorf("records picker %q, codec reads %q", got, codec.TopicFormatNames())
		}
		p.pick("topicfmt", "plain")
		if tree := p.treeText(); strings.Contains(tree, "OffsetCommitValue") || !strings.Contains(p.location("search"), "records=plain") {
			t.Errorf("plain: %s\n%s", p.location("search"), tree)
		}
		p.pick("topicfmt", "auto")
	})

	t.Run("telemetry", func(t *testing.T) {
		p.t = t
		// A PushTelemetry request whose metrics are one OTLP metric named
		// "kafka.m", uncompressed: the explorer reads the OTLP fields.
		metric := append([]byte{0x0a, 0x07}, "kafka.m"...)
		scope := append([]byte{0x12, byte(len(metric))}, metric...)
		resource := append([]byte{0x12, byte(len(scope))}, scope...)
		data := append([]byte{0x0a, byte(len(resource))}, resource...)
		s, err := app.New("", "PushTelemetry")
		if err == nil {
			err = s.SetField("b:Metrics", hex.EncodeToString(data))
		}
		if err != nil {
			t.Fatal(err)
		}
		p.do(chromedp.SetValue("#paste", s.HexString()), chromedp.Click(`button[data-act="decode"]`))
		tree := p.treeText()
		if !strings.Contains(tree, "MetricsData") || !strings.Contains(tree, `name string = "kafka.m"`) || strings.Contains(tree, "ERROR") {
			t.Errorf("tree:\n%s", tree)
		}
	})

	t.Run("reveal secrets", func(t *testing.T) {
		p.t = t
		// SaslAuthenticate v2, PLAIN: "\x00alice\x00hunter2-hunter2".
		const pw = "hunter2-hunter2"
		frame := "00000023" + "0024" + "0002" + "00000007" + "ffff" + "00" + "17" + hex.EncodeToString([]byte("\x00alice\x00"+pw)) + "00"
		p.do(chromedp.SetValue("#paste", frame), chromedp.Click(`button[data-act="decode"]`))
		tree := p.treeText()
		textColumn := func() string {
			return eval[string](p, `Array.from(document.querySelectorAll('#hexrows .ab[data-o]')).map(e => e.textContent).join('')`)
		}
		if !strings.Contains(tree, "SASL PLAIN") || strings.Contains(tree, pw) || strings.Contains(textColumn(), "hunter") || !strings.Contains(textColumn(), "alice") {
			t.Errorf("masked: text column %q, tree:\n%s", textColumn(), tree)
		}
		if eval[bool](p, `document.getElementById('secretbar').hidden`) {
			t.Fatalf("no reveal button for a message with a password")
		}
		p.click("#reveal")
		if l := treeLine(p.treeText(), "password"); !strings.Contains(l, `"`+pw+`"`) {
			t.Errorf("revealed password line: %q", l)
		}
		if text := textColumn(); !strings.Contains(text, pw) {
			t.Errorf("the byte view's text column still masks the password: %q", text)
		}
		p.shot("revealed")
		p.click("#reveal")
		if tree := p.treeText(); strings.Contains(tree, pw) || eval[string](p, `document.getElementById('reveal').textContent`) != "reveal secrets" {
			t.Errorf("masked again:\n%s", tree)
		}
	})

	t.Run("zstd batch", func(t *testing.T) {
		p.t = t
		// A Produce request with a zstd batch, compressed natively by
		// klauspost: the browser shows its records.
		set, _ := sets.Load("3.9")
		api, _ := set.LookupAPI("Produce")
		f, err := codec.NewFrame(set, api, 9, codec.Request)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.SetJSON([]byte(`{"Acks":1,"TimeoutMs":1000,"TopicData":[{"Name":"t","PartitionData":[{"Index":0,
			"Records":[{"compression":"zstd","records":[{"key":"k1","value":"hello-zstd-one"},{"key":"k2","value":"hello-zstd-two"}]}]}]}]}`)); err != nil {
			t.Fatal(err)
		}
		b, err := f.Encode()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(b, []byte{0x28, 0xb5, 0x2f, 0xfd}) {
			t.Fatal("no zstd frame in the request")
		}
		p.open("")
		p.do(chromedp.SetValue("#paste", hex.EncodeToString(b)), chromedp.Click(`button[data-act="decode"]`))
		tree := p.treeText()
		if strings.Contains(tree, "ERROR") || !strings.Contains(tree, "hello-zstd-two") || p.status() != "" {
			t.Errorf("zstd batch: status %q, tree:\n%.3000s", p.status(), tree)
		}
	})

	t.Run("drop schemas", func(t *testing.T) {
		p.t = t
		p.open("")
		// Four schema files of the newest release, JoinGroup's with an
		// about text of our own, dropped as files: a release of the page.
		newest, _ := sets.Load(sets.Auto)
		fsys, _ := sets.FS(newest.Name)
		files := map[string]string{}
		for _, f := range []string{"RequestHeader.json", "ResponseHeader.json", "JoinGroupRequest.json", "JoinGroupResponse.json"} {
			b, err := fs.ReadFile(fsys, "message/"+f)
			if err != nil {
				t.Fatal(err)
			}
			files[f] = strings.Replace(string(b), "The group identifier.", "The group, as dropped.", 1)
		}
		js, _ := json.Marshal(files)
		eval[bool](p, `(() => { const files = `+string(js)+`; const dt = new DataTransfer();
			for (const [name, text] of Object.entries(files)) dt.items.add(new File([text], name, {type: "application/json"}));
			document.dispatchEvent(new DragEvent("drop", {dataTransfer: dt, bubbles: true, cancelable: true})); return true })()`)
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.getElementById('set').value === 'dropped'`)); err != nil {
			t.Fatalf("no release dropped: status %q", p.status())
		}
		if st := p.status(); !strings.Contains(st, "release dropped added: 4 schemas, 1 APIs") {
			t.Errorf("status %q", st)
		}
		if tree := p.treeText(); !strings.Contains(treeLine(tree, "GroupId"), "The group, as dropped.") {
			t.Errorf("tree:\n%.400s", tree)
		}
		p.shot("dropped")
	})

	t.Run("drop jars", func(t *testing.T) {
		p.t = t
		p.open("api=ApiVersions&v=4&dir=response")
		// Kafka 4.4.0's jars, as build.sh fetched them from Maven
		// Central, dropped together: their release.
		var names []string
		for name, b := range setstest.Jars(t, setstest.Version) {
			if err := os.WriteFile(filepath.Join(tmp, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
			names = append(names, name)
		}
		js, _ := json.Marshal(names)
		eval[bool](p, `(() => { Promise.all(`+string(js)+`.map(n => fetch(n).then(r => r.arrayBuffer()).then(b => new File([b], n)))).then(files => {
			const dt = new DataTransfer(); for (const f of files) dt.items.add(f);
			document.dispatchEvent(new DragEvent("drop", {dataTransfer: dt, bubbles: true, cancelable: true})); }); return true })()`)
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.getElementById('set').value === '4.4-dropped'`, chromedp.WithPollingTimeout(time.Minute))); err != nil {
			t.Fatalf("no release dropped: status %q", p.status())
		}
		if st := p.status(); !strings.Contains(st, "release 4.4-dropped added (Apache Kafka 4.4.0): ") {
			t.Errorf("status %q", st)
		}
		if tree := p.treeText(); !strings.Contains(tree, "ApiVersionsResponse") || strings.Contains(tree, "ERROR") {
			t.Errorf("tree:\n%.400s", tree)
		}
		// A real 4.4.0 broker's ApiVersions response (v3), pasted: it
		// names 4.4, the dropped release among them.
		hexText, err := os.ReadFile(filepath.Join("..", "cmd", "kwire", "testdata", "apiversions-broker-4.4.0.hex"))
		if err != nil {
			t.Fatal(err)
		}
		eval[bool](p, `(() => { const v = document.getElementById('version'); v.value = '3'; v.dispatchEvent(new Event('change', {bubbles: true})); return true })()`)
		p.do(chromedp.SetValue("#paste", strings.TrimSpace(string(hexText))), chromedp.Click(`button[data-act="decode"]`))
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.body.innerText.includes('the advertised versions match 4.4 (4.4.0, 2026-10-06), 4.4-dropped (4.4.0, 2026-10-06), trunk')`, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
			t.Errorf("no match named: status %q, title %q", p.status(), eval[string](p, `document.getElementById('msgtitle').parentElement.innerText.slice(0, 600)`))
		}
		p.shot("dropped-jars")
	})

	t.Run("paste a response", func(t *testing.T) {
		p.t = t
		p.open("set=trunk&api=JoinGroup&v=9&dir=response")
		resp := "0000001a 00000007 00 00000000 0000 00000005 01 01 01 00 01 02 01 01 01 00 00"
		p.do(chromedp.SetValue("#paste", resp), chromedp.Click(`button[data-act="decode"]`))
		tree := p.treeText()
		if !strings.HasPrefix(tree, "JoinGroupResponse message v9 [0x0000, 30B]") || !strings.Contains(tree, "correlation_id int32 = 7") ||
			!strings.Contains(treeLine(tree, "GenerationId"), "= 5 [0x000f, 4B]") {
			t.Errorf("decoded response tree:\n%s", tree)
		}
		if s := p.status(); s != "" {
			t.Errorf("status %q", s)
		}
		// A decoded message can be edited.
		p.setField("b:ErrorCode", "25")
		if h := p.hexText(); h[26:30] != "0019" {
			t.Errorf("ErrorCode bytes after edit: %s", h)
		}
		if !strings.Contains(treeLine(p.treeText(), "ErrorCode"), "25 (UNKNOWN_MEMBER_ID)") {
			t.Errorf("ErrorCode line: %q", treeLine(p.treeText(), "ErrorCode"))
		}
	})

	t.Run("identify a pasted response", func(t *testing.T) {
		p.t = t
		p.open("set=trunk&api=JoinGroup&v=9&dir=request")
		// A JoinGroup v9 response from kfake, pasted with request chosen.
		p.do(chromedp.SetValue("#paste", "00000043000000010000000000004fffffffff000001002e6b776972652d636f727075732d61313236363136623034366266306538666365356335653431333135633166640100"), chromedp.Click(`button[data-act="decode"]`))
		if tree := p.treeText(); !strings.HasPrefix(tree, "JoinGroupResponse message v9") {
			t.Errorf("identified tree:\n%s", tree)
		}
		if chips := eval[string](p, `document.getElementById('chips').innerText`); !strings.HasPrefix(chips, "Identified as JoinGroupResponse v9") {
			t.Errorf("chips %q", chips)
		}
		// A Heartbeat v4 response reads the same as others: a click on a
		// chip reads the bytes as another.
		p.do(chromedp.SetValue("#paste", "0000000c000000040000000000000000"), chromedp.Click(`button[data-act="decode"]`))
		if n := eval[int](p, `document.querySelectorAll('#chips button').length`); n < 2 {
			t.Fatalf("%d chips for a Heartbeat v4 response", n)
		}
		// The readings of other APIs with the same values are one answer:
		// the text says so, and their chips follow the answer's, dashed.
		if chips := eval[string](p, `document.getElementById('chips').innerText`); !strings.HasPrefix(chips, "Identified as HeartbeatResponse v4; the same bytes read as ") ||
			!strings.Contains(chips, "only the request can tell") {
			t.Errorf("chips %q", chips)
		}
		if n := eval[int](p, `document.querySelectorAll('#chips button.same').length`); n < 1 {
			t.Errorf("%d chips of the same values", n)
		}
		label := eval[string](p, `document.querySelectorAll('#chips button')[1].innerText`)
		p.click(`#chips button[data-i="1"]`)
		if name := strings.Fields(strings.TrimPrefix(label, "= "))[0]; !strings.HasPrefix(p.treeText(), name+" message v") {
			t.Errorf("after the chip %q:\n%s", label, p.treeText())
		}
		if pressed := eval[string](p, `document.querySelector('#chips button[aria-pressed="true"]').innerText`); pressed != label {
			t.Errorf("pressed chip %q, want %q", pressed, label)
		}
		p.shot("identify")
	})

	t.Run("malformed hex", func(t *testing.T) {
		p.t = t
		p.pick("dir", "request")
		p.do(chromedp.SetValue("#paste", "00 00 00 0g"), chromedp.Click(`button[data-act="decode"]`))
		if s := p.status(); !strings.Contains(s, "0g") {
			t.Errorf("bad hex status %q", s)
		}
		// MemberId (at 0x18) null: a compact string of length 0 where
		// the field is not nullable.
		bad := joinGroup9[:48] + "00" + joinGroup9[50:]
		p.do(chromedp.SetValue("#paste", bad), chromedp.Click(`button[data-act="decode"]`))
		if s := p.status(); !strings.Contains(s, "decode error at offset 24 (0x0018): MemberId") {
			t.Errorf("error status %q", s)
		}
		if at := eval[string](p, `(document.querySelector('#hexrows .hb.errat') || {dataset: {}}).dataset.o || ''`); at != "24" {
			t.Errorf("byte view marks %q, want 24", at)
		}
		tree := p.treeText()
		if !strings.Contains(tree, "GroupId string") || !strings.Contains(treeLine(tree, "MemberId"), "ERROR") {
			t.Errorf("partial tree:\n%s", tree)
		}
		if n := eval[int](p, `document.querySelectorAll('#tree .tn.err.sel, #tree .tn.err.hl').length`); n == 0 {
			t.Errorf("the error node is not selected in the tree")
		}
		p.shot("error")
	})

	t.Run("decoded Fetch with records", func(t *testing.T) {
		p.t = t
		b, err := codectest.FetchResponse(64 << 10)
		if err != nil {
			t.Fatal(err)
		}
		p.open("set=trunk&api=Fetch&dir=response")
		drop(p, b)
		tree := p.treeText()
		if !strings.HasPrefix(tree, "FetchResponse message v") || strings.Contains(tree, "ERROR") {
			t.Fatalf("Fetch tree:\n%.2000s", tree)
		}
		if n := strings.Count(tree, "RecordBatch v2"); n == 0 {
			t.Errorf("no RecordBatch in the tree")
		}
		if !strings.Contains(tree, "(ok)") {
			t.Errorf("no CRC checked")
		}
		// An edit patches the tree (codec.Patch): it reads as the tree of
		// the edited bytes loaded afresh.
		p.setField("b:ThrottleTimeMs", "4321")
		edited := p.treeText()
		if l := treeLine(edited, "ThrottleTimeMs"); !strings.Contains(l, "= 4321 ") {
			t.Errorf("after the edit, ThrottleTimeMs line: %q", l)
		}
		nb, err := hex.DecodeString(eval[string](p, `kwire.hexString()`))
		if err != nil || len(nb) != len(b) {
			t.Fatalf("bytes after the edit: %d, %v", len(nb), err)
		}
		drop(p, nb)
		if fresh := p.treeText(); fresh != edited {
			t.Errorf("the edited tree differs from that of its bytes loaded afresh:\n%.3000s\nwant:\n%.3000s", edited, fresh)
		}
		if rows := eval[int](p, `document.querySelectorAll('#hexrows .hrow').length`); rows > 200 {
			t.Errorf("%d rows drawn for %d bytes: the byte view is not virtualised", rows, len(b))
		}
		// Big nodes start folded; a click on the placeholder unfolds one.
		folds, lines := p.treeCount(".tn.fold"), p.treeCount(".tn")
		if folds == 0 {
			t.Errorf("no folded node in a tree of %d lines", lines)
		} else {
			p.click(`#tree .tn.fold .fm`)
			if f, l := p.treeCount(".tn.fold"), p.treeCount(".tn"); f != folds-1 || l <= lines {
				t.Errorf("unfolding: %d folds and %d lines, were %d and %d", f, l, folds, lines)
			}
		}
		eval[bool](p, `(() => { window.scrollTo(0, 0); document.getElementById('tree').scrollTop = 0; return true })()`)
		p.hover(`#hexrows .hb[data-o="176"]`) // a byte of the first record
		if n := eval[int](p, `document.querySelectorAll('#hexrows .hb.hl').length`); n == 0 || n > 200 {
			t.Errorf("hovering a record byte lit %d bytes", n)
		}
		p.shot("fetch")
		// Scrolling draws the rows in view.
		eval[bool](p, `(() => { const v = document.getElementById('hexview'); v.scrollTop = v.scrollHeight / 2; return true })()`)
		time.Sleep(150 * time.Millisecond)
		mid := len(b) / 2 / 16
		if !eval[bool](p, fmt.Sprintf(`!!document.querySelector('#hexrows .hrow[data-row="%d"]')`, mid)) {
			t.Errorf("row %d not drawn after scrolling to it", mid)
		}
	})

	t.Run("tree drawn in view", func(t *testing.T) {
		p.t = t
		b, err := codectest.FetchResponse(1 << 20)
		if err != nil {
			t.Fatal(err)
		}
		p.open("set=trunk&api=Fetch&dir=response")
		drop(p, b)
		// Unfold until the tree has many more lines than a view holds.
		for range 20 {
			if p.treeCount(".tn") > 400 || p.treeCount(".tn.fold") == 0 {
				break
			}
			p.click(`#tree .tn.fold .fm`)
		}
		total := p.treeCount(".tn")
		drawn := eval[int](p, `document.querySelectorAll('#tree .tn').length`)
		if total <= 400 || drawn == 0 || drawn > 150 {
			t.Fatalf("%d lines drawn of %d", drawn, total)
		}
		// Scrolled halfway, the lines there are drawn, and the tree is as
		// tall as all its lines.
		eval[bool](p, `(() => { const t = document.getElementById('tree'); t.scrollIntoView(); t.scrollTop = t.scrollHeight / 2; return true })()`)
		time.Sleep(150 * time.Millisecond)
		at := eval[int](p, `(() => {
			const r = document.getElementById('tree').getBoundingClientRect();
			const e = document.elementFromPoint(r.x + 40, r.y + r.height / 2);
			const line = e && e.closest('.tn');
			return line ? Number(line.dataset.n) : -1;
		})()`)
		if at <= 0 {
			t.Fatalf("no line drawn in the middle of the scrolled tree")
		}
		if h := eval[float64](p, `document.getElementById('treespace').offsetHeight`); int(h) != total*20 {
			t.Errorf("tree %v px tall for %d lines", h, total)
		}
		p.shot("tree-scrolled")
		// Hovering a drawn line lights its bytes; clicking selects it.
		sel := fmt.Sprintf(`#tree .tn[data-n="%d"]`, at)
		p.hover(sel + " .nm")
		if !eval[bool](p, fmt.Sprintf(`!!document.querySelector('%s.hl')`, sel)) {
			t.Errorf("hovered line %d not lit", at)
		}
		p.click(sel + " .nm")
		// The keys walk every line, drawn or not, and keep the selection
		// in view: 80 lines down is past the lines drawn at first.
		want := eval[[]int](p, fmt.Sprintf(`(() => {
			const d = document.createElement('div');
			d.innerHTML = kwire.treeHTML();
			const ns = Array.from(d.querySelectorAll('.tn:not(.fold)')).map(e => Number(e.dataset.n));
			const i = ns.indexOf(%d);
			return [ns[i + 80], ns[i + 79]];
		})()`, at))
		p.do(chromedp.Focus("#tree"))
		for range 80 {
			p.do(chromedp.KeyEvent(kb.ArrowDown))
		}
		got := eval[[]float64](p, `(() => {
			const e = document.querySelector('#tree .tn.sel');
			if (!e) return [-1, 0];
			const r = e.getBoundingClientRect(), v = document.getElementById('tree').getBoundingClientRect();
			return [Number(e.dataset.n), r.top >= v.top && r.bottom <= v.bottom ? 1 : 0];
		})()`)
		if len(want) != 2 || int(got[0]) != want[0] || got[1] != 1 {
			t.Errorf("after 80 lines down: selected %v (1: in view), want node %d", got, want)
		}
		p.do(chromedp.KeyEvent(kb.ArrowUp))
		if n := eval[int](p, `Number((document.querySelector('#tree .tn.sel') || {dataset: {n: -1}}).dataset.n)`); len(want) == 2 && n != want[1] {
			t.Errorf("one line up: node %d, want %d", n, want[1])
		}
		p.shot("tree-keys")
	})

	t.Run("capture", func(t *testing.T) {
		p.t = t
		p.open("set=trunk&api=JoinGroup&v=9&dir=request")
		b, frames := smallCapture(t)
		dropFile(p, b, "kafka.pcap")
		ctx, cancel := context.WithTimeout(p.ctx, time.Minute)
		defer cancel()
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.getElementById('capsum').textContent.includes('3 conversations')`)); err != nil {
			t.Fatalf("no conversation list: %q, status %q", eval[string](p, `document.getElementById('capsum').textContent`), p.status())
		}
		if n := eval[int](p, `document.querySelectorAll('#caprows .crow').length`); n != 3 {
			t.Errorf("%d rows drawn, want 3", n)
		}
		// The first row opens at once, as a pasted frame.
		if title := eval[string](p, `document.getElementById('msgtitle').textContent`); !strings.HasPrefix(title, "ApiVersionsRequest message") {
			t.Errorf("title %q", title)
		}
		// Filter by error code, then open that row's response.
		eval[bool](p, `(() => { const e = document.getElementById('capfilter'); e.value = 'topic_already'; e.dispatchEvent(new Event('input', {bubbles: true})); return true })()`)
		if rows := eval[[]string](p, `Array.from(document.querySelectorAll('#caprows .crow')).map(e => e.innerText)`); len(rows) != 1 || !strings.Contains(rows[0], "CreateTopics") || !strings.Contains(rows[0], "TOPIC_ALREADY_EXISTS") || !strings.Contains(rows[0], "12.000ms") {
			t.Errorf("filtered rows: %q", rows)
		}
		p.click(`#caprows .crow button[data-resp="true"]`)
		tree := p.treeText()
		if !strings.HasPrefix(tree, "CreateTopicsResponse message v7") || !strings.Contains(tree, "36 (TOPIC_ALREADY_EXISTS)") || strings.Contains(tree, "ERROR") {
			t.Errorf("the response's tree:\n%.1500s", tree)
		}
		if href := p.location("search"); !strings.Contains(href, "hex="+hex.EncodeToString(frames[3])) {
			t.Errorf("the link does not carry the response: %s", href)
		}
		if !eval[bool](p, `document.querySelector('#caprows .crow').classList.contains('sel')`) {
			t.Errorf("the open row is not marked")
		}
		p.shot("capture")
		// The keys: with the filter cleared, ↑ opens the row above on the
		// same side (ApiVersions' response), ← its request, ↓↓ the
		// Metadata request (it has no response), Home the first row.
		eval[bool](p, `(() => { const e = document.getElementById('capfilter'); e.value = ''; e.dispatchEvent(new Event('input', {bubbles: true})); return true })()`)
		title := func() string { return eval[string](p, `document.getElementById('msgtitle').textContent`) }
		selected := func() string {
			return eval[string](p, `(document.querySelector('#caprows .crow.sel .ca') || {}).textContent || ''`)
		}
		for _, k := range []struct {
			key, title, row string
		}{
			{kb.ArrowUp, "ApiVersionsResponse message v3", "ApiVersions"},
			{kb.ArrowLeft, "ApiVersionsRequest message v3", "ApiVersions"},
			{kb.ArrowDown, "CreateTopicsRequest message v7", "CreateTopics"},
			{kb.ArrowRight, "CreateTopicsResponse message v7", "CreateTopics"},
			{kb.ArrowDown, "MetadataRequest message v12", "Metadata"},
			{kb.ArrowDown, "MetadataRequest message v12", "Metadata"},
			{kb.Home, "ApiVersionsResponse message v3", "ApiVersions"},
		} {
			p.do(chromedp.Focus("#caplist"), chromedp.KeyEvent(k.key))
			if got := title(); !strings.HasPrefix(got, k.title) || selected() != k.row {
				t.Errorf("after %q: title %q, row %q; want %q, %q", k.key, got, selected(), k.title, k.row)
			}
		}
		if a := eval[string](p, `document.activeElement.id`); a != "caplist" {
			t.Errorf("focus moved to %q", a)
		}
		// Hex of several frames, as Follow TCP Stream copies it, is a list too.
		eval[bool](p, `(() => { const e = document.getElementById('capfilter'); e.value = ''; return true })()`)
		p.do(chromedp.SetValue("#paste", hex.EncodeToString(frames[0])+"\n"+hex.EncodeToString(frames[1])+"\n"+hex.EncodeToString(frames[2])), chromedp.Click(`button[data-act="decode"]`))
		if sum := eval[string](p, `document.getElementById('capsum').textContent`); !strings.Contains(sum, "2 frames paired into rows") {
			t.Errorf("pasted stream: %q, status %q", sum, p.status())
		}
		if n := eval[int](p, `document.querySelectorAll('#caprows .crow').length`); n != 2 {
			t.Errorf("%d rows for the pasted stream, want 2", n)
		}
	})

	t.Run("capture tls", func(t *testing.T) {
		p.t = t
		p.open("set=trunk&api=JoinGroup&v=9&dir=request")
		wire, _, kl, err := capturetest.TLSTraffic(&tls.Config{MinVersion: tls.VersionTLS13}, 1)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := capturetest.WritePcap(&b, capturetest.Packets(wire.Chunks, capturetest.Options{}), 1, false, false, 262144); err != nil {
			t.Fatal(err)
		}
		rows := func() []string {
			return eval[[]string](p, `Array.from(document.querySelectorAll('#caprows .crow')).map(e => e.innerText)`)
		}
		wait := func(js string) {
			ctx, cancel := context.WithTimeout(p.ctx, time.Minute)
			defer cancel()
			if _, err := chromedp.Run(ctx, chromedp.Poll[bool](js)); err != nil {
				t.Fatalf("%s: rows %q, status %q", js, rows(), p.status())
			}
		}
		// The capture first: its TLS connections say there is no key log;
		// then the key log: the list is read again, decrypted.
		dropFile(p, b.Bytes(), "tls.pcap")
		wait(`document.getElementById('capsum').textContent.includes('conversations')`)
		if r := strings.Join(rows(), "\n"); !strings.Contains(r, "not decrypted: no key log") || strings.Contains(r, "Produce") {
			t.Errorf("without the key log:\n%s", r)
		}
		dropFile(p, kl, "sslkeylog.txt")
		wait(`Array.from(document.querySelectorAll('#caprows .crow')).some(e => e.innerText.includes('Produce'))`)
		if st := p.status(); !strings.Contains(st, "key log: secrets of ") || !strings.Contains(st, "kept in this page only") {
			t.Errorf("status %q", st)
		}
		r := strings.Join(rows(), "\n")
		if !strings.Contains(r, ": decrypted") || strings.Contains(r, "not decrypted") || !strings.Contains(r, "Fetch") {
			t.Errorf("with the key log:\n%s", r)
		}
		// The key log's secrets are nowhere in the address or the page.
		href, html := p.location("href"), eval[string](p, `document.documentElement.outerHTML`)
		for _, line := range strings.Split(strings.TrimSpace(string(kl)), "\n") {
			if f := strings.Fields(line); len(f) == 3 && (strings.Contains(href, f[2]) || strings.Contains(html, f[2])) {
				t.Fatalf("the secret of a %s line is in the page or its address", f[0])
			}
		}
		// Open the Produce request: its records, decrypted.
		eval[bool](p, `(() => { const r = Array.from(document.querySelectorAll('#caprows .crow')).find(e => (e.querySelector('.ca') || {}).textContent === 'Produce'); r.querySelector('button[data-resp="false"]').click(); return true })()`)
		if tree := p.treeText(); !strings.HasPrefix(tree, "ProduceRequest message") || !strings.Contains(tree, "RecordBatch") || strings.Contains(tree, "ERROR") {
			t.Errorf("the Produce request's tree: %d bytes, %q", len(tree), regexp.MustCompile(`.*[Kk]ey.*`).FindAllString(tree, 5))
		}
		if n := eval[int](p, `document.querySelectorAll('#caprows .crow.bad').length`); n != 0 {
			t.Errorf("%d rows marked as failures", n)
		}
		p.shot("capture-tls")
		// Both dropped together, on a page that has no key log yet.
		p.open("set=trunk&api=JoinGroup&v=9&dir=request")
		eval[bool](p, fmt.Sprintf(`(() => {
			const bytes = h => { const u8 = new Uint8Array(h.length / 2); for (let i = 0; i < u8.length; i++) u8[i] = parseInt(h.substr(2 * i, 2), 16); return u8; };
			const dt = new DataTransfer();
			dt.items.add(new File([bytes(%q)], "tls.pcap"));
			dt.items.add(new File([bytes(%q)], "keys.log"));
			document.body.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));
			return true })()`, hex.EncodeToString(b.Bytes()), hex.EncodeToString(kl)))
		wait(`Array.from(document.querySelectorAll('#caprows .crow')).some(e => e.innerText.includes('Produce'))`)
		if r := strings.Join(rows(), "\n"); strings.Contains(r, "not decrypted") || strings.Count(r, ": decrypted") != wire.Conns() {
			t.Errorf("dropped together:\n%s", r)
		}
	})

	t.Run("draft schema", func(t *testing.T) {
		p.t = t
		draftSchema(p)
	})

	t.Run("hostile draft", func(t *testing.T) {
		p.t = t
		before := exceptions.Load()
		hostileDraft(p)
		if n := exceptions.Load() - before; n > 0 {
			t.Errorf("%d exceptions on the page with a hostile draft", n)
		}
	})

	t.Run("offline", func(t *testing.T) {
		p.t = t
		p.open("set=trunk&api=JoinGroup&v=9&dir=request")
		ctx, cancel := context.WithTimeout(p.ctx, 60*time.Second)
		defer cancel()
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`navigator.serviceWorker.ready.then(r => !!r.active)`, chromedp.EvalAwaitPromise)); err != nil {
			t.Fatalf("no service worker: %v", err)
		}
		// Let it finish caching, then take the server away.
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`caches.open('kwire-explorer-v1').then(c => c.keys()).then(k => k.length >= 7)`, chromedp.WithPollingTimeout(30*time.Second))); err != nil {
			t.Fatalf("the service worker did not cache the explorer: %v", err)
		}
		srv.CloseClientConnections()
		srv.Close()
		p.open("set=trunk&api=JoinGroup&v=9&dir=request")
		if got := p.hexText(); got != joinGroup9 {
			t.Errorf("offline: %s", got)
		}
	})

	if exceptions.Load() > 0 {
		t.Errorf("%d exceptions on the page", exceptions.Load())
	}
}

func exceptionText(ev runtime.EventExceptionThrown) string {
	d := ev.ExceptionDetails
	if d == nil {
		return "?"
	}
	msg := d.Text
	if d.Exception != nil {
		msg += " " + d.Exception.Description
	}
	return fmt.Sprintf("%s (%s:%d)", msg, d.URL, d.LineNumber+1)
}

// dropFile drops bytes on the page as a file named name, as a user
// dragging one does.
func dropFile(p *tab, b []byte, name string) {
	p.t.Helper()
	js := fmt.Sprintf(`(() => {
		const hex = %q;
		const u8 = new Uint8Array(hex.length / 2);
		for (let i = 0; i < u8.length; i++) u8[i] = parseInt(hex.substr(2 * i, 2), 16);
		const dt = new DataTransfer();
		dt.items.add(new File([u8], %q));
		document.body.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));
		return true })()`, hex.EncodeToString(b), name)
	eval[bool](p, js)
}

// smallCapture is a pcap of two connections: ApiVersions v3 and
// CreateTopics v7 (answered with TOPIC_ALREADY_EXISTS after 12 ms) on
// one, a Metadata v12 request on the other; and its frames.
func smallCapture(t *testing.T) ([]byte, [][]byte) {
	t.Helper()
	frame := func(api string, version int, dir codec.Direction, fields ...string) []byte {
		s, err := app.New("", api)
		if err == nil {
			err = s.Select(app.Auto, api, version, dir)
		}
		for i := 0; err == nil && i < len(fields); i += 2 {
			err = s.SetField(fields[i], fields[i+1])
		}
		if err != nil {
			t.Fatal(err)
		}
		return bytes.Clone(s.Bytes)
	}
	frames := [][]byte{
		frame("ApiVersions", 3, codec.Request, "h:CorrelationId", "1"),
		frame("ApiVersions", 3, codec.Response, "h:CorrelationId", "1"),
		frame("CreateTopics", 7, codec.Request, "h:CorrelationId", "2", "b:Topics[0].Name", "orders"),
		frame("CreateTopics", 7, codec.Response, "h:CorrelationId", "2", "b:Topics[0].Name", "orders", "b:Topics[0].ErrorCode", "36"),
		frame("Metadata", 12, codec.Request, "h:CorrelationId", "5"),
	}
	at := time.Unix(1700000000, 0)
	chunks := []capturetest.Chunk{
		{Conn: 0, FromClient: true, Time: at, Data: frames[0]},
		{Conn: 0, FromClient: false, Time: at.Add(time.Millisecond), Data: frames[1]},
		{Conn: 0, FromClient: true, Time: at.Add(5 * time.Millisecond), Data: frames[2]},
		{Conn: 1, FromClient: true, Time: at.Add(6 * time.Millisecond), Data: frames[4]},
		{Conn: 0, FromClient: false, Time: at.Add(17 * time.Millisecond), Data: frames[3]},
	}
	var b bytes.Buffer
	if err := capturetest.WritePcap(&b, capturetest.Packets(chunks, capturetest.Options{MSS: 40}), 1, false, false, 65535); err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), frames
}

// drop drops bytes on the page as a file, as a user dragging one does,
// and waits until they are decoded.
func drop(p *tab, b []byte) {
	p.t.Helper()
	dropFile(p, b, "fetch.bin")
	ctx, cancel := context.WithTimeout(p.ctx, time.Minute)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](fmt.Sprintf(`document.getElementById('msgtitle').textContent.includes('%d bytes')`, len(b)))); err != nil {
		p.t.Fatalf("the dropped file was not decoded: %v", err)
	}
}

// draftSchema pastes the KIP-1071 draft (seed 000) into the schema panel,
// reads its diagnostics, explores its StreamsGroupHeartbeat request, gives
// its TBD key a value and reloads the permalink.
func draftSchema(p *tab) {
	t := p.t
	b, err := os.ReadFile("../../shared/seeds/000_e08e1a12af25dfbb.txt")
	if err != nil {
		t.Fatalf("the seed: %v", err)
	}
	text := string(b)
	p.open("set=trunk&api=JoinGroup&v=9&dir=request")
	if eval[bool](p, `!document.getElementById('schemapanel').hidden`) {
		t.Errorf("the schema panel is open before it is asked for")
	}
	p.click("#schema-btn")
	if eval[string](p, `document.activeElement.id`) != "schema" {
		t.Errorf("the panel did not focus its textarea")
	}
	q, _ := json.Marshal(text)
	// A paste: the value changes and an input event follows.
	eval[bool](p, `(() => { const e = document.getElementById('schema'); e.value = `+string(q)+`; e.dispatchEvent(new Event('input', {bubbles: true})); return true })()`)
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelectorAll('#diags .dg').length > 0`)); err != nil {
		t.Fatalf("no diagnostics after the paste: %v", err)
	}
	errs := eval[[]string](p, `Array.from(document.querySelectorAll('#diags .dg.error')).map(e => e.textContent)`)
	if len(errs) != 2 || !strings.HasPrefix(errs[0], `error 49:48 field "SourceTopics": unknown type "[]int32int16"`) {
		t.Errorf("errors listed: %q", errs)
	}
	if n := eval[int](p, `document.querySelectorAll('#diags .dg.warning').length`); n != 14 {
		t.Errorf("%d warnings listed, want 14", n)
	}
	if sum := eval[string](p, `document.getElementById('schemasum').textContent`); sum != "2 schemas loaded (StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse); 14 warnings, 2 errors" {
		t.Errorf("summary %q", sum)
	}
	if c := eval[string](p, `document.querySelector('#schemaview .sl[data-line="49"]').className`); c != "sl lv-error" {
		t.Errorf("line 49 of the rendering: class %q", c)
	}
	if got, want := eval[string](p, `document.querySelector('#schemaview .sl[data-line="49"] .st').textContent`), strings.Split(text, "\n")[48]; got != want {
		t.Errorf("line 49 rendered as %q, want %q", got, want)
	}
	// Typing does not leave the message shown.
	if got := p.hexText(); got != joinGroup9 {
		t.Errorf("the paste changed the message: %s", got)
	}
	// A click on the diagnostic selects its line in the textarea.
	p.click(`#diags .dg.error`)
	start := strings.Index(text, "            { \"name\": \"SourceTopics\"")
	start = strings.LastIndexByte(text[:start], '\n') + 1
	if a, sel := eval[string](p, `document.activeElement.id`), eval[int](p, `document.getElementById('schema').selectionStart`); a != "schema" || sel != len(utf16.Encode([]rune(text[:start]))) {
		t.Errorf("after a click on the error: focus %q, selection at %d, want line 49 (%d)", a, sel, len(utf16.Encode([]rune(text[:start]))))
	}
	if n := eval[int](p, `document.querySelectorAll('#schemaview .sl.cur[data-line="49"]').length`); n != 1 {
		t.Errorf("line 49 is not marked in the rendering")
	}

	// The draft's API in the picker, marked, with the placeholder key:
	// one above the newest release's highest.
	newest, err := sets.Load(sets.Auto)
	if err != nil {
		t.Fatal(err)
	}
	ph := newest.APIs()[len(newest.APIs())-1].Key + 1
	opts := eval[[]string](p, `Array.from(document.querySelectorAll('#apis option')).map(o => o.value + ' / ' + o.textContent)`)
	if len(opts) == 0 || opts[0] != fmt.Sprintf("StreamsGroupHeartbeat (draft) / %d draft", ph) {
		t.Errorf("API picker: %.3q", opts)
	}
	p.pick("api", "StreamsGroupHeartbeat (draft)")
	p.pick("dir", "request")
	h := p.hexText()
	// size, api_key (the placeholder), api_version 0.
	if len(h) < 40 || h[8:16] != fmt.Sprintf("%04x0000", ph) {
		t.Fatalf("draft request bytes: %s", h)
	}
	tree := p.treeText()
	if !strings.HasPrefix(tree, "StreamsGroupHeartbeatRequest message v0 [0x0000, ") || strings.Contains(tree, "ERROR") || !strings.Contains(tree, "GroupId") {
		t.Errorf("draft request tree:\n%s", tree)
	}
	if title := eval[string](p, `document.getElementById('msgtitle').textContent`); !strings.Contains(title, fmt.Sprintf("(draft, apiKey %d: placeholder)", ph)) {
		t.Errorf("title %q", title)
	}
	if v := eval[string](p, `document.getElementById('set').value`); v != "draft" {
		t.Errorf("set picker shows %q", v)
	}
	// Edit like any other API, and hover.
	p.setField("b:GroupId", "streams-1")
	p.hover(`#tree .tn[data-path="GroupId"]`)
	if lit := eval[int](p, `document.querySelectorAll('#hexrows .hb.hl').length`); lit != 10 {
		t.Errorf("hovering GroupId lit %d bytes, want 10", lit)
	}
	// The TBD key: the user chooses another.
	eval[bool](p, `(() => { const e = document.getElementById('draftkey'); e.value = '200'; e.dispatchEvent(new Event('change', {bubbles: true})); return true })()`)
	h = p.hexText()
	if h[8:12] != "00c8" || !strings.Contains(h, hex.EncodeToString([]byte("streams-1"))) {
		t.Errorf("after key 200: %s", h)
	}
	if title := eval[string](p, `document.getElementById('msgtitle').textContent`); !strings.Contains(title, "(draft, apiKey 200: chosen)") {
		t.Errorf("title %q", title)
	}

	// Side by side with the newest release's StreamsGroupHeartbeat: the
	// sizes are the codec's smallest frames of both.
	eval[bool](p, `(() => { window.scrollTo(0, 0); return true })()`)
	p.click("#comparepanel > summary")
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelectorAll('#compare table.cmp tr').length > 0`)); err != nil {
		t.Errorf("no comparison table: %v", err)
	}
	sa, _ := newest.LookupAPI("StreamsGroupHeartbeat")
	sf, err := codec.NewFrame(newest, sa, sa.Request.ValidVersions.Hi, codec.Request)
	if err != nil {
		t.Fatal(err)
	}
	sb, _ := sf.Encode()
	if c := eval[string](p, `document.getElementById('compare').innerText`); !strings.Contains(c, fmt.Sprintf("smallest frame 136 bytes, %s’s %d (%+d)", newest.Name, len(sb), 136-len(sb))) ||
		!strings.Contains(c, "retyped\tTopology.Subtopologies.CopartitionGroups.SourceTopics") {
		t.Errorf("comparison:\n%s", c)
	}
	eval[bool](p, `(() => { document.getElementById('comparepanel').scrollIntoView(); window.scrollBy(0, -80); return true })()`)
	p.shot("draft-compare")
	p.click("#comparepanel > summary")

	// The permalink brings back the draft and the bytes.
	href := p.location("href")
	if !strings.Contains(href, "&schema=") || !strings.Contains(href, "set=draft&api=StreamsGroupHeartbeat") {
		t.Fatalf("link %s", href)
	}
	p.do(chromedp.Navigate("about:blank"))
	p.do(chromedp.Navigate(href), chromedp.WaitVisible(`body[data-ready="1"]`))
	if got := p.hexText(); got != h {
		t.Errorf("after reload\n got %s\nwant %s", got, h)
	}
	if s := p.status(); s != "" {
		t.Errorf("status after reload %q", s)
	}
	if v := eval[string](p, `document.getElementById('schema').value`); v != text {
		t.Errorf("the textarea after reload holds %d characters, not the seed", len(v))
	}
	if eval[bool](p, `document.getElementById('schemapanel').hidden`) || eval[int](p, `document.querySelectorAll('#diags .dg').length`) != 16 {
		t.Errorf("the panel and its 16 diagnostics are not shown after reload")
	}
	// The screenshot: a taller window, the panel, the bytes and the tree.
	p.do(chromedp.EmulateViewport(1400, 1400))
	p.click(`#diags .dg.error`)
	eval[bool](p, `(() => { window.scrollTo(0, 0); return true })()`)
	p.shot("draft")
	p.do(chromedp.EmulateViewport(1400, 1000))
}

// hostileDraft pastes a draft whose names hold a quote (which once broke
// the page's selectors), controls and bidi overrides, edits it, and checks
// that the page keeps working and shows those characters escaped.
func hostileDraft(p *tab) {
	t := p.t
	const bidi = "\u202eevil\u2066x\u2069\u200f\x1b]0;t" // no BEL: the helpers quote with %q, whose \a JavaScript lacks
	draft := `{"name": "ZzRequest", "type": "request", "apiKey": 500, "validVersions": "0", "flexibleVersions": "0+", "fields": [
  {"name": "A\"` + bidi + `", "type": "int32", "versions": "0+", "about": "About ` + bidi + `"},
  {"name": "L\"", "type": "[]S", "versions": "0+", "about": "x", "fields": [
    {"name": "B", "type": "int8", "versions": "0+"}]}]}`
	p.open("set=trunk&api=JoinGroup&v=9&dir=request")
	p.click("#schema-btn")
	q, _ := json.Marshal(draft)
	eval[bool](p, `(() => { const e = document.getElementById('schema'); e.value = `+string(q)+`; e.dispatchEvent(new Event('input', {bubbles: true})); return true })()`)
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelectorAll('#apis option').length > 0 && document.querySelector('#apis option').value.startsWith('Zz')`)); err != nil {
		t.Fatalf("the draft's API is not offered: %v", err)
	}
	p.pick("api", eval[string](p, `document.querySelector('#apis option').value`))
	p.pick("dir", "request")
	if tree := p.treeText(); !strings.HasPrefix(tree, "ZzRequest message v0") {
		t.Fatalf("draft request tree:\n%s", tree)
	}
	// Edit the field whose name holds a quote: the form is redrawn and the
	// focus put back by its key.
	key := "b:A\"" + bidi
	p.setField(key, "7")
	time.Sleep(200 * time.Millisecond)
	if h := p.hexText(); !strings.Contains(h, "00000007") {
		t.Errorf("after the edit: %s", h)
	}
	if got := eval[string](p, `document.activeElement.id`); got != "k-"+key {
		t.Errorf("focus after the edit on %q, want the field", got)
	}
	// Add and remove an element of the array whose name holds a quote.
	p.click(`#form button[data-act="add"]`)
	p.click(`#form button[data-act="rm"]`)
	if got := eval[string](p, `document.activeElement.getAttribute('data-key') || ''`); got != `b:L"` {
		t.Errorf("focus after the removal on %q, want the add button", got)
	}
	// What the user reads shows the characters escaped.
	for name, text := range map[string]string{
		"tree":   p.treeText(),
		"form":   eval[string](p, `document.getElementById('form').innerText`),
		"source": eval[string](p, `document.getElementById('schemaview').innerText`),
	} {
		if strings.ContainsAny(text, "\u202e\u2066\u2069\u200f\x1b") {
			t.Errorf("%s shows raw bidi or control characters:\n%q", name, text)
		}
		if !strings.Contains(text, `\u202eevil\u2066x\u2069\u200f\x1b]0;t`) {
			t.Errorf("%s does not show the escapes:\n%s", name, text)
		}
	}
	if s := p.status(); strings.Contains(s, "rror") {
		t.Errorf("status %q", s)
	}
}
