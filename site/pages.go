package site

import (
	"embed"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"kwire/codec"
	"kwire/codec/wire"
	"kwire/render"
	"kwire/schemas"
	"kwire/schemas/sets"
)

//go:embed assets
var assets embed.FS

// css is docs.css, with fallback.css (section colours, byte view and tree)
// appended when the explorer's kwire.css is not there to provide them.
func (b *builder) css() []byte {
	css, _ := assets.ReadFile("assets/docs.css")
	if !b.sharedCSS {
		fallback, _ := assets.ReadFile("assets/fallback.css")
		css = append(css, fallback...)
	}
	return css
}

// indexPage lists every API of every release, each as the newest release
// that has it shows it; a removed API says when it was removed.
func (b *builder) indexPage() ([]byte, error) {
	p := &page{b: b, set: b.newest(), all: true, path: Root + "/index.html"}
	p.head("Kafka APIs")
	fmt.Fprintf(p, "<h1>Kafka protocol APIs</h1>\n<p class=\"lead\">Every request and response of the %d releases kwire knows "+
		"(%s to %s), with the smallest legal instance of each at every version: its bytes, object tree and schema, from the "+
		"newest release that has the version. <a href=\"%s\">The release matrix</a> shows which versions each release has; "+
		"<a href=\"%s\">the address atlas</a> lists the fields that carry broker addresses.</p>\n",
		len(b.sets), esc(b.sets[0].Name), esc(b.newest().Name), p.href(matrixPath), p.href(addressesPath))
	p.WriteString("<p class=\"search\" id=\"search\" hidden=\"hidden\"><label for=\"q\">Filter</label> " +
		"<input type=\"search\" id=\"q\" placeholder=\"name or key\" autocomplete=\"off\"/> <span id=\"count\"></span></p>\n")
	p.WriteString("<table class=\"apis\" id=\"apis\">\n<thead><tr><th>Key</th><th>API</th><th>Request versions</th>" +
		"<th>Response versions</th><th>Flexible from</th><th>Listeners</th><th>Marks</th></tr></thead>\n<tbody>\n")
	for _, e := range b.apis {
		at, api := e.current()
		rq, rs := api.Request, api.Response
		flex := "none"
		if !rq.FlexibleVersions.None {
			flex = "v" + strconv.Itoa(int(rq.FlexibleVersions.Lo))
		}
		var marks []string
		var cls []string
		if !present(e.in[len(e.in)-1]) {
			cls = append(cls, "removed")
			if removed, last, ok := sets.Removal(e.key); ok {
				marks = append(marks, fmt.Sprintf("removed in %s (last in %s)", removed.Name, last.Name))
			} else {
				marks = append(marks, fmt.Sprintf("removed after %s", b.sets[at].Name))
			}
		}
		if first := slices.IndexFunc(e.in, present); first > 0 {
			marks = append(marks, "since "+b.sets[first].Name)
		}
		var old []string
		for i, a := range e.in {
			if present(a) && a.Name != api.Name && !slices.Contains(old, a.Name+" in "+b.sets[i].Name) {
				old = append(old, a.Name+" in "+b.sets[i].Name)
			}
		}
		if len(old) > 0 {
			marks = append(marks, "called "+strings.Join(old, ", "))
		}
		if !rq.DeprecatedVersions.None {
			marks = append(marks, "deprecated v"+rq.DeprecatedVersions.String())
		}
		if rq.LatestVersionUnstable {
			marks = append(marks, "unstable v"+strconv.Itoa(int(rq.ValidVersions.Hi)))
			cls = append(cls, "unstable")
		}
		attr := ""
		if len(cls) > 0 {
			attr = " class=\"" + strings.Join(cls, " ") + "\""
		}
		fmt.Fprintf(p, "<tr%s data-search=\"%s\"><td>%d</td><td><a href=\"%s\">%s</a></td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>\n",
			attr, esc(strings.ToLower(fmt.Sprintf("%d %s %s", e.key, api.Name, strings.Join(marks, " ")))),
			e.key, p.href(b.apiPath(e.key, e.top())), esc(api.Name),
			rq.ValidVersions, rs.ValidVersions, flex, esc(strings.Join(rq.Listeners, ", ")), esc(strings.Join(marks, "; ")))
	}
	p.WriteString("</tbody>\n</table>\n")
	return p.foot(), nil
}

