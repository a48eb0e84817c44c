package codec

import (
	"encoding/hex"
	"errors"
	"strconv"

	"kwire/codec/records"
	"kwire/codec/wire"
	"kwire/internal/tlsrec"
	"kwire/internal/xfmt"
	"kwire/internal/xhex"
	"kwire/jsonv"
	"kwire/schemas"
	"kwire/tree"
)

// Direction says whether a frame is a request or a response: schemas'
// type, as drafts and schemas name directions too.
type Direction = schemas.Direction

// The two directions.
const (
	Request  = schemas.Request
	Response = schemas.Response
)

// ApiVersions and ControlledShutdown, whose headers are special.
const (
	keyControlledShutdown = 7
	keyAPIVersions        = 18
)

// HeaderVersion returns the header version Kafka uses for api at version:
// flexible versions use request header v2 and response header v1, others
// v1 and v0; ControlledShutdown v0 uses request header v0 and ApiVersions
// responses always use header v0 (KIP-511), so that a client can read the
// response of a version the broker does not support.
func HeaderVersion(api *schemas.API, version int16, dir Direction) int16 {
	flexible := dir.Schema(api).Flexible(version)
	if dir == Response {
		if api.Key == keyAPIVersions || !flexible {
			return 0
		}
		return 1
	}
	switch {
	case api.Key == keyControlledShutdown && version == 0:
		return 0
	case flexible:
		return 2
	}
	return 1
}

// Frame is one size-delimited request or response: its API, version,
// header and body.
type Frame struct {
	Set     *schemas.Set
	API     *schemas.API
	Version int16
	Dir     Direction
	Header  Value // a RequestHeader or ResponseHeader struct value
	Body    Value
	// Guessed: Version is newer than every version of the set, and the
	// body was decoded with the layout of the set's highest, Layout.
	Guessed bool
	Layout  int16
	// Limits bound what the records fields spend when the frame is
	// decoded or written as JSON (zero: the defaults).
	Limits records.Limits
	// Trailing are bytes after the body inside the frame. Kafka's broker
	// reads a request's body and ignores what follows it, and librdkafka
	// (2.16) sends three bytes after its Metadata v13 request for every
	// topic: the tree shows them, the JSON form keeps them
	// ("trailing_hex") and Append writes them back.
	Trailing []byte
	// topics: DecodeOptions.TopicFormat and TopicNames, for the JSON form.
	topics topicCtx
}

// bodyVersion is the version whose layout the body has.
func (f *Frame) bodyVersion() int16 {
	if f.Guessed {
		return f.Layout
	}
	return f.Version
}

// Plans returns the plans of the frame's header and body.
func (f *Frame) Plans() (header, body *Plan, err error) {
	hm := f.Set.RequestHeader
	if f.Dir == Response {
		hm = f.Set.ResponseHeader
	}
	if hm == nil {
		return nil, nil, xfmt.Errorf("set %s has no %s header schema", f.Set.Name, f.Dir)
	}
	msg := f.Dir.Schema(f.API)
	if msg == nil {
		return nil, nil, xfmt.Errorf("%s has no %s schema", f.API.Name, f.Dir)
	}
	if header, err = PlanFor(hm, HeaderVersion(f.API, f.Version, f.Dir)); err != nil {
		return nil, nil, err
	}
	body, err = PlanFor(msg, f.bodyVersion())
	return header, body, err
}

// NewFrame returns the smallest legal frame of api at version: header
// fields zero (the API key and version filled in), body Plan.Smallest.
func NewFrame(set *schemas.Set, api *schemas.API, version int16, dir Direction) (*Frame, error) {
	f := &Frame{Set: set, API: api, Version: version, Dir: dir}
	hp, bp, err := f.Plans()
	if err != nil {
		return nil, err
	}
	f.Header = hp.Smallest()
	f.Body = bp.Smallest()
	f.fillHeader(hp)
	return f, nil
}

