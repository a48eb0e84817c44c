package site

import (
	"strings"
	"testing"

	"kwire/schemas"
)

// compare lists fields added, removed and changed by path (type,
// nullability, tag, default at the version), and about texts apart.
func TestCompare(t *testing.T) {
	parse := func(fields string) *schemas.Message {
		t.Helper()
		m, err := schemas.Parse("message/TRequest.json", []byte(`{ "apiKey": 90, "type": "request", "name": "TRequest",
  "validVersions": "0-1", "flexibleVersions": "0+", "fields": [`+fields+`] }`))
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	here := parse(`{ "name": "A", "type": "int32", "versions": "0+", "about": "a." },
    { "name": "Topics", "type": "[]Topic", "versions": "0+", "fields": [
      { "name": "Name", "type": "string", "versions": "0+", "about": "The name." },
      { "name": "Gone", "type": "int8", "versions": "0+" } ] },
    { "name": "Old", "type": "Old", "versions": "0+", "fields": [ { "name": "X", "type": "int8", "versions": "0+" } ] },
    { "name": "N", "type": "string", "versions": "0+", "nullableVersions": "1+", "default": "x" }`)
	there := parse(`{ "name": "A", "type": "int64", "versions": "0+", "about": "a" },
    { "name": "Topics", "type": "[]Topic", "versions": "0+", "fields": [
      { "name": "Name", "type": "string", "versions": "0+", "about": "Its name." },
      { "name": "New", "type": "uuid", "versions": "1+", "taggedVersions": "1+", "tag": 0 } ] },
    { "name": "Fresh", "type": "[]Fresh", "versions": "1+", "fields": [ { "name": "Y", "type": "int8", "versions": "1+" } ] },
    { "name": "N", "type": "string", "versions": "0+", "default": "y" }`)
	got := strings.Join(compare("TRequest", fields(here, 1), fields(there, 1), true), "\n")
	want := strings.Join([]string{
		"changed TRequest.A: type int32 → int64",
		"about TRequest.Topics.Name: “The name.” → “Its name.”",
		"added TRequest.Topics.New (uuid, tag 0)",
		"added TRequest.Fresh ([]Fresh)",
		"changed TRequest.N: nullable true → false; default x → y",
		"about texts that differ only in punctuation or spacing: TRequest.A",
		"removed TRequest.Topics.Gone (int8)",
		"removed TRequest.Old (Old)",
	}, "\n")
	if got != want {
		t.Errorf("compare at v1:\n%s\nwant\n%s", got, want)
	}
	// At v0 New and Fresh are not on the wire and N is not nullable; across all
	// versions the fields carry their versions.
	if got := compare("TRequest", fields(here, 0), fields(there, 0), false); len(got) != 4 {
		t.Errorf("compare at v0: %q", got)
	}
	if got := compare("TRequest", fields(here, -1), fields(there, -1), false); !strings.Contains(strings.Join(got, "\n"), "added TRequest.Topics.New (uuid, versions 1+, tag 0)") {
		t.Errorf("compare across versions: %q", got)
	}
}
