// Package setstest gives tests Apache Kafka's jars as build.sh's schemas
// step fetched them from Maven Central: a Maven repository in
// ${KWIRE_CACHE:-~/.cache/kwire}/m2, outside the clone.
package setstest

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Version is the release that kwire reads from jars (../shared/kafka has
// no 4.4).
const Version = "4.4.0"

// Artifacts are the jars build.sh fetches for each version (sets.JarArtifacts).
var Artifacts = []string{"kafka-clients", "kafka-metadata", "kafka-group-coordinator",
	"kafka-share-coordinator", "kafka-transaction-coordinator", "kafka-raft", "kafka-storage"}

// Repo is the Maven repository's folder of Kafka's artifacts
// (…/m2/org/apache/kafka).
func Repo() string {
	cache := os.Getenv("KWIRE_CACHE")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache", "kwire")
	}
	return filepath.Join(cache, "m2", "org", "apache", "kafka")
}

// Path is the file of one jar of version v.
func Path(artifact, v string) string {
	return filepath.Join(Repo(), artifact, v, artifact+"-"+v+".jar")
}

// Jars reads the jars of version v by file name ("kafka-clients-4.4.0.jar"),
// failing the test, with what to run, when one is missing.
func Jars(t testing.TB, v string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, a := range Artifacts {
		b, err := os.ReadFile(Path(a, v))
		if err != nil {
			t.Fatalf("Kafka %s's jars are not in %s (./build.sh schemas fetches them): %v", v, Repo(), err)
		}
		out[filepath.Base(Path(a, v))] = b
	}
	return out
}

// Zip writes files with archive/zip in the order given, deflated, or
// stored when their name ends in ".txt", and a folder entry after them.
func Zip(t testing.TB, names []string, data [][]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i, name := range names {
		method := zip.Deflate
		if strings.HasSuffix(name, ".txt") {
			method = zip.Store
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: method, Modified: time.Date(2026, 10, 6, 17, 14, 0, 0, time.UTC)})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data[i])
	}
	zw.Create("folder/")
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
