package app

import (
	"io/fs"
	"strings"
	"testing"

	"kwire/codec"
	"kwire/schemas/sets"
	"kwire/schemas/sets/setstest"
)

// zipOf writes files with archive/zip.
func zipOf(t testing.TB, files map[string][]byte) []byte {
	var names []string
	var data [][]byte
	for name, b := range files {
		names, data = append(names, name), append(data, b)
	}
	return setstest.Zip(t, names, data)
}

// A dropped folder (or zip) of schemas becomes a release for the page:
// selected with the API shown, a broken file listed with the draft
// reader's diagnostics at its line.
func TestAddSchemas(t *testing.T) {
	defer sets.Reset()
	src, err := sets.FS("4.3")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := fs.ReadFile(src, p)
			if p == "message/SyncGroupRequest.json" {
				b = []byte(strings.Replace(string(b), `"type": "string"`, `"type": "strin"`, 1))
			}
			files["mine/"+p] = b
		}
		return nil
	})
	if !DroppedSchemas(files, true) || DroppedSchemas(map[string][]byte{"frame.bin": {0, 1}}, false) {
		t.Fatal("DroppedSchemas")
	}
	s := newState(t)
	report, err := s.AddSchemas(files)
	if err != nil {
		t.Fatal(err)
	}
	if s.Choice() != "mine" || s.Set.Name != "mine" || s.API.Name != "JoinGroup" || s.Err != nil {
		t.Errorf("selected %s %s: %v", s.Choice(), s.API.Name, s.Err)
	}
	if !strings.Contains(report, "release mine added") || !strings.Contains(report, `mine: message/SyncGroupRequest.json:`) || !strings.Contains(report, `unknown type "strin"`) {
		t.Errorf("report:\n%s", report)
	}
	// The same as a zip: another release, named apart.
	report, err = s.AddSchemas(map[string][]byte{"mine.zip": zipOf(t, files)})
	if err != nil || !strings.Contains(report, "release mine-dropped added") || s.Set.Name != "mine-dropped" {
		t.Errorf("zip: %v\n%s", err, report)
	}
	// The released ones are still there, and auto still reads with them.
	if err := s.Select(Auto, "JoinGroup", 9, codec.Request); err != nil || s.Set.Name == "mine" {
		t.Errorf("auto after a drop: %v %s", err, s.Set.Name)
	}
}

// Kafka's jars dropped together are their release: 4.4.0's, from the
// jars build.sh fetched, beside the built-in 4.4 (read from the same
// jars at build time) as 4.4-dropped, with the same APIs; a cut jar is
// refused, naming it, and adds nothing.
func TestDroppedJars(t *testing.T) {
	defer sets.Reset()
	jars := setstest.Jars(t, setstest.Version)
	if !DroppedSchemas(jars, false) {
		t.Fatal("DroppedSchemas: jars are not schemas")
	}
	s := newState(t)
	before := sets.Names()
	cut := map[string][]byte{"kafka-clients-4.4.0.jar": jars["kafka-clients-4.4.0.jar"][:1<<20]}
	if _, err := s.AddSchemas(cut); err == nil || !strings.Contains(err.Error(), "kafka-clients-4.4.0.jar: ") || len(sets.Names()) != len(before) {
		t.Errorf("a cut jar: %v; sets %v", err, sets.Names())
	}
	// As in a Maven repository's folder dropped: poms and checksums
	// beside the jars, in folders.
	folder := map[string][]byte{"kafka-clients/4.4.0/kafka-clients-4.4.0.pom": []byte("<project/>")}
	for name, b := range jars {
		folder["m2/"+name] = b
		folder["m2/"+name+".sha1"] = []byte("0123")
	}
	report, err := s.AddSchemas(folder)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(report, "release 4.4-dropped added (Apache Kafka 4.4.0): ") || s.Set.Name != "4.4-dropped" || s.API.Name != "JoinGroup" {
		t.Errorf("%s: %s %s", report, s.Set.Name, s.API.Name)
	}
	built, err := sets.Load("4.4")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Set.APIs()) != len(built.APIs()) || len(s.Set.Messages()) != len(built.Messages()) || len(s.Set.Messages()) < 270 {
		t.Errorf("dropped %d APIs %d schemas, built in %d %d", len(s.Set.APIs()), len(s.Set.Messages()), len(built.APIs()), len(built.Messages()))
	}
	if err := s.Select("4.4-dropped", "StreamsGroupTopologyDescriptionUpdate", 0, codec.Request); err != nil || s.Err != nil {
		t.Errorf("an API new in 4.4: %v %v", err, s.Err)
	}
}
