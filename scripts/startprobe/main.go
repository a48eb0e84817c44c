// Command startprobe splits the explorer's start in Chromium: per
// navigation, when the document and the scripts arrive, when kwire.wasm's
// request starts and its response starts and ends, when its compile and
// its instantiation end, when Go's run and main start, when the schema
// bundle arrives and when the page is ready; with -inittrace each
// package's init as GODEBUG=inittrace=1 prints it, with -trace Chromium's
// wasm trace events (compilation, lazy compilation, code cache). It hooks
// the page from outside (a script evaluated before the page's own), so
// the page is unchanged. PROBE_B=dir alternates the navigations with a
// copy of the site under /b/ with dir's files over it (PROBE_A=dir
// overlays the site itself), so that a change is measured beside the page
// as it is, under the same load: the machine's noise cancels.
//
//	go run ./scripts/startprobe [-n N] [-nosw] [-inittrace] [-trace] [-dwell D]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"

	"kwire/e2e"
)

const hook = `(() => {
  const W = WebAssembly, compileStreaming = W.compileStreaming, instantiate = W.instantiate;
  globalThis.probe = {};
  W.compileStreaming = async function (src) {
    const p = globalThis.probe;
    p.call = performance.now();
    const m = await compileStreaming.call(W, src);
    p.compiled = performance.now();
    return m;
  };
  W.instantiate = async function (m, imports) {
    const r = await instantiate.call(W, m, imports);
    if (m instanceof W.Module) globalThis.probe.instantiated = performance.now();
    return r;
  };
  W.instantiateStreaming = async function (src, imports) {
    const m = await W.compileStreaming(src);
    return {module: m, instance: await W.instantiate(m, imports)};
  };
  let G;
  Object.defineProperty(globalThis, 'Go', {configurable: true, get() { return G; }, set(v) {
    G = class extends v {
      constructor() { super(); if (globalThis.probeEnv) this.env = Object.assign({}, this.env, globalThis.probeEnv); }
      run(i) { globalThis.probe.run = performance.now(); return super.run(i); }
    };
  }});
})();`

