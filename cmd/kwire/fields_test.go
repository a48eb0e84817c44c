package main

import (
	"encoding/json"
	"strings"
	"testing"

	"kwire/schemas/atlas"
)

func TestFieldsAddresses(t *testing.T) {
	at, err := atlas.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, set := range []string{"4.0", "trunk"} {
		out, errs, code := kwire(t, "", "fields", "--addresses", "--set", set, "--format", "json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) != len(at.Fields[set]) {
			t.Errorf("%s: %d lines, the atlas has %d fields", set, len(lines), len(at.Fields[set]))
		}
		var f fieldJSON
		found := false
		for _, l := range lines {
			if err := json.Unmarshal([]byte(l), &f); err != nil {
				t.Fatal(err)
			}
			if f.APIName == "FindCoordinator" && f.Path == "Coordinators[].Port" {
				found = f.Kind == "port" && f.Direction == "response" && f.Added == "3.9" && !f.AddedExact
			}
		}
		if !found {
			t.Errorf("%s: no FindCoordinator Coordinators[].Port", set)
		}
	}
	out, _, code := kwire(t, "", "fields", "--addresses")
	if code != 0 || !strings.Contains(out, "NodeEndpoints[].Host") || !strings.Contains(out, " address fields in trunk") {
		t.Errorf("table, exit %d:\n%s", code, out)
	}
	for _, args := range [][]string{{"fields"}, {"fields", "--addresses", "--set", "9.9"}, {"fields", "--addresses", "x"}, {"fields", "--addresses", "--format", "xml"}} {
		if _, errs, code := kwire(t, "", args...); code != 2 || errs == "" {
			t.Errorf("%v: exit %d, %q", args, code, errs)
		}
	}
	if _, errs, code := kwire(t, "", "capture", "--against", "9.9", "x.pcap"); code != 2 || !strings.Contains(errs, "no such release") {
		t.Errorf("--against 9.9: exit %d, %q", code, errs)
	}
	if _, errs, code := kwire(t, "", "capture", "--advertised", "nohost", "x.pcap"); code != 2 || !strings.Contains(errs, "not HOST:PORT") {
		t.Errorf("--advertised nohost: exit %d, %q", code, errs)
	}
}
