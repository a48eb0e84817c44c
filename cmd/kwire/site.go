package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"kwire/schemas/sets"
	"kwire/site"
)

func init() {
	commands["site"] = command{"render the static docs site (and the explorer's files) into a directory", cmdSite}
}

func cmdSite(args []string, _ io.Reader, stdout, _ io.Writer) error {
	fs := flag.NewFlagSet("kwire site", flag.ContinueOnError)
	out := fs.String("out", "", "directory to write the site into (required)")
	noGzip := fs.Bool("no-gzip", false, "do not write NAME.gz next to compressible files")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *out == "" || len(pos) > 0 {
		return usageErr("give --out DIR, and no other argument")
	}
	start := time.Now()
	st, err := site.Build(site.Options{Out: *out, Explorer: explorerFiles(), NoGzip: *noGzip})
	if err != nil {
		return err
	}
	if err := writeBundle(*out, !*noGzip); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "kwire: site in %s: %d docs pages, %d files, %.1f MB (+%.1f MB .gz) in %s\n",
		*out, st.Pages, st.Files, float64(st.Bytes)/1e6, float64(st.GzipBytes)/1e6, time.Since(start).Round(time.Millisecond))
	return nil
}

// writeBundle writes the schema sets the explorer fetches (sets.Bundle),
// and its gzip when asked.
func writeBundle(dir string, gz bool) error {
	b, err := sets.Bundle()
	if err != nil {
		return err
	}
	name := filepath.Join(dir, sets.BundleName)
	if err := os.WriteFile(name, b, 0o644); err != nil {
		return err
	}
	if !gz {
		return nil
	}
	var z bytes.Buffer
	w, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
	w.Write(b)
	if err := w.Close(); err != nil {
		return err
	}
	return os.WriteFile(name+".gz", z.Bytes(), 0o644)
}
