// Package server is the HTTP handler that serves a built kwire site (the
// explorer and the docs) from a directory: the right content types
// (application/wasm for the explorer's module), precompressed NAME.gz files
// when the client accepts gzip, cache headers, a Content-Security-Policy
// that allows the explorer's WebAssembly and nothing external, and no file
// outside the directory (no "..", no symlink that leaves it).
package server

import (
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path"
	"strconv"
	"strings"
	"time"
)

// CSP is the Content-Security-Policy of every response: scripts, styles,
// images and fetches from the site itself only, no inline script or style,
// WebAssembly compilation allowed ('wasm-unsafe-eval', which does not allow
// JavaScript eval), no plugins, no framing.
const CSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; " +
	"img-src 'self'; font-src 'self'; connect-src 'self'; worker-src 'self'; manifest-src 'self'; " +
	"base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// Cache-Control values. The site's file names carry no content hash, so
// pages are revalidated on every load (cheap: ETag and Last-Modified give a
// 304) and other files are cached briefly, which bounds how long a browser
// can pair an old kwire.wasm with a new wasm_exec.js after a deploy.
const (
	CachePage  = "no-cache"
	CacheAsset = "public, max-age=300"
)

// types are the content types of the site's files; others fall back to
// mime.TypeByExtension, then application/octet-stream.
var types = map[string]string{
	".html": "text/html; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".mjs":  "text/javascript; charset=utf-8",
	".wasm": "application/wasm",
	".json": "application/json",
	".txt":  "text/plain; charset=utf-8",
	".tsv":  "text/tab-separated-values; charset=utf-8",
	".svg":  "image/svg+xml",
	".png":  "image/png",
	".ico":  "image/x-icon",
	".gz":   "application/gzip",
	".map":  "application/json",
}

// ContentType is the Content-Type the server sends for a file name.
func ContentType(name string) string {
	ext := strings.ToLower(path.Ext(name))
	if t, ok := types[ext]; ok {
		return t
	}
	if t := mime.TypeByExtension(ext); t != "" {
		return t
	}
	return "application/octet-stream"
}

// Timeouts of the http.Server that NewServer returns. A client gets
// ReadHeaderTimeout to send its request's headers and ReadTimeout for the
// whole request (the site takes no bodies), WriteTimeout to take the
// answer (the largest file, the explorer's module, is a few megabytes),
// and a keep-alive connection is closed after IdleTimeout without a
// request.
const (
	ReadHeaderTimeout = 10 * time.Second
	ReadTimeout       = 30 * time.Second
	WriteTimeout      = 2 * time.Minute
	IdleTimeout       = 60 * time.Second
)

// MaxRanges is the most byte ranges a request may ask for: a Range header
// with more is ignored and the whole file is sent (200), so that a small
// request cannot ask for an answer many times the file's size.
const MaxRanges = 8

// NewServer returns an http.Server for h with the timeouts above, so that
// no connection, idle or slow, is held open for ever.
func NewServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: ReadHeaderTimeout,
		ReadTimeout:       ReadTimeout,
		WriteTimeout:      WriteTimeout,
		IdleTimeout:       IdleTimeout,
	}
}

// Handler serves the files under one directory.
type Handler struct {
	dir string
}

// New returns a handler serving dir, which must be a directory.
func New(dir string) (*Handler, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("no site at %s: %w", dir, err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", dir)
	}
	return &Handler{dir: dir}, nil
}

// ServeHTTP serves GET and HEAD requests for files under the directory.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("Content-Security-Policy", CSP)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		hd.Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name, ok := cleanPath(r.URL.Path)
	if !ok {
		http.Error(w, "bad path", http.StatusBadRequest)
		return
	}
	// The root is opened for each request, so that a site rebuilt in
	// place (build.sh removes dist/ first) is served, not the old one.
	root, err := os.OpenRoot(h.dir)
	if err != nil {
		http.Error(w, "site directory is gone", http.StatusInternalServerError)
		return
	}
	defer root.Close()
	st, err := root.Stat(name)
	if err != nil {
		// Missing, or a path that escapes the root through a symlink.
		http.NotFound(w, r)
		return
	}
	if st.IsDir() {
		if !strings.HasSuffix(r.URL.Path, "/") {
			// Relative, so it works behind a path prefix.
			hd.Set("Location", path.Base(r.URL.Path)+"/")
			w.WriteHeader(http.StatusMovedPermanently)
			return
		}
		name = path.Join(name, "index.html")
		if st, err = root.Stat(name); err != nil || st.IsDir() {
			http.NotFound(w, r)
			return
		}
	}
	if !st.Mode().IsRegular() {
		http.NotFound(w, r)
		return
	}
	h.serveFile(w, r, root, name, st)
}

