package identify

import (
	"fmt"
	"testing"

	"kwire/codec"
	"kwire/schemas/sets"
)

func TestDebugMisses(t *testing.T) {
	for _, p := range readCorpus(t, corpusFile) {
		set, _ := sets.ForVersion(p.key, p.version, true)
		api := set.APIByKey(p.key)
		hp, _ := codec.PlanFor(set.ResponseHeader, codec.HeaderVersion(api, p.version, codec.Response))
		_, n, _ := hp.Decode(p.resp[4:])
		for _, x := range []struct {
			b  []byte
			fr Framing
		}{{p.resp, Frame}, {p.resp[4+n:], Body}} {
			cs := Rank(x.b, Options{})
			if len(cs) > 0 && cs[0].Has(p.key, p.version) && cs[0].Dir == codec.Response && cs[0].Framing == x.fr {
				continue
			}
			s := fmt.Sprintf("%s v%d %s %x\n", api.Name, p.version, x.fr, x.b[:min(len(x.b), 40)])
			for i, c := range cs {
				if i == 6 {
					break
				}
				s += "    " + describe(c) + "\n"
			}
			t.Log(s)
		}
	}
}
