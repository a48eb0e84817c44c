package app

// The explorer's controller: what the page shows after each event, drawn
// through dom.Page (the browser's in wasm/main.go, domtest's recorder in
// the tests).

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"time"

	"kwire/capture/tlsdec"
	"kwire/codec"
	"kwire/internal/xfmt"
	"kwire/render"
	"kwire/schemas/sets"
	"kwire/wasm/dom"
)

// rowHeight is the height of a byte-view row in CSS pixels (kwire.css
// sets .hrow to the same).
const rowHeight = 20

// lineHeight is the height of a tree line in CSS pixels (kwire.css sets
// .tree's line-height to the same).
const lineHeight = 20

// overscan is how many rows are drawn above and below the visible ones.
const overscan = 16

// UI is the explorer page's controller: wasm/main.go hands it the page's
// events (Input, Change, Click, Key, Paste, Drop, the Scroll and Hover
// methods) and it decides what changes and draws it through its dom.Page:
// the byte view's rows and the tree's lines in view, the pickers, the
// form, the identify chips, the draft panel, the conversation list.
type UI struct {
	s *State
	p dom.Page
	// capStep is how long a capture is read before the page may draw
	// (tests make it long, for steps that do not depend on the clock).
	capStep time.Duration

	hexview, hexspace, hexrows, tree, form dom.Elem
	treespace, treerows                    dom.Elem

	rowFrom, rowTo   int               // rows drawn
	lines            []render.TreeLine // the tree's lines, drawn or not
	lineFrom, lineTo int               // the tree's lines drawn
	treeLines        Lines             // the tree's lines drawn, as HTML
	hexLines         Lines             // the byte view's rows drawn
	treeQueued       bool
	selected         int // selected tree node, -1 for none
	hovered          int // hovered node, -1 for none
	hlTree           dom.Elem
	scrollQueued     bool
	draftGen         int    // counts edits of the draft text, for the debounce
	query            string // the address's query, written after urlDelay
	queryPending     bool

	// The conversation list of a capture or a pasted stream.
	cap                  *Capture
	caplist, caprows     dom.Elem
	capspace             dom.Elem
	capFrom, capTo       int  // list rows drawn
	capSel               int  // the row open (an index of cap.Rows), -1 for none
	capResp              bool // and whether its response is shown
	capQueued, capOpened bool
	keys                 *tlsdec.KeyLog // the key logs dropped: TLS secrets, in memory only
	capName              string         // the capture open, read again when a key log comes
	capBytes             []byte
	leakIDs              []int // the tree's nodes the address audit found in the response open
}

// capRowHeight is the height of a conversation row in CSS pixels
// (kwire.css sets .crow to the same).
const capRowHeight = 22

// capStep is how long the capture is read before the page may draw.
const capStep = 40 * time.Millisecond

// urlDelay (ms) is how long a new query waits before the address shows it:
// history.replaceState costs Chromium 1 to 10 ms, too much to pay on
// every keystroke, so a run of edits writes the address at most once in
// that time, with the last one's query.
const urlDelay = 200

// draftDelay (ms) is how long typing in the schema panel pauses before the
// draft is read again.
const draftDelay = 350

// status shows a message in the status line.
func (u *UI) status(msg string, isErr bool) {
	st := u.p.ByID("status")
	st.SetText(msg)
	st.Toggle("bad", isErr)
}

// refresh redraws the views; with form, the pickers and the form too.
func (u *UI) refresh(form bool) {
	s := u.s
	// Read the geometry before writing anything, so that the browser lays
	// the page out once, after this handler, and not in the middle of it.
	top, height := u.hexview.ScrollTop(), u.hexview.ClientHeight()
	ttop, theight := u.tree.ScrollTop(), u.tree.ClientHeight()
	if form {
		u.pickers()
		u.drawForm()
		u.drawCompare()
	}
	u.p.ByID("legend").SetHTML(s.Legend())
	title := xfmt.Sprintf("%s v%d %s, %d bytes", s.API.Name, s.Version, s.Dir, len(s.Bytes))
	root := s.Node(0)
	if s.Frame == nil && s.Pasted && (root == nil || root.Type == "") {
		title = xfmt.Sprintf("%d bytes that do not decode", len(s.Bytes))
	}
	if root != nil && root.Type != "" {
		title = xfmt.Sprintf("%s %s, %d bytes", root.Name, root.Type, len(s.Bytes))
	}
	if s.IsDraft() {
		key, src, _ := s.DraftKey()
		title += xfmt.Sprintf(" (draft, apiKey %d: %s)", key, src)
	}
	u.p.ByID("msgtitle").SetText(title)
	release := s.ReleaseText()
	if m := s.ReleaseMatch(); m != "" {
		release += "; " + m
	}
	u.p.ByID("release").SetText(release)
	// The byte view: a spacer as tall as every row, and the visible rows.
	u.hexspace.SetStyle("height", strconv.Itoa(s.Rows()*rowHeight)+"px")
	u.drawRowsAt(top, height, true)
	// The tree likewise: a spacer as tall as every line, the lines in view.
	if u.selected >= s.Len() {
		u.selected = -1
	}
	u.hovered = -1
	u.lines = s.TreeLines()
	u.treespace.SetStyle("height", strconv.Itoa(len(u.lines)*lineHeight)+"px")
	u.drawTreeAt(ttop, theight, true) // the tree keeps its scroll position
	u.highlightBytes()
	if s.Err != nil {
		u.status(s.ErrorText(), true)
	} else {
		u.status("", false)
	}
	u.p.ByID("guessbar").SetProp("hidden", !s.CanGuess())
	u.p.ByID("secretbar").SetProp("hidden", !s.Secrets())
	reveal := u.p.ByID("reveal")
	reveal.SetAttr("aria-pressed", strconv.FormatBool(s.Revealed()))
	if s.Revealed() {
		reveal.SetText("mask secrets")
	} else {
		reveal.SetText("reveal secrets")
	}
	u.drawChips()
	dropped := u.p.ByID("dropped")
	if len(s.Dropped) > 0 {
		dropped.SetText("Not in v" + strconv.Itoa(int(s.Version)) + " (kept, and back if you switch back): " + strings.Join(s.Dropped, ", "))
	} else {
		dropped.SetText("")
	}
	if u.p.ByID("jsonpanel").Prop("open") && u.p.Active().ID() != "json" {
		u.p.ByID("json").SetValue(s.JSON())
		u.p.ByID("jsonerr").SetText("")
	}
	u.setQuery(s.Query())
	link := u.p.ByID("copy-link")
	complete := s.LinkComplete()
	link.Toggle("partial", !complete)
	if complete {
		link.SetAttr("title", "copy a link to this message")
	} else {
		link.SetAttr("title", "the message is too large for a link: the link names the API and version only")
	}
}

