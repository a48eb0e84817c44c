package identify

import (
	"fmt"
	"os"
	"testing"

	"kwire/codec"
	"kwire/schemas/sets"
)

func TestDebugMisses(t *testing.T) {
	file := os.Getenv("DBG_FILE")
	if file == "" {
		t.Skip()
	}
	for _, p := range readCorpus(t, file) {
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
			pos := "-"
			for i, c := range cs {
				if c.Has(p.key, p.version) && c.Dir == codec.Response && c.Framing == x.fr {
					pos = fmt.Sprint(i + 1)
					break
				}
			}
			s := fmt.Sprintf("MISS %s v%d %s at %s seen %d %x\n", api.Name, p.version, x.fr, pos, p.seen, x.b[:min(len(x.b), 48)])
			for i, c := range cs {
				if i == 5 {
					break
				}
				s += "    " + describe(c) + "\n"
			}
			fmt.Print(s)
		}
	}
}
