package site

import (
	"regexp"
	"strings"
	"testing"

	"kwire/schemas/atlas"
)

// TestAddressesPage: the atlas's page, linked from the index, has a row
// per address field of the newest release (the endpoints of
// FindCoordinator's Coordinators and of Produce's tagged NodeEndpoints
// among them) and what each release added.
func TestAddressesPage(t *testing.T) {
	out, _ := builtSite(t)
	if !strings.Contains(string(mustRead(t, out, "apis/index.html")), `href="addresses.html"`) {
		t.Error("the index does not link the address atlas")
	}
	page := string(mustRead(t, out, "apis/addresses.html"))
	at, err := atlas.Load()
	if err != nil {
		t.Fatal(err)
	}
	newest := at.Releases[len(at.Releases)-1].Name
	rows := regexp.MustCompile(`(?s)<tbody>.*?</tbody>`).FindString(page)
	if n := strings.Count(rows, "<tr>"); n != len(at.Fields[newest]) {
		t.Errorf("%d rows, want %d", n, len(at.Fields[newest]))
	}
	for _, want := range []string{
		`<td><code>Coordinators[].Host</code></td><td>host</td>`,
		`<td><code>NodeEndpoints[].Port</code></td><td>port</td><td>int32</td><td>10-`,
		`<h2 id="new-4.1">New in 4.1</h2>`,
		`StreamsGroupHeartbeat request <code>UserEndpoint.Host</code>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
}