// patch draws h (lines that end in "\n") into e: the lines that changed
// since the last draw, or, when lines says so, e's contents whole.
func patch(e dom.Elem, lines *Lines, h string) {
	changed, whole := lines.Update(h)
	if whole {
		e.SetHTML(h)
		return
	}
	for _, i := range changed {
		e.Child(i).SetOuterHTML(lines.Line(i))
	}
}

// drawTree draws the tree's lines around the scroll position; unless
// force, only when they changed.
func (u *UI) drawTree(force bool) {
	u.drawTreeAt(u.tree.ScrollTop(), u.tree.ClientHeight(), force)
}

// drawTreeAt draws the tree's lines for a scroll position and view
// height, then marks the lit and the selected line among them.
func (u *UI) drawTreeAt(top, h float64, force bool) {
	from, to, ok := place(u.treerows, &u.lineFrom, &u.lineTo, top, h, 800, lineHeight, len(u.lines), force)
	if !ok {
		return
	}
	t0 := u.p.Now()
	rows := u.s.TreeRows(u.lines, from, to)
	t1 := u.p.Now()
	if u.hlTree != nil {
		u.hlTree.Toggle("hl", false)
	}
	u.hlTree = nil
	// After an edit, only the lines that changed (lines carry their node's
	// number: a scroll draws them whole).
	patch(u.treerows, &u.treeLines, rows)
	u.p.Publish("treeMs", []any{t1 - t0, u.p.Now() - t1})
	u.highlightTree()
	u.markLeaks()
}

// markLeaks marks the drawn tree lines of the fields the address audit
// found (leakIDs).
func (u *UI) markLeaks() {
	for _, e := range u.treerows.QueryAll(".tn.leak") {
		e.Toggle("leak", false)
	}
	for _, id := range u.leakIDs {
		if shown := u.s.Shown(id); shown >= 0 {
			u.treerows.Query(`.tn[data-n="`+strconv.Itoa(shown)+`"]:not(.fold)`).Toggle("leak", true)
		}
	}
}

// keepInView scrolls e, a list of rows of height rowH, so that the row at
// y is in view: to its top when it is above, to its bottom (and pad) when
// it is below.
func keepInView(e dom.Elem, y, rowH, pad float64) {
	top, h := e.ScrollTop(), e.ClientHeight()
	switch {
	case y < top:
		e.SetScrollTop(y)
	case y+rowH > top+h:
		e.SetScrollTop(y + rowH - h + pad)
	}
}

// place returns the rows [from, to) of n rows of height rowH to draw in
// rows for a scroll position and view height h (def before the page is
// laid out), and whether to draw them: when force or when they differ
// from those drawn, [*drawnFrom, *drawnTo), which it then sets, and
// moves rows to the first.
func place(rows dom.Elem, drawnFrom, drawnTo *int, top, h, def float64, rowH, n int, force bool) (from, to int, ok bool) {
	if h == 0 {
		h = def
	}
	from, to = inView(top, h, float64(rowH), n)
	if !force && from == *drawnFrom && to == *drawnTo {
		return from, to, false
	}
	*drawnFrom, *drawnTo = from, to
	rows.SetStyle("transform", "translateY("+strconv.Itoa(from*rowH)+"px)")
	return from, to, true
}

// inView returns the rows [from, to) of n rows of height rowH to draw for
// a scroll position and view height: those in view and overscan more on
// each side.
func inView(top, h, rowH float64, n int) (from, to int) {
	from = max(int(top/rowH)-overscan, 0)
	to = min(int(math.Ceil((top+h)/rowH))+overscan, n)
	return from, to
}

// scrollTreeTo scrolls the tree so that line i is in view and draws it.
func (u *UI) scrollTreeTo(i int) {
	if i < 0 {
		return
	}
	keepInView(u.tree, float64(i*lineHeight), lineHeight, 8) // and the tree's padding below
	u.drawTree(false)
}

// setQuery writes q into the address within urlDelay (kwire.urlPending
// says whether it is still to be written, for the tests).
func (u *UI) setQuery(q string) {
	u.query = q
	if u.queryPending {
		return
	}
	u.queryPending = true
	u.p.Publish("urlPending", true)
	u.p.After(urlDelay, u.FlushQuery)
}

// FlushQuery writes the pending query into the address now.
func (u *UI) FlushQuery() {
	if !u.queryPending {
		return
	}
	u.queryPending = false
	u.p.ReplaceQuery(u.query)
	u.p.Publish("urlPending", false)
}

// drawChips shows what identified pasted bytes may be, one chip a
// candidate, the one shown pressed; the readings of other APIs with the
// same values follow their answer's chip, dashed ("= EndTxnResponse v3-v4").
func (u *UI) drawChips() {
	s := u.s
	chips := u.p.ByID("chips")
	chips.SetProp("hidden", len(s.Candidates) == 0)
	if len(s.Candidates) == 0 {
		return
	}
	var b strings.Builder
	b.WriteString(render.EscapeHTML(s.CandidatesText()) + ":")
	for i := range s.Candidates {
		if lead := s.SameAs(i); lead >= 0 {
			// The same values as its answer's chip: drawn beside it, dashed.
			xfmt.Fprintf(&b, ` <button type="button" class="same" data-act="choose" data-i="%d" aria-pressed="%t" title="%s">= %s</button>`,
				i, i == s.Chosen, render.EscapeHTML("the same values as "+s.ChipLabel(lead)+": only the request can tell"), render.EscapeHTML(s.ChipLabel(i)))
			continue
		}
		xfmt.Fprintf(&b, ` <button type="button" data-act="choose" data-i="%d" aria-pressed="%t">%s</button>`,
			i, i == s.Chosen, render.EscapeHTML(s.ChipLabel(i)))
	}
	chips.SetHTML(b.String())
}

