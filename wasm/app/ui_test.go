package app

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kwire/capture/capturetest"
	"kwire/wasm/dom/domtest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// page is the explorer's page (the ids of web/static/index.html) laid out
// as a window of Chromium's default size would: the byte view 600 px
// high, the tree 800, the conversation list 400.
func page(t *testing.T) *domtest.Page {
	t.Helper()
	html, err := os.ReadFile("../../web/static/index.html")
	if err != nil {
		t.Fatal(err)
	}
	p := domtest.New(domtest.IDs(string(html))...)
	p.El("hexview").Height, p.El("tree").Height, p.El("caplist").Height = 600, 800, 400
	return p
}

// pcapOf is the capture of the two connections of conversation.
func pcapOf(t *testing.T) []byte {
	chunks, _ := conversation(t)
	var b bytes.Buffer
	if err := capturetest.WritePcap(&b, capturetest.Packets(chunks, capturetest.Options{MSS: 20}), 1, true, false, 65535); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestUI: the controller's transcripts, event by event (notes in
// parentheses), against testdata/ui/NAME.txt (-update rewrites them).
func TestUI(t *testing.T) {
	cases := []struct {
		name   string
		events func(t *testing.T, p *domtest.Page, u *UI)
	}{
		{"start", nil},
		{"paste-chips", func(t *testing.T, p *domtest.Page, u *UI) {
			u.Paste(&domtest.Event{T: p.El("hexview"), Clipboard: heartbeatResp})
			p.Note("(click the second chip)")
			chip := p.Add(p.El("chips"), "button", "data-act", "choose", "data-i", "1")
			u.Click(&domtest.Event{T: chip})
		}},
		{"paste-bad", func(t *testing.T, p *domtest.Page, u *UI) {
			u.Paste(&domtest.Event{T: p.El("hexview"), Clipboard: "00000010 0003"})
		}},
		{"tree-keys", func(t *testing.T, p *domtest.Page, u *UI) {
			for _, k := range []string{"ArrowDown", "ArrowDown", "ArrowLeft", "Enter", "x"} {
				p.Note("(key " + k + " in the tree)")
				u.Key(&domtest.Event{T: p.El("tree"), K: k})
			}
			p.Note("(scrolled)")
			u.ScrollTree()
			u.ScrollTree()
			p.Run(10)
		}},
		{"hover-click-byte", func(t *testing.T, p *domtest.Page, u *UI) {
			row := p.Add(p.El("hexrows"), "div", "class", "hrow", "data-row", "0")
			b := p.Add(row, "span", "class", "hb", "data-o", "6", "data-n", "3")
			u.HoverByte(b)
			p.Note("(click)")
			u.Click(&domtest.Event{T: b})
			p.Note("(leave)")
			u.Leave()
		}},
		{"pick-api", func(t *testing.T, p *domtest.Page, u *UI) {
			p.El("api").Type("Heartbeat")
			u.Change(&domtest.Event{T: p.El("api")})
			p.El("api").Type("NoSuchApi")
			u.Change(&domtest.Event{T: p.El("api")})
		}},
		{"schema-debounce", func(t *testing.T, p *domtest.Page, u *UI) {
			p.El("schema").Type("{")
			u.Input(&domtest.Event{T: p.El("schema")})
			p.El("schema").Type("{\"apiKey\":")
			u.Input(&domtest.Event{T: p.El("schema")})
			p.Note("(the timers fire)")
			p.Run(10)
		}},
		{"json-error", func(t *testing.T, p *domtest.Page, u *UI) {
			p.El("json").Type("{\"GroupId\": 5}")
			u.Key(&domtest.Event{T: p.El("json"), K: "Enter", Ctrl: true})
		}},
		{"drop-keylog", func(t *testing.T, p *domtest.Page, u *UI) {
			kl := "# a key log\nCLIENT_RANDOM " + strings.Repeat("ab", 32) + " " + strings.Repeat("cd", 48) + "\n"
			u.Drop(&domtest.Event{T: p.El("hexview"), Files: map[string][]byte{"keys.log": []byte(kl)}})
			p.Note("(a bad one)")
			u.Drop(&domtest.Event{T: p.El("hexview"), Files: map[string][]byte{"bad.log": []byte("CLIENT_RANDOM zz\n")}})
		}},
		{"capture", func(t *testing.T, p *domtest.Page, u *UI) {
			u.Drop(&domtest.Event{T: p.El("hexview"), Files: map[string][]byte{"test.pcap": pcapOf(t)}})
			p.Note("(the steps)")
			p.Run(100)
			p.Note("(report against 3.9)")
			p.El("capagainst").Type("3.9")
			u.Change(&domtest.Event{T: p.El("capagainst")})
			p.Note("(advertised addresses)")
			p.El("capadv").Type("broker.example:9092")
			u.Input(&domtest.Event{T: p.El("capadv")})
			p.Note("(key down in the list, then right)")
			u.Key(&domtest.Event{T: p.El("caplist"), K: "ArrowDown"})
			u.Key(&domtest.Event{T: p.El("caplist"), K: "ArrowRight"})
			p.Note("(filter)")
			p.El("capfilter").Type("Metadata")
			u.Input(&domtest.Event{T: p.El("capfilter")})
			p.Note("(close)")
			u.Click(&domtest.Event{T: p.Add(p.El("cappanel"), "button", "data-act", "cap-close")})
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := page(t)
			u := NewUI(newState(t), p)
			u.capStep = time.Hour
			u.Start("")
			if c.events != nil {
				p.Transcript() // the start is case "start"'s
				c.events(t, p, u)
			}
			got := p.Transcript()
			golden := filepath.Join("testdata", "ui", c.name+".txt")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test -run TestUI -update writes it)", err)
			}
			if got != string(want) {
				t.Errorf("transcript differs from %s (-update rewrites it):\n%s", golden, lineDiff(string(want), got))
			}
		})
	}
}

// lineDiff shows the first lines where want and got differ.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return "line " + itoa(i+1) + ":\n- " + a + "\n+ " + b
		}
	}
	return ""
}