// serveFile writes the file, or its .gz sibling when the client takes
// gzip, with content type, cache headers and validators.
func (h *Handler) serveFile(w http.ResponseWriter, r *http.Request, root *os.Root, name string, st fs.FileInfo) {
	hd := w.Header()
	hd.Set("Content-Type", ContentType(name))
	if strings.HasSuffix(name, ".html") {
		hd.Set("Cache-Control", CachePage)
	} else {
		hd.Set("Cache-Control", CacheAsset)
	}
	serve, info, suffix := name, st, ""
	if !strings.HasSuffix(name, ".gz") {
		if gz, err := root.Stat(name + ".gz"); err == nil && gz.Mode().IsRegular() {
			hd.Add("Vary", "Accept-Encoding")
			if AcceptsGzip(r.Header.Values("Accept-Encoding")) {
				serve, info, suffix = name+".gz", gz, "-gz"
				hd.Set("Content-Encoding", "gzip")
			}
		}
	}
	f, err := root.Open(serve)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	hd.Set("ETag", fmt.Sprintf(`"%x-%x%s"`, info.Size(), info.ModTime().UnixNano(), suffix))
	switch checkRange(r.Header.Get("Range"), info.Size()) {
	case rangeWhole:
		r = r.Clone(r.Context())
		r.Header.Del("Range")
	case rangeUnsatisfiable:
		hd.Set("Content-Range", fmt.Sprintf("bytes */%d", info.Size()))
		http.Error(w, "requested range not satisfiable", http.StatusRequestedRangeNotSatisfiable)
		return
	}
	http.ServeContent(w, r, name, info.ModTime(), f)
}

// What serveFile does with a Range header.
const (
	rangeServe         = iota // leave it to http.ServeContent (no header, one range, or ranges it refuses itself)
	rangeWhole                // ignore it: send the whole file (200)
	rangeUnsatisfiable        // answer 416
)

// checkRange judges a Range header for a file of size bytes before
// http.ServeContent sees it: more than MaxRanges ranges, or several that
// overlap or are not in increasing order, are ignored (RFC 9110, 14.2 lets
// a server ignore such a header; ServeContent would answer each of them,
// multiplying the file). A suffix range of zero bytes ("bytes=-0") is
// unsatisfiable (RFC 9110, 14.1.1); ServeContent would answer it with 206
// and no content. A unit other than bytes is ignored. A header that does
// not parse is left to ServeContent (416).
func checkRange(h string, size int64) int {
	unit, spec, ok := strings.Cut(h, "=")
	switch {
	case h == "" || !ok:
		return rangeServe
	case unit != "bytes":
		return rangeWhole // a unit the server does not know is ignored (RFC 9110, 14.2)
	}
	if strings.Count(spec, ",") >= MaxRanges*2 {
		return rangeWhole // too many, even before counting empty elements
	}
	n, prevEnd, zeroSuffix := 0, int64(-1), false
	ordered := true
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue // RFC 9110 lets a list hold empty elements
		}
		n++
		first, last, ok := strings.Cut(part, "-")
		if !ok {
			return rangeServe
		}
		first, last = strings.TrimSpace(first), strings.TrimSpace(last)
		var start, end int64 // the bytes start..end-1
		if first == "" {
			k, err := strconv.ParseInt(last, 10, 64)
			if err != nil || k < 0 {
				return rangeServe
			}
			if k == 0 {
				zeroSuffix = true
				continue
			}
			start, end = max(size-k, 0), size
		} else {
			i, err := strconv.ParseInt(first, 10, 64)
			if err != nil || i < 0 {
				return rangeServe
			}
			start, end = i, size
			if last != "" {
				j, err := strconv.ParseInt(last, 10, 64)
				if err != nil || j < i {
					return rangeServe
				}
				end = min(j+1, size)
			}
		}
		if start >= size {
			continue // unsatisfiable: ServeContent skips it
		}
		if start < prevEnd {
			ordered = false
		}
		prevEnd = end
	}
	switch {
	case n > MaxRanges:
		return rangeWhole
	case zeroSuffix && n == 1:
		return rangeUnsatisfiable
	case n > 1 && (!ordered || zeroSuffix):
		return rangeWhole
	}
	return rangeServe
}

// cleanPath turns a URL path into a name inside the root: it refuses ".."
// segments (however they were encoded: the URL is decoded before this),
// backslashes, NUL bytes and hidden (dot) segments, and drops the leading
// slashes, so "//etc/passwd" names etc/passwd inside the root.
func cleanPath(p string) (string, bool) {
	if !strings.HasPrefix(p, "/") || strings.ContainsAny(p, "\\\x00") {
		return "", false
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." || (strings.HasPrefix(seg, ".") && seg != "") {
			return "", false
		}
	}
	name := strings.TrimPrefix(path.Clean(p), "/")
	if name == "" {
		name = "."
	}
	return name, true
}

// AcceptsGzip reports whether Accept-Encoding values accept gzip: a gzip
// (or x-gzip, or *) coding whose q-value is not 0 (RFC 9110, 12.5.3).
func AcceptsGzip(values []string) bool {
	star, gzip := -1.0, -1.0
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
			q := 1.0
			for _, p := range strings.Split(params, ";") {
				k, val, ok := strings.Cut(strings.TrimSpace(p), "=")
				if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
					f, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
					if err != nil {
						f = 0
					}
					q = f
				}
			}
			switch strings.ToLower(strings.TrimSpace(coding)) {
			case "gzip", "x-gzip":
				gzip = max(gzip, q)
			case "*":
				star = max(star, q)
			}
		}
	}
	if gzip >= 0 {
		return gzip > 0
	}
	return star > 0
}
