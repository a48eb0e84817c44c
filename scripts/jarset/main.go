// Command jarset writes the releases that kwire reads from Kafka's jars
// (sets.Use: a jar, several, a Maven repository's folder of Kafka) as set
// folders, laid out as those of ../shared/kafka, into a folder of sets:
// build.sh's schemas step makes schemas/sets/data/4.4 this way from the
// 4.4.0 jars of Maven Central. Each release is written into a temporary
// folder beside its place and renamed there once whole.
//
//	go run ./scripts/jarset -out schemas/sets/data ~/.cache/kwire/m2/org/apache/kafka
package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"kwire/schemas/sets"
)

func main() {
	out := flag.String("out", "", "the folder of sets to write the releases into")
	flag.Parse()
	if *out == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: jarset -out DIR JAR|FOLDER...")
		os.Exit(2)
	}
	names, err := write(*out, flag.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "jarset:", err)
		os.Exit(1)
	}
	for _, n := range names {
		fmt.Println(n)
	}
}

// write reads the releases of srcs and writes each into out/NAME,
// replacing what was there; it returns their names.
func write(out string, srcs []string) ([]string, error) {
	if err := sets.Use(srcs); err != nil {
		return nil, err
	}
	defer sets.Reset()
	var names []string
	for _, r := range sets.Releases() {
		src, err := sets.FS(r.Name)
		if err != nil {
			return nil, err
		}
		tmp, err := os.MkdirTemp(out, "."+r.Name+".")
		if err != nil {
			return nil, err
		}
		err = fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := fs.ReadFile(src, p)
			if err != nil {
				return err
			}
			dst := filepath.Join(tmp, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			return os.WriteFile(dst, b, 0o644)
		})
		final := filepath.Join(out, r.Name)
		if err == nil {
			err = os.RemoveAll(final)
		}
		if err == nil {
			err = os.Chmod(tmp, 0o755)
		}
		if err == nil {
			err = os.Rename(tmp, final)
		}
		if err != nil {
			return nil, errors.Join(err, os.RemoveAll(tmp))
		}
		names = append(names, r.Name)
	}
	return names, nil
}
