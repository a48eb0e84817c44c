//go:build !js

package sets

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// UseDir replaces the sets with schemas read from a folder at run time:
// a folder of sets (each a folder with message/, as ../shared/kafka),
// one set (a folder with message/; named after the folder), or a folder
// of schema JSON itself (a Kafka checkout's
// clients/src/main/resources/common/message; named "custom"). Sets
// already loaded are forgotten.
func UseDir(dir string) error {
	return Use([]string{dir})
}

// MaxJarBytes is the largest jar read (kafka-clients 4.4.0 is 11 MB).
const MaxJarBytes = 256 << 20

// Use replaces the sets with those read from sources, each of them one
// of:
//   - a folder as UseDir takes;
//   - a jar of Apache Kafka (kafka-clients-4.4.0.jar; kafka-metadata and
//     the coordinators' jars beside it add their records; see readJars);
//   - a Maven repository's folder of Kafka (~/.m2/repository/org/apache/kafka,
//     or ~/.m2/repository): each version with a kafka-clients jar is a
//     release, with the jars of the same version beside it;
//   - a folder of jars, such as a Kafka distribution's libs/.
//
// The jars of all the sources are read together (one release per Kafka
// version). A release from jars reads its errors.tsv from kafka-clients'
// Errors.class, else takes the nearest release's built in (its SOURCE
// says which). Nothing changes when a source cannot be read.
func Use(sources []string) error {
	jars := map[string][]byte{}
	var dirs []memFS
	for _, src := range sources {
		found, isJars, err := jarsIn(src)
		if err != nil {
			return fmt.Errorf("--schemas %s: %w", src, err)
		}
		if !isJars {
			m, err := readDir(os.DirFS(src), filepath.Base(filepath.Clean(src)), "custom")
			if err != nil {
				return fmt.Errorf("--schemas %s: %w", src, err)
			}
			dirs = append(dirs, m)
			continue
		}
		for _, f := range found {
			b, err := readJarFile(f)
			if err != nil {
				return fmt.Errorf("--schemas %s: %w", src, err)
			}
			jars[f] = b
		}
	}
	mu.Lock()
	defer mu.Unlock()
	all := memFS{}
	taken := map[string]bool{}
	if len(jars) > 0 {
		m, err := readJars(jars, nearestErrors)
		if err != nil {
			return fmt.Errorf("--schemas: %w", err)
		}
		dirs = append(dirs, m)
	}
	for _, m := range dirs {
		for _, n := range names(m) {
			if taken[n] {
				return fmt.Errorf("--schemas: two releases named %q", n)
			}
			taken[n] = true
		}
		for p, b := range m {
			all[p] = b
		}
	}
	use(all)
	return nil
}

// readJarFile reads a jar whole, at most MaxJarBytes of it.
func readJarFile(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxJarBytes+1))
	switch {
	case err != nil:
		return nil, err
	case len(b) > MaxJarBytes:
		return nil, fmt.Errorf("%s: over %d MB; a jar of at most that is read", name, MaxJarBytes>>20)
	}
	return b, nil
}

// jarsIn returns the jars that a source names: itself when it is a file
// (a jar, or a zip: anything else is refused), the jars of a Maven
// repository's folder of Kafka or of a folder of jars. isJars is false
// for a folder of schemas.
func jarsIn(src string) (jars []string, isJars bool, err error) {
	st, err := os.Stat(src)
	if err != nil {
		return nil, false, err
	}
	if !st.IsDir() {
		head := make([]byte, 4)
		if f, err := os.Open(src); err == nil {
			io.ReadFull(f, head)
			f.Close()
		}
		if !IsJar(src, head) {
			return nil, false, fmt.Errorf("neither a folder nor a jar")
		}
		return []string{src}, true, nil
	}
	// A Maven repository: org/apache/kafka/ARTIFACT/VERSION/ARTIFACT-VERSION.jar.
	for _, root := range []string{src, filepath.Join(src, "org", "apache", "kafka"), filepath.Join(src, "repository", "org", "apache", "kafka")} {
		versions, _ := os.ReadDir(filepath.Join(root, "kafka-clients"))
		for _, v := range versions {
			clients := filepath.Join(root, "kafka-clients", v.Name(), "kafka-clients-"+v.Name()+".jar")
			if _, err := os.Stat(clients); err != nil {
				continue // a version with only its pom, or a download that failed
			}
			for _, a := range JarArtifacts() {
				j := filepath.Join(root, a, v.Name(), a+"-"+v.Name()+".jar")
				if _, err := os.Stat(j); err == nil {
					jars = append(jars, j)
				}
			}
		}
		if len(jars) > 0 {
			return jars, true, nil
		}
	}
	// A folder of jars (a Kafka distribution's libs/).
	entries, err := os.ReadDir(src)
	if err != nil {
		return nil, false, err
	}
	for _, e := range entries {
		if artifact, _ := jarName(e.Name()); !e.IsDir() && strings.HasSuffix(e.Name(), ".jar") && isJarArtifact(artifact) {
			jars = append(jars, filepath.Join(src, e.Name()))
		}
	}
	sort.Strings(jars)
	return jars, len(jars) > 0, nil
}