// fillHeader sets the request header's API key and version from the frame.
func (f *Frame) fillHeader(hp *Plan) {
	if f.Dir != Request {
		return
	}
	for _, fp := range hp.Root.Fields {
		switch fp.Field.Name {
		case "RequestApiKey":
			f.Header.List()[fp.Index] = Int(int64(f.API.Key))
		case "RequestApiVersion":
			f.Header.List()[fp.Index] = Int(int64(f.Version))
		}
	}
}

// HeaderField returns the header field with that schema name.
func (f *Frame) HeaderField(name string) (Value, bool) {
	hp, _, err := f.Plans()
	if err != nil {
		return Value{}, false
	}
	if fp := hp.Root.Field(name); fp != nil && fp.Index < len(f.Header.List()) {
		return f.Header.List()[fp.Index], true
	}
	return Value{}, false
}

// Encode returns the whole frame: the int32 size, the header, the body.
func (f *Frame) Encode() ([]byte, error) { return f.Append(make([]byte, 0, 64)) }

// Append appends the whole frame to dst. Given room for it (an edited
// message is about as long as it was), it encodes without growing dst. On
// error it returns dst as it was.
func (f *Frame) Append(dst []byte) ([]byte, error) {
	hp, bp, err := f.Plans()
	if err != nil {
		return dst, err
	}
	f.fillHeader(hp)
	start := len(dst)
	b := append(dst, 0, 0, 0, 0) // the size, written below
	if b, err = hp.Append(b, f.Header); err != nil {
		return dst, withEncPath(err, hp.Msg.Name)
	}
	if b, err = bp.Append(b, f.Body); err != nil {
		return dst, err
	}
	b = append(b, f.Trailing...)
	size := len(b) - start - 4
	if size > 1<<31-1 {
		return dst, encErr("frame of %d bytes is too large", size)
	}
	wire.AppendInt32(b[start:start], int32(size))
	return b, nil
}

// EncodeBody returns the body alone.
func (f *Frame) EncodeBody() ([]byte, error) {
	_, bp, err := f.Plans()
	if err != nil {
		return nil, err
	}
	return bp.Encode(f.Body)
}

// A SetChooser picks the schema set a request frame is read with from the
// API key and version in its header; with an error it may return the set
// to read the frame with as a guess.
type SetChooser interface {
	ChooseSet(key, version int16) (*schemas.Set, error)
}

// DecodeOptions say what a buffer holds.
type DecodeOptions struct {
	Set *schemas.Set
	// API and Version are required for responses and bodies; a request
	// frame names them in its header.
	API     *schemas.API
	Version int16
	Dir     Direction
	// BodyOnly: the buffer holds a body, without size or header.
	BodyOnly bool
	// Trailing accepts bytes after the body inside the frame as Kafka's
	// broker does (Frame.Trailing; otherwise they are an error): for
	// frames whose direction is known, a capture's. Where the direction
	// is a guess (pasted bytes), a frame that decodes only with bytes
	// left over is no evidence of a request.
	Trailing bool
	// Sample labels the tree of a sample instance (see TreeOptions).
	Sample bool
	// Choose, when set, picks the set a request frame is decoded with
	// from the API key and version of its header (sets.Choice). When it
	// fails and Guess is set, the set it returns with its error (the
	// newest with the API), else Set, is guessed with.
	Choose SetChooser
	// Guess decodes a request whose version is newer than every version
	// of its API in Set with the layout of the highest one, as a guess
	// that the tree and Frame.Guessed say.
	Guess bool
	// Limits bound what the records fields of the frame spend, all of
	// them together: decompressed bytes, records, tree nodes (zero: the
	// defaults). The tree says what was left out past them.
	Limits records.Limits
	// ValuesOnly decodes the header and body values without their trees
	// (Plan.Decode, records fields kept as bytes): the tree holds the
	// frame, header and body nodes alone, and errors inside records
	// fields show only when they are read (Frame.JSON).
	ValuesOnly bool
	// InPlace, with ValuesOnly, makes the values of records fields (the
	// bulk of a Produce or Fetch) refer to the frame's bytes rather than
	// to a copy: the bytes must not change while the frame is used.
	InPlace bool
	// SASLMechanism is the mechanism SaslAuthenticate's AuthBytes are
	// read with (TreeOptions.SASLMechanism).
	SASLMechanism string
	// TopicFormat and TopicNames say how the records of internal topics
	// are read (TreeOptions.TopicFormat, TreeOptions.TopicNames).
	TopicFormat TopicFormat
	TopicNames  *TopicNames
	// budget, when set, is the budget of an outer message the frame is
	// carried in (Envelope's RequestData): they share it.
	budget *records.Budget
	// at, prefix and copied place a request carried in another message's
	// bytes (Envelope's RequestData, nested.go) in that message's tree:
	// its bytes start at offset at of the buffer shown, its paths below
	// prefix, and they are a copy (TreeOptions.copied).
	at     int
	prefix string
	copied bool
}

