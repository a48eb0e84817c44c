package sets

import (
	"archive/zip"
	"bytes"
	"io/fs"
	"strings"
	"testing"
)

// jarOf writes a jar with archive/zip.
func jarOf(t testing.TB, files map[string]string) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, b := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(b))
	}
	zw.Close()
	return buf.Bytes()
}

const header = `{"apiKey": -1, "type": "header", "name": "RequestHeader", "validVersions": "0-2", "flexibleVersions": "2+", "fields": []}`

// readJars: jars renamed are known by what they hold, versions make
// releases (4.3.0 and 4.3.1 named apart), and each jar that is not right
// is refused with its name, and nothing read.
func TestReadJars(t *testing.T) {
	clients := func(v string) []byte {
		return jarOf(t, map[string]string{"common/message/RequestHeader.json": header, versionFile: "commitId=abc\nversion=" + v + "\n", "org/apache/kafka/X.class": "\xca\xfe"})
	}
	metadata := jarOf(t, map[string]string{"common/metadata/TopicRecord.json": `{}`})
	group := jarOf(t, map[string]string{"common/message/OffsetCommitKey.json": `{}`})
	errorsOf := func(v string) ([]byte, Release) {
		return []byte("code\tname\tmessage\n"), Release{Name: "4.3", Version: "4.3.1"}
	}
	got, err := readJars(map[string][]byte{
		"kafka-clients-4.3.0.jar": clients("4.3.0"), "kafka-metadata-4.3.0.jar": metadata, "libs/scala-library-2.13.16.jar": []byte("not read"),
		"a.jar": clients("4.3.1"), "b.jar": clients("4.4.0"), "kafka-group-coordinator-4.4.0.jar": group,
	}, errorsOf)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"4.3.0/message/RequestHeader.json", "4.3.0/metadata/TopicRecord.json", "4.3.1/message/RequestHeader.json", "4.4/coordinator/OffsetCommitKey.json", "4.4/errors.tsv", "4.4/SOURCE"} {
		if _, ok := got["data/"+p]; !ok {
			t.Errorf("no %s in %v", p, names(got))
		}
	}
	if len(names(got)) != 3 {
		t.Errorf("releases %v", names(got))
	}
	// Without an Errors.class, the nearest release's table, and SOURCE
	// says so.
	if src := string(got["data/4.4/SOURCE"]); !strings.Contains(src, "\nerrors: the errors.tsv of 4.3 (Apache Kafka 4.3.1): b.jar's org/apache/kafka/common/protocol/Errors.class is not read: not a class file\n") {
		t.Errorf("SOURCE:\n%s", src)
	}
	// Renamed jars beside one version's clients.
	got, err = readJars(map[string][]byte{"kafka-clients-4.4.0 (1).jar": clients("4.4.0"), "m.jar": metadata, "g.jar": group}, errorsOf)
	if err != nil || got["data/4.4/metadata/TopicRecord.json"] == nil || got["data/4.4/coordinator/OffsetCommitKey.json"] == nil {
		t.Errorf("renamed: %v %v", err, names(got))
	}
	bad := jarOf(t, map[string]string{"../../evil.json": "x"})
	for _, c := range []struct {
		jars map[string][]byte
		want string
	}{
		{map[string][]byte{"kafka-metadata-4.4.0.jar": metadata}, "kafka-metadata-4.4.0.jar: no kafka-clients-4.4.0.jar beside it"},
		{map[string][]byte{"scala-library-2.13.16.jar": jarOf(t, map[string]string{"scala/Predef.class": "x"})}, "scala-library-2.13.16.jar: no Kafka schemas in it"},
		{map[string][]byte{"a-1.jar": metadata, "b-2.jar": metadata}, "no jar of Kafka's schemas among those given"},
		{map[string][]byte{"kafka-clients-4.3.0.jar": clients("4.4.0")}, "kafka-clients-4.3.0.jar: its kafka/kafka-version.properties says version 4.4.0"},
		{map[string][]byte{"x.jar": clients("4.3.0"), "y.jar": clients("4.4.0"), "m.jar": metadata}, "m.jar: its name has no version"},
		{map[string][]byte{"x.jar": clients("4.4.0"), "y.jar": clients("4.4.0")}, "x.jar and y.jar are both kafka-clients 4.4.0"},
		{map[string][]byte{"x.jar": jarOf(t, map[string]string{"README": "x"})}, "x.jar: no Kafka schemas in it"},
		{map[string][]byte{"kafka-clients-4.4.0.jar": jarOf(t, map[string]string{versionFile: "version=4.4.0"})}, "no common/message/*.json in it"},
		{map[string][]byte{"kafka-clients-4.4.0.jar": bad}, `kafka-clients-4.4.0.jar: entry "../../evil.json" (at byte`},
		{map[string][]byte{"kafka-clients-4.4.0.jar": clients("4.4.0")[:100]}, "kafka-clients-4.4.0.jar: at byte 0: not a zip"},
	} {
		got, err := readJars(c.jars, errorsOf)
		if err == nil || !strings.Contains(err.Error(), c.want) || got != nil {
			t.Errorf("%v: %v, want %q", names(got), err, c.want)
		}
	}
}

