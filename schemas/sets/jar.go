package sets

import (
	"bytes"
	"io/fs"
	"path"
	"sort"
	"strings"

	"kwire/internal/unzip"
	"kwire/internal/xfmt"
)

// The jars of Apache Kafka that carry schemas, by Maven artifact, and
// where their files go in a set. kafka-raft (QuorumStateData, the
// controller's file on disk) and kafka-storage (the producer snapshot
// file and tiered storage's records of __remote_log_metadata) carry
// schemas too, of formats that no set of ../shared/kafka has and that
// kwire does not decode: they are taken, and their schemas left out, so
// that a release read from jars is laid out as the others.
var jarArtifacts = []struct{ artifact, from, to string }{
	{"kafka-clients", "common/message/", "message/"},
	{"kafka-metadata", "common/metadata/", "metadata/"},
	{"kafka-group-coordinator", "common/message/", "coordinator/"},
	{"kafka-share-coordinator", "common/message/", "coordinator/"},
	{"kafka-transaction-coordinator", "common/message/", "coordinator/"},
	{"kafka-raft", "", ""},
	{"kafka-storage", "", ""},
}

// JarArtifacts are the Maven artifacts (of group org.apache.kafka) whose
// jars make a release: kafka-clients and those beside it.
func JarArtifacts() []string {
	var out []string
	for _, a := range jarArtifacts {
		out = append(out, a.artifact)
	}
	return out
}

func isJarArtifact(artifact string) bool {
	for _, a := range jarArtifacts {
		if a.artifact == artifact {
			return true
		}
	}
	return false
}

const versionFile = "kafka/kafka-version.properties"

// errorsClass is where kafka-clients keeps its table of error codes.
const errorsClass = "org/apache/kafka/common/protocol/Errors.class"

// IsJar says whether a file is a jar or zip by its name or its first
// bytes.
func IsJar(name string, b []byte) bool {
	lower := strings.ToLower(name)
	return strings.HasSuffix(lower, ".jar") || strings.HasSuffix(lower, ".zip") || bytes.HasPrefix(b, []byte("PK\x03\x04"))
}

// jarName splits a jar's file name as Maven writes it:
// "kafka-clients-4.4.0.jar" is kafka-clients and 4.4.0 (the version
// starts at the first "-" and digit).
func jarName(file string) (artifact, version string) {
	base := strings.TrimSuffix(path.Base(strings.ReplaceAll(file, "\\", "/")), ".jar")
	for i := 0; i+1 < len(base); i++ {
		if base[i] == '-' && base[i+1] >= '0' && base[i+1] <= '9' {
			// "kafka-clients-4.4.0 (1).jar", as a browser saves a
			// file twice, is 4.4.0.
			version, _, _ = strings.Cut(base[i+1:], " ")
			return base[:i], version
		}
	}
	return base, ""
}

// A jar read: what it is, its version, the schema files it gives the set
// (by their path in the set) and the date of its version file.
type jarRead struct {
	file, artifact, version, commit, date string
	files                                 map[string][]byte
	errorsClass                           []byte // kafka-clients' Errors.class
}