// Decode reads a frame (or, with BodyOnly, a body) and returns it with its
// object tree, a tree.Flat (its root the span at 0) whose text is written
// when asked for: a view formats only what it draws. Every byte must be
// used: a frame shorter than its size, a body that ends before the frame
// does and bytes after the frame are errors. On error the frame and tree
// hold what was decoded before it, and every node's span covers its
// children's (the error node spans the bytes left). The Flat reads b: b
// must not change while it is used (Patch moves it to the bytes after an
// edit).
func Decode(b []byte, o DecodeOptions) (*Frame, *tree.Flat, error) {
	all := new(struct { // one allocation for the tree and its describers
		fl     tree.Flat
		hd, bd planDesc
	})
	fl := &all.fl
	fl.Grow(spanHint(0, len(b))) // the framing's spans, and the header's and body's first
	f, err := decodeFrame(b, o, fl, &all.hd, &all.bd)
	fl.Done()
	if err != nil {
		fl.Cover(0, fl.Len(), true)
	}
	return f, fl, err
}

// decodeFrame is Decode before the spans are linked and those of an
// error tree fixed up.
func decodeFrame(b []byte, o DecodeOptions, fl *tree.Flat, hd, bd *planDesc) (*Frame, error) {
	f := &Frame{Set: o.Set, API: o.API, Version: o.Version, Dir: o.Dir, Limits: o.Limits, topics: topicCtx{o.TopicFormat, o.TopicNames}}
	if f.API != nil {
		f.guess(o.Guess)
	}
	bg := o.budget
	if bg == nil {
		bg = records.NewBudget(o.Limits) // one for the whole message
	}
	if o.BodyOnly {
		root := fl.Row(-1, tree.Node{Name: "message", Size: len(b)})
		err := f.decodeBody(b, 0, fl, root, o, bg, bd)
		if f.API != nil {
			rn := fl.Stored(root)
			rn.Name, rn.Type = f.Dir.Schema(f.API).Name, "body v"+strconv.Itoa(int(f.Version))+f.guessNote()
		}
		return f, err
	}
	root := fl.Row(-1, tree.Node{Name: "message", Size: len(b), Section: tree.Frame})
	frameNode := fl.Row(root, tree.Node{Name: "Frame", Size: 4, Section: tree.Frame, About: "length-delimited framing"})
	size, n := wire.ConsumeInt32(b)
	if n < 0 {
		err := wire.Errorf(0, wire.ErrShort, "a frame starts with an int32 size; only %d bytes", len(b))
		fl.Spans[frameNode].Size = int32(len(b))
		fl.Row(frameNode, tree.Node{Name: "size", Type: "error", Size: len(b), Section: tree.Error, Err: err.Err})
		return f, err
	}
	if rec, ok := tlsrec.Sniff(b); ok && int64(size) != int64(len(b)-4) {
		// A TLS listener's alert read by a client in the clear, or a TLS
		// client's ClientHello read by a broker in the clear: its size is
		// 335 million or more (KAFKA-4090).
		err := wire.Errorf(0, wire.ErrTLS, "%s; one side speaks TLS and the other does not (the first 4 bytes read as a size of %d)", rec, size)
		fl.Spans[frameNode].Size = int32(len(b))
		fl.Row(frameNode, tree.Node{Name: "size", Type: "error", Value: strconv.Itoa(int(size)), Size: len(b), Section: tree.Error, Err: err.Err})
		return f, err
	}
	fl.Row(frameNode, tree.Node{Name: "size", Type: "int32", Value: strconv.Itoa(int(size)), Size: 4, Section: tree.Frame, About: "number of bytes that follow, patched after encoding"})
	end := len(b)
	var tail error
	switch {
	case size < 0:
		return f, wire.Errorf(0, wire.ErrLength, "frame size %d is negative", size)
	case int64(size) > int64(len(b)-4):
		tail = wire.Errorf(len(b), wire.ErrShort, "the frame says %d bytes follow but only %d do", size, len(b)-4)
	case int(size) < len(b)-4:
		end = 4 + int(size)
		tail = wire.Errorf(end, wire.ErrTrailing, "%d bytes after the end of the frame (size %d)", len(b)-end, size)
	}
	used, err := f.decodeHeader(b[:end], 4, fl, root, o, bg, hd)
	if err != nil {
		return f, err
	}
	if err := f.decodeBody(b[:end], 4+used, fl, root, o, bg, bd); err != nil {
		var de *wire.DecodeError
		if tail != nil && errors.Is(tail, wire.ErrShort) && errors.As(err, &de) {
			// The likely cause is the cut, not the field that hit it.
			de.Err = xfmt.Errorf("%w (the frame is truncated: its size says %d bytes follow, %d do)", de.Err, size, len(b)-4)
		}
		return f, err
	}
	if tail != nil {
		if de := tail.(*wire.DecodeError); errors.Is(de, wire.ErrTrailing) {
			fl.Row(root, tree.Node{Name: "trailing", Type: "bytes", Value: plural(len(b)-end, "byte"), Offset: end, Size: len(b) - end, Section: tree.Error, Err: de.Err})
		}
	}
	return f, tail
}