// drawRows draws the byte-view rows around the scroll position; unless
// force, only when they changed.
func (u *UI) drawRows(force bool) {
	u.drawRowsAt(u.hexview.ScrollTop(), u.hexview.ClientHeight(), force)
}

// drawRowsAt draws the rows for a scroll position and view height.
func (u *UI) drawRowsAt(top, h float64, force bool) {
	s := u.s
	from, to, ok := place(u.hexrows, &u.rowFrom, &u.rowTo, top, h, 600, rowHeight, s.Rows(), force)
	if !ok {
		return
	}
	// After an edit, only the rows that changed (rows carry their number:
	// a scroll draws them whole).
	for _, e := range u.hexrows.QueryAll(".errat") {
		e.Toggle("errat", false)
	}
	patch(u.hexrows, &u.hexLines, s.HexRows(from, to))
	if s.ErrOffset >= 0 {
		u.hexrows.Query(`.hb[data-o="`+strconv.Itoa(s.ErrOffset)+`"]`).Toggle("errat", true)
	}
	u.highlightBytes()
}

// hover lights node n (or, for -1, the selected node).
func (u *UI) hover(n int) {
	if n == u.hovered {
		return
	}
	u.hovered = n
	u.highlight()
}

func (u *UI) lit() int {
	if u.hovered >= 0 {
		return u.hovered
	}
	return u.selected
}

// highlight lights the bytes and the tree line of the lit node.
func (u *UI) highlight() {
	u.highlightBytes()
	u.highlightTree()
}

// highlightTree lights the tree line of the lit node and marks the
// selected one, among the lines drawn.
func (u *UI) highlightTree() {
	if u.hlTree != nil {
		u.hlTree.Toggle("hl", false)
	}
	u.hlTree = nil
	n := u.lit()
	if n < 0 {
		return
	}
	if shown := u.s.Shown(n); shown >= 0 {
		u.hlTree = u.treerows.Query(`.tn[data-n="` + strconv.Itoa(shown) + `"]:not(.fold)`)
		u.hlTree.Toggle("hl", true)
	}
	for _, e := range u.tree.QueryAll(".tn.sel") {
		e.Toggle("sel", false)
	}
	if u.selected >= 0 {
		u.treerows.Query(`.tn[data-n="`+strconv.Itoa(u.s.Shown(u.selected))+`"]:not(.fold)`).Toggle("sel", true)
	}
}

// highlightBytes marks the drawn bytes of the lit node.
func (u *UI) highlightBytes() {
	lo, hi := 0, 0
	if n := u.lit(); n >= 0 {
		lo, hi = u.s.Span(n)
	}
	first, last := u.rowFrom*16, u.rowTo*16
	for _, e := range u.hexrows.QueryAll(".hl") {
		e.Toggle("hl", false)
	}
	if hi <= first || lo >= last || lo >= hi {
		return
	}
	for _, row := range u.hexrows.QueryAll(".hrow") {
		r, _ := row.Int("data-row")
		if (r+1)*16 <= lo || r*16 >= hi {
			continue
		}
		for _, b := range row.QueryAll("[data-o]") {
			o, _ := b.Int("data-o")
			if o >= lo && o < hi {
				b.Toggle("hl", true)
			}
		}
	}
}

// selectNode selects node n, scrolls the byte view to it and, with focus,
// focuses its form field.
func (u *UI) selectNode(n int, focus bool) {
	u.selected = n
	u.highlight()
	lo, hi := u.s.Span(n)
	if hi > lo {
		top, h := u.hexview.ScrollTop(), u.hexview.ClientHeight()
		y := float64(lo/16*rowHeight) + rowHeight // below the sticky header
		if y < top+rowHeight || y > top+h-rowHeight {
			u.hexview.SetScrollTop(max(y-2*rowHeight, 0))
			u.drawRows(false)
		}
	}
	if focus {
		u.focusField(u.s.FieldKey(n))
	}
}

// focusField focuses the form control of a field key, unfolding its
// enclosing structs and arrays.
func (u *UI) focusField(key string) {
	if key == "" {
		return
	}
	el := u.p.ByID("k-" + key)
	if !el.Valid() {
		el = u.form.Query(AttrSelector("data-key", key))
		if el.Tag() == "details" {
			el.SetProp("open", true)
			el = el.Query("summary")
		}
	}
	if !el.Valid() {
		return
	}
	for p := el.Closest("details"); p.Valid(); p = p.Closest("details:not([open])") {
		p.SetProp("open", true)
	}
	el.Focus()
	el.ScrollIntoView()
}

// openState records which form structs and arrays are unfolded.
func (u *UI) openState() map[string]bool {
	m := map[string]bool{}
	for _, d := range u.form.QueryAll("details[data-key]") {
		m[d.Attr("data-key")] = d.Prop("open")
	}
	return m
}

// drawForm redraws the form, keeping folding and focus.
func (u *UI) drawForm() {
	open := u.openState()
	act := u.p.Active()
	focusKey, focusAttr := "", ""
	for _, a := range []string{"data-key", "data-null"} {
		if k := act.Attr(a); k != "" && act.Closest("#form").Valid() {
			focusKey, focusAttr = k, a
			break
		}
	}
	actKind := act.Attr("data-act")
	u.form.SetHTML(u.s.Form(func(key string) (bool, bool) {
		o, ok := open[key]
		return o, ok
	}))
	if focusKey != "" {
		sel := AttrSelector(focusAttr, focusKey)
		if actKind != "" {
			sel = AttrSelector("data-act", actKind) + sel
		}
		if e := u.form.Query(sel); e.Valid() {
			e.Focus()
		}
	}
}

