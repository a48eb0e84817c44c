package server

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// site builds a directory to serve, next to a secret file outside it, with
// symlinks that leave it and one that stays inside.
func site(t *testing.T) string {
	t.Helper()
	base := t.TempDir()
	dir := filepath.Join(base, "dist")
	write := func(name, content string) {
		p := filepath.Join(base, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("secret.txt", "SECRET")
	write("outside/inner.txt", "SECRET")
	write("dist/index.html", "<p>explorer</p>")
	write("dist/kwire.css", "body{}")
	write("dist/docs.js", "void 0")
	write("dist/kwire.wasm", "\x00asm\x01\x00\x00\x00")
	write("dist/data.bin", "\x01\x02")
	write("dist/docs/index.html", "<p>docs</p>")
	page := strings.Repeat("<p>JoinGroup</p>\n", 100)
	write("dist/docs/JoinGroup/index.html", page)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(page))
	zw.Close()
	write("dist/docs/JoinGroup/index.html.gz", gz.String())
	write("dist/.git/config", "SECRET")
	for link, target := range map[string]string{
		"dist/escape.txt":   "../secret.txt",
		"dist/escapedir":    "../outside",
		"dist/absolute.txt": filepath.Join(base, "secret.txt"),
		"dist/alias.css":    "kwire.css",
	} {
		if err := os.Symlink(target, filepath.Join(base, link)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func get(t *testing.T, h http.Handler, target string, hdr ...string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest("GET", "http://kwire.test/", nil)
	r.URL.Path = target // as the server decodes it; no cleaning on the way
	for i := 0; i+1 < len(hdr); i += 2 {
		r.Header.Set(hdr[i], hdr[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func TestContentTypesAndHeaders(t *testing.T) {
	h, err := New(site(t))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ path, ctype, cache string }{
		{"/", "text/html; charset=utf-8", CachePage},
		{"/index.html", "text/html; charset=utf-8", CachePage},
		{"/kwire.css", "text/css; charset=utf-8", CacheAsset},
		{"/docs.js", "text/javascript; charset=utf-8", CacheAsset},
		{"/kwire.wasm", "application/wasm", CacheAsset},
		{"/data.bin", "application/octet-stream", CacheAsset},
		{"/docs/", "text/html; charset=utf-8", CachePage},
		{"/alias.css", "text/css; charset=utf-8", CacheAsset}, // symlink inside the site
	}
	for _, c := range cases {
		w := get(t, h, c.path)
		if w.Code != 200 {
			t.Errorf("%s: status %d", c.path, w.Code)
			continue
		}
		hd := w.Header()
		if got := hd.Get("Content-Type"); got != c.ctype {
			t.Errorf("%s: Content-Type %q, want %q", c.path, got, c.ctype)
		}
		if got := hd.Get("Cache-Control"); got != c.cache {
			t.Errorf("%s: Cache-Control %q, want %q", c.path, got, c.cache)
		}
		if hd.Get("Content-Security-Policy") != CSP || hd.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: security headers %v", c.path, hd)
		}
		if hd.Get("ETag") == "" || hd.Get("Last-Modified") == "" {
			t.Errorf("%s: no validators", c.path)
		}
	}
	// A directory without its slash redirects relatively.
	if w := get(t, h, "/docs"); w.Code != http.StatusMovedPermanently || w.Header().Get("Location") != "docs/" {
		t.Errorf("/docs: %d %q", w.Code, w.Header().Get("Location"))
	}
	// Revalidation answers 304.
	w := get(t, h, "/kwire.css")
	if w2 := get(t, h, "/kwire.css", "If-None-Match", w.Header().Get("ETag")); w2.Code != http.StatusNotModified {
		t.Errorf("If-None-Match: %d, want 304", w2.Code)
	}
	// Only GET and HEAD.
	r := httptest.NewRequest("POST", "/index.html", nil)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d", rec.Code)
	}
}

func TestCSP(t *testing.T) {
	for _, want := range []string{"default-src 'none'", "script-src 'self' 'wasm-unsafe-eval'", "style-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"} {
		if !strings.Contains(CSP, want) {
			t.Errorf("CSP lacks %q", want)
		}
	}
	for _, bad := range []string{"unsafe-inline", "'unsafe-eval'", "http:", "https:", "data:", "blob:", "*"} {
		if strings.Contains(CSP, bad) {
			t.Errorf("CSP allows %q", bad)
		}
	}
	h, _ := New(site(t))
	for _, p := range []string{"/", "/missing", "/../secret.txt"} {
		if got := get(t, h, p).Header().Get("Content-Security-Policy"); got != CSP {
			t.Errorf("%s: CSP %q", p, got)
		}
	}
}

func TestGzip(t *testing.T) {
	h, _ := New(site(t))
	page := strings.Repeat("<p>JoinGroup</p>\n", 100)
	cases := []struct {
		accept string
		gzip   bool
	}{
		{"", false},
		{"gzip", true},
		{"gzip, deflate, br", true},
		{"br;q=1.0, gzip;q=0.5", true},
		{"gzip;q=0", false},
		{"GZIP; Q=0.001", true},
		{"*", true},
		{"*;q=0", false},
		{"gzip;q=0, *", false},
		{"identity", false},
		{"x-gzip", true},
	}
	for _, c := range cases {
		w := get(t, h, "/docs/JoinGroup/", "Accept-Encoding", c.accept)
		hd := w.Header()
		if hd.Get("Vary") != "Accept-Encoding" {
			t.Errorf("%q: Vary %q", c.accept, hd.Get("Vary"))
		}
		if hd.Get("Content-Type") != "text/html; charset=utf-8" {
			t.Errorf("%q: Content-Type %q", c.accept, hd.Get("Content-Type"))
		}
		body := w.Body.Bytes()
		if c.gzip {
			if hd.Get("Content-Encoding") != "gzip" {
				t.Errorf("%q: not gzipped", c.accept)
				continue
			}
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			if body, err = io.ReadAll(zr); err != nil {
				t.Fatal(err)
			}
		} else if hd.Get("Content-Encoding") != "" {
			t.Errorf("%q: Content-Encoding %q", c.accept, hd.Get("Content-Encoding"))
		}
		if string(body) != page {
			t.Errorf("%q: body differs", c.accept)
		}
	}
	// A file without a .gz sibling is sent as is, without Vary.
	w := get(t, h, "/kwire.css", "Accept-Encoding", "gzip")
	if w.Header().Get("Content-Encoding") != "" || w.Header().Get("Vary") != "" || w.Body.String() != "body{}" {
		t.Errorf("kwire.css: %v %q", w.Header(), w.Body.String())
	}
}

// Paths that leave the directory are refused, however they are spelled,
// through the handler and through a real server reading raw requests.
func TestTraversal(t *testing.T) {
	h, _ := New(site(t))
	for _, p := range []string{
		"/../secret.txt", "/docs/../../secret.txt", "/..", "/docs/..", "..", "secret.txt",
		"//etc/passwd", "/etc/passwd", "/escape.txt", "/escapedir/inner.txt", "/absolute.txt",
		"/..\\secret.txt", "/a\x00b", "/.git/config", "/docs/%2e%2e/%2e%2e/secret.txt",
	} {
		w := get(t, h, p)
		if w.Code == 200 || strings.Contains(w.Body.String(), "SECRET") {
			t.Errorf("%q: status %d, body %q", p, w.Code, w.Body.String())
		}
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	for _, target := range []string{
		"/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/%2e%2e/secret.txt", "/docs/%2e%2e%2f%2e%2e%2fsecret.txt",
		"/..%2fsecret.txt", "/%2e%2e%5csecret.txt", "//../secret.txt", "/escape.txt", "/escapedir/inner.txt",
		"/absolute.txt", "http://x/../secret.txt",
	} {
		conn, err := net.Dial("tcp", srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(conn, "GET "+target+" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("%s: %v", target, err)
		}
		body, _ := io.ReadAll(resp.Body)
		conn.Close()
		if resp.StatusCode == 200 || strings.Contains(string(body), "SECRET") {
			t.Errorf("raw %s: status %d, body %q", target, resp.StatusCode, body)
		}
	}
	// The site itself is still served through the same server.
	resp, err := http.Get(srv.URL + "/docs/JoinGroup/")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("site: %v %v", err, resp)
	}
	resp.Body.Close()
}

func TestNew(t *testing.T) {
	if _, err := New(filepath.Join(t.TempDir(), "none")); err == nil {
		t.Error("New accepted a missing directory")
	}
	f := filepath.Join(t.TempDir(), "f")
	os.WriteFile(f, nil, 0o644)
	if _, err := New(f); err == nil {
		t.Error("New accepted a file")
	}
}

func ExampleContentType() {
	for _, n := range []string{"kwire.wasm", "index.html", "docs.js"} {
		fmt.Println(ContentType(n))
	}
	// Output:
	// application/wasm
	// text/html; charset=utf-8
	// text/javascript; charset=utf-8
}

// cleanPath never yields a name that leaves the root, and AcceptsGzip
// never panics, whatever the request says.
func FuzzCleanPath(f *testing.F) {
	for _, s := range []string{"/", "/a/../b", "/..", "//x", "/a\\b", "/.git", "/a/./b", "/%2e%2e"} {
		f.Add(s, "gzip;q=0.5, *;q=0")
	}
	f.Fuzz(func(t *testing.T, p, accept string) {
		AcceptsGzip([]string{accept})
		name, ok := cleanPath(p)
		if !ok {
			return
		}
		if name == "" || strings.HasPrefix(name, "/") || strings.ContainsAny(name, "\\\x00") {
			t.Fatalf("%q -> %q", p, name)
		}
		for _, seg := range strings.Split(name, "/") {
			if seg == ".." || (seg != "." && strings.HasPrefix(seg, ".")) || seg == "" {
				t.Fatalf("%q -> %q", p, name)
			}
		}
	})
}

func TestRanges(t *testing.T) {
	h, err := New(site(t))
	if err != nil {
		t.Fatal(err)
	}
	const file = "/kwire.css" // "body{}", 6 bytes
	many := "bytes=" + strings.TrimSuffix(strings.Repeat("0-0,", 150000), ",")
	cases := []struct {
		rng    string
		status int
		body   string // "" when not checked
	}{
		{"bytes=0-3", 206, "body"},
		{"bytes=-2", 206, "{}"},
		{"bytes=4-", 206, "{}"},
		{"bytes=0-0,2-2,4-5", 206, ""},
		{"bytes=-0", 416, ""},
		{"bytes=0-1,-0", 200, "body{}"},
		{"bytes=9-", 416, ""},
		{"bytes=0-1,1-2", 200, "body{}"},                             // overlapping
		{"bytes=3-4,0-1", 200, "body{}"},                             // not in order
		{"bytes=0-,2-3", 200, "body{}"},                              // the first holds the second
		{"bytes=-3,0-1", 200, "body{}"},                              // the suffix comes first
		{many, 200, "body{}"},                                        // 150,000 ranges
		{"bytes=0-0,1-1,2-2,3-3,4-4,5-5", 206, ""},                   // a handful, in order
		{"bytes=0-0,1-1,2-2,3-3,4-4,5-5,6-6,7-7,8-8", 200, "body{}"}, // 9 > MaxRanges
		{"bytes=" + strings.Repeat(",", 40) + "0-1", 200, "body{}"},
		{"items=0-1", 200, "body{}"},
	}
	for _, c := range cases {
		w := get(t, h, file, "Range", c.rng)
		label := c.rng
		if len(label) > 40 {
			label = label[:40] + "…"
		}
		if w.Code != c.status {
			t.Errorf("Range %s: status %d, want %d", label, w.Code, c.status)
			continue
		}
		if c.body != "" && w.Body.String() != c.body {
			t.Errorf("Range %s: body %q, want %q", label, w.Body, c.body)
		}
		if w.Body.Len() > 1000 {
			t.Errorf("Range %s: a %d-byte answer for a 6-byte file", label, w.Body.Len())
		}
		if c.status == 416 && w.Header().Get("Content-Range") != "bytes */6" {
			t.Errorf("Range %s: Content-Range %q", label, w.Header().Get("Content-Range"))
		}
	}
}

func TestNewServerTimeouts(t *testing.T) {
	srv := NewServer(http.NotFoundHandler())
	for name, d := range map[string]time.Duration{
		"ReadHeaderTimeout": srv.ReadHeaderTimeout,
		"ReadTimeout":       srv.ReadTimeout,
		"WriteTimeout":      srv.WriteTimeout,
		"IdleTimeout":       srv.IdleTimeout,
	} {
		if d <= 0 || d > 5*time.Minute {
			t.Errorf("%s = %v", name, d)
		}
	}
	if srv.Handler == nil {
		t.Error("no handler")
	}
}
