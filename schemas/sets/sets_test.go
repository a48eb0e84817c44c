package sets

import "testing"

func TestLoadBoth(t *testing.T) {
	for _, name := range []string{"3.9", "trunk"} {
		s, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d messages, %d apis, %d errors", name, len(s.Messages), len(s.APIs), len(s.Errors))
	}
}