// pickerSets fills the schema set picker: the released sets, and the
// draft once one loaded.
func (u *UI) pickerSets() {
	var b strings.Builder
	b.WriteString(`<option value="` + Auto + `">auto (newest with the version)</option>`)
	rs := Releases()
	for i := len(rs) - 1; i >= 0; i-- {
		r := rs[i]
		label := r.Name
		if r.Date != "" {
			label += " (" + r.Date + ")"
		}
		option(&b, r.Name, label)
	}
	if u.s != nil && len(u.s.DraftAPIs()) > 0 {
		option(&b, DraftSet, "draft (pasted)")
	}
	u.p.ByID("set").SetHTML(b.String())
}

// option writes an <option> of a picker. The pickers' options are written
// without xfmt: at start, the API picker's hundred options made
// xfmt's printer hot enough for Chromium to compile it again optimized, in
// the background, while the page started.
func option(b *strings.Builder, value, label string) {
	b.WriteString(`<option value="`)
	b.WriteString(render.EscapeHTML(value))
	b.WriteString(`">`)
	b.WriteString(render.EscapeHTML(label))
	b.WriteString(`</option>`)
}

// draftMark follows a draft API's name in the API picker.
const draftMark = " (draft)"

// pickers shows the selection in the pickers.
func (u *UI) pickers() {
	s := u.s
	u.pickerSets()
	u.p.ByID("set").SetValue(s.Choice())
	u.p.ByID("topicfmt").SetValue(s.TopicFormat())
	var b strings.Builder
	// The draft's APIs first, marked, then the released set's.
	for _, a := range s.DraftAPIs() {
		option(&b, a.Name+draftMark, strconv.Itoa(int(a.Key))+" draft")
	}
	released := s.Set
	if s.IsDraft() {
		released, _ = sets.Load(s.DraftBase)
	}
	if released != nil {
		for _, a := range released.APIIndex() {
			option(&b, a.Name, strconv.Itoa(int(a.Key))+" "+a.Name)
		}
	}
	u.p.ByID("apis").SetHTML(b.String())
	if u.p.Active().ID() != "api" {
		name := s.API.Name
		if s.IsDraft() {
			name += draftMark
		}
		u.p.ByID("api").SetValue(name)
	}
	u.p.ByID("api").Toggle("draft", s.IsDraft())
	key, _, changeable := s.DraftKey()
	u.p.ByID("draftkey-l").SetProp("hidden", !changeable)
	if changeable && u.p.Active().ID() != "draftkey" {
		u.p.ByID("draftkey").SetValue(strconv.Itoa(int(key)))
	}
	b.Reset()
	vs := s.Versions()
	for v := vs.Lo; v <= vs.Hi && v >= 0; v++ {
		n := strconv.Itoa(int(v))
		option(&b, n, "v"+n)
		if v == math.MaxInt16 {
			break
		}
	}
	u.p.ByID("version").SetHTML(b.String())
	u.p.ByID("version").SetValue(strconv.Itoa(int(s.Version)))
	u.p.ByID("dir").SetValue(s.Dir.String())
}

func direction(s string) codec.Direction {
	if s == "response" {
		return codec.Response
	}
	return codec.Request
}

// pick applies the pickers: a new API, set or direction starts from the
// smallest message (at the same version when it has it).
func (u *UI) pick(id string) {
	s := u.s
	var err error
	switch id {
	case "version":
		v, _ := strconv.Atoi(u.p.ByID("version").Value())
		err = s.SetVersion(int16(v))
	case "api":
		text := u.p.ByID("api").Value()
		setName := s.Choice()
		if s.IsDraft() {
			setName = s.DraftBase
		}
		name, isDraft := strings.CutSuffix(strings.TrimSpace(text), strings.TrimSpace(draftMark))
		if s.Draft != nil && (isDraft || s.IsDraft()) {
			if a, e := s.Draft.LookupAPI(strings.TrimSpace(name)); e == nil {
				err = s.SelectDraft(a.Name, -1, s.Dir)
				break
			}
		}
		err = errors.New("no API " + strconv.Quote(text) + " in set " + setName)
		released, e := sets.Load(setName)
		if e != nil {
			err = e
			break
		}
		for _, w := range strings.Fields(text) {
			if a, e := released.LookupAPI(w); e == nil {
				err = s.Select(setName, a.Name, -1, s.Dir)
				break
			}
		}
	case "set":
		if set := u.p.ByID("set").Value(); set == DraftSet {
			err = s.SelectDraft(s.API.Name, int(s.Version), s.Dir)
			break
		}
		fallthrough
	default:
		set, dir := u.p.ByID("set").Value(), direction(u.p.ByID("dir").Value())
		v := int(s.Version)
		if sel, e := codec.NewFrame(s.Set, s.API, s.Version, dir); e != nil || sel == nil {
			v = -1
		}
		err = s.Select(set, s.API.Name, v, dir)
		if err != nil {
			err = s.Select(set, s.API.Name, -1, dir)
		}
	}
	u.selected = -1
	u.refresh(true)
	if err != nil {
		u.status(err.Error(), true)
	}
}

// Input handles an input event: typing in the schema panel, the capture
// filter, the advertised addresses or a form field.
func (u *UI) Input(ev dom.Ev) {
	t := ev.Target()
	if t.ID() == "schema" {
		// Read the draft again once typing pauses.
		u.draftGen++
		gen := u.draftGen
		u.p.After(draftDelay, func() {
			if gen == u.draftGen {
				u.loadDraft(false)
			}
		})
		return
	}
	if t.ID() == "capfilter" {
		if u.cap != nil {
			u.cap.SetFilter(t.Value())
			u.caplist.SetScrollTop(0)
			u.drawCapture()
		}
		return
	}
	if t.ID() == "capadv" {
		u.audit()
		return
	}
	key := t.Attr("data-key")
	if key == "" || t.Attr("type") == "checkbox" || !t.Closest("#form").Valid() {
		return
	}
	t0 := u.p.Now()
	err := u.s.SetField(key, t.Value())
	t1 := u.p.Now()
	u.fieldResult(key, err)
	u.p.Publish("editMs", []any{t1 - t0, u.p.Now() - t1})
}

