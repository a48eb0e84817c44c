package draft

import (
	"strings"
	"testing"
)

// A draft request named without its suffix is compared with the released
// request of its API; an API trunk lacks is not compared.
func TestDiffByAPIName(t *testing.T) {
	d, _ := loadSeed(t, seedConsumer)
	var names []string
	for _, df := range Compare(d, pinnedSet(t)) {
		names = append(names, df.Name+"/"+df.Released.Name)
	}
	if got := strings.Join(names, " "); got != "ConsumerGroupDescribe/ConsumerGroupDescribeRequest ConsumerGroupDescribeResponse/ConsumerGroupDescribeResponse" {
		t.Errorf("compared %s", got)
	}
	if Compare(d, nil) != nil {
		t.Error("compared with no set")
	}
}
