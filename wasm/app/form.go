package app

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"kwire/codec"
	"kwire/internal/xfmt"
	"kwire/render"
	"kwire/schemas"
)

// MaxFormElems is how many elements of an array the form shows; the rest
// are edited as JSON.
const MaxFormElems = 100

// MaxFormBytes is the longest bytes or records value the form shows as
// hex in a text box; longer ones are summarised.
const MaxFormBytes = 4096

// Form returns the form's HTML: every field of the header and the body at
// the selected version, typed by the schema. open reports whether the
// struct or array at a key is unfolded (nil: the defaults).
func (s *State) Form(open func(key string) (bool, bool)) string {
	if s.Frame == nil {
		return `<p class="note">The bytes did not decode, so there is nothing to edit. Fix the bytes, or pick an API and version to start from the smallest message.</p>`
	}
	hp, bp, err := s.Frame.Plans()
	if err != nil {
		return `<p class="note">` + render.Text(err.Error()) + `</p>`
	}
	w := &formWriter{open: open, set: s.Frame.Set, root: bp.Root, body: s.Frame.Body}
	if !s.Body { // a bare body has no header
		xfmt.Fprintf(&w.b, `<fieldset class="fs"><legend>%s <span class="ft">v%d</span></legend>`, render.Text(hp.Msg.Name), hp.Version)
		w.fields(hp.Root, s.Frame.Header, "h:", "", 0)
		w.b.WriteString("</fieldset>")
	}
	xfmt.Fprintf(&w.b, `<fieldset class="fs"><legend>%s <span class="ft">v%d</span></legend>`, render.Text(bp.Msg.Name), bp.Version)
	w.fields(bp.Root, s.Frame.Body, "b:", "", 0)
	w.b.WriteString("</fieldset>")
	return w.b.String()
}

type formWriter struct {
	b    strings.Builder
	open func(key string) (bool, bool)
	// The release, the body's plan and value: bytes fields that carry a
	// nested format (codec.NestedValue) show its fields under the hex.
	set  *schemas.Set
	root *codec.StructPlan
	body codec.Value
}

