package app

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"errors"
	"io"
	"sort"
	"strconv"
	"strings"

	"kwire/codec"
	"kwire/draftcodec"
	"kwire/internal/deflate"
	"kwire/internal/xfmt"
	"kwire/render"
	"kwire/schemas"
	"kwire/schemas/draft"
	"kwire/schemas/sets"
)

// DraftSet is the name the pickers and the URL give a pasted draft's set.
const DraftSet = draft.SetName

// MaxDraftBytes is the largest draft text a link may carry once inflated
// (a link that inflates to more is refused, not read).
const MaxDraftBytes = 1 << 20

// MaxLinkDraft is the longest encoded draft a link carries; a longer one
// makes LinkComplete false.
const MaxLinkDraft = 64 << 10

// LoadDraft reads pasted draft schema text (one or several schemas,
// possibly inside wiki text) with the selected released set as its base
// (or the base of the draft already loaded, when the draft is selected).
// The diagnostics are in s.Draft; the draft's APIs can then be selected
// with Select(DraftSet, api, ...). When the draft is selected, the
// selection is kept when the new draft still has it. The error is about
// the base set or an empty draft only: what is wrong in the text is in
// the diagnostics.
func (s *State) LoadDraft(text string) error {
	base := s.DraftBase
	if s.Set != nil && s.Set.Name != DraftSet {
		base = s.Choice() // auto: the newest release
	}
	return s.loadDraft(text, base, s.DraftKeys, true)
}

// loadDraft reads text against the named base set with the keys chosen;
// with reselect, a draft API shown is shown again from the new draft.
func (s *State) loadDraft(text, base string, keys map[string]int16, reselect bool) error {
	bset, err := sets.Load(base)
	if err != nil {
		return err
	}
	old := *s // the message shown, carried over below
	d := draftcodec.Load([]byte(text), draft.Options{File: "draft", Base: bset, Keys: keys})
	s.Draft, s.DraftText, s.DraftBase, s.DraftKeys = d, text, bset.Name, keys
	s.draftEnc = EncodeDraft(text)
	if !reselect || !s.IsDraft() {
		return nil
	}
	// The draft is shown: show the same API in the new draft, or its first.
	if d.Set == nil || len(d.APIs()) == 0 {
		// Nothing to show in the draft now: the base set, with the same
		// API when it has one.
		if err := s.Select(s.DraftBase, s.API.Name, -1, s.Dir); err != nil {
			return s.Select(s.DraftBase, "JoinGroup", -1, codec.Request)
		}
		return nil
	}
	if err := s.SelectDraft(s.API.Name, int(s.Version), s.Dir); err != nil {
		return err
	}
	s.carry(&old)
	return nil
}

// carry gives the message just selected the values of the one shown
// before, when it is the same API, direction and version and the values
// still fit (a new key, or an edit of the text elsewhere); else the
// message stays the smallest.
func (s *State) carry(old *State) {
	if old.Frame == nil || old.Pasted || old.API == nil || old.API.Name != s.API.Name || old.Dir != s.Dir || old.Version != s.Version {
		return
	}
	oh, ob, err := old.Frame.Plans()
	if err != nil {
		return
	}
	nh, _, err := s.Frame.Plans()
	if err != nil || nh != oh && string(nh.JSON(nh.Smallest())) != string(oh.JSON(oh.Smallest())) {
		return
	}
	f := *s.Frame
	f.Header, f.Body = old.Frame.Header.Clone(), f.Body.Clone()
	if f.SetJSON(ob.JSON(old.Frame.Body)) != nil {
		return
	}
	smallest := s.Frame
	s.Frame = &f
	if s.Encode() != nil {
		s.Frame = smallest
		_ = s.Encode()
	}
}