// fieldResult shows an edit's error next to its field, or the new bytes.
func (u *UI) fieldResult(key string, err error) {
	e := u.p.ByID("e-" + key)
	in := u.p.ByID("k-" + key)
	if err != nil {
		e.SetText(err.Error())
		in.Toggle("invalid", true)
		in.SetAttr("aria-invalid", "true")
		return
	}
	e.SetText("")
	in.Toggle("invalid", false)
	in.RemoveAttr("aria-invalid")
	// The bytes fields that carry the value in a nested format were
	// written again; a bytes field's own nested fields follow its hex.
	for _, k := range u.s.Owners(key) {
		u.p.ByID("k-" + k).SetValue(u.s.FieldText(k))
	}
	if n := u.p.ByID("n-" + key); n.Valid() {
		n.SetHTML(u.s.NestedForm(key))
	}
	u.refresh(false)
}

// Change handles a change event: a picker, a file chosen, a checkbox.
func (u *UI) Change(ev dom.Ev) {
	t := ev.Target()
	switch id := t.ID(); id {
	case "set", "dir", "version", "api":
		u.pick(id)
		return
	case "topicfmt":
		if err := u.s.SetTopicFormat(t.Value()); err != nil {
			u.status(err.Error(), true)
			return
		}
		u.refresh(true)
		return
	case "capagainst":
		u.report()
		return
	case "capfile":
		t.ReadFile(func(name string, b []byte, msg string) {
			if msg != "" {
				u.status("could not read "+name+": "+msg, true)
				return
			}
			u.openCapture(name, b)
		})
		t.SetValue("") // the same file can be opened again
		return
	case "draftkey":
		err := u.s.SetDraftKey(t.Value())
		u.refresh(true)
		if err != nil {
			u.status(err.Error(), true)
		}
		return
	}
	if k := t.Attr("data-null"); k != "" {
		if err := u.s.SetNull(k, t.Checked()); err != nil {
			u.status(err.Error(), true)
			return
		}
		u.refresh(true)
		return
	}
	if k := t.Attr("data-key"); k != "" && t.Attr("data-kind") == "bool" {
		u.fieldResult(k, u.s.SetField(k, strconv.FormatBool(t.Checked())))
	}
}

// Click handles a click: a button, a conversation row, a diagnostic, a
// byte or a tree line.
func (u *UI) Click(ev dom.Ev) {
	t := ev.Target()
	if b := t.Closest("button"); b.Valid() {
		u.button(b)
		return
	}
	if r := t.Closest(".crow"); r.Valid() && r.Closest("#caprows").Valid() {
		if i, ok := r.Int("data-r"); ok {
			u.openRow(i, false)
		}
		return
	}
	if d := t.Closest("[data-line]"); d.Valid() && (d.Closest("#diags").Valid() || d.Closest("#schemaview").Valid()) {
		n, _ := d.Int("data-line")
		u.selectLine(n)
		return
	}
	if b := t.Closest("[data-o]"); b.Valid() && b.Closest("#hexrows").Valid() {
		if n, ok := b.Int("data-n"); ok && n >= 0 {
			u.selectNode(n, true)
		}
		return
	}
	line := t.Closest(".tn")
	if !line.Valid() || !line.Closest("#tree").Valid() {
		return
	}
	n, _ := line.Int("data-n")
	if line.Has("fold") || (line.Has("parent") && t.Closest(".g").Valid()) {
		u.s.ToggleFold(n)
		u.refresh(false)
		return
	}
	u.selectNode(n, true)
}

func (u *UI) button(b dom.Elem) {
	s := u.s
	key := b.Attr("data-key")
	switch act := b.Attr("data-act"); act {
	case "add", "rm":
		var err error
		if act == "add" {
			err = s.AddElem(key)
		} else {
			err = s.RemoveElem(key)
		}
		if err != nil {
			u.status(err.Error(), true)
			return
		}
		u.refresh(true)
		if act == "rm" {
			// The removed element's button is gone; keep focus nearby.
			u.form.Query(`[data-act="add"]` + AttrSelector("data-key", key[:max(strings.LastIndexByte(key, '['), 0)])).Focus()
		}
	case "decode":
		u.decode(u.p.ByID("paste").Value())
	case "cap-open":
		if i, ok := b.Int("data-r"); ok {
			u.openRow(i, b.Attr("data-resp") == "true")
		}
	case "cap-close":
		u.cap = nil
		u.p.ByID("cappanel").SetProp("hidden", true)
	case "schema-toggle":
		u.showPanel(u.p.ByID("schemapanel").Prop("hidden"))
		if !u.p.ByID("schemapanel").Prop("hidden") {
			u.p.ByID("schema").Focus()
		}
	case "schema-load":
		u.draftGen++ // a pending debounced read is not needed
		u.loadDraft(true)
	case "schema-clear":
		u.draftGen++
		u.p.ByID("schema").SetValue("")
		u.loadDraft(false)
	case "json-apply":
		u.applyJSON()
	case "choose":
		if i, ok := b.Int("data-i"); ok {
			_ = s.Choose(i)
			u.selected = -1
			u.refresh(true)
		}
	case "guess":
		_ = s.Guess()
		u.selected = -1
		u.refresh(true)
	case "reveal":
		s.Reveal(!s.Revealed())
		u.refresh(false)
	case "copy-hex":
		u.p.CopyText(s.HexString())
		u.flash(b)
	case "copy-json":
		u.p.CopyText(s.JSON())
		u.flash(b)
	case "copy-link":
		u.FlushQuery()
		u.p.CopyText(u.p.Href())
		u.flash(b)
	case "reset":
		_ = s.Select(s.Choice(), s.API.Name, int(s.Version), s.Dir)
		u.selected = -1
		u.refresh(true)
	}
}

