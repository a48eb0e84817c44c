//go:build !js

package sets

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kwire/internal/unzip"
	"kwire/schemas/sets/setstest"
)

// The built-in 4.4 is what Use reads from the jars build.sh fetched: the
// same files, byte for byte, in a Maven repository's folder, its parent
// folders, a folder of jars, or the jars named one by one; its SOURCE
// names the version, the jars, the commit, the date and where errors.tsv
// comes from (4.3's: the nearest release before it).
func TestJarsAsBuiltIn(t *testing.T) {
	defer Reset()
	Reset()
	built, err := FS("4.4")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	fs.WalkDir(built, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := fs.ReadFile(built, p)
			want[p] = string(b)
		}
		return err
	})
	if len(want) < 270 {
		t.Fatalf("the built-in 4.4 has %d files", len(want))
	}
	jars := setstest.Jars(t, setstest.Version)
	libs := t.TempDir() // a Kafka distribution's libs/, with other jars
	for name, b := range jars {
		os.WriteFile(filepath.Join(libs, name), b, 0o644)
	}
	os.WriteFile(filepath.Join(libs, "scala-library-2.13.16.jar"), []byte("not read"), 0o644)
	var named []string
	for _, a := range setstest.Artifacts {
		named = append(named, setstest.Path(a, setstest.Version))
	}
	repo := setstest.Repo()
	m2 := filepath.Dir(filepath.Dir(filepath.Dir(repo))) // …/m2, as ~/.m2/repository
	for _, srcs := range [][]string{{repo}, {m2}, {libs}, named} {
		if err := Use(srcs); err != nil {
			t.Fatalf("%v: %v", srcs, err)
		}
		got, err := FS("4.4")
		if err != nil {
			t.Fatalf("%v: %v (sets %v)", srcs, err, Names())
		}
		n := 0
		fs.WalkDir(got, ".", func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				b, _ := fs.ReadFile(got, p)
				if string(b) != want[p] {
					t.Errorf("%v: %s differs from the built-in 4.4's", srcs, p)
				}
				n++
			}
			return err
		})
		if n != len(want) {
			t.Errorf("%v: %d files, the built-in 4.4 %d", srcs, n, len(want))
		}
		Reset()
	}
	src := want["SOURCE"]
	for _, s := range []string{"Apache Kafka 4.4.0\n", "kafka-clients-4.4.0.jar", "kafka-metadata-4.4.0.jar", "commit: 1156b2752aaa28ea\n", "date: 2026-10-06\n", "errors: read from org/apache/kafka/common/protocol/Errors.class in kafka-clients-4.4.0.jar (the constants its static initializer constructs; no code of the jar is run)\n"} {
		if !strings.Contains(src, s) {
			t.Errorf("SOURCE has no %q:\n%s", s, src)
		}
	}
	if r := ReleaseOf("4.4"); r.Version != "4.4.0" || r.Date != "2026-10-06" {
		t.Errorf("release %+v", r)
	}
	s, err := Load("4.4")
	if err != nil {
		t.Fatal(err)
	}
	// 203 message files, 27 metadata records, 44 + 4 + 2 coordinator
	// records; QuorumStateData (kafka-raft) and kafka-storage's left out.
	count := map[string]int{}
	for p := range want {
		count[strings.Split(p, "/")[0]]++
	}
	if count["message"] != 203 || count["metadata"] != 27 || count["coordinator"] != 50 || len(s.Broken()) != 0 {
		t.Errorf("files %v, broken %v", count, s.Broken())
	}
	if _, ok := want["message/QuorumStateData.json"]; ok {
		t.Error("kafka-raft's QuorumStateData is in the set")
	}
}

