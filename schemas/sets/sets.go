// Package sets holds the Kafka schema sets: embedded at build time in the
// native programs, fetched as one bundle (see Bundle and Provide) by the
// browser app, which stays smaller without them.
//
// build.sh copies them into sets/data (git-ignored) from $KWIRE_SCHEMAS,
// or ../shared/kafka; a checkout that has not run build.sh has none, and
// Load says how to provide them.
//
// The releases: the schema sets embedded at build time (every folder of
// $KWIRE_SCHEMAS or ../shared/kafka: today 3.9, 4.0, 4.1, 4.2, 4.3, trunk;
// and 4.4, read from Kafka 4.4.0's jars fetched from Maven Central into
// ${KWIRE_CACHE:-~/.cache/kwire}/m2 by scripts/jarset), copied by build.sh
// into schemas/sets/data (git-ignored), or read at run time (Use for
// --schemas SRC: folders, Kafka's jars, a Maven repository's folder, a
// folder of jars; jar.go: which jar is which by its Maven name or its
// contents, kafka-clients' common/message to message/, kafka-metadata's
// common/metadata to metadata/, the coordinators' common/message to
// coordinator/, one release per Kafka version named 4.4 for 4.4.0, its
// SOURCE written from kafka/kafka-version.properties, its errors.tsv read
// from kafka-clients' Errors.class without running it (errorsclass.go: the
// class file's constant pool and the static initializer's bytecode, JVMS 4
// and 6.5, walked for each new Errors(name, ordinal, code, message, …);
// native only, 10 KB gzip kept out of the browser, where dropped jars take
// the nearest release's table, the built-in 4.4's for 4.4.0), else the
// nearest release's own; AddJars for jars dropped on the explorer; Provide
// for the browser's bundle, ProvideFiles); Bundle writes each set's index
// (schemas.WriteIndex) into the bundle, so that a release read from it is
// opened (schemas.OpenSet): the explorer's first view parses the two headers
// and its API's request and response of the newest release, not its 280
// files. Releases are ordered by the Kafka version of their SOURCE;
// ForVersion picks the newest release that has an API version (stable first)
// for the auto choice, with a VersionError naming the newest when none has
// it; Removal says which release removed an API; MatchAdvertised names the
// releases an ApiVersions response matches (Produce advertised from 0
// matches a release whose Produce starts at 3: Kafka 4.0+ brokers do that
// for librdkafka, KAFKA-18659). Refuses (refuse.go) says why a release would
// refuse an API version (the release that removed it, from the sets; the
// KIP, from a small table written by hand; the nearest version it has). A
// build without sets says how to provide them.
package sets

import (
	"bytes"
	"errors"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"

	"kwire/internal/xfmt"
	"kwire/schemas"
)

// data is where the sets are read from: the embedded files (embed.go), or
// those given to Provide. Its sets are the folders of its "data" folder.
var data fs.FS = embedded()

// Provide replaces the sets with those of a bundle written by Bundle (the
// browser app fetches it; see BundleName). Sets already loaded are
// forgotten. The bundle's memory is kept: the caller must not change it.
// Its sets are opened with schemas.OpenSet (Bundle writes each set's
// schemas.IndexFile): each schema is read when it is asked for, so that
// the explorer's first view parses four files of the newest release
// rather than all of them.
func Provide(bundle []byte) error {
	m, err := readBundle(bundle)
	if err != nil {
		return xfmt.Errorf("the schema bundle is not readable: %w", err)
	}
	mu.Lock()
	defer mu.Unlock()
	use(m)
	return nil
}

// BundleName is the file name of the bundle in a built site.
const BundleName = "kafka-schemas.txt"

// A bundle is a first line naming the format, then each file as a line
// "path size" followed by its size bytes and a newline, or, for a file
// identical to one before it, a line "path =earlier/path". The files are
// copied as they are, with nothing to unescape: in the browser, reading
// the JSON object this replaced took as long as parsing the set. Most
// files are the same from one release to the next: six releases hold
// 1,597 files of which 628 differ (3.65 MB, 1.54 MB once each).
const bundleMagic = "kwire schema bundle 2\n"

// Bundle returns every file of every set ("trunk/message/JoinGroupRequest.json")
// as one bundle, for Provide.
func Bundle() ([]byte, error) {
	mu.Lock()
	defer mu.Unlock()
	if len(names(data)) == 0 {
		return nil, ErrMissing
	}
	out := []byte(bundleMagic)
	seen := map[string]string{} // contents to the first path that has them
	add := func(rel string, b []byte) {
		if first, ok := seen[string(b)]; ok {
			out = xfmt.Appendf(out, "%s =%s\n", rel, first)
			return
		}
		seen[string(b)] = rel
		out = xfmt.Appendf(out, "%s %d\n", rel, len(b))
		out = append(append(out, b...), '\n')
	}
	err := walkFiles(data, "data", func(p string) error {
		rel := strings.TrimPrefix(p, "data/")
		if !strings.Contains(rel, "/") || path.Base(rel) == schemas.IndexFile {
			return nil // data/README.md, data/.gitignore; an index is written below
		}
		if !validName(rel) {
			return xfmt.Errorf("%q cannot be bundled (a file name with a space or a newline)", rel)
		}
		b, err := fs.ReadFile(data, p)
		if err != nil {
			return err
		}
		add(rel, b)
		return nil
	})
	if err != nil {
		return nil, err
	}
	// Each set's index, for schemas.OpenSet.
	for _, name := range names(data) {
		sub, err := fs.Sub(data, "data/"+name)
		if err != nil {
			return nil, err
		}
		index, err := schemas.WriteIndex(sub, name)
		if err != nil {
			return nil, err
		}
		add(name+"/"+schemas.IndexFile, index)
	}
	return out, nil
}