func main() {
	dist := flag.String("dist", "dist", "built site")
	n := flag.Int("n", 10, "navigations")
	nosw := flag.Bool("nosw", false, "bypass the service worker")
	inittrace := flag.Bool("inittrace", false, "GODEBUG=inittrace=1")
	top := flag.Int("top", 25, "inits to print")
	flag.BoolVar(&traceWasm, "trace", false, "print Chromium's wasm trace events")
	flag.DurationVar(&dwell, "dwell", 0, "time to stay on the page after each navigation")
	flag.Parse()
	if err := run(*dist, *n, *nosw, *inittrace, *top); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

var traceWasm bool
var dwell time.Duration

var initRe = regexp.MustCompile(`^init (\S+) @([0-9.]+) ms, ([0-9.]+) ms clock, (\d+) bytes, (\d+) allocs`)

func run(dist string, n int, nosw, inittrace bool, top int) error {
	tmp, err := os.MkdirTemp("", "kwire-probe")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	srv, err := e2e.Site(dist, tmp)
	if err != nil {
		return err
	}
	defer srv.Close()
	var ctx context.Context
	var cancel context.CancelFunc
	if flags := os.Getenv("PROBE_JSFLAGS"); flags != "" {
		// V8's flags, and the browser's output on stderr.
		actx, acancel := chromedp.NewExecAllocator(context.Background(), chromedp.ExecPath(e2e.Chromium), chromedp.NoSandbox, chromedp.Headless,
			chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.Flag("disable-quic", true),
			chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true), chromedp.Flag("disable-dev-shm-usage", true), chromedp.WindowSize(1400, 1000),
			chromedp.Flag("js-flags", flags), chromedp.CombinedOutput(os.Stderr))
		bctx, bcancel := chromedp.NewContext(actx)
		ctx, cancel = bctx, func() { bcancel(); acancel() }
	} else {
		ctx, cancel, err = e2e.Browser(context.Background(), 1400, 1000)
		if err != nil {
			return err
		}
	}
	defer cancel()
	ctx, stop := context.WithTimeout(ctx, 10*time.Minute)
	defer stop()
	var mu sync.Mutex
	var lines []string
	if inittrace {
		go func() {
			for e, err := range chromedp.Events(ctx, runtime.ConsoleAPICalled) {
				if err != nil {
					return
				}
				for _, a := range e.Args {
					s, err := strconv.Unquote(string(a.Value))
					if err == nil {
						mu.Lock()
						lines = append(lines, s)
						mu.Unlock()
					}
				}
			}
		}()
	}
	src := hook
	if inittrace {
		godebug := "inittrace=1"
		if g := os.Getenv("PROBE_GODEBUG"); g != "" {
			godebug = g
		}
		src = "globalThis.probeEnv = {GODEBUG: '" + godebug + "'};" + src
	}
	if nosw {
		src = "navigator.serviceWorker.register = () => Promise.resolve();" + src
	}
	// PROBE_B=dir: navigations alternate between the site (A) and a copy
	// of it under /b/ (B) with the files of dir over it, its own service
	// worker's scope, so that any change to the page's files is measured
	// beside the page as it is, under the same load.
	ab := os.Getenv("PROBE_B") != ""
	if a := os.Getenv("PROBE_A"); a != "" {
		es, err := os.ReadDir(a)
		if err != nil {
			return err
		}
		for _, e := range es {
			data, err := os.ReadFile(filepath.Join(a, e.Name()))
			if err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(tmp, e.Name()), data, 0o644); err != nil {
				return err
			}
			if _, err := os.Stat(filepath.Join(a, e.Name()+".gz")); err != nil {
				os.Remove(filepath.Join(tmp, e.Name()+".gz")) // stale
			}
		}
	}
	if ab {
		b := filepath.Join(tmp, "b")
		if err := os.MkdirAll(b, 0o755); err != nil {
			return err
		}
		for _, d := range []string{tmp, os.Getenv("PROBE_B")} {
			es, err := os.ReadDir(d)
			if err != nil {
				return err
			}
			for _, e := range es {
				if !e.Type().IsRegular() {
					continue
				}
				data, err := os.ReadFile(filepath.Join(d, e.Name()))
				if err != nil {
					return err
				}
				if err := os.WriteFile(filepath.Join(b, e.Name()), data, 0o644); err != nil {
					return err
				}
				if _, err := os.Stat(filepath.Join(d, e.Name()+".gz")); d != tmp && err != nil {
					os.Remove(filepath.Join(b, e.Name()+".gz")) // stale
				}
			}
		}
	}
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: src}); err != nil {
		return err
	}
	var events []map[string]any
	if traceWasm {
		go func() {
			for e, err := range chromedp.Events(ctx, tracing.DataCollected) {
				if err != nil {
					return
				}
				mu.Lock()
				for _, v := range e.Value {
					var m map[string]any
					if json.Unmarshal(v, &m) == nil {
						if name, _ := m["name"].(string); strings.Contains(strings.ToLower(name), "wasm") {
							events = append(events, m)
						}
					}
				}
				mu.Unlock()
			}
		}()
		if _, err := chromedp.Call(ctx, tracing.Start, tracing.StartParams{TraceConfig: &tracing.TraceConfig{IncludedCategories: []string{"devtools.timeline", "disabled-by-default-devtools.timeline", "v8.wasm", "disabled-by-default-v8.wasm.detailed"}}}); err != nil {
			return err
		}
		defer func() {
			_, err := chromedp.Run(ctx, chromedp.WaitEvent(tracing.TracingComplete, nil, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
				_, err := cdp.Call(ctx, t, tracing.End, cdp.Empty{})
				return err
			})))
			if err != nil {
				fmt.Println("trace:", err)
			}
			time.Sleep(time.Second)
			mu.Lock()
			defer mu.Unlock()
			sort.Slice(events, func(i, j int) bool { return events[i]["ts"].(float64) < events[j]["ts"].(float64) })
			counts := map[string]int{}
			durs := map[string]float64{}
			for _, e := range events {
				counts[e["name"].(string)]++
				d, _ := e["dur"].(float64)
				durs[e["name"].(string)] += d / 1000
				dur, _ := e["dur"].(float64)
				args, _ := json.Marshal(e["args"])
				if n := e["name"].(string); strings.Contains(n, "CompileLazy") || strings.Contains(n, "Baseline") || strings.Contains(n, "AddCompiledCode") || strings.Contains(n, "PublishCode") || strings.Contains(n, "OnBytesReceived") || strings.Contains(n, "ValidateFunctions") || strings.Contains(n, "OnFinishedUnits") || strings.Contains(n, "ExecuteCompilationUnits") {
					continue
				}
				if len(args) > 160 {
					args = args[:160]
				}
				fmt.Printf("%14.1f %-4v %-45s %8.2f ms %s\n", e["ts"].(float64)/1000, e["ph"], e["name"], dur/1000, args)
			}
			fmt.Println(counts)
			if path := os.Getenv("PROBE_FUNCS"); path != "" {
				// The functions compiled lazily in the last navigation:
				// index, body size, time, start (ms).
				last := 0.0
				for _, e := range events {
					if e["name"] == "wasm.StartStreamingCompilation" {
						last = e["ts"].(float64)
					}
				}
				var b strings.Builder
				for _, e := range events {
					args, _ := e["args"].(map[string]any)
					if os.Getenv("PROBE_EVENT") != "" && e["name"] == os.Getenv("PROBE_EVENT") && e["ts"].(float64) >= last {
						a, _ := json.Marshal(e)
						fmt.Fprintf(&b, "%s\n", a)
						continue
					}
					if e["name"] != "wasm.CompileBaseline" || e["ts"].(float64) < last || args == nil {
						continue
					}
					d, _ := e["dur"].(float64)
					fmt.Fprintf(&b, "%v %v %.3f %.3f\n", args["funcIndex"], args["bodySize"], d/1000, (e["ts"].(float64)-last)/1000)
				}
				os.WriteFile(path, []byte(b.String()), 0o644)
			}
			fmt.Println("total ms by event (all navigations):", durs)
		}()
	}
	url := srv.URL + "/index.html?set=trunk&api=JoinGroup&v=9&dir=request"
	urlB := srv.URL + "/b/index.html?set=trunk&api=JoinGroup&v=9&dir=request"
	fmt.Println("nav   wasmTx   docEnd  appEnd  domInt wStart  wResp   wEnd compild   inst    run   main bStart   bEnd  ready  xEnd  inits")
	type agg struct{ clock, at []float64 }
	inits := map[string]*agg{}
	cols := make([][]float64, 15)
	for i := range n {
		mu.Lock()
		lines = nil
		mu.Unlock()
		u := url
		if ab && i%2 == 1 {
			u = urlB
		}
		if err := chromedp.Do(ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(u), chromedp.WaitVisible(`body[data-ready="1"]`)); err != nil {
			return err
		}
		r, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => {
			const res = n => performance.getEntriesByType('resource').find(e => e.name.endsWith('/' + n)) || {};
			const w = res('kwire.wasm'), b = res('kafka-schemas.txt'), a = res('app.js'), x = res('wasm_exec.js');
			const d = performance.getEntriesByType('navigation')[0];
			const p = globalThis.probe;
			return [w.transferSize ?? -1, d.responseEnd, a.responseEnd ?? -1, d.domInteractive, w.startTime ?? -1, w.responseStart ?? -1, w.responseEnd ?? -1,
				p.compiled, p.instantiated, p.run, kwire.mainAt, b.startTime ?? -1, b.responseEnd ?? -1, kwire.readyMs, x.responseEnd ?? -1];
		})()`))
		if err != nil {
			return err
		}
		if os.Getenv("PROBE_ENTRIES") != "" && i == n-1 {
			es, err := chromedp.Run(ctx, chromedp.Evaluate[string](`performance.getEntriesByType('resource').map(e => e.name.replace(/.*\//, '') + ' ' + e.initiatorType + ' ' + e.startTime.toFixed(1) + ' ' + e.workerStart.toFixed(1) + ' ' + e.fetchStart.toFixed(1) + ' ' + e.responseStart.toFixed(1) + ' ' + e.responseEnd.toFixed(1) + ' ' + e.transferSize).join('\n')`))
			fmt.Println(es, err)
		}
		time.Sleep(100*time.Millisecond + dwell)
		mu.Lock()
		sum := 0.0
		for _, l := range lines {
			for _, l := range strings.Split(l, "\n") {
				m := initRe.FindStringSubmatch(l)
				if m == nil && os.Getenv("PROBE_GODEBUG") != "" && i == n-1 {
					fmt.Println("console:", l)
				}
				if m == nil {
					continue
				}
				at, _ := strconv.ParseFloat(m[2], 64)
				c, _ := strconv.ParseFloat(m[3], 64)
				sum += c
				a := inits[m[1]]
				if a == nil {
					a = &agg{}
					inits[m[1]] = a
				}
				a.clock = append(a.clock, c)
				a.at = append(a.at, at)
			}
		}
		mu.Unlock()
		for j, v := range r {
			cols[j] = append(cols[j], v)
		}
		fmt.Printf("%3d", i)
		for j, v := range r {
			if j == 0 {
				fmt.Printf(" %8.0f", v)
			} else {
				fmt.Printf(" %6.1f", v)
			}
		}
		fmt.Printf(" %6.1f\n", sum)
	}
	// Medians over navigations 1.. of each step, each taken per run.
	step := func(name string, f func(j int) float64) {
		var xs, ys []float64
		for j := 2; j < n; j++ {
			if ab && j%2 == 1 {
				ys = append(ys, f(j))
			} else {
				xs = append(xs, f(j))
			}
		}
		if ab {
			fmt.Printf("  %-46s %7.1f ms  B %7.1f ms\n", name, median(xs), median(ys))
			return
		}
		fmt.Printf("  %-46s %7.1f ms\n", name, median(xs))
	}
	c := func(k int) func(j int) float64 { return func(j int) float64 { return cols[k][j] } }
	d := func(a, b int) func(j int) float64 { return func(j int) float64 { return cols[b][j] - cols[a][j] } }
	fmt.Println("medians of navigations 2.. (navigation 0 installs the service worker):")
	step("document response end", c(1))
	step("wasm_exec.js response end", c(14))
	step("app.js response end", c(2))
	step("DOM interactive", c(3))
	step("kwire.wasm request start", c(4))
	step("  request -> response start", d(4, 5))
	step("  response start -> end", d(5, 6))
	step("  response end -> compiled", d(6, 7))
	step("  instantiate", d(7, 8))
	step("  Go run -> main (runtime, inits)", d(9, 10))
	step("main (kwire.mainAt)", c(10))
	step("bundle request start", c(11))
	step("bundle response end", c(12))
	step("main -> ready", d(10, 13))
	step("ready", c(13))
	if len(inits) > 0 {
		type kv struct {
			name      string
			clock, at float64
		}
		var all []kv
		total := 0.0
		for k, a := range inits {
			c := median(a.clock)
			total += c
			all = append(all, kv{k, c, median(a.at)})
		}
		sort.Slice(all, func(i, j int) bool { return all[i].clock > all[j].clock })
		fmt.Printf("inits: %d packages, sum of medians %.2f ms\n", len(all), total)
		for i, e := range all {
			if i >= top {
				break
			}
			fmt.Printf("  %-40s %6.2f ms  @%.1f\n", e.name, e.clock, e.at)
		}
	}
	return nil
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}