// decodeHeader reads the header that starts at b[start:] (after a
// frame's size, or at the start of Envelope's RequestData), a request's
// naming its API and version (identify), names span root by them and
// adds the header's node under it. It returns the header's size.
func (f *Frame) decodeHeader(b []byte, start int, fl *tree.Flat, root int, o DecodeOptions, bg *records.Budget, hd *planDesc) (int, error) {
	if o.Dir == Request {
		if err := f.identify(b[start:], o.at+start, o); err != nil {
			return 0, err
		}
	}
	if f.API == nil {
		return 0, errors.New("decoding a response needs its API and version (a response header does not name them)")
	}
	rn := fl.Stored(root)
	rn.Name = f.Dir.Schema(f.API).Name
	rn.Type = "message v" + strconv.Itoa(int(f.Version))
	rn.Type += f.guessNote()
	hp, _, err := f.Plans()
	if err != nil {
		return 0, err
	}
	at := o.at + start
	hn := fl.Row(root, tree.Node{Name: hp.Msg.Name, Type: "v" + strconv.Itoa(int(hp.Version)), Offset: at, Section: tree.Header, Path: o.prefix, About: "common " + f.Dir.String() + " header"})
	var used int
	if o.ValuesOnly {
		f.Header, used, err = hp.decodeAt(b[start:], at, o.InPlace)
	} else {
		f.Header, used, err = hp.decodeFlat(b[start:], fl, hn, TreeOptions{Base: at, Section: tree.Header, Set: f.Set, Budget: bg, header: f, desc: hd, prefix: o.prefix, copied: o.copied})
	}
	fl.Spans[hn].Size = int32(used)
	if err != nil {
		return used, wire.WithPath(err, hp.Msg.Name)
	}
	return used, nil
}