// SelectDraft selects api of the draft (its first API when the draft has
// no such API) at version (-1, or one it does not have: the latest).
func (s *State) SelectDraft(api string, version int, dir codec.Direction) error {
	if s.Draft == nil || s.Draft.Set == nil || len(s.Draft.APIs()) == 0 {
		return errors.New("no draft schema loaded: paste one in the schema panel")
	}
	a, err := s.Draft.LookupAPI(api)
	if err != nil {
		a = s.Draft.APIs()[0]
	}
	if dir.Schema(a) == nil {
		dir = codec.Response
		if dir.Schema(a) == nil {
			dir = codec.Request
		}
	}
	if err := s.Select(DraftSet, a.Name, version, dir); err == nil || version < 0 {
		return err
	}
	return s.Select(DraftSet, a.Name, -1, dir)
}

// ClearDraft forgets the draft, showing the base set when it was shown.
func (s *State) ClearDraft() error {
	shown := s.Set != nil && s.Set.Name == DraftSet
	base := s.DraftBase
	s.Draft, s.DraftText, s.DraftBase, s.DraftKeys, s.draftEnc = nil, "", "", nil, ""
	if !shown {
		return nil
	}
	if err := s.Select(base, s.API.Name, -1, s.Dir); err != nil {
		return s.Select(base, "JoinGroup", -1, codec.Request)
	}
	return nil
}

// IsDraft reports whether the selected API is the draft's.
func (s *State) IsDraft() bool { return s.Set != nil && s.Set.Name == DraftSet }

// DraftKey returns the API key of the selected draft API and where it
// came from; changeable reports whether the user may choose it (it was
// TBD in the draft).
func (s *State) DraftKey() (key int16, src draft.KeySource, changeable bool) {
	if !s.IsDraft() || s.Draft == nil {
		return 0, draft.KeyNone, false
	}
	k, src, ok := s.Draft.Key(s.API.Name)
	if !ok {
		return 0, draft.KeyNone, false
	}
	return k, src, src == draft.KeyPlaceholder || src == draft.KeyChosen
}

// SetDraftKey gives the selected draft API (whose key is TBD) the key
// chosen by the user, reloads the draft with it and shows the same
// message with the new key in its header.
func (s *State) SetDraftKey(text string) error {
	if _, _, ok := s.DraftKey(); !ok {
		return errors.New("only an API whose key is TBD in the draft takes a chosen key")
	}
	n, err := strconv.Atoi(strings.TrimSpace(text))
	if err != nil || n < 0 || n > 32767 {
		return xfmt.Errorf("an API key is a whole number from 0 to 32767, not %q", text)
	}
	keys := map[string]int16{}
	for k, v := range s.DraftKeys {
		keys[k] = v
	}
	keys[s.API.Name] = int16(n)
	return s.loadDraft(s.DraftText, s.DraftBase, keys, true)
}

// DraftAPIs lists the draft's APIs (none without a draft).
func (s *State) DraftAPIs() []*schemas.API {
	if s.Draft == nil {
		return nil
	}
	return s.Draft.APIs()
}