func (w *formWriter) isOpen(key string, def bool) bool {
	if w.open != nil {
		if o, ok := w.open(key); ok {
			return o
		}
	}
	return def
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// readOnly header fields follow the selection.
var readOnly = map[string]bool{"h:RequestApiKey": true, "h:RequestApiVersion": true}

func (w *formWriter) fields(sp *codec.StructPlan, v codec.Value, prefix, path string, depth int) {
	for _, fp := range sp.Fields {
		if !fp.Present || fp.Index >= len(v.List()) {
			continue
		}
		w.field(fp, v.List()[fp.Index], prefix, join(path, fp.Field.Name), depth)
	}
}

// label writes a field's name, type, tag and nullable toggle.
func (w *formWriter) label(fp *codec.FieldPlan, key string, v codec.Value, forID bool) {
	if forID {
		xfmt.Fprintf(&w.b, `<label for="k-%s">`, render.EscapeHTML(key))
	} else {
		w.b.WriteString(`<span class="lbl">`)
	}
	xfmt.Fprintf(&w.b, `<span class="fn">%s</span> <span class="ft">%s</span>`, render.Text(fp.Field.Name), render.Text(fp.Field.Type.Name))
	if fp.IsTagged {
		xfmt.Fprintf(&w.b, ` <span class="tag" title="tagged field (KIP-482): written only when it differs from its default">tag %d</span>`, fp.Field.Tag)
	}
	if forID {
		w.b.WriteString(`</label>`)
		return
	}
	w.b.WriteString(`</span>`)
	w.null(fp, key, v)
}

// null writes the nullable toggle of a field that may be null.
func (w *formWriter) null(fp *codec.FieldPlan, key string, v codec.Value) {
	if fp.Nullable {
		ck := ""
		if v.IsNull() {
			ck = " checked"
		}
		xfmt.Fprintf(&w.b, ` <label class="nl"><input type="checkbox" data-null="%s"%s> null</label>`, render.EscapeHTML(key), ck)
	}
}

func (w *formWriter) about(fp *codec.FieldPlan) {
	if fp.Field.About != "" {
		xfmt.Fprintf(&w.b, `<div class="fa">%s</div>`, render.Text(fp.Field.About))
	}
}

func (w *formWriter) field(fp *codec.FieldPlan, v codec.Value, prefix, path string, depth int) {
	key := prefix + path
	ek := render.EscapeHTML(key)
	switch fp.Kind {
	case schemas.KindStruct:
		xfmt.Fprintf(&w.b, `<details class="st" data-key="%s"%s><summary>`, ek, openAttr(w.isOpen(key, depth < 3)))
		w.label(fp, key, v, false)
		w.b.WriteString(`</summary>`)
		w.about(fp)
		if !v.IsNull() {
			w.fields(fp.Struct, v, prefix, path, depth+1)
		}
		w.b.WriteString(`</details>`)
	case schemas.KindArray:
		n := len(v.List())
		xfmt.Fprintf(&w.b, `<details class="ar" data-key="%s"%s><summary>`, ek, openAttr(w.isOpen(key, n <= 10 && depth < 4)))
		w.label(fp, key, v, false)
		xfmt.Fprintf(&w.b, ` <span class="cnt">%s</span></summary>`, count(n, v.IsNull()))
		w.about(fp)
		if !v.IsNull() {
			for i, e := range v.List() {
				if i == MaxFormElems {
					xfmt.Fprintf(&w.b, `<p class="note">%d more elements are not shown here; edit them as JSON.</p>`, n-i)
					break
				}
				w.elem(fp, e, prefix, path+"["+strconv.Itoa(i)+"]", i, depth+1)
			}
			xfmt.Fprintf(&w.b, `<button type="button" class="add" data-act="add" data-key="%s">+ add %s</button>`, ek, render.Text(elemName(fp)))
		}
		w.b.WriteString(`</details>`)
	default:
		xfmt.Fprintf(&w.b, `<div class="f" data-key="%s">`, ek)
		w.label(fp, key, v, true)
		w.b.WriteString(`<span class="fi">`)
		w.input(fp.Kind, key, v, readOnly[key])
		w.null(fp, key, v)
		w.b.WriteString(`</span>`)
		w.errSpan(key)
		w.about(fp)
		if fp.Kind == schemas.KindBytes && strings.HasPrefix(key, "b:") {
			// A place for the fields of a nested format, drawn again
			// when the bytes are edited (State.NestedForm).
			xfmt.Fprintf(&w.b, `<div class="nf" id="n-%s">`, ek)
			w.nested(fp, v, prefix, path, depth)
			w.b.WriteString(`</div>`)
		}
		w.b.WriteString(`</div>`)
	}
}

// nested writes the fields of the format a bytes field carries, when it
// can be edited so: an edit of one writes the field's bytes again.
func (w *formWriter) nested(fp *codec.FieldPlan, v codec.Value, prefix, path string, depth int) {
	if v.IsNull() {
		return
	}
	n, ok := codec.NestedValue(fp, w.set, w.root, w.body, []byte(v.Str()))
	if !ok {
		return
	}
	path = join(path, n.Schema)
	key := prefix + path
	xfmt.Fprintf(&w.b, `<details class="st nested" data-key="%s"%s><summary><span class="fn">%s</span> <span class="ft">v%d</span></summary>`,
		render.EscapeHTML(key), openAttr(w.isOpen(key, depth < 4)), render.Text(n.Schema), n.Version)
	w.b.WriteString(`<div class="fa">the bytes above, decoded: edit a field and they are written again</div>`)
	w.fields(n.Plan.Root, n.Value, prefix, path, depth+1)
	w.b.WriteString(`</details>`)
}

func elemName(fp *codec.FieldPlan) string {
	if fp.Struct != nil {
		return fp.Struct.Name
	}
	return fp.Elem.String()
}

func count(n int, null bool) string {
	switch {
	case null:
		return "null"
	case n == 1:
		return "1 element"
	}
	return strconv.Itoa(n) + " elements"
}

func openAttr(open bool) string {
	if open {
		return " open"
	}
	return ""
}

func (w *formWriter) elem(fp *codec.FieldPlan, e codec.Value, prefix, path string, i, depth int) {
	key := prefix + path
	ek := render.EscapeHTML(key)
	rm := xfmt.Sprintf(`<button type="button" class="rm" data-act="rm" data-key="%s" aria-label="remove element %d">remove</button>`, ek, i)
	if fp.Elem == schemas.KindStruct {
		xfmt.Fprintf(&w.b, `<details class="st el" data-key="%s"%s><summary><span class="fn">[%d]</span> <span class="ft">%s</span></summary>%s`,
			ek, openAttr(w.isOpen(key, depth < 4 && i < 10)), i, render.Text(fp.Struct.Name), rm)
		w.fields(fp.Struct, e, prefix, path, depth+1)
		w.b.WriteString(`</details>`)
		return
	}
	xfmt.Fprintf(&w.b, `<div class="f el" data-key="%s"><label for="k-%s"><span class="fn">[%d]</span> <span class="ft">%s</span></label>`, ek, ek, i, fp.Elem)
	w.input(fp.Elem, key, e, false)
	w.b.WriteString(rm)
	w.errSpan(key)
	w.b.WriteString(`</div>`)
}

// input writes the input of a primitive value.
func (w *formWriter) input(k schemas.Kind, key string, v codec.Value, ro bool) {
	ek := render.EscapeHTML(key)
	attrs := xfmt.Sprintf(`id="k-%s" data-key="%s" data-kind="%s"`, ek, ek, k)
	if v.IsNull() || ro {
		attrs += " disabled"
	}
	if (k == schemas.KindBytes || k == schemas.KindRecords) && len(v.Str()) > MaxFormBytes {
		// Not formatted: megabytes of hex nobody would see.
		xfmt.Fprintf(&w.b, `<span class="note">%d bytes (shown in the byte view; edit them as JSON)</span>`, len(v.Str()))
		return
	}
	text := ""
	if !v.IsNull() {
		text = formatText(k, v)
	}
	switch k {
	case schemas.KindBool:
		ck := ""
		if v.Int() != 0 {
			ck = " checked"
		}
		xfmt.Fprintf(&w.b, `<input type="checkbox" %s%s>`, attrs, ck)
	case schemas.KindInt8, schemas.KindInt16, schemas.KindUint16, schemas.KindInt32, schemas.KindUint32:
		lo, hi := IntRange(k)
		xfmt.Fprintf(&w.b, `<input type="number" step="1" min="%d" max="%d" %s value="%s" title="%s: %d to %d">`, lo, hi, attrs, text, k, lo, hi)
	case schemas.KindInt64:
		xfmt.Fprintf(&w.b, `<input type="text" inputmode="numeric" %s value="%s" title="int64">`, attrs, text)
	case schemas.KindFloat64:
		xfmt.Fprintf(&w.b, `<input type="text" inputmode="decimal" %s value="%s">`, attrs, text)
	case schemas.KindUUID:
		xfmt.Fprintf(&w.b, `<input type="text" class="mono" spellcheck="false" %s value="%s" placeholder="8-4-4-4-12 hex or base64">`, attrs, text)
	case schemas.KindBytes, schemas.KindRecords:
		xfmt.Fprintf(&w.b, `<textarea class="mono" rows="%d" spellcheck="false" %s placeholder="hex">%s</textarea>`, min(1+len(text)/64, 6), attrs, render.EscapeHTML(text))
	default:
		xfmt.Fprintf(&w.b, `<input type="text" spellcheck="false" %s value="%s">`, attrs, render.EscapeHTML(text))
	}
}

// errSpan is where an edit's error shows.
func (w *formWriter) errSpan(key string) {
	xfmt.Fprintf(&w.b, `<span class="fe" id="e-%s" role="alert"></span>`, render.EscapeHTML(key))
}

// AttrSelector is a CSS selector of the elements whose attribute attr (a
// name the code writes, such as data-key) is exactly value, whatever value
// holds: value is written as a CSS string, serialized as CSSOM does it
// (quotes and backslashes escaped, controls as hex escapes, NUL as
// U+FFFD). No selector is built from a key any other way.
func AttrSelector(attr, value string) string {
	b := make([]byte, 0, len(attr)+len(value)+8)
	b = append(b, '[')
	b = append(b, attr...)
	b = append(b, '=', '"')
	for _, r := range value {
		switch {
		case r == 0:
			b = append(b, "\uFFFD"...)
		case r < 0x20 || r == 0x7f:
			b = append(b, '\\')
			b = strconv.AppendInt(b, int64(r), 16)
			b = append(b, ' ')
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return string(append(b, '"', ']'))
}

// NestedForm is the HTML of the fields of the nested format that the
// bytes field at key carries ("" when none): what the form shows under
// the field's hex, drawn again when the hex is edited.
func (s *State) NestedForm(key string) string {
	sl, err := s.find(key)
	if err != nil || sl.elem || sl.fp.Kind != schemas.KindBytes || !strings.HasPrefix(key, "b:") {
		return ""
	}
	_, bp, err := s.Frame.Plans()
	if err != nil {
		return ""
	}
	w := &formWriter{set: s.Frame.Set, root: bp.Root, body: s.Frame.Body}
	w.nested(sl.fp, *sl.v, "b:", key[2:], strings.Count(key, "."))
	return w.b.String()
}

// Owners are the keys of the bytes fields that hold the value at key in
// a nested format, outermost first: an edit at key writes their bytes
// again, so their inputs show new text (FieldText).
func (s *State) Owners(key string) []string {
	var out []string
	parts := strings.Split(key, ".")
	for i, p := range parts {
		if i > 0 && codec.NestedSchema(p) {
			out = append(out, strings.Join(parts[:i], "."))
		}
	}
	return out
}

// FieldText is the text of the form's input at key, as the form writes it.
func (s *State) FieldText(key string) string {
	sl, err := s.find(key)
	if err != nil || sl.v.IsNull() {
		return ""
	}
	return formatText(sl.kind(), *sl.v)
}