// errorsPage lists the error codes of a release's errors.tsv, with the
// release that first has each code when older releases lack it.
func (b *builder) errorsPage(s *schemas.Set) ([]byte, error) {
	p := &page{b: b, set: s, path: Root + "/errors.html"}
	p.head("Error codes")
	since := func(code int16) string {
		for i, o := range b.sets {
			if _, ok := o.ErrorCode(code); ok {
				if i == 0 {
					return ""
				}
				return b.sets[i].Name
			}
		}
		return ""
	}
	newer := 0
	for _, e := range s.Errors {
		if since(e.Code) != "" {
			newer++
		}
	}
	fmt.Fprintf(p, "<h1>Error codes</h1>\n<p class=\"lead\">The int16 error codes a broker puts in ErrorCode fields, "+
		"from release %s's errors.tsv (%d codes, %d of them not in %s; the last column names the first release that has them).</p>\n",
		esc(s.Name), len(s.Errors), newer, esc(b.sets[0].Name))
	p.WriteString("<table class=\"errors\">\n<thead><tr><th>Code</th><th>Name</th><th>Message</th><th>Since</th></tr></thead>\n<tbody>\n")
	for _, e := range s.Errors {
		fmt.Fprintf(p, "<tr id=\"%s\"><td>%d</td><td><a href=\"#%s\">%s</a></td><td>%s</td><td>%s</td></tr>\n",
			esc(e.Name), e.Code, esc(e.Name), esc(e.Name), esc(e.Message), esc(since(e.Code)))
	}
	p.WriteString("</tbody>\n</table>\n")
	return p.foot(), nil
}

// example is one encoded value on the types page.
type example struct {
	value string
	bytes []byte
}

func ex(value string, b []byte) example { return example{value, b} }

// hexBytes writes bytes as "0b 00 2a".
func hexBytes(b []byte) string {
	if len(b) == 0 {
		return "(no bytes)"
	}
	s := hex.EncodeToString(b)
	var out strings.Builder
	for i := 0; i < len(s); i += 2 {
		if i > 0 {
			out.WriteByte(' ')
		}
		out.WriteString(s[i : i+2])
	}
	return out.String()
}

// typeRow is one primitive type and its encodings.
type typeRow struct {
	name, about string
	examples    []example
}