// identify reads the API key and version from a request header, b, which
// starts at offset at, and chooses the set (o.Choose) and the layout
// (o.Guess) it is read with.
func (f *Frame) identify(b []byte, at int, o DecodeOptions) error {
	key, n1 := wire.ConsumeInt16(b)
	version, n2 := wire.ConsumeInt16(b[max(n1, 0):])
	if n1 < 0 || n2 < 0 {
		return wire.Errorf(at+len(b), wire.ErrShort, "the request header ends before its API key and version")
	}
	if o.Choose != nil {
		s, err := o.Choose.ChooseSet(key, version)
		switch {
		case err == nil:
			f.Set = s
		case o.Guess && s != nil:
			f.Set = s // the chooser's set to guess with
		case !o.Guess || f.Set == nil:
			return &wire.DecodeError{Offset: at + 2, Path: "RequestHeader.RequestApiVersion", Err: xfmt.Errorf("%w: %w", wire.ErrValue, err)}
		}
	}
	api := f.Set.APIByKey(key)
	if api == nil {
		return &wire.DecodeError{Offset: at, Path: "RequestHeader.RequestApiKey", Err: xfmt.Errorf("%w: set %s has no API with key %d", wire.ErrValue, f.Set.Name, key)}
	}
	f.API, f.Version = api, version
	if f.guess(o.Guess) {
		return nil
	}
	valid := api.Request.ValidVersions
	f.API = nil
	return &wire.DecodeError{Offset: at + 2, Path: "RequestHeader.RequestApiVersion", Err: xfmt.Errorf("%w: %s has no version %d in set %s (valid: %s)", wire.ErrValue, api.Request.Name, version, f.Set.Name, valid)}
}

// guess says whether the frame's version can be read: one of the API's,
// or, with guess, one above them all, read with the highest one's layout
// (Guessed).
func (f *Frame) guess(guess bool) bool {
	valid := f.Dir.Schema(f.API).ValidVersions
	if valid.Contains(f.Version) {
		return true
	}
	if guess && !valid.None && f.Version > valid.Hi {
		f.Guessed, f.Layout = true, valid.Hi
		return true
	}
	return false
}

// guessNote is what a guessed frame's root says of it.
func (f *Frame) guessNote() string {
	if !f.Guessed {
		return ""
	}
	return " (a guess: newer than every release known, read with the v" + strconv.Itoa(int(f.Layout)) + " layout)"
}

// decodeBody decodes the body that starts at b[start:] (at o.at+start
// in the buffer shown), its records drawing on bg, and adds its node
// under span root of fl, its fields' spans described by desc.
func (f *Frame) decodeBody(b []byte, start int, fl *tree.Flat, root int, o DecodeOptions, bg *records.Budget, desc *planDesc) error {
	if f.API == nil {
		return errors.New("decoding a body needs its API and version")
	}
	_, bp, err := f.Plans()
	if err != nil {
		return err
	}
	sec := tree.RequestBody
	if f.Dir == Response {
		sec = tree.ResponseBody
	}
	at := o.at + start
	bn := fl.Row(root, tree.Node{Name: bp.Msg.Name, Type: "struct", Offset: at, Section: sec, Path: o.prefix, About: "message body, version " + strconv.Itoa(int(f.Version))})
	var v Value
	var used int
	if o.ValuesOnly {
		v, used, err = bp.decodeAt(b[start:], at, o.InPlace)
	} else {
		v, used, err = bp.decodeFlat(b[start:], fl, bn, TreeOptions{Base: at, Section: sec, Set: f.Set, Sample: o.Sample, Budget: bg, SASLMechanism: o.SASLMechanism,
			TopicFormat: o.TopicFormat, TopicNames: o.TopicNames, desc: desc, prefix: o.prefix, copied: o.copied})
	}
	f.Body = v
	fl.Spans[bn].Size = int32(used)
	if err != nil {
		return err
	}
	if rest := len(b) - start - used; rest > 0 {
		if !o.Trailing {
			fl.Row(bn, tree.Node{Name: "unread", Type: "bytes", Value: plural(rest, "byte"), Offset: at + used, Size: rest, Section: tree.Error, Path: o.prefix,
				Err: errors.New("the body ended before the frame did")})
			return wire.Errorf(at+used, wire.ErrTrailing, "%s v%d ended after %d bytes; %d bytes of the frame are left", bp.Msg.Name, f.Version, used, rest)
		}
		// Kafka's broker reads the body and ignores the rest of the
		// frame: a frame with bytes after its body is one it answers
		// (Kafka 4.4.0 answered librdkafka's, testdata/real).
		f.Trailing = append([]byte(nil), b[start+used:]...)
		fl.Row(root, tree.Node{Name: "trailing", Type: "bytes", Value: plural(rest, "byte"), Offset: at + used, Size: rest, Section: tree.Error, Path: o.prefix,
			About: "bytes after the body, inside the frame: Kafka's broker reads the body and ignores them (librdkafka sends 3 after its Metadata v13 request); the JSON form keeps them as trailing_hex"})
	}
	return nil
}