// The errors.tsv of a release from jars is the nearest release's: the
// newest at or before its version, else the oldest after it.
func TestNearestErrors(t *testing.T) {
	defer Reset()
	Reset()
	for v, want := range map[string]string{"4.4.0": "4.4", "4.4.1": "4.4", "4.3.1": "4.3", "4.3.0": "4.2", "3.8.0": "3.9", "4.6.0": "trunk", "4.5.0": "trunk"} {
		mu.Lock()
		tsv, r := nearestErrors(v)
		mu.Unlock()
		if r.Name != want || !bytes.HasPrefix(tsv, []byte("code\tname\tmessage\n")) {
			t.Errorf("%s: %s", v, r.Name)
		}
	}
}

// FuzzReadJars: any bytes as a jar, under Kafka's name or another, are
// refused with an error or read into set files at paths of a set.
func FuzzReadJars(f *testing.F) {
	f.Add(jarOf(f, map[string]string{"common/message/RequestHeader.json": header, versionFile: "commitId=abc\nversion=4.4.0\n"}))
	f.Add(jarOf(f, map[string]string{"common/metadata/TopicRecord.json": "{}", "common/message/QuorumStateData.json": "{}"}))
	errorsOf := func(string) ([]byte, Release) { return nil, Release{} }
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, name := range []string{"kafka-clients-4.4.0.jar", "x.jar"} {
			got, err := readJars(map[string][]byte{name: b}, errorsOf)
			if err != nil {
				if got != nil || !strings.HasPrefix(err.Error(), name+": ") {
					t.Fatalf("%s: %v with %d files", name, err, len(got))
				}
				continue
			}
			for p := range got {
				parts := strings.Split(p, "/")
				if !fs.ValidPath(p) || parts[0] != "data" || !validName(parts[1]) || !setFile(strings.Join(parts[2:], "/")) {
					t.Fatalf("%s: a file at %q", name, p)
				}
			}
		}
	})
}

// classOf writes a class file whose static initializer constructs, as
// Errors.class does, one constant per name with its code and a message,
// between a tableswitch and a lookupswitch of no use.
func classOf(names []string, codes []int) []byte {
	be := func(b []byte, v ...int) []byte {
		for _, x := range v {
			b = append(b, byte(x>>8), byte(x))
		}
		return b
	}
	cp := [][]byte{nil, append(be([]byte{1}, 1), 'E'), be([]byte{7}, 1), append(be([]byte{1}, 8), "<clinit>"...), append(be([]byte{1}, 4), "Code"...)}
	var code []byte
	for i, name := range names {
		cp = append(cp, append(be([]byte{1}, len(name)), name...), be([]byte{8}, len(cp)))
		nameAt := len(cp) - 1
		msg := "The " + name + "."
		cp = append(cp, append(be([]byte{1}, len(msg)), msg...), be([]byte{8}, len(cp)))
		code = append(code, 0xbb, 0, 2, 0x59, 0x13, byte(nameAt>>8), byte(nameAt), 0x10, byte(i))
		code = be(append(code, 0x11), codes[i]&0xffff)
		code = append(code, 0x13, byte((len(cp)-1)>>8), byte(len(cp)-1), 0xba, 0, 0, 0, 0, 0xb7, 0, 0, 0xb3, 0, 0)
	}
	code = append(code, 0x03, 0xaa) // iconst_0, tableswitch 0 to 1
	for len(code)%4 != 0 {
		code = append(code, 0)
	}
	code = append(code, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1)
	code = append(code, 0x03, 0xab) // lookupswitch of one pair
	for len(code)%4 != 0 {
		code = append(code, 0)
	}
	code = append(code, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 7, 0, 0, 0, 1, 0xc4, 0x84, 0, 1, 0, 1, 0xb1)
	b := be([]byte("\xca\xfe\xba\xbe"), 0, 65, len(cp))
	for _, c := range cp[1:] {
		b = append(b, c...)
	}
	b = be(b, 0, 2, 0, 0, 0, 1, 0, 3, 0, 1, 4)
	attr := be(be(nil, 1, 1), len(code)>>16, len(code))
	attr = append(attr, code...)
	b = be(b, len(attr)>>16, len(attr))
	return be(append(b, attr...), 0)
}
