package e2e

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"kwire/capture/capturetest"
	"kwire/codec"
)

// TestCaptureUpgradeAndLeaks opens a capture whose client sends Produce
// v2 and whose FindCoordinator response names a broker behind the
// proxy: the release picker reports what 4.0 refuses, the advertised
// addresses mark the row, and the response's Host and Port lines are
// marked in the tree.
func TestCaptureUpgradeAndLeaks(t *testing.T) {
	type fr struct {
		set  string
		api  string
		v    int16
		dir  codec.Direction
		corr int32
		body string
	}
	var chunks []capturetest.Chunk
	at := time.Unix(1700000000, 0)
	for i, f := range []fr{
		{"3.9", "Produce", 2, codec.Request, 1, "{}"},
		{"trunk", "Metadata", 12, codec.Request, 2, "{}"},
		{"trunk", "Metadata", 12, codec.Response, 2, `{"Brokers":[{"NodeId":1,"Host":"proxy","Port":9092}]}`},
		{"trunk", "FindCoordinator", 4, codec.Request, 3, "{}"},
		{"trunk", "FindCoordinator", 4, codec.Response, 3, `{"Coordinators":[{"Key":"g","NodeId":1,"Host":"broker-1","Port":19092}]}`},
	} {
		b, err := capturetest.FrameFromJSON(f.set, f.api, f.v, f.dir, f.corr, f.body)
		if err != nil {
			t.Fatal(err)
		}
		chunks = append(chunks, capturetest.Chunk{Conn: 0, FromClient: f.dir == codec.Request, Time: at.Add(time.Duration(i) * time.Millisecond), Data: b})
	}
	p, _, done := captureTab(t, "leaky.pcap", chunks, time.Minute)
	defer done()
	ctx := p.ctx
	eval[bool](p, `(() => { fetch('leaky.pcap').then(r => r.arrayBuffer()).then(buf => {
		const dt = new DataTransfer(); dt.items.add(new File([buf], 'leaky.pcap'));
		document.body.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));
	}); return true })()`)
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.getElementById('capsum').textContent.includes('3 conversations') && document.getElementById('capprog').hidden`, chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		t.Fatalf("not listed: %v", err)
	}
	report := eval[string](p, `(() => { const s = document.getElementById('capagainst'); s.value = '4.0';
		s.dispatchEvent(new Event('change', {bubbles: true})); return document.getElementById('capreport').textContent })()`)
	if !strings.Contains(report, "refused: Produce v2 ×1: 4.0 removed Produce v2 (KIP-896)") {
		t.Errorf("report: %q", report)
	}
	sum := eval[string](p, `(() => { const a = document.getElementById('capadv'); a.value = 'proxy:9092';
		a.dispatchEvent(new Event('input', {bubbles: true})); return document.getElementById('capleaks').textContent })()`)
	if !strings.Contains(sum, "2 address leaks") {
		t.Errorf("audit: %q", sum)
	}
	if n := eval[int](p, `document.querySelectorAll('#caprows .crow.leak').length`); n != 1 {
		t.Errorf("%d rows marked, want 1", n)
	}
	eval[bool](p, `(() => { document.querySelector('#caprows .crow.leak button[data-resp="true"]').click(); return true })()`)
	time.Sleep(300 * time.Millisecond)
	marked := eval[string](p, `[...document.querySelectorAll('.tn.leak')].map(e => e.textContent).join('\n')`)
	if strings.Count(marked, "\n") != 1 || !strings.Contains(marked, "Host") || !strings.Contains(marked, "19092") {
		t.Errorf("marked lines:\n%s", marked)
	}
	p.shot("capture-leaks")
}

// captureTab writes chunks as a pcap named name beside a site served
// from dist, and opens the explorer on it in a browser for at most
// timeout; size is the pcap's, done closes both.
func captureTab(t *testing.T, name string, chunks []capturetest.Chunk, timeout time.Duration) (p *tab, size int, done func()) {
	t.Helper()
	var buf bytes.Buffer
	if err := capturetest.WritePcap(&buf, capturetest.Packets(chunks, capturetest.Options{}), 1, false, false, 65535); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	srv, err := Site(filepath.Join("..", "dist"), tmp)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tmp, name), buf.Bytes(), 0o644); err != nil {
		srv.Close()
		t.Fatal(err)
	}
	ctx, cancel, err := Browser(context.Background(), 1400, 1000)
	if err != nil {
		srv.Close()
		t.Fatal(err)
	}
	ctx, stop := context.WithTimeout(ctx, timeout)
	p = &tab{t: t, ctx: ctx, base: srv.URL}
	p.open("set=trunk&api=JoinGroup&v=9&dir=request")
	return p, buf.Len(), func() { stop(); cancel(); srv.Close() }
}