// headerLabels are the names and descriptions the tree gives header fields.
var headerLabels = map[string][2]string{
	"RequestApiKey":     {"request_api_key", "numeric id of the API being invoked"},
	"RequestApiVersion": {"request_api_version", "version of the API being invoked"},
	"ClientId":          {"client_id", "always a non-flexible int16-prefixed string"},
}

// labelNode labels c, a node of a field of the frame's header.
func (f *Frame) labelNode(c *tree.Node) {
	switch c.Name {
	case "CorrelationId":
		c.Name = "correlation_id"
		c.About = "echoed back by the broker in the response"
		if f.Dir == Response {
			c.About = "matches the correlation_id of the request"
		}
	case "RequestApiKey":
		if f.API != nil {
			c.Value += " (" + f.API.Name + ")"
		}
	case "ClientId":
		c.Type = "nullable_string"
	case "tagged_fields":
		c.About = "number of tagged fields in the header"
	}
	if l, ok := headerLabels[c.Name]; ok {
		c.Name, c.About = l[0], l[1]
	}
}

// JSON returns the frame's JSON form, indented: {api_key, api_name,
// version, direction, set, header, body, size}; size is the encoded
// length, or -1. A frame without a header (a body read alone) has no
// "header".
func (f *Frame) JSON(size int) ([]byte, error) {
	b, err := f.AppendJSON(nil, size)
	if err != nil {
		return nil, err
	}
	return jsonv.Indent(nil, b, "  "), nil
}

// AppendJSON appends the frame's JSON form (as JSON returns it) on one
// line.
func (f *Frame) AppendJSON(b []byte, size int) ([]byte, error) {
	return f.AppendJSONBudget(b, size, nil)
}

// AppendJSONBudget is AppendJSON whose records fields draw on bg (nil: a
// budget of the frame's Limits), which says afterwards what they spent
// and what did not read (records.Budget.Unread).
func (f *Frame) AppendJSONBudget(b []byte, size int, bg *records.Budget) ([]byte, error) {
	hp, bp, err := f.Plans()
	if err != nil {
		return b, err
	}
	b = xfmt.Appendf(b, `{"api_key":%d,"api_name":`, f.API.Key)
	b = records.AppendJSONString(b, []byte(f.API.Name))
	b = xfmt.Appendf(b, `,"version":%d,"direction":"%s","set":`, f.Version, f.Dir)
	b = records.AppendJSONString(b, []byte(f.Set.Name))
	b = append(b, ',')
	if f.Guessed {
		b = xfmt.Appendf(b, `"guessed_layout":%d,`, f.Layout)
	}
	if bg == nil {
		bg = records.NewBudget(f.Limits) // one for the whole message
	}
	// A body read alone has no header.
	if f.Header.IsList() {
		b = append(b, `"header":`...)
		b = hp.AppendJSONBudget(b, f.Header, bg)
		b = append(b, ',')
	}
	b = append(b, `"body":`...)
	b = bp.Root.appendJSON(b, f.Body, &jctx{bg: bg, set: f.Set, rootPlan: bp.Root, root: f.Body, topics: f.topics})
	if len(f.Trailing) > 0 {
		b = append(b, `,"trailing_hex":"`...)
		b = hex.AppendEncode(b, f.Trailing)
		b = append(b, '"')
	}
	return xfmt.Appendf(b, `,"size":%d}`, size), nil
}