// primitiveRows are the primitive types with examples computed by the
// wire package.
func primitiveRows() []typeRow {
	u := func(v uint64) []byte { return wire.AppendUvarint(nil, v) }
	uuid, _ := codec.ParseUUID("0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9")
	tagged := wire.AppendUvarint(nil, 1)        // one tagged field
	tagged = wire.AppendUvarint(tagged, 0)      // tag 0
	tagged = wire.AppendUvarint(tagged, 4)      // 4 bytes of data
	tagged = wire.AppendInt32(tagged, 12345678) // an int32 value
	return []typeRow{
		{"bool", "one byte, 0 or 1", []example{ex("false", wire.AppendInt8(nil, 0)), ex("true", wire.AppendInt8(nil, 1))}},
		{"int8", "signed, one byte", []example{ex("-1", wire.AppendInt8(nil, -1)), ex("127", wire.AppendInt8(nil, 127))}},
		{"int16", "signed, big-endian, two bytes", []example{ex("11", wire.AppendInt16(nil, 11)), ex("-1", wire.AppendInt16(nil, -1))}},
		{"uint16", "unsigned, big-endian, two bytes", []example{ex("65535", wire.AppendInt16(nil, -1)), ex("9092", wire.AppendInt16(nil, 9092))}},
		{"int32", "signed, big-endian, four bytes", []example{ex("29", wire.AppendInt32(nil, 29)), ex("-1", wire.AppendInt32(nil, -1))}},
		{"uint32", "unsigned, big-endian, four bytes", []example{ex("4294967295", wire.AppendInt32(nil, -1))}},
		{"int64", "signed, big-endian, eight bytes", []example{ex("1", wire.AppendInt64(nil, 1)), ex("-1", wire.AppendInt64(nil, -1))}},
		{"float64", "IEEE 754 double, big-endian, eight bytes", []example{ex("1.5", wire.AppendFloat64(nil, 1.5)), ex("+Inf", wire.AppendFloat64(nil, math.Inf(1)))}},
		{"uuid", "16 bytes, most significant first (KIP-516)", []example{ex("0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9", []byte(uuid))}},
		{"unsigned varint", "7 bits a byte, least significant group first, high bit set on all but the last byte (KIP-482)",
			[]example{ex("0", u(0)), ex("127", u(127)), ex("128", u(128)), ex("300", u(300))}},
		{"varint", "a zig-zag int32 as an unsigned varint: 0, -1, 1, -2 map to 0, 1, 2, 3 (record fields, KIP-98)",
			[]example{ex("0", wire.AppendVarint(nil, 0)), ex("-1", wire.AppendVarint(nil, -1)), ex("1", wire.AppendVarint(nil, 1)), ex("-65", wire.AppendVarint(nil, -65))}},
		{"varlong", "a zig-zag int64 as an unsigned varint (record fields, KIP-98)",
			[]example{ex("-1", wire.AppendVarlong(nil, -1)), ex("1099511627776", wire.AppendVarlong(nil, 1<<40))}},
		{"string", "int16 length, then UTF-8 bytes", []example{ex(`"kafka"`, wire.AppendString(nil, "kafka", false)), ex(`""`, wire.AppendString(nil, "", false))}},
		{"nullable string", "int16 length, -1 for null", []example{ex("null", wire.AppendNullString(nil, false))}},
		{"compact string", "unsigned varint length+1, then UTF-8 bytes; flexible versions (KIP-482)",
			[]example{ex(`"kafka"`, wire.AppendString(nil, "kafka", true)), ex(`""`, wire.AppendString(nil, "", true))}},
		{"compact nullable string", "unsigned varint length+1, 0 for null (KIP-482)", []example{ex("null", wire.AppendNullString(nil, true))}},
		{"bytes", "int32 length, then the bytes; -1 for null", []example{ex("01 02 03", wire.AppendBytes(nil, []byte{1, 2, 3}, false)), ex("null", wire.AppendNullBytes(nil, false))}},
		{"compact bytes", "unsigned varint length+1, then the bytes; 0 for null (KIP-482)",
			[]example{ex("01 02 03", wire.AppendBytes(nil, []byte{1, 2, 3}, true)), ex("null", wire.AppendNullBytes(nil, true))}},
		{"array", "int32 count, then the elements; -1 for null", []example{
			ex("[]int32{7, 8}", wire.AppendInt32(wire.AppendInt32(wire.AppendArrayLen(nil, 2, false), 7), 8)),
			ex("null", wire.AppendArrayLen(nil, -1, false))}},
		{"compact array", "unsigned varint count+1, then the elements; 0 for null (KIP-482)", []example{
			ex("[]int32{7, 8}", wire.AppendInt32(wire.AppendInt32(wire.AppendArrayLen(nil, 2, true), 7), 8)),
			ex("null", wire.AppendArrayLen(nil, -1, true))}},
		{"tagged fields", "at the end of every struct in flexible versions: unsigned varint count, then per field an unsigned varint tag, an unsigned varint size and the data (KIP-482)", []example{
			ex("none", wire.AppendUvarint(nil, 0)), ex("tag 0: int32 12345678", tagged)}},
	}
}

