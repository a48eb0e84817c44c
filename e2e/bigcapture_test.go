package e2e

import (
	"bytes"
	"encoding/binary"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"kwire/capture/capturetest"
	"kwire/codec"
	"kwire/codec/codectest"
	"kwire/wasm/app"
)

// TestBigCapture drops a capture of 1,000 Fetch requests each answered
// with 64 KB of records (77 MB) on the page and measures how long it
// takes to list and the longest time the page did not respond (the
// longest gap between ticks of a 10 ms timer). It is slow: it runs with
// KWIRE_BIGCAPTURE=1.
func TestBigCapture(t *testing.T) {
	if os.Getenv("KWIRE_BIGCAPTURE") == "" {
		t.Skip("KWIRE_BIGCAPTURE=1 runs it")
	}
	fetch, err := codectest.FetchResponse(64 << 10)
	if err != nil {
		t.Fatal(err)
	}
	s, err := app.New("", "Fetch")
	if err == nil {
		err = s.Select(app.Auto, "Fetch", 17, codec.Request)
	}
	if err != nil {
		t.Fatal(err)
	}
	req := s.Bytes
	var chunks []capturetest.Chunk
	at := time.Unix(1700000000, 0)
	for i := range 1000 {
		r, resp := bytes.Clone(req), bytes.Clone(fetch)
		binary.BigEndian.PutUint32(r[8:], uint32(i))
		binary.BigEndian.PutUint32(resp[4:], uint32(i))
		chunks = append(chunks, capturetest.Chunk{Conn: i % 4, FromClient: true, Time: at.Add(time.Duration(i) * time.Millisecond), Data: r},
			capturetest.Chunk{Conn: i % 4, Time: at.Add(time.Duration(i)*time.Millisecond + 300*time.Microsecond), Data: resp})
	}
	p, size, done := captureTab(t, "big.pcap", chunks, 5*time.Minute)
	defer done()
	ctx := p.ctx
	eval[bool](p, `(() => { fetch('big.pcap').then(r => r.arrayBuffer()).then(buf => {
		const dt = new DataTransfer(); dt.items.add(new File([buf], 'big.pcap'));
		window.capT0 = performance.now(); window.capGap = 0;
		let last = performance.now();
		window.capLong = [];
		window.capTick = setInterval(() => { const n = performance.now(); if (n - last > 100) window.capLong.push(Math.round(last - window.capT0) + '+' + Math.round(n - last)); window.capGap = Math.max(window.capGap, n - last); last = n; }, 10);
		document.body.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));
	}); return true })()`)
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.getElementById('capsum').textContent.includes('1000 conversations') && document.getElementById('capprog').hidden`, chromedp.WithPollingTimeout(4*time.Minute))); err != nil {
		t.Fatalf("not listed: %v", err)
	}
	total := eval[float64](p, `performance.now() - window.capT0`)
	gap := eval[float64](p, `window.capGap`)
	sum := eval[string](p, `document.getElementById('capsum').textContent`)
	t.Logf("pauses over 100 ms (start+length, ms): %s", eval[string](p, `window.capLong.join(' ')`))
	t.Logf("%d bytes listed in %.0f ms; the longest the page did not respond: %.0f ms; %s", size, total, gap, sum)
	if strings.Contains(sum, "damaged") {
		t.Error(sum)
	}
	if n := eval[int](p, `document.querySelectorAll('#caprows .crow').length`); n > 100 {
		t.Errorf("%d rows drawn of 1000: the list is not drawn by range", n)
	}
	// Scrolling draws the rows in view.
	eval[bool](p, `(() => { const v = document.getElementById('caplist'); v.scrollTop = v.scrollHeight / 2; return true })()`)
	time.Sleep(150 * time.Millisecond)
	if !eval[bool](p, `!!document.querySelector('#caprows .crow[data-r="500"]')`) {
		t.Errorf("row 500 not drawn after scrolling to it")
	}
	p.shot("bigcapture")
}
