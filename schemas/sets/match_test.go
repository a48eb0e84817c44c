package sets

import (
	"strings"
	"testing"

	"kwire/schemas"
)

// advertised is what a broker of a release advertises: every API of its
// broker listener at the versions of the release.
func advertised(s *schemas.Set) []schemas.APIVersions {
	var out []schemas.APIVersions
	for _, a := range s.APIs() {
		if a.Removed() {
			continue
		}
		out = append(out, schemas.APIVersions{Key: a.Key, Versions: a.Request.ValidVersions})
	}
	return out
}

// The versions of each release's APIs match that release, named first;
// one API changed leaves it the closest, with that API named.
func TestMatchAdvertised(t *testing.T) {
	for _, r := range Releases() {
		s, _ := Load(r.Name)
		adv := advertised(s)
		ms := MatchAdvertised(adv)
		if len(ms[0].Differ) != 0 {
			t.Errorf("%s: closest %s differs: %v", r.Name, ms[0].Release.Name, ms[0].Differ)
		}
		found := false
		for _, m := range ms {
			found = found || (m.Release.Name == r.Name && len(m.Differ) == 0)
		}
		if !found || !strings.Contains(Describe(ms), r.String()) {
			t.Errorf("%s: %s", r.Name, Describe(ms))
		}
		// Kafka 4.0's brokers and later advertise Produce from 0, which
		// their schema starts at 3 (KAFKA-18659): still the same release.
		if p := s.APIByKey(0); p != nil && p.Request.ValidVersions.Lo == 3 {
			adv[0].Versions.Lo = 0
			if ms := MatchAdvertised(adv); !strings.Contains(Describe(ms), "match "+r.String()) && !strings.Contains(Describe(ms), ", "+r.String()) {
				t.Errorf("%s with Produce from 0: %s", r.Name, Describe(ms))
			}
			adv[0].Versions.Lo = 1
			if ms := MatchAdvertised(adv); len(ms[0].Differ) == 0 && ms[0].Release.Name == r.Name {
				t.Errorf("%s with Produce from 1 matches", r.Name)
			}
			adv[0].Versions.Lo = 3
		}
		adv[0].Versions.Hi += 7 // Produce, beyond every release
		ms = MatchAdvertised(adv)
		if d := Describe(ms); !strings.Contains(d, "closest") || !strings.Contains(d, "Produce") {
			t.Errorf("%s changed: %s", r.Name, d)
		}
	}
}