func (u *UI) flash(b dom.Elem) {
	b.Toggle("done", true)
	u.p.ByID("status").SetText("copied")
}

// decode reads pasted text as the message.
func (u *UI) decode(text string) {
	if c := PastedStream(text); c != nil {
		u.showCapture(c)
		u.openRow(c.Row(0), false)
		return
	}
	err := u.s.Paste(text)
	u.selected = -1
	u.refresh(true)
	if err != nil {
		msg := err.Error()
		if u.s.Err != nil {
			msg = u.s.ErrorText()
		}
		u.status(msg, true)
		if u.s.ErrOffset >= 0 {
			u.selectError()
		}
	}
}

// selectError scrolls the byte view and the tree to the error.
func (u *UI) selectError() {
	if e := u.s.ErrorNode(); e >= 0 {
		u.selected = e
	}
	if u.selected >= 0 {
		u.selectNode(u.selected, false)
		u.scrollTreeTo(u.s.TreeLineOf(u.lines, u.selected))
		u.treerows.Query(".tn.err").ScrollIntoView()
	}
}

func (u *UI) applyJSON() {
	ta := u.p.ByID("json")
	text := ta.Value()
	err := u.s.SetJSON(text)
	msg := u.p.ByID("jsonerr")
	if err == nil {
		msg.SetText("")
		u.refresh(true)
		return
	}
	msg.SetText(err.Error())
	// Select the value at fault, or the line of a syntax error.
	if start, end, ok := JSONErrorSpan(text, err); ok {
		ta.Focus()
		ta.SetSelection(utf16Len(text[:start]), utf16Len(text[:end]))
	}
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

// Key handles a key pressed: Ctrl+Enter in the text areas, the keys of
// the tree and of the conversation list.
func (u *UI) Key(ev dom.Ev) {
	t := ev.Target()
	switch {
	case t.ID() == "json" && ev.Key() == "Enter" && ev.Mod():
		ev.PreventDefault()
		u.applyJSON()
	case t.ID() == "paste" && ev.Key() == "Enter" && ev.Mod():
		ev.PreventDefault()
		u.decode(t.Value())
	case t.ID() == "schema" && ev.Key() == "Enter" && ev.Mod():
		ev.PreventDefault()
		u.draftGen++
		u.loadDraft(true)
	case ev.Key() == "Enter" && t.Closest("#diags").Valid():
		n, _ := t.Int("data-line")
		u.selectLine(n)
	case t.ID() == "tree":
		u.treeKey(ev)
	case t.ID() == "caplist":
		u.capKey(ev)
	}
}

// capKey moves through the conversation list: ↑↓ (PageUp, PageDown,
// Home, End) open the row above or below, ←→ its request or response.
func (u *UI) capKey(ev dom.Ev) {
	if u.cap == nil {
		return
	}
	page := max(int(u.caplist.ClientHeight()/capRowHeight)-1, 1)
	by := 0
	switch ev.Key() {
	case "ArrowDown":
		by = 1
	case "ArrowUp":
		by = -1
	case "PageDown":
		by = page
	case "PageUp":
		by = -page
	case "Home":
		by = -u.cap.Len()
	case "End":
		by = u.cap.Len()
	case "ArrowLeft", "ArrowRight":
		ev.PreventDefault()
		if u.capSel >= 0 {
			u.openRow(u.capSel, ev.Key() == "ArrowRight")
		}
		return
	default:
		return
	}
	ev.PreventDefault()
	row, pos := u.cap.Move(u.capSel, by)
	if row < 0 {
		return
	}
	keepInView(u.caplist, float64(pos*capRowHeight), capRowHeight, 0)
	u.openRow(row, u.capResp)
}

// treeKey moves the selection through the tree's lines (all of them, drawn
// or not; a fold's placeholder is passed over).
func (u *UI) treeKey(ev dom.Ev) {
	lines := u.lines
	if len(lines) == 0 {
		return
	}
	cur, shown := -1, -1
	if u.selected >= 0 {
		cur, shown = u.s.TreeLineOf(lines, u.selected), u.s.Shown(u.selected)
	}
	switch ev.Key() {
	case "ArrowDown", "ArrowUp":
		ev.PreventDefault()
		step := 1
		if ev.Key() == "ArrowUp" {
			step = -1
		}
		next := cur
		for j := cur + step; j >= 0 && j < len(lines); j += step {
			if !lines[j].Fold {
				next = j
				break
			}
		}
		if next < 0 {
			next = 0 // nothing selected: the first line
		}
		u.scrollTreeTo(next)
		u.selectNode(int(lines[next].Node), false)
	case "ArrowLeft", "ArrowRight", " ":
		if cur >= 0 {
			ev.PreventDefault()
			if folded := u.s.Folded(shown); folded == (ev.Key() != "ArrowLeft") {
				u.s.ToggleFold(shown)
				u.refresh(false)
			}
		}
	case "Enter":
		if u.selected >= 0 {
			ev.PreventDefault()
			u.focusField(u.s.FieldKey(u.selected))
		}
	}
}

// Paste decodes text pasted outside the inputs.
func (u *UI) Paste(ev dom.Ev) {
	t := ev.Target()
	switch t.Tag() {
	case "input", "textarea", "select":
		return
	}
	text := ev.ClipboardText()
	if strings.TrimSpace(text) == "" {
		return
	}
	ev.PreventDefault()
	u.p.ByID("paste").SetValue(text)
	u.decode(text)
}

// Drop reads what was dropped: schemas, key logs, a capture or a
// message's bytes.
func (u *UI) Drop(ev dom.Ev) {
	if !ev.HasFiles() {
		return
	}
	ev.PreventDefault()
	ev.ReadDroppedTree(func(files map[string][]byte, dirs bool, msg string) {
		if msg != "" {
			u.status("could not read what was dropped: "+msg, true)
			return
		}
		if DroppedSchemas(files, dirs) {
			report, err := u.s.AddSchemas(files)
			u.selected = -1
			u.refresh(true)
			if err != nil {
				u.status(err.Error(), true)
			} else {
				u.status(report, strings.Contains(report, ": error:"))
			}
			return
		}
		var b []byte
		var name string
		keys := 0
		for n, f := range files {
			if IsKeyLog(f) {
				// A key log stays in this page's memory: never in the
				// address, the page or a log.
				if u.keys == nil {
					u.keys = tlsdec.NewKeyLog()
				}
				if err := u.keys.Add(f); err != nil {
					u.status(n+": "+err.Error(), true)
					return
				}
				keys++
				continue
			}
			name, b = n, f // one file: the bytes to decode
		}
		if b == nil && keys > 0 {
			msg := xfmt.Sprintf("key log: secrets of %d TLS sessions, kept in this page only", u.keys.Len())
			if u.capBytes != nil {
				u.openCapture(u.capName, u.capBytes) // again, decrypted
			}
			u.status(msg, false)
			return
		}
		if IsCapture(b) {
			u.openCapture(name, b)
			return
		}
		err := u.s.Load(b)
		u.selected = -1
		u.refresh(true)
		if err != nil {
			u.status(u.s.ErrorText(), true)
			if u.s.ErrOffset >= 0 {
				u.selectError()
			}
		}
	})
}

// showPanel shows or hides the schema panel.
func (u *UI) showPanel(show bool) {
	u.p.ByID("schemapanel").SetProp("hidden", !show)
	u.p.ByID("schema-btn").SetAttr("aria-expanded", strconv.FormatBool(show))
}

// loadDraft reads the schema panel's text as a draft; with explore, a
// draft API is then shown (the first, unless one is shown already).
func (u *UI) loadDraft(explore bool) {
	s := u.s
	text := u.p.ByID("schema").Value()
	var err error
	if strings.TrimSpace(text) == "" {
		err = s.ClearDraft()
	} else {
		err = s.LoadDraft(text)
		if apis := s.DraftAPIs(); err == nil && explore && !s.IsDraft() && len(apis) > 0 {
			err = s.SelectDraft(apis[0].Name, -1, s.Dir)
		}
	}
	u.selected = -1
	u.drawDraft()
	u.refresh(true)
	if err != nil {
		u.status(err.Error(), true)
	}
}

// drawDraft shows the draft's summary, diagnostics and numbered text.
func (u *UI) drawDraft() {
	s := u.s
	u.p.ByID("schemasum").SetText(s.DraftSummary())
	u.p.ByID("diags").SetHTML(s.DiagnosticsHTML())
	u.p.ByID("schemaview").SetHTML(s.SourceHTML())
}

// selectLine selects line n of the draft in the textarea and marks it in
// the numbered view.
func (u *UI) selectLine(n int) {
	lo, hi := u.s.LineSpan(n)
	text := u.s.DraftText
	ta := u.p.ByID("schema")
	if ta.Value() == text {
		ta.Focus()
		ta.SetSelection(utf16Len(text[:lo]), utf16Len(text[:hi]))
		// Scroll the line to the top third (18.125px: kwire.css's
		// 12.5px font at line-height 1.45).
		ta.SetScrollTop(max(float64(n-1)*18.125-ta.ClientHeight()/3, 0))
	}
	view := u.p.ByID("schemaview")
	for _, e := range view.QueryAll(".sl.cur") {
		e.Toggle("cur", false)
	}
	line := view.Query(`.sl[data-line="` + strconv.Itoa(n) + `"]`)
	line.Toggle("cur", true)
	if line.Valid() {
		view.SetScrollTop(max(line.OffsetTop()-view.ClientHeight()/3, 0))
	}
}

// drawCompare fills the comparison with the released schema when it is
// open.
func (u *UI) drawCompare() {
	if !u.p.ByID("comparepanel").Prop("open") {
		return
	}
	h := u.s.CompareHTML()
	if h == "" {
		h = `<p class="note">Pick a draft API to compare it with the released schema of the same name.</p>`
	}
	u.p.ByID("compare").SetHTML(h)
}

// openCapture starts reading a capture file into the conversation list,
// in steps between which the page draws.
func (u *UI) openCapture(name string, b []byte) {
	c, err := OpenCapture(name, b, u.keys)
	if err != nil {
		u.status(name+": "+err.Error(), true)
		return
	}
	u.capName, u.capBytes = name, b
	u.showCapture(c)
	u.readCapture(c)
}

// readCapture reads a step of the capture, draws the list and, until the
// file is read, schedules the next step.
func (u *UI) readCapture(c *Capture) {
	if c != u.cap {
		return // closed, or another one opened
	}
	done := c.Step(u.capStep)
	u.drawCapture()
	if !u.capOpened && c.Len() > 0 {
		u.openRow(c.Row(0), false)
	}
	if done {
		u.report()
		u.audit()
		u.p.Publish("capDone", c.Len())
		if c.Err != nil {
			u.status(c.Err.Error(), true)
		}
		return
	}
	u.p.Later(func() { u.readCapture(c) })
}

// report shows the release report against the release picked (none:
// hidden).
func (u *UI) report() {
	pre := u.p.ByID("capreport")
	h := ""
	if u.cap != nil && u.cap.Done {
		h = u.cap.ReportHTML(u.p.ByID("capagainst").Value())
	}
	pre.SetHTML(h)
	pre.SetProp("hidden", h == "")
}

// audit audits the capture's responses against the advertised addresses
// typed, marks the rows (and the open response's fields) that leak.
func (u *UI) audit() {
	if u.cap == nil || !u.cap.Done {
		return
	}
	sum, err := u.cap.SetAdvertised(u.p.ByID("capadv").Value())
	if err != nil {
		sum = err.Error()
	}
	u.p.ByID("capleaks").SetText(sum)
	u.drawCapRows(true)
	// The open row again, its leaked fields marked; a row without a
	// frame (a TLS connection's status) is not opened again, which would
	// put its error over the status (the key log's, say).
	if u.capSel >= 0 && (u.cap.Rows[u.capSel].Req != nil || u.cap.Rows[u.capSel].Resp != nil) {
		u.openRow(u.capSel, u.capResp)
	}
}

// showCapture shows the panel with an empty list for c.
func (u *UI) showCapture(c *Capture) {
	u.cap, u.capSel, u.capOpened = c, -1, false
	u.p.ByID("cappanel").SetProp("hidden", false)
	u.p.ByID("caphead").SetHTML(CapHead)
	u.p.ByID("capfilter").SetValue("")
	var b strings.Builder
	b.WriteString(`<option value="">report against…</option>`)
	rs := Releases()
	for i := len(rs) - 1; i >= 0; i-- {
		option(&b, rs[i].Name, rs[i].Name)
	}
	against := u.p.ByID("capagainst")
	v := against.Value()
	against.SetHTML(b.String())
	against.SetValue(v)
	u.p.ByID("capreport").SetProp("hidden", true)
	u.p.ByID("capleaks").SetText("")
	u.leakIDs = nil
	u.caplist.SetScrollTop(0)
	u.drawCapture()
}

// drawCapture draws the summary, the progress and the rows in view.
func (u *UI) drawCapture() {
	c := u.cap
	if c == nil {
		return
	}
	u.p.ByID("capsum").SetText(c.Summary())
	prog := u.p.ByID("capprog")
	read, size := c.Progress()
	prog.SetProp("hidden", c.Done)
	prog.SetAttr("value", strconv.FormatFloat(float64(read)/float64(max(size, 1)), 'f', 3, 64))
	u.capspace.SetStyle("height", strconv.Itoa(c.Len()*capRowHeight)+"px")
	u.drawCapRows(true)
}

// drawCapRows draws the list rows around the scroll position; unless
// force, only when they changed.
func (u *UI) drawCapRows(force bool) {
	c := u.cap
	if c == nil {
		return
	}
	from, to, ok := place(u.caprows, &u.capFrom, &u.capTo, u.caplist.ScrollTop(), u.caplist.ClientHeight(), 400, capRowHeight, c.Len(), force)
	if !ok {
		return
	}
	u.caprows.SetHTML(c.RowsHTML(from, to, u.capSel))
}

// openRow shows row i's request (or response) as a pasted frame.
func (u *UI) openRow(i int, resp bool) {
	if u.cap == nil || i < 0 {
		return
	}
	u.capSel, u.capResp, u.capOpened = i, resp, true
	err := u.s.OpenRow(u.cap, i, resp)
	u.selected = -1
	u.leakIDs = u.s.LeakNodes()
	u.refresh(true)
	u.drawCapRows(true)
	if err != nil {
		msg := err.Error()
		if u.s.Err != nil {
			msg = u.s.ErrorText()
		}
		u.status(msg, true)
	}
}

// NewUI returns the controller of the page p showing s.
func NewUI(s *State, p dom.Page) *UI {
	u := &UI{s: s, p: p, selected: -1, hovered: -1, capSel: -1, capStep: capStep}
	u.hexview, u.hexspace, u.hexrows = p.ByID("hexview"), p.ByID("hexspace"), p.ByID("hexrows")
	u.tree, u.form = p.ByID("tree"), p.ByID("form")
	u.treespace, u.treerows = p.ByID("treespace"), p.ByID("treerows")
	u.caplist, u.caprows, u.capspace = p.ByID("caplist"), p.ByID("caprows"), p.ByID("capspace")
	return u
}

// Start draws the page first, from the address's query (without its "?"
// when empty).
func (u *UI) Start(query string) {
	if len(query) <= 1 {
		u.refresh(true)
		return
	}
	err := u.s.Apply(query)
	if u.s.Draft != nil {
		u.p.ByID("schema").SetValue(u.s.DraftText)
		u.showPanel(true)
		u.drawDraft()
	}
	u.refresh(true)
	if err != nil {
		u.status(err.Error(), true)
	}
}

// ScrollHex redraws the byte view's rows in view before the next frame.
func (u *UI) ScrollHex() {
	if !u.scrollQueued {
		u.scrollQueued = true
		u.p.Frame(func() { u.scrollQueued = false; u.drawRows(false) })
	}
}

// ScrollTree redraws the tree's lines in view before the next frame.
func (u *UI) ScrollTree() {
	if !u.treeQueued {
		u.treeQueued = true
		u.p.Frame(func() { u.treeQueued = false; u.drawTree(false) })
	}
}

// ScrollCap redraws the conversation rows in view before the next frame.
func (u *UI) ScrollCap() {
	if !u.capQueued {
		u.capQueued = true
		u.p.Frame(func() { u.capQueued = false; u.drawCapRows(false) })
	}
}

// HoverByte lights the node of the byte under the pointer, t.
func (u *UI) HoverByte(t dom.Elem) {
	if n, ok := t.Int("data-n"); ok {
		u.hover(n)
	}
}

// HoverLine lights the node of the tree line under the pointer, t.
func (u *UI) HoverLine(t dom.Elem) {
	if n, ok := t.Closest(".tn").Int("data-n"); ok {
		u.hover(n)
	}
}

// Leave lights the selected node again when the pointer leaves the bytes
// or the tree.
func (u *UI) Leave() { u.hover(-1) }

// CompareToggled fills the comparison when it was opened.
func (u *UI) CompareToggled() { u.drawCompare() }

// JSONToggled fills the JSON view when it was opened.
func (u *UI) JSONToggled() {
	if u.p.ByID("jsonpanel").Prop("open") {
		u.p.ByID("json").SetValue(u.s.JSON())
		u.p.ByID("jsonerr").SetText("")
	}
}
