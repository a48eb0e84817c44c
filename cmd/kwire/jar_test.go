package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kwire/schemas/sets"
	"kwire/schemas/sets/setstest"
)

// --schemas takes Kafka's jars: a Maven repository's folder, or the jars
// named (repeated, or with commas); the release is 4.4, from 4.4.0's
// jars, and a 4.4 broker's ApiVersions response (built from 4.4's ranges)
// names it, with the jars and with the sets built in (whose 4.4 build.sh
// read from the same jars). A cut jar is bad input: exit 1, its name and
// what is wrong.
func TestSchemasJars(t *testing.T) {
	defer sets.Reset()
	var jars []string
	for _, a := range setstest.Artifacts {
		jars = append(jars, setstest.Path(a, setstest.Version))
	}
	setstest.Jars(t, setstest.Version) // fails with what to run when they are missing
	for _, args := range [][]string{
		{"--schemas", setstest.Repo()},
		{"--schemas=" + strings.Join(jars[:3], ","), "--schemas", jars[3], "--schemas", strings.Join(jars[4:], ",")},
	} {
		out, errs, code := kwire(t, "", append(args, "apis")...)
		if code != 0 || !strings.HasPrefix(out, "# release 4.4 (4.4.0, 2026-10-06)\n") || !strings.Contains(out, "\n94   UnregisterController ") {
			t.Errorf("%v: exit %d %s\n%.300s", args, code, errs, out)
		}
	}
	sets.Reset()
	if !strings.Contains(fmt.Sprint(sets.Names()), "4.4") {
		t.Fatalf("no 4.4 built in: %v (./build.sh schemas reads it from the jars)", sets.Names())
	}
	s, err := sets.Load("4.4")
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, a := range s.APIs() {
		if !a.Removed() {
			keys = append(keys, fmt.Sprintf(`{"ApiKey":%d,"MinVersion":%d,"MaxVersion":%d}`, a.Key, a.Request.ValidVersions.Lo, a.Request.ValidVersions.Hi))
		}
	}
	json := `{"ErrorCode":0,"ApiKeys":[` + strings.Join(keys, ",") + `]}`
	frame, errs, code := kwire(t, json, "encode", "--set", "4.4", "--response", "--api", "ApiVersions", "--version", "3", "--json", "-")
	if code != 0 {
		t.Fatal(errs)
	}
	for _, args := range [][]string{nil, {"--schemas", setstest.Repo()}} {
		_, errs, code = kwire(t, strings.TrimSpace(frame), append(args, "decode", "--response", "--api", "ApiVersions", "--version", "3")...)
		if code != 0 || !strings.Contains(errs, "the advertised versions match 4.4 (4.4.0, 2026-10-06)") {
			t.Errorf("%v: exit %d %s", args, code, errs)
		}
	}
	b, _ := os.ReadFile(jars[0])
	cut := filepath.Join(t.TempDir(), "kafka-clients-4.4.0.jar")
	os.WriteFile(cut, b[:len(b)-100], 0o644)
	_, errs, code = kwire(t, "", "--schemas", cut, "apis")
	if code != 1 || !strings.Contains(errs, cut+": at byte 0: not a zip, or a zip cut short") {
		t.Errorf("a cut jar: exit %d %q", code, errs)
	}
}

// A real Apache Kafka 4.4.0 broker's ApiVersions response (v3, recorded
// with scripts/broker-apiversions.sh: a combined broker and controller
// started from Maven Central's jars) names 4.4, as trunk of August 2026
// advertises the same; it advertises Produce 0-13, not the schema's 3-13
// (KAFKA-18659), which the match allows.
func TestRealBrokerAPIVersions(t *testing.T) {
	hex, err := os.ReadFile(filepath.Join("testdata", "apiversions-broker-4.4.0.hex"))
	if err != nil {
		t.Fatal(err)
	}
	out, errs, code := kwire(t, string(hex), "decode", "--response", "--api", "ApiVersions", "--version", "3")
	if code != 0 || !strings.Contains(errs, "the advertised versions match 4.4 (4.4.0, 2026-10-06), trunk (") {
		t.Errorf("exit %d %s", code, errs)
	}
	if !strings.Contains(out, "ApiKeys []ApiVersion = 77 elements") {
		t.Errorf("%.500s", out)
	}
}