// typesPage explains the primitive types and framing, with examples
// encoded by the codec.
func (b *builder) typesPage(s *schemas.Set) ([]byte, error) {
	p := &page{b: b, set: s, path: Root + "/types.html"}
	p.head("Types and framing")
	p.WriteString("<h1>Primitive types and framing</h1>\n<p class=\"lead\">How Kafka's protocol writes each field type, " +
		"with small examples encoded by kwire's codec, and how a request or response is framed on a connection.</p>\n")
	p.WriteString("<section id=\"primitives\">\n<h2>Primitive types</h2>\n<table class=\"types\">\n" +
		"<thead><tr><th>Type</th><th>Encoding</th><th>Value</th><th>Bytes</th></tr></thead>\n<tbody>\n")
	for _, r := range primitiveRows() {
		for i, e := range r.examples {
			p.WriteString("<tr>")
			if i == 0 {
				n := len(r.examples)
				fmt.Fprintf(p, "<td rowspan=\"%d\"><code>%s</code></td><td rowspan=\"%d\">%s</td>", n, esc(r.name), n, esc(r.about))
			}
			fmt.Fprintf(p, "<td><code>%s</code></td><td><code class=\"bytes\">%s</code></td></tr>\n", esc(e.value), hexBytes(e.bytes))
		}
	}
	p.WriteString("</tbody>\n</table>\n</section>\n")

	p.WriteString("<section id=\"records\">\n<h2>Records</h2>\n<p>A <code>records</code> field is a <code>bytes</code> " +
		"(or compact bytes) field whose content is a sequence of record batches. The smallest one, which every docs page " +
		"uses, is an empty RecordBatch v2 (message format v2, KIP-98), 61 bytes with its CRC-32C")
	if produce := s.APIByKey(0); produce != nil && hasVersion(produce, latest(produce)) {
		m, err := encodeSmallest(s, produce, latest(produce), codec.Request)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(p, ", here inside the smallest %s v%d (%d bytes):</p>\n", esc(m.schema.Name), latest(produce), len(m.bytes))
		p.example("records", m.bytes, m.layout)
	} else {
		p.WriteString(".</p>\n")
	}
	p.WriteString("</section>\n")

	p.WriteString("<section id=\"framing\">\n<h2>Framing</h2>\n<p>On a connection every request and response is an " +
		"int32 size (the number of bytes that follow), then a header, then the body. The request header names the API " +
		"key and version, a correlation id the response echoes, and the client id; the response header holds only the " +
		"correlation id, so a response can only be read by someone who knows which request it answers.</p>\n")
	p.WriteString("<table class=\"headers\">\n<thead><tr><th>Header</th><th>Used by</th><th>Fields</th></tr></thead>\n<tbody>\n" +
		"<tr><td>request header v0</td><td>ControlledShutdown v0 only</td><td>api key, api version, correlation id</td></tr>\n" +
		"<tr><td>request header v1</td><td>non-flexible request versions</td><td>v0 + client id (int16 string)</td></tr>\n" +
		"<tr><td>request header v2</td><td>flexible request versions (KIP-482)</td><td>v1 + tagged fields; the client id stays a non-compact string</td></tr>\n" +
		"<tr><td>response header v0</td><td>non-flexible response versions, and every ApiVersions response (KIP-511)</td><td>correlation id</td></tr>\n" +
		"<tr><td>response header v1</td><td>flexible response versions (KIP-482)</td><td>v0 + tagged fields</td></tr>\n" +
		"</tbody>\n</table>\n")
	api := s.APIByKey(18) // ApiVersions: a small frame in every set
	if api == nil && len(s.APIs()) > 0 {
		api = s.APIs()[0]
	}
	if api != nil {
		vs := api.Request.ValidVersions
		for i, v := range []int16{vs.Lo, vs.Hi} {
			if (i == 1 && v == vs.Lo) || !hasVersion(api, v) {
				continue
			}
			for _, dir := range []codec.Direction{codec.Request, codec.Response} {
				m, err := encodeSmallest(s, api, v, dir)
				if err != nil {
					return nil, err
				}
				fmt.Fprintf(p, "<h3>%s v%d: %s header v%d, %d bytes</h3>\n", esc(m.schema.Name), v, dir, m.header, len(m.bytes))
				p.example(fmt.Sprintf("%s-v%d", dir, v), m.bytes, m.layout)
			}
		}
	}
	p.WriteString("</section>\n")
	return p.foot(), nil
}

// example writes a byte view and object tree inside a hover-linked block.
func (p *page) example(id string, b []byte, l *render.Layout) {
	fmt.Fprintf(p, "<div class=\"msg example\" id=\"ex-%s\">\n", esc(id))
	render.Hex(&p.Builder, b, l)
	render.Tree(&p.Builder, l)
	p.WriteString("</div>\n")
}