// SetJSON sets the frame's body from JSON: either a body value or the
// frame form that JSON writes (whose header is taken too; api and version
// must agree with the frame's).
func (f *Frame) SetJSON(data []byte) error {
	hp, bp, err := f.Plans()
	if err != nil {
		return err
	}
	raw, err := parseJSON(data)
	if err != nil {
		return err
	}
	obj, _ := raw.(map[string]any)
	apiKey, isKey := jsonInt(obj["api_key"])
	version, isVersion := jsonInt(obj["version"])
	base := ""
	if body, ok := obj["body"]; ok && isKey && (isVersion || obj["version"] == nil) {
		if apiKey != int64(f.API.Key) || (isVersion && version != int64(f.Version)) {
			if !isVersion {
				version = -1
			}
			return placeJSONError(jsonErr("api_key", "the JSON is for api %d v%d, not %s v%d", apiKey, version, f.API.Name, f.Version), data, "")
		}
		if h, ok := obj["header"]; ok {
			if f.Header, err = hp.Root.fromJSON(h, "header", f.Set); err != nil {
				return placeJSONError(err, data, "")
			}
		}
		f.Trailing = nil
		if th, ok := obj["trailing_hex"]; ok {
			s, isStr := th.(string)
			tb, herr := xhex.DecodeString(s)
			if !isStr || herr != nil {
				return placeJSONError(jsonErr("trailing_hex", "want the bytes after the body as a hex string"), data, "")
			}
			f.Trailing = tb
		}
		raw, base = body, "body"
	}
	v, err := bp.Root.fromJSON(raw, "", f.Set)
	if err != nil {
		return placeJSONError(err, data, base)
	}
	f.Body = v
	return nil
}

// jsonInt is a JSON number that is an integer.
func jsonInt(raw any) (int64, bool) {
	n, ok := raw.(jsonv.Number)
	if !ok {
		return 0, false
	}
	i, err := n.Int64()
	return i, err == nil
}

// Advertised returns the API version ranges of an ApiVersions response
// (ApiKeys), or nil when the frame is not one.
func (f *Frame) Advertised() []schemas.APIVersions {
	if f.API == nil || f.API.Key != keyAPIVersions || f.Dir != Response {
		return nil
	}
	_, bp, err := f.Plans()
	if err != nil {
		return nil
	}
	keys := bp.Root.Field("ApiKeys")
	if keys == nil || keys.Struct == nil || keys.Index >= len(f.Body.List()) {
		return nil
	}
	k, lo, hi := keys.Struct.Field("ApiKey"), keys.Struct.Field("MinVersion"), keys.Struct.Field("MaxVersion")
	if k == nil || lo == nil || hi == nil {
		return nil
	}
	var out []schemas.APIVersions
	for _, e := range f.Body.List()[keys.Index].List() {
		l := e.List()
		if max(k.Index, lo.Index, hi.Index) >= len(l) {
			continue
		}
		lo, hi := int16(l[lo.Index].Int()), int16(l[hi.Index].Int())
		vs := schemas.Versions{Lo: lo, Hi: hi}
		if hi < lo {
			vs = schemas.NoVersions
		}
		out = append(out, schemas.APIVersions{Key: int16(l[k.Index].Int()), Versions: vs})
	}
	return out
}
