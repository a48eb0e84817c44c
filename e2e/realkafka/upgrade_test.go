package realkafka

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"kwire/capture"
	"kwire/codec"
	"kwire/schemas/sets"
)

// TestUpgradeReport runs scripts/upgrade-real.sh (kafka-python 2.0.2,
// probing and with api_version=(0, 10, 1), librdkafka 2.0.2 and Kafka
// 3.9.2's tools on a 3.9.2 broker; Kafka 4.4.0's tools on a 4.4.0 one,
// each recorded with tcpdump) and holds each capture's report against
// 4.0 to what 4.0's schemas lack of the requests the capture holds.
func TestUpgradeReport(t *testing.T) {
	short(t)
	out := t.TempDir()
	script(t, "upgrade-real.sh", out)
	target, err := sets.Load("4.0")
	if err != nil {
		t.Fatal(err)
	}
	pcaps, _ := filepath.Glob(filepath.Join(out, "*.pcap"))
	if len(pcaps) != 5 {
		t.Fatalf("%d captures: %v", len(pcaps), pcaps)
	}
	reports := map[string]map[string]map[string]any{}
	for _, p := range pcaps {
		w := strings.TrimSuffix(filepath.Base(p), ".pcap")
		want := map[string]bool{}
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		_, err = capture.Read(f, capture.Options{}, func(e *capture.Event) {
			if e.Kind != capture.KindFrame || e.Dir != codec.Request || len(e.Data) < 12 {
				return
			}
			a := target.APIByKey(e.Key)
			if e.Key == 18 && a.Request.ValidVersions.Hi < e.Version {
				return // KIP-511: answered with the broker's versions
			}
			if a == nil || a.Removed() || !a.Request.ValidVersions.Contains(e.Version) {
				want[capture.APIName(e.Key)+" v"+strconv.Itoa(int(e.Version))] = true
			}
		})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(out, w+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var r struct {
			Refused []map[string]any `json:"refused"`
		}
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("%s.json: %v", w, err)
		}
		got := map[string]map[string]any{}
		for _, x := range r.Refused {
			got[x["api_name"].(string)+" v"+strconv.Itoa(int(x["api_version"].(float64)))] = x
		}
		var names []string
		for k := range got {
			names = append(names, k)
			if !want[k] {
				t.Errorf("%s: %s refused, which 4.0 has", w, k)
			}
		}
		for k := range want {
			if got[k] == nil {
				t.Errorf("%s: %s not refused", w, k)
			}
		}
		sort.Strings(names)
		t.Logf("%s against 4.0: refused %v", w, names)
		reports[w] = got
	}
	if r := reports["kafka-python-2.0.2-api-0.10.1-on-3.9.2"]; r["Produce v2"] == nil || r["Produce v2"]["kip"] != "KIP-896" || r["Produce v2"]["removed_in"] != "4.0" {
		t.Errorf("kafka-python with api_version 0.10.1: %v", r)
	}
	if r := reports["tools-4.4.0"]; r["Produce v13"] == nil || r["Produce v13"]["removed_in"] != nil || r["Produce v13"]["instead"].(float64) != 12 {
		t.Errorf("Kafka 4.4's tools: %v", r)
	}
	for _, w := range []string{"kafka-python-2.0.2-on-3.9.2", "librdkafka-2.0.2-on-3.9.2", "tools-3.9.2"} {
		if len(reports[w]) != 0 {
			t.Errorf("%s: refused %v", w, reports[w])
		}
	}
}