// readJar reads the schemas of one of Kafka's jars: which jar it is by
// its name (kafka-clients-4.4.0.jar) or, renamed, by what it holds.
func readJar(file string, b []byte) (*jarRead, error) {
	want := func(name string) bool {
		// A name that is no valid path (bytes that are not UTF-8: zip
		// allows CP437 names) is no schema file of Kafka's.
		return name == versionFile || name == errorsClass ||
			(path.Ext(name) == ".json" && (path.Dir(name) == "common/message" || path.Dir(name) == "common/metadata") && fs.ValidPath(name))
	}
	entries, err := unzip.Read(b, want, unzip.Default)
	if err != nil {
		return nil, xfmt.Errorf("%s: %w", file, err)
	}
	j := &jarRead{file: file, files: map[string][]byte{}}
	artifact, nameVersion := jarName(file)
	has := map[string]bool{}
	for _, e := range entries {
		has[path.Dir(e.Name)] = true
		has[e.Name] = true
		if e.Name == errorsClass {
			j.errorsClass = e.Data
		}
		if e.Name == versionFile {
			// kafka-version.properties: "commitId=1156b2752aaa28ea",
			// "version=4.4.0".
			for _, line := range strings.Split(string(e.Data), "\n") {
				k, v, _ := strings.Cut(strings.TrimSpace(line), "=")
				switch k {
				case "version":
					j.version = v
				case "commitId":
					j.commit = v
				}
			}
			if e.Date >= "1990" { // reproducible builds write 1980-02-01
				j.date = e.Date
			}
		}
	}
	if !isJarArtifact(artifact) {
		// Renamed: what it holds says which jar it is, and its name
		// says nothing of its version.
		nameVersion = ""
		switch {
		case has["common/message/RequestHeader.json"]:
			artifact = "kafka-clients"
		case has["common/metadata"]:
			artifact = "kafka-metadata"
		case has["common/message/QuorumStateData.json"]:
			artifact = "kafka-raft"
		case has["common/message"]:
			artifact = "kafka-group-coordinator" // or share-, transaction-: their records go to coordinator/ alike
		default:
			return nil, xfmt.Errorf("%s: no Kafka schemas in it (kafka-clients' common/message/*.json, kafka-metadata's common/metadata/*.json, the coordinators' records)", file)
		}
	}
	j.artifact = artifact
	switch {
	case j.version == "":
		j.version = nameVersion
	case nameVersion != "" && nameVersion != j.version:
		return nil, xfmt.Errorf("%s: its %s says version %s", file, versionFile, j.version)
	}
	for _, a := range jarArtifacts {
		if a.artifact != artifact || a.from == "" {
			continue
		}
		for _, e := range entries {
			if rest, ok := strings.CutPrefix(e.Name, a.from); ok && !strings.Contains(rest, "/") {
				j.files[a.to+rest] = e.Data
			}
		}
		if len(j.files) == 0 {
			return nil, xfmt.Errorf("%s: no %s*.json in it, where %s keeps its schemas", file, a.from, artifact)
		}
	}
	return j, nil
}