func validName(name string) bool {
	return fs.ValidPath(name) && !strings.HasPrefix(name, ".") && !strings.ContainsAny(name, " \n")
}

// readBundle reads the files of a bundle, which it shares memory with.
func readBundle(b []byte) (memFS, error) {
	if !bytes.HasPrefix(b, []byte(bundleMagic)) {
		return nil, xfmt.Errorf("it does not start with %q", strings.TrimSpace(bundleMagic))
	}
	m := memFS{}
	for off := len(bundleMagic); off < len(b); {
		line, _, ok := bytes.Cut(b[off:], []byte{'\n'})
		name, size, _ := strings.Cut(string(line), " ")
		if same, isRef := strings.CutPrefix(size, "="); isRef && ok {
			f, found := m["data/"+same]
			if !validName(name) || !found {
				return nil, xfmt.Errorf("at byte %d: %q refers to %q, which is not before it", off, name, same)
			}
			m["data/"+name] = f
			off += len(line) + 1
			continue
		}
		n, err := strconv.Atoi(size)
		switch {
		case !ok || err != nil || n < 0:
			return nil, xfmt.Errorf("at byte %d: want a line \"path size\"", off)
		case !validName(name):
			return nil, xfmt.Errorf("at byte %d: bad file name %q", off, name)
		}
		start := off + len(line) + 1
		if n >= len(b)-start || b[start+n] != '\n' {
			return nil, xfmt.Errorf("at byte %d: %s should have %d bytes and a newline; %d bytes are left", off, name, n, len(b)-start)
		}
		m["data/"+name] = b[start : start+n : start+n]
		off = start + n + 1
	}
	return m, nil
}

// Default is the set used when none is named: Auto.
const Default = Auto

// ErrMissing explains how to provide the schema sets.
var ErrMissing = xfmt.Errorf("no Kafka schema sets were embedded in this build; run ./build.sh " +
	"(it copies them from $KWIRE_SCHEMAS, else ../shared/kafka, into schemas/sets/data)")

// Names lists the sets.
func Names() []string {
	mu.Lock()
	defer mu.Unlock()
	return names(data)
}

func names(fsys fs.FS) []string {
	entries, _ := fs.ReadDir(fsys, "data")
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] }) // sort.Strings is slices.Sort: a copy of pdqsort more in the browser app
	return out
}

var (
	mu     sync.Mutex
	loaded = map[string]*schemas.Set{}
	// releaseList is releases() of data, read from the sets' SOURCE files
	// once (a frame's set is chosen from it); nil until then.
	releaseList []Release
	// versionsOf caches VersionsOf by release and message name.
	versionsOf = map[string]schemas.Versions{}
)

// use makes fsys the sets, forgetting what was read of the others; the
// caller holds mu.
func use(fsys fs.FS) {
	data, loaded, releaseList, versionsOf = fsys, map[string]*schemas.Set{}, nil, map[string]schemas.Versions{}
}

// Load returns the named set, parsing it once; "" and Auto name the
// newest release.
func Load(name string) (*schemas.Set, error) {
	mu.Lock()
	defer mu.Unlock()
	if name == "" || name == Auto {
		rs := releases()
		if len(rs) == 0 {
			return nil, ErrMissing
		}
		name = rs[len(rs)-1].Name
	}
	if s := loaded[name]; s != nil {
		return s, nil
	}
	s, err := load(data, name)
	if err != nil {
		return nil, err
	}
	loaded[name] = s
	return s, nil
}

func load(fsys fs.FS, name string) (*schemas.Set, error) {
	sub, err := fs.Sub(fsys, "data/"+name)
	if err != nil {
		return nil, err
	}
	// A bundle's sets have an index: opened, not read whole. A set with
	// no message/ folder is no set; its folder is not listed first (in
	// the browser, listing the bundle's message/ cost milliseconds).
	s, err := schemas.OpenSet(sub, name)
	if errors.Is(err, fs.ErrNotExist) {
		all := names(fsys)
		if len(all) == 0 {
			return nil, ErrMissing
		}
		return nil, xfmt.Errorf("no schema set %q (this build has %v)", name, all)
	}
	return s, err
}

// FS returns the files of a set (for the docs build, which shows errors.tsv
// and the sources).
func FS(name string) (fs.FS, error) {
	if len(names(data)) == 0 {
		return nil, ErrMissing
	}
	return fs.Sub(data, "data/"+name)
}