// DraftSummary says what the draft loaded: "2 schemas loaded
// (StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse); 14
// warnings, 2 errors".
func (s *State) DraftSummary() string {
	d := s.Draft
	if d == nil {
		return ""
	}
	var names []string
	for _, sc := range d.Schemas {
		if sc.InSet {
			names = append(names, sc.Name)
		}
	}
	return xfmt.Sprintf("%s loaded (%s); %s, %s", plural(len(names), "schema"), strings.Join(names, ", "),
		plural(d.Warnings(), "warning"), plural(d.Errors(), "error"))
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// DiagnosticsHTML lists the draft's diagnostics, every text escaped: one
// <li> per diagnostic with its line, column and byte offset in data
// attributes (the page selects that line in the textarea on a click).
func (s *State) DiagnosticsHTML() string {
	if s.Draft == nil {
		return ""
	}
	var b strings.Builder
	for _, g := range s.Draft.Diagnostics {
		xfmt.Fprintf(&b, `<li class="dg %s" data-line="%d" data-col="%d" tabindex="0"><span class="sev">%s</span> <span class="lc">%d:%d</span> <span class="msg">%s</span>`,
			g.Severity, g.Line, g.Col, g.Severity, g.Line, g.Col, render.Text(g.Message))
		if g.Suggestion != "" {
			xfmt.Fprintf(&b, ` <span class="sug">%s</span>`, render.Text(g.Suggestion))
		}
		b.WriteString("</li>")
	}
	return b.String()
}

// SourceHTML renders the draft text line by line, numbered and escaped;
// a line with a diagnostic is marked with the strongest severity
// (class "lv-error" or "lv-warning") and its messages in its title.
func (s *State) SourceHTML() string {
	if s.Draft == nil {
		return ""
	}
	type mark struct {
		sev  draft.Severity
		msgs []string
	}
	marks := map[int]*mark{}
	for _, g := range s.Draft.Diagnostics {
		m := marks[g.Line]
		if m == nil {
			m = &mark{sev: g.Severity}
			marks[g.Line] = m
		}
		m.sev = max(m.sev, g.Severity)
		m.msgs = append(m.msgs, render.Text(g.Severity.String()+": "+g.Message))
	}
	var b strings.Builder
	for i, line := range strings.Split(s.DraftText, "\n") {
		n := i + 1
		line = strings.TrimSuffix(line, "\r")
		if m := marks[n]; m != nil {
			xfmt.Fprintf(&b, `<div class="sl lv-%s" data-line="%d" title="%s">`, m.sev, n, strings.Join(m.msgs, "\n"))
		} else {
			xfmt.Fprintf(&b, `<div class="sl" data-line="%d">`, n)
		}
		// The source as typed, with tabs, and every other hidden rune
		// shown escaped (a bidi override must not reorder what is shown).
		parts := strings.Split(line, "\t")
		for i, p := range parts {
			parts[i] = render.Text(p)
		}
		xfmt.Fprintf(&b, `<span class="ln">%d</span><span class="st">%s</span></div>`, n, strings.Join(parts, "\t"))
	}
	return b.String()
}

// LineSpan returns the byte span [start, end) of line n (from 1) of the
// draft text, without its line break; (0, 0) for a line it has not.
func (s *State) LineSpan(n int) (start, end int) {
	text := s.DraftText
	for line := 1; line < n; line++ {
		i := strings.IndexByte(text[start:], '\n')
		if i < 0 {
			return 0, 0
		}
		start += i + 1
	}
	end = len(text)
	if i := strings.IndexByte(text[start:], '\n'); i >= 0 {
		end = start + i
	}
	return start, end
}

// EncodeDraft packs draft text for a URL: deflated, then base64url
// without padding.
func EncodeDraft(text string) string {
	return base64.RawURLEncoding.EncodeToString(deflate.Append(nil, []byte(text)))
}

// DecodeDraft unpacks what EncodeDraft wrote. It refuses text that
// inflates to more than MaxDraftBytes.
func DecodeDraft(s string) (string, error) {
	z, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
	if err != nil {
		return "", xfmt.Errorf("the schema in the link is not base64url: %v", err)
	}
	r := flate.NewReader(bytes.NewReader(z))
	defer r.Close()
	b, err := io.ReadAll(io.LimitReader(r, MaxDraftBytes+1))
	if err != nil {
		return "", xfmt.Errorf("the schema in the link is damaged: %v", err)
	}
	if len(b) > MaxDraftBytes {
		return "", xfmt.Errorf("the schema in the link is over %d bytes", MaxDraftBytes)
	}
	return string(b), nil
}

// draftQuery is the part of the URL query that carries the draft: base
// (the released set it goes with), keys (chosen for TBD keys, "Name.90"
// comma-separated) and schema (EncodeDraft of the text).
func (s *State) draftQuery() string {
	if s.Draft == nil {
		return ""
	}
	q := "&base=" + queryEscape(s.DraftBase)
	if len(s.DraftKeys) > 0 {
		names := make([]string, 0, len(s.DraftKeys))
		for k := range s.DraftKeys {
			names = append(names, k)
		}
		sort.Slice(names, func(i, j int) bool { return names[i] < names[j] }) // sort.Strings is slices.Sort: a copy of pdqsort more in the browser app
		for i, k := range names {
			names[i] = k + "." + strconv.Itoa(int(s.DraftKeys[k]))
		}
		q += "&keys=" + queryEscape(strings.Join(names, ","))
	}
	return q + "&schema=" + s.draftEnc
}

// applyDraft loads the draft a link carries.
func (s *State) applyDraft(q query) error {
	enc := q.get("schema")
	if enc == "" {
		return nil
	}
	text, err := DecodeDraft(enc)
	if err != nil {
		return err
	}
	keys := map[string]int16{}
	for _, kv := range strings.Split(q.get("keys"), ",") {
		if kv == "" {
			continue
		}
		i := strings.LastIndexByte(kv, '.')
		n, err := strconv.Atoi(kv[i+1:])
		if i <= 0 || err != nil || n < 0 || n > 32767 {
			return xfmt.Errorf("bad link: keys %q (NAME.KEY)", kv)
		}
		keys[kv[:i]] = int16(n)
	}
	if len(keys) == 0 {
		keys = nil
	}
	base := q.get("base")
	if base == "" && q.get("set") != DraftSet {
		base = q.get("set")
	}
	// Apply selects what the link says next.
	return s.loadDraft(text, base, keys, false)
}

// CompareHTML compares the draft message shown with the released schema
// of the same name in the draft's base set (draftcodec.Compare): the fields
// added, removed, retyped or otherwise changed, and the sizes of the two
// smallest frames. Every name and detail is escaped. "" when no draft
// API is shown.
func (s *State) CompareHTML() string {
	if !s.IsDraft() || s.Draft == nil {
		return ""
	}
	base, err := sets.Load(s.DraftBase)
	if err != nil {
		return `<p class="err">` + render.Text(err.Error()) + `</p>`
	}
	name := s.Dir.Schema(s.API).Name
	var b strings.Builder
	for _, df := range draftcodec.Compare(s.Draft, base) {
		if df.Name != name {
			continue
		}
		xfmt.Fprintf(&b, `<p class="cmpsum">%s: the draft&#x2019;s v%d against %s&#x2019;s v%d`,
			render.Text(df.Name), df.DraftVersion, render.Text(base.Name), df.ReleasedVersion)
		if df.Err == nil {
			xfmt.Fprintf(&b, `; smallest frame %d bytes, %s&#x2019;s %d (%+d)`, len(df.DraftBytes), render.Text(base.Name), len(df.ReleasedBytes), df.SizeDelta())
		}
		var counts []string
		for k := draft.Changed; k <= draft.Removed; k++ {
			if n := df.Count(k); n > 0 {
				counts = append(counts, strconv.Itoa(n)+" "+k.String())
			}
		}
		if len(counts) > 0 {
			b.WriteString("; fields: " + strings.Join(counts, ", "))
		}
		b.WriteString("</p>")
		if df.Err != nil {
			xfmt.Fprintf(&b, `<p class="err">%s</p>`, render.Text(df.Err.Error()))
		}
		changes := df.Changes()
		if len(changes) == 0 {
			b.WriteString(`<p class="note">No field differs.</p>`)
			return b.String()
		}
		b.WriteString(`<table class="cmp"><thead><tr><th>change</th><th>field</th><th>what</th></tr></thead><tbody>`)
		for _, r := range changes {
			xfmt.Fprintf(&b, `<tr class="ck-%s"><td>%s</td><td>%s</td><td>%s</td></tr>`,
				r.Kind, r.Kind, render.Text(r.Path), render.Text(r.Detail))
		}
		b.WriteString("</tbody></table>")
		return b.String()
	}
	return `<p class="note">` + render.Text(base.Name) + ` has no schema named ` + render.Text(name) + `.</p>`
}
