package app

import (
	"strings"

	"kwire/capture"
	"kwire/render"
)

// The capture's release report and address audit (kwire capture
// --against and --advertised): the report is gathered as the file is
// read (capture.Upgrade decodes only ApiVersions frames), the endpoints
// of the responses from the values the list decodes anyway, so that a
// change of the release or of the advertised addresses reads nothing
// again.

// ReportHTML is the release report against target, escaped, as the
// command line's table form prints it ("" for no target).
func (c *Capture) ReportHTML(target string) string {
	if target == "" || c.up == nil {
		return ""
	}
	r, err := c.up.Report(target)
	if err != nil {
		return render.Text(err.Error())
	}
	var b strings.Builder
	for _, l := range r.Lines() {
		b.WriteString(render.Text(l))
		b.WriteByte('\n')
	}
	return b.String()
}

// SetAdvertised audits the capture's responses against the addresses
// clients should be told ("host:port,host:port"; "" for no audit): the
// rows whose responses hold a finding are marked, and LeaksOf gives the
// findings of a row. It returns the findings' summary, or the error of
// an address that does not read.
func (c *Capture) SetAdvertised(list string) (string, error) {
	c.leaks = nil
	for i := range c.Rows {
		c.Rows[i].Leaks = nil
	}
	if strings.TrimSpace(list) == "" {
		return "", nil
	}
	adv, err := capture.ParseAdvertised(list)
	if err != nil {
		return "", err
	}
	c.adv = adv
	c.leaks = capture.NewAudit(adv).Check(c.eps)
	for _, l := range c.leaks {
		if ri, ok := c.byResp[l.N]; ok {
			c.Rows[ri].Leaks = append(c.Rows[ri].Leaks, l)
		}
	}
	if len(c.leaks) == 0 {
		return "no address leaks: every endpoint in the responses is one of " + strings.Join(adv, ", "), nil
	}
	n := "1 address leak"
	if len(c.leaks) != 1 {
		n = itoa(len(c.leaks)) + " address leaks"
	}
	return n + ": rows marked leak; open a response to see its fields marked", nil
}

// LeakPaths are the tree paths of a row's leaked fields (a finding's
// host and port).
func (r *CapRow) LeakPaths() []string {
	var out []string
	for _, l := range r.Leaks {
		out = append(out, l.Path, l.PortPath)
	}
	return out
}

// LeakNodes are the ids of the tree's nodes that the address audit found
// in the response OpenRow showed (its row's LeakPaths).
func (s *State) LeakNodes() []int {
	if len(s.leakPaths) == 0 || s.Layout == nil {
		return nil
	}
	want := map[string]bool{}
	for _, p := range s.leakPaths {
		want[p] = true
	}
	var out []int
	for id := 0; id < s.Layout.Len() && len(out) < len(s.leakPaths); id++ {
		if n := s.Layout.Node(id); n != nil && want[n.Path] {
			out = append(out, id)
		}
	}
	return out
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