// Use fails, changing nothing, at a jar that is cut, a file that is no
// jar, a bomb.
func TestUseRefused(t *testing.T) {
	defer Reset()
	Reset()
	before := Names()
	dir := t.TempDir()
	cut := filepath.Join(dir, "kafka-clients-4.4.0.jar")
	b, _ := os.ReadFile(setstest.Path("kafka-clients", setstest.Version))
	os.WriteFile(cut, b[:len(b)/2], 0o644)
	text := filepath.Join(dir, "notes.txt")
	os.WriteFile(text, []byte("hello"), 0o644)
	bomb := filepath.Join(dir, "bomb.jar")
	os.WriteFile(bomb, jarOf(t, map[string]string{"common/message/RequestHeader.json": strings.Repeat(" ", 8<<20)}), 0o644)
	for _, c := range []struct{ src, want string }{
		{cut, cut + ": at byte 0: not a zip, or a zip cut short"},
		{text, text + ": neither a folder nor a jar"},
		{bomb, `bomb.jar: entry "common/message/RequestHeader.json" (at byte`},
		{filepath.Join(dir, "missing.jar"), "no such file"},
	} {
		err := Use([]string{setstest.Path("kafka-metadata", setstest.Version), c.src})
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Join(Names(), " ") != strings.Join(before, " ") {
			t.Errorf("%s: %v, want %q; sets %v", c.src, err, c.want, Names())
		}
	}
	if err := Use([]string{bomb}); err == nil || !strings.Contains(err.Error(), "zip bomb") {
		t.Errorf("bomb: %v", err)
	}
}

// The error table of 4.4.0's Errors.class is, byte for byte, the
// errors.tsv of trunk of August 2026 (which ../shared/kafka took from
// Errors.java): 4.3's codes, FENCED_STATE_EPOCH's message rewritten, and
// codes 134 to 136, which 4.3 lacks. Every cut of the class is refused.
func TestErrorTable(t *testing.T) {
	entries, err := unzip.Read(setstest.Jars(t, setstest.Version)["kafka-clients-4.4.0.jar"], func(n string) bool { return n == errorsClass }, unzip.Default)
	if err != nil || len(entries) != 1 {
		t.Fatal(err)
	}
	class := entries[0].Data
	tsv, err := errorTable(class)
	if err != nil {
		t.Fatal(err)
	}
	trunk, err := fs.ReadFile(embedded(), "data/trunk/errors.tsv")
	if err != nil {
		t.Fatal(err)
	}
	if string(tsv) != string(trunk) {
		t.Errorf("4.4.0's Errors.class:\n%s\ntrunk's errors.tsv:\n%s", tsv, trunk)
	}
	for _, row := range []string{"\n134\tGROUP_DELETION_FAILED\t", "\n136\tCONTROLLER_ID_NOT_REGISTERED\tThe given controller ID was not registered.\n"} {
		if !strings.Contains(string(tsv), row) {
			t.Errorf("no %q", row)
		}
	}
	for n := range len(class) {
		if _, err := errorTable(class[:n]); err == nil {
			t.Fatalf("cut at %d: read", n)
		}
	}
}

// FuzzErrorTable: any bytes as Errors.class are refused with an error or
// read as a table of distinct codes and names, one row a line.
func FuzzErrorTable(f *testing.F) {
	f.Add(classOf([]string{"NONE", "UNKNOWN"}, []int{0, -1}))
	f.Add([]byte("\xca\xfe\xba\xbe\x00\x00\x00\x41\x00\x01"))
	f.Fuzz(func(t *testing.T, b []byte) {
		tsv, err := errorTable(b)
		if err != nil {
			return
		}
		lines := strings.Split(string(tsv), "\n")
		if lines[0] != "code\tname\tmessage" || lines[len(lines)-1] != "" {
			t.Fatalf("%q", tsv)
		}
		for _, l := range lines[1 : len(lines)-1] {
			if strings.Count(l, "\t") != 2 {
				t.Fatalf("row %q", l)
			}
		}
	})
}

// errorTable reads the constants of a class that constructs them as
// Errors.class does, through switches and a wide instruction.
func TestErrorTableOfClass(t *testing.T) {
	tsv, err := errorTable(classOf([]string{"UNKNOWN_SERVER_ERROR", "NONE", "BIG"}, []int{-1, 0, 300}))
	want := "code\tname\tmessage\n-1\tUNKNOWN_SERVER_ERROR\tThe UNKNOWN_SERVER_ERROR.\n0\tNONE\tThe NONE.\n300\tBIG\tThe BIG.\n"
	if err != nil || string(tsv) != want {
		t.Errorf("%v:\n%s", err, tsv)
	}
	if _, err := errorTable(classOf([]string{"A", "A"}, []int{0, 1})); err == nil {
		t.Error("a name twice: read")
	}
	if _, err := errorTable(classOf([]string{"A"}, []int{1})); err == nil || !strings.Contains(err.Error(), "no NONE") {
		t.Errorf("no NONE: %v", err)
	}
}
