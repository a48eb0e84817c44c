// Command browserbench measures the explorer page in Debian's chromium, in
// one run: navigation to the first usable render, the latency of one edit
// for a small message (JoinGroup v9) and for a 4 MB Fetch response, loading
// that response, and scrolling its byte view. Beside each browser figure it
// prints the same work done by package app natively, as a baseline, and
// the ratio; beside the navigation, that of a trivial Go wasm page (fmt,
// encoding/json, syscall/js, built as scripts/wasm-size.sh builds it and
// served by the same server), the floor any Go page pays. It is a benchmark to read, not a test: it asserts nothing
// about time. Run it through scripts/browser-bench.sh, which builds dist/.
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/chromedp"

	"kwire/codec"
	"kwire/codec/codectest"
	"kwire/e2e"
	"kwire/schemas/sets"
	"kwire/wasm/app"
)

func main() {
	dist := flag.String("dist", "dist", "the built site (./build.sh)")
	runs := flag.Int("n", 5, "runs of each measurement (the median is printed)")
	size := flag.Int("size", 4<<20, "size of the Fetch response in bytes")
	startup := flag.Bool("startup", false, "measure the navigations only")
	flag.Parse()
	if err := run(*dist, *runs, *size, *startup); err != nil {
		fmt.Fprintln(os.Stderr, "browserbench:", err)
		os.Exit(1)
	}
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// native times f n times and returns the median in milliseconds.
func native(n int, f func()) float64 {
	var xs []float64
	for range n {
		t := time.Now()
		f()
		xs = append(xs, ms(time.Since(t)))
	}
	return median(xs)
}

func run(dist string, n, size int, startupOnly bool) error {
	tmp, err := os.MkdirTemp("", "kwire-bench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := trivialPage(tmp); err != nil {
		return err
	}
	srv, err := e2e.Site(dist, tmp)
	if err != nil {
		return err
	}
	defer srv.Close()
	ctx, cancel, err := e2e.Browser(context.Background(), 1400, 1000)
	if err != nil {
		return err
	}
	defer cancel()
	ctx, stop := context.WithTimeout(ctx, 10*time.Minute)
	defer stop()
	eval := func(js string) (float64, error) {
		return chromedp.Run(ctx, chromedp.Evaluate[float64](js, chromedp.EvalAwaitPromise))
	}

	fetch, err := codectest.FetchResponse(size)
	if err != nil {
		return err
	}
	fmt.Printf("kwire explorer in %s; %d runs each, median; native = package app in Go on this machine\n\n", e2e.Chromium, n)
	fmt.Printf("%-44s %10s %10s %7s\n", "measure", "browser", "native", "ratio")
	row := func(name string, browser, nat float64) {
		ratio := "-"
		if nat > 0 {
			ratio = strconv.FormatFloat(browser/nat, 'f', 1, 64) + "x"
		}
		natS := "-"
		if nat >= 0 {
			natS = fmt.Sprintf("%.2f ms", nat)
		}
		fmt.Printf("%-44s %7.1f ms %10s %7s\n", name, browser, natS, ratio)
	}

	// 1. Navigation to the first usable render (the page drawn, the
	// smallest JoinGroup v9 encoded, the form ready).
	// The trivial page first: the edits below work on the explorer's page.
	var trivial []float64
	for range n {
		if err := chromedp.Do(ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(srv.URL+"/trivial.html"), chromedp.WaitVisible(`body[data-ready="1"]`)); err != nil {
			return err
		}
		r, err := eval(`trivialReadyMs`)
		if err != nil {
			return err
		}
		trivial = append(trivial, r)
	}
	url := srv.URL + "/index.html?set=trunk&api=JoinGroup&v=9&dir=request"
	var ready, start, load, fetched, created, mainAt, provided, opened []float64
	for range n {
		if err := chromedp.Do(ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(url), chromedp.WaitVisible(`body[data-ready="1"]`)); err != nil {
			return err
		}
		r, err := eval(`kwire.readyMs`)
		if err != nil {
			return err
		}
		s, _ := eval(`kwire.startMs`)
		l, _ := eval(`kwire.loadMs`)
		f, _ := eval(`kwire.fetchMs`)
		c, _ := eval(`kwire.newMs`)
		m, _ := eval(`kwire.mainAt`)
		p, _ := eval(`kwire.provideMs`)
		o, _ := eval(`kwire.openMs`)
		provided, opened = append(provided, p), append(opened, o)
		ready, start, load = append(ready, r), append(start, s), append(load, l)
		fetched, created, mainAt = append(fetched, f), append(created, c), append(mainAt, m)
	}
	// The native baseline reads the bundle and opens the newest release
	// afresh, as the page does (sets.Provide, sets.Load), then app.New.
	bundle, err := sets.Bundle()
	if err != nil {
		return err
	}
	provide := func() {
		if err := sets.Provide(bundle); err != nil {
			panic(err)
		}
		if _, err := sets.Load(""); err != nil {
			panic(err)
		}
	}
	natLoad := native(n, provide)
	natStart := native(n, func() {
		provide()
		if _, err := app.New("", "JoinGroup"); err != nil {
			panic(err)
		}
	})
	row("navigation -> first usable render", median(ready), -1)
	row("  of which before Go main (wasm fetch, compile)", median(mainAt), -1)
	row("  of which Go main (parse schemas, draw)", median(start), natStart)
	row("    of which fetching and parsing the set", median(load), natLoad)
	row("      of which waiting for the bundle", median(fetched), -1)
	row("      of which reading it (sets.Provide)", median(provided), -1)
	row("      of which opening the newest release", median(opened), -1)
	row("    of which app.New", median(created), -1)
	row("trivial Go wasm page (fmt, json, js): same", median(trivial), -1)
	fmt.Printf("%-44s %7.1fx\n", "navigation, kwire / trivial page", median(ready)/median(trivial))
	if startupOnly {
		return nil
	}

	// 2. One edit of a small message: the input event's handler re-encodes,
	// re-decodes and redraws; layout is forced so that it counts.
	// editP returns the median and the 95th percentile of values edits.
	// split holds, for the last editP, the median of each step of an
	// edit: SetField, the tree's HTML in Go, setting it in the DOM, the
	// rest of the redraw, the forced layout (the total less the others).
	var split [5]float64
	editP := func(key string, values int) (med, p95 float64, err error) {
		xs, err := chromedp.Run(ctx, chromedp.Evaluate[[][]float64](fmt.Sprintf(`(async () => {
			const e = document.getElementById(%q);
			const xs = [];
			for (let i = 0; i < %d; i++) {
				e.value = String(1000 + i);
				const t = performance.now();
				e.dispatchEvent(new Event('input', {bubbles: true}));
				document.body.offsetHeight;
				const total = performance.now() - t;
				const [set, rest] = kwire.editMs || [0, 0];
				const [tgo, tdom] = kwire.treeMs || [0, 0];
				xs.push([total, set, tgo, tdom, rest - tgo - tdom, total - set - rest]);
				await new Promise(r => requestAnimationFrame(r));
			}
			return xs;
		})()`, "k-"+key, values), chromedp.EvalAwaitPromise))
		if err != nil || len(xs) == 0 {
			return 0, 0, err
		}
		col := func(j int) []float64 {
			var c []float64
			for _, x := range xs {
				c = append(c, x[j])
			}
			slices.Sort(c)
			return c
		}
		for j := range split {
			split[j] = median(col(j + 1))
		}
		tot := col(0)
		return median(tot), tot[min(len(tot)-1, (len(tot)*95+99)/100-1)], nil
	}
	splitRow := func() {
		fmt.Printf("  %-42s %s\n", "split (medians)", fmt.Sprintf("SetField %.1f, tree Go %.1f, tree DOM %.1f, rest of redraw %.1f, layout %.1f ms", split[0], split[1], split[2], split[3], split[4]))
	}
	edit := func(key string, values int) (float64, error) {
		m, _, err := editP(key, values)
		return m, err
	}
	small, smallP95, err := editP("b:SessionTimeoutMs", max(n, 21))
	if err != nil {
		return err
	}
	s, err := app.New("", "JoinGroup")
	if err != nil {
		return err
	}
	i := 0
	natSmall := native(max(n, 21), func() {
		i++
		if err := s.SetField("b:SessionTimeoutMs", strconv.Itoa(1000+i)); err != nil {
			panic(err)
		}
		_ = s.TreeRows(s.TreeLines(), 0, 60)
		_ = s.HexRows(0, 40)
	})
	row("edit, JoinGroup v9 (33 bytes), median", small, natSmall)
	row("edit, JoinGroup v9 (33 bytes), p95", smallP95, -1)
	splitRow()

	// 2b. Edits of real responses of a few hundred bytes to a few KB
	// (kgo against kfake: identify's corpus), ThrottleTimeMs each time,
	// 21 edits: median and 95th percentile, beside the same work natively.
	for _, r := range realResponses() {
		q := fmt.Sprintf("/index.html?set=auto&api=%d&v=%d&dir=response&hex=%x", r.key, r.version, r.frame)
		if err := chromedp.Do(ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(srv.URL+q), chromedp.WaitVisible(`body[data-ready="1"]`)); err != nil {
			return err
		}
		med, p95, err := editP("b:ThrottleTimeMs", max(n, 21))
		if err != nil {
			return err
		}
		rs, err := app.New("", "JoinGroup")
		if err == nil {
			err = rs.Apply(q[len("/index.html?"):])
		}
		if err != nil {
			return err
		}
		var nat []float64
		for j := range max(n, 21) {
			t := time.Now()
			if err := rs.SetField("b:ThrottleTimeMs", strconv.Itoa(2000+j)); err != nil {
				return err
			}
			_ = rs.TreeRows(rs.TreeLines(), 0, 60)
			_ = rs.HexRows(0, 40)
			nat = append(nat, float64(time.Since(t).Microseconds())/1000)
		}
		slices.Sort(nat)
		name := fmt.Sprintf("edit, %s v%d response (%d B)", rs.API.Name, r.version, len(r.frame))
		row(name+", median", med, median(nat))
		row(name+", p95", p95, nat[(len(nat)*95+99)/100-1])
		splitRow()
	}

	// 3. Load the Fetch response (a dropped file): decode, tree, draw.
	loadFetch := fmt.Sprintf(`(async () => {
		const hex = %q;
		const u8 = new Uint8Array(hex.length / 2);
		for (let i = 0; i < u8.length; i++) u8[i] = parseInt(hex.substr(2 * i, 2), 16);
		const dt = new DataTransfer();
		dt.items.add(new File([u8], 'fetch.bin'));
		const title = document.getElementById('msgtitle');
		const t = performance.now();
		document.body.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));
		while (!title.textContent.includes('%d bytes')) await new Promise(r => setTimeout(r, 1));
		document.body.offsetHeight;
		return performance.now() - t;
	})()`, hex.EncodeToString(fetch), len(fetch))
	var loads []float64
	for range max(n/2, 1) {
		if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/index.html?set=trunk&api=Fetch&dir=response"), chromedp.WaitVisible(`body[data-ready="1"]`)); err != nil {
			return err
		}
		l, err := eval(loadFetch)
		if err != nil {
			return err
		}
		loads = append(loads, l)
	}
	fs, _ := app.New("", "JoinGroup")
	if err := fs.Select("trunk", "Fetch", -1, codec.Response); err != nil {
		return err
	}
	natFetch := native(max(n/2, 1), func() {
		if err := fs.Load(fetch); err != nil {
			panic(err)
		}
		_ = fs.TreeRows(fs.TreeLines(), 0, 60)
		_ = fs.HexRows(0, 40)
	})
	row(fmt.Sprintf("load a %.1f MB Fetch response", float64(len(fetch))/1e6), median(loads), natFetch)

	// 4. One edit of that response.
	big, err := edit("b:ThrottleTimeMs", n)
	if err != nil {
		return err
	}
	natBig := native(n, func() {
		i++
		if err := fs.SetField("b:ThrottleTimeMs", strconv.Itoa(1000+i)); err != nil {
			panic(err)
		}
		_ = fs.TreeRows(fs.TreeLines(), 0, 60)
		_ = fs.HexRows(0, 40)
	})
	row("edit, the Fetch response", big, natBig)
	splitRow()

	// 5. Scrolling its byte view: the time to draw the rows of one
	// scroll step, 60 steps over the whole buffer.
	scroll, err := eval(`(async () => {
		const v = document.getElementById('hexview');
		const xs = [];
		for (let i = 1; i <= 60; i++) {
			const t = performance.now();
			v.scrollTop = v.scrollHeight * i / 61;
			v.dispatchEvent(new Event('scroll'));
			await new Promise(r => requestAnimationFrame(r));
			document.body.offsetHeight;
			xs.push(performance.now() - t);
		}
		xs.sort((a, b) => a - b);
		return xs[xs.length >> 1];
	})()`)
	if err != nil {
		return err
	}
	row("scroll step of its byte view (to next frame)", scroll, -1)
	rows, _ := eval(`document.querySelectorAll('#hexrows .hrow').length`)
	wasm, _ := os.Stat(filepath.Join(dist, "kwire.wasm"))
	fmt.Printf("\nrows in the DOM after scrolling: %.0f of %d; kwire.wasm %d bytes\n", rows, (len(fetch)+15)/16, wasm.Size())
	return nil
}