// readJars makes one set per Kafka version of the jars given (by file
// name; among several, those that Maven's name says are of other
// artifacts, as in a distribution's libs/, are passed over): each needs
// its kafka-clients jar; the others of its version
// (kafka-metadata, the coordinators') add their records. A set is named
// after its version's major and minor ("4.4" for 4.4.0), or the whole
// version when two given share them. Its errors.tsv is read from
// kafka-clients' Errors.class (errorTable), or, when that cannot be
// read, is that of the nearest release of those there are (errorsOf; the
// newest at or before its version, else the oldest after). It fails,
// with nothing read, at the first jar that is not right.
func readJars(jars map[string][]byte, errorsOf func(version string) (tsv []byte, from Release)) (memFS, error) {
	files := make([]string, 0, len(jars))
	for f := range jars {
		if artifact, v := jarName(f); v != "" && !isJarArtifact(artifact) && len(jars) > 1 {
			continue // another artifact's jar beside Kafka's (libs/, a Maven folder)
		}
		files = append(files, f)
	}
	sort.Slice(files, func(i, j int) bool { return files[i] < files[j] })
	byVersion := map[string][]*jarRead{}
	var versions, unversioned []*jarRead
	for _, f := range files {
		j, err := readJar(f, jars[f])
		if err != nil {
			return nil, err
		}
		if j.version == "" {
			unversioned = append(unversioned, j)
			continue
		}
		if byVersion[j.version] == nil {
			versions = append(versions, j)
		}
		byVersion[j.version] = append(byVersion[j.version], j)
	}
	for _, j := range unversioned {
		if len(byVersion) != 1 {
			return nil, xfmt.Errorf("%s: its name has no version (as in %s-4.4.0.jar), and the other jars are of %d versions", j.file, j.artifact, len(byVersion))
		}
		for v := range byVersion {
			byVersion[v] = append(byVersion[v], j)
		}
	}
	minor := map[string]int{}
	for v := range byVersion {
		minor[majorMinor(v)]++
	}
	out := memFS{}
	for _, first := range versions {
		v := first.version
		name := majorMinor(v)
		if minor[name] > 1 {
			name = v
		}
		if !validName(name) {
			return nil, xfmt.Errorf("%s: version %q cannot name a release", first.file, v)
		}
		var clients *jarRead
		var from []string
		seen := map[string]string{}
		for _, j := range byVersion[v] {
			if prev, ok := seen[j.artifact]; ok && j.artifact != "kafka-group-coordinator" {
				return nil, xfmt.Errorf("%s and %s are both %s %s", prev, j.file, j.artifact, v)
			}
			seen[j.artifact] = j.file
			from = append(from, path.Base(j.file))
			if j.artifact == "kafka-clients" {
				clients = j
			}
			for p, b := range j.files {
				if _, dup := out["data/"+name+"/"+p]; dup {
					return nil, xfmt.Errorf("%s: %s is in another jar of %s too", j.file, p, v)
				}
				out["data/"+name+"/"+p] = b
			}
		}
		if clients == nil {
			return nil, xfmt.Errorf("%s: no kafka-clients-%s.jar beside it, which carries the messages of %s", first.file, v, v)
		}
		src := "Apache Kafka " + v + "\nfrom: " + strings.Join(from, " ") + "\n"
		if clients.commit != "" {
			src += "commit: " + clients.commit + "\n"
		}
		if clients.date != "" {
			src += "date: " + clients.date + "\n"
		}
		tsv, err := errorTable(clients.errorsClass)
		if err == nil {
			src += errorsFrom + "read from " + errorsClass + " in " + path.Base(clients.file) + " (the constants its static initializer constructs; no code of the jar is run)\n"
		} else if borrowed, r := errorsOf(v); borrowed != nil {
			tsv = borrowed
			src += errorsBorrowed + r.Name + " (Apache Kafka " + r.Version + "): " + path.Base(clients.file) + "'s " + errorsClass + " is not read: " + err.Error() + "\n"
		}
		if tsv != nil {
			out["data/"+name+"/errors.tsv"] = tsv
		}
		out["data/"+name+"/SOURCE"] = []byte(src)
	}
	if len(out) == 0 {
		return nil, xfmt.Errorf("no jar of Kafka's schemas among those given (kafka-clients-4.4.0.jar, with kafka-metadata's and the coordinators' beside it)")
	}
	return out, nil
}

// errorsFrom starts the line of a SOURCE that says where its errors.tsv
// comes from, errorsBorrowed when it is another release's.
const (
	errorsFrom     = "errors: "
	errorsBorrowed = errorsFrom + "the errors.tsv of "
)

// majorMinor is "4.4" of "4.4.0" and of "4.4.0-SNAPSHOT".
func majorMinor(v string) string {
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return v
	}
	return parts[0] + "." + parts[1]
}

// nearestErrors returns the errors.tsv of the release of fsys nearest to
// a Kafka version: the newest at or before it, else the oldest after it,
// of those whose table is their own (not read from jars); nil when no
// release has one. The caller holds mu.
func nearestErrors(version string) ([]byte, Release) {
	target := versionKey(Release{Version: version})
	var best Release
	var bestTSV []byte
	for _, r := range releases() {
		tsv, err := fs.ReadFile(data, "data/"+r.Name+"/errors.tsv")
		if src, _ := readSource(r.Name); err != nil || strings.Contains(src, "\n"+errorsBorrowed) {
			continue // no table, or another release's (read from jars)
		}
		if !keyLess(target, versionKey(r)) {
			best, bestTSV = r, tsv
			continue
		}
		if bestTSV == nil {
			best, bestTSV = r, tsv
		}
		break
	}
	return bestTSV, best
}

// AddJars adds the releases in Kafka's jars (by file name, as dropped on
// the explorer: see readJars) to those there are, for as long as the
// program runs, as AddFiles does. It returns the names of the sets added.
func AddJars(jars map[string][]byte) ([]string, error) {
	mu.Lock()
	m, err := readJars(jars, nearestErrors)
	mu.Unlock()
	if err != nil {
		return nil, err
	}
	return addSets(m)
}
