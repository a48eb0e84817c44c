// Package e2e drives the explorer page in a real browser (Debian's
// chromium, through chromedp): the tests in explorer_test.go and the
// benchmark program in scripts/browserbench share its helpers, which
// assemble the site from dist/ and web/, serve it with package server,
// start the browser and build large messages.
package e2e

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/chromedp/chromedp"

	"kwire/codec"
	"kwire/codec/records"
	"kwire/schemas/sets"
	"kwire/server"
	"kwire/web"
)

// Chromium is the browser the tests drive.
const Chromium = "/usr/bin/chromium"

// Site assembles the explorer in a temporary directory (the files at the
// top of dist, then the static files of package web over them, so that
// edits to web/ are tested without a rebuild) and serves it with package server.
// dist must hold kwire.wasm and wasm_exec.js, as ./build.sh leaves them.
func Site(dist, tmp string) (*httptest.Server, error) {
	for _, f := range []string{"kwire.wasm", "wasm_exec.js"} {
		if _, err := os.Stat(filepath.Join(dist, f)); err != nil {
			abs, _ := filepath.Abs(dist)
			return nil, fmt.Errorf("%s/%s is missing: the browser tests need the built explorer; run ./build.sh first (it builds dist/)", abs, f)
		}
	}
	// The explorer is the files at the top of dist (the docs pages below
	// it are not needed here).
	entries, err := os.ReadDir(dist)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dist, e.Name()))
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(tmp, e.Name()), b, 0o644); err != nil {
			return nil, err
		}
	}
	err = fs.WalkDir(web.Files(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(web.Files(), p)
		if err != nil {
			return err
		}
		dst := filepath.Join(tmp, p)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		// A precompressed copy from the build would be served instead.
		if err := os.Remove(dst + ".gz"); err != nil && !os.IsNotExist(err) {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		return nil, err
	}
	h, err := server.New(tmp)
	if err != nil {
		return nil, err
	}
	return httptest.NewServer(h), nil
}

// Browser starts chromium headless; a missing browser is an error.
func Browser(ctx context.Context, width, height int) (context.Context, context.CancelFunc, error) {
	if _, err := exec.LookPath(Chromium); err != nil {
		return nil, nil, fmt.Errorf("no browser at %s: install Debian's chromium (apt-get install chromium; ./build.sh test does it)", Chromium)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(Chromium),
		chromedp.NoSandbox,
		chromedp.Headless,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(width, height),
	}
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	bctx, bcancel := chromedp.NewContext(actx)
	// Start the browser now, so that a failure shows here.
	if err := chromedp.Do(bctx, chromedp.Navigate("about:blank")); err != nil {
		bcancel()
		acancel()
		return nil, nil, fmt.Errorf("starting %s: %w", Chromium, err)
	}
	return bctx, func() { bcancel(); acancel() }, nil
}

// FetchResponse returns a Fetch response frame (the latest version of the
// trunk set, correlation id 7) whose partitions hold RecordBatch v2
// batches of 100-byte records, about size bytes in all, with correct
// CRCs.
func FetchResponse(size int) ([]byte, error) {
	set, err := sets.Load("trunk")
	if err != nil {
		return nil, err
	}
	api, err := set.LookupAPI("Fetch")
	if err != nil {
		return nil, err
	}
	f, err := codec.NewFrame(set, api, api.Response.ValidVersions.Hi, codec.Response)
	if err != nil {
		return nil, err
	}
	_, bp, err := f.Plans()
	if err != nil {
		return nil, err
	}
	var body map[string]any
	if err := json.Unmarshal(bp.JSON(f.Body), &body); err != nil {
		return nil, err
	}
	topic := body["Responses"].([]any)[0].(map[string]any)
	proto := topic["Partitions"].([]any)[0].(map[string]any)
	const perBatch, recSize = 80, 100
	batchSize := len(Batch(0, perBatch, recSize))
	nBatches := max((size+batchSize-1)/batchSize, 1)
	nParts := min(max(nBatches/64, 1), 16)
	var parts []any
	offset := int64(0)
	for p := range nParts {
		var recs []byte
		for b := p; b < nBatches; b += nParts {
			recs = append(recs, Batch(offset, perBatch, recSize)...)
			offset += perBatch
		}
		part := map[string]any{}
		for k, v := range proto {
			part[k] = v
		}
		part["PartitionIndex"] = p
		part["HighWatermark"] = offset
		part["Records"] = hex.EncodeToString(recs)
		parts = append(parts, part)
	}
	topic["Partitions"] = parts
	topic["TopicId"] = "6a3a1c1e-8a39-4f3d-9c6b-1f0d6b2a9e01"
	data, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	if err := f.SetJSON(data); err != nil {
		return nil, err
	}
	f.Header.List()[0] = codec.Int(7)
	return f.Encode()
}

// Batch returns a RecordBatch v2 (KIP-98) of n uncompressed records with
// values of about size bytes, starting at baseOffset, with its CRC-32C.
func Batch(baseOffset int64, n, size int) []byte {
	var recs []byte
	for i := range n {
		var r []byte
		r = append(r, 0)                     // attributes
		r = binary.AppendVarint(r, int64(i)) // timestampDelta
		r = binary.AppendVarint(r, int64(i)) // offsetDelta
		key := fmt.Sprintf("key-%d", baseOffset+int64(i))
		r = binary.AppendVarint(r, int64(len(key)))
		r = append(r, key...)
		val := make([]byte, max(size-len(key)-8, 1))
		for j := range val {
			val[j] = 'a' + byte((j+i)%26)
		}
		r = binary.AppendVarint(r, int64(len(val)))
		r = append(r, val...)
		r = binary.AppendVarint(r, 0) // headers
		recs = binary.AppendVarint(recs, int64(len(r)))
		recs = append(recs, r...)
	}
	b := make([]byte, 0, 61+len(recs))
	b = binary.BigEndian.AppendUint64(b, uint64(baseOffset))
	b = binary.BigEndian.AppendUint32(b, uint32(49+len(recs))) // batchLength
	b = binary.BigEndian.AppendUint32(b, 0)                    // partitionLeaderEpoch
	b = append(b, 2)                                           // magic
	b = binary.BigEndian.AppendUint32(b, 0)                    // crc, below
	b = binary.BigEndian.AppendUint16(b, 0)                    // attributes
	b = binary.BigEndian.AppendUint32(b, uint32(n-1))          // lastOffsetDelta
	b = binary.BigEndian.AppendUint64(b, 1764400000000)        // baseTimestamp
	b = binary.BigEndian.AppendUint64(b, 1764400000000+uint64(n-1))
	b = binary.BigEndian.AppendUint64(b, ^uint64(0)) // producerId -1
	b = binary.BigEndian.AppendUint16(b, 0xffff)     // producerEpoch -1
	b = binary.BigEndian.AppendUint32(b, 0xffffffff) // baseSequence -1
	b = binary.BigEndian.AppendUint32(b, uint32(n))
	b = append(b, recs...)
	binary.BigEndian.PutUint32(b[17:], records.CRC32C(b[21:]))
	return b
}