// trivialPage writes trivial.html, trivial.js and trivial.wasm (with its .gz, as
// build.sh precompresses kwire.wasm) into dir: a Go program importing
// fmt, encoding/json and syscall/js, as in scripts/wasm-size.sh, that
// marks the page ready when its main has run.
func trivialPage(dir string) error {
	src := filepath.Join(dir, "trivial-src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		return err
	}
	const main = `package main

import (
	"encoding/json"
	"fmt"
	"syscall/js"
)

func main() {
	b, _ := json.Marshal(map[string]int{"a": 1})
	doc := js.Global().Get("document")
	body := doc.Get("body")
	body.Call("appendChild", doc.Call("createTextNode", fmt.Sprintf("%s", b)))
	body.Call("setAttribute", "data-ready", "1")
	js.Global().Set("trivialReadyMs", js.Global().Get("performance").Call("now"))
}
`
	// The server's Content-Security-Policy allows no inline script.
	const page = `<!doctype html>
<html><head><meta charset="utf-8"><title>trivial</title>
<script src="wasm_exec.js"></script><script src="trivial.js"></script></head>
<body></body></html>
`
	const loader = `(async () => {
  const go = new Go();
  const r = await WebAssembly.instantiateStreaming(fetch("trivial.wasm"), go.importObject);
  go.run(r.instance);
})();
`
	for name, text := range map[string]string{
		filepath.Join(src, "main.go"):      main,
		filepath.Join(src, "go.mod"):       "module trivial\n\ngo 1.26\n",
		filepath.Join(dir, "trivial.html"): page,
		filepath.Join(dir, "trivial.js"):   loader,
	} {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			return err
		}
	}
	out, err := filepath.Abs(filepath.Join(dir, "trivial.wasm"))
	if err != nil {
		return err
	}
	build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", out, ".")
	build.Dir = src
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "GOFLAGS=")
	if b, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("building the trivial page: %v\n%s", err, b)
	}
	if b, err := exec.Command("go", "run", "./scripts/wasmdata", out).CombinedOutput(); err != nil {
		return fmt.Errorf("wasmdata: %v\n%s", err, b)
	}
	if err := os.RemoveAll(src); err != nil {
		return err
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		return err
	}
	var gz bytes.Buffer
	w, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	w.Write(raw)
	if err := w.Close(); err != nil {
		return err
	}
	return os.WriteFile(out+".gz", gz.Bytes(), 0o644)
}

// realResponse is a response of identify's corpus.
type realResponse struct {
	key, version int
	frame        []byte
}

// realResponses are the largest ApiVersions, Metadata and Fetch responses
// of identify's corpus (kgo against kfake).
func realResponses() []realResponse {
	text, err := os.ReadFile(filepath.Join("identify", "testdata", "corpus.txt"))
	if err != nil {
		return nil
	}
	best := map[int]realResponse{}
	for _, l := range strings.Split(string(text), "\n") {
		f := strings.Fields(l)
		if len(f) < 4 || f[0] != "response" {
			continue
		}
		key, _ := strconv.Atoi(f[1])
		version, _ := strconv.Atoi(f[2])
		b, err := hex.DecodeString(f[3])
		if err != nil || key != 18 && key != 3 && key != 1 {
			continue
		}
		if len(b) > len(best[key].frame) {
			best[key] = realResponse{key, version, b}
		}
	}
	var out []realResponse
	for _, k := range []int{18, 3, 1} {
		if r, ok := best[k]; ok {
			out = append(out, r)
		}
	}
	return out
}
