package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"kwire/codec"
	"kwire/codec/records"
	"kwire/codec/wire"
	"kwire/hexin"
	"kwire/identify"
	"kwire/schemas"
	"kwire/schemas/draft"
	"kwire/schemas/sets"
	"kwire/tree"
)

func init() {
	commands["apis"] = command{"list the APIs of a schema set", cmdAPIs}
	commands["encode"] = command{"encode a JSON value (or the smallest instance) to hex", cmdEncode}
	commands["decode"] = command{"decode hex or a binary file to a tree or JSON", cmdDecode}
}

// target is the message a command works on.
type target struct {
	set      string
	schema   string // a draft schema file (--schema): its APIs replace the set's
	api      string
	version  versionFlag
	request  bool
	response bool
	body     bool
	guess    bool
	stderr   io.Writer // where a draft's diagnostics are summed up
}

func (t *target) flags(fs *flag.FlagSet) {
	fs.StringVar(&t.set, "set", sets.Auto, "schema set: auto (the newest release that has the version) or one of "+fmt.Sprint(sets.Names()))
	fs.StringVar(&t.schema, "schema", "", "a draft schema FILE (see kwire schema lint): use its APIs, framed with the set's headers")
	fs.StringVar(&t.api, "api", "", "API name or key (with --schema, default: the draft's API when it has one)")
	fs.Var(&t.version, "version", "API version `N` (default: the latest)")
	fs.BoolVar(&t.request, "request", false, "the message is a request")
	fs.BoolVar(&t.response, "response", false, "the message is a response")
	fs.BoolVar(&t.body, "body", false, "the body alone, without size and header")
}

// loadSet loads the schema set that --set names; a name the build lacks,
// the empty one too, is a usage error.
func loadSet(name string) (*schemas.Set, error) {
	all := sets.Names()
	if len(all) > 0 && name != sets.Auto && !slices.Contains(all, name) {
		return nil, usageErr("--set: no schema set named %q (this build has %s)", name, strings.Join(all, ", "))
	}
	return sets.Load(name)
}

func (t *target) dir() (codec.Direction, error) {
	if t.request && t.response {
		return 0, usageErr("--request and --response exclude each other")
	}
	if t.response {
		return codec.Response, nil
	}
	return codec.Request, nil
}

// auto says whether the set is chosen per message (no --set, no --schema).
func (t *target) auto() bool { return t.set == sets.Auto && t.schema == "" }

// resolve finds the set, API and version; the API may be left out when
// optional (a request frame names it). With the auto set, the set is the
// newest release that has the version (sets.ForVersion), or with no
// version the newest that has the API; a version newer than every
// release's is an error, or with --guess read with the newest layout.
func (t *target) resolve(optional bool) (*schemas.Set, *schemas.API, int16, error) {
	var set *schemas.Set
	var err error
	if t.schema != "" {
		var d *draft.Draft
		if set, d, err = loadSchemaFile(t.schema, t.set, t.stderr); err != nil {
			return nil, nil, 0, err
		}
		if t.api == "" && len(d.APIs()) == 1 {
			t.api = d.APIs()[0].Name
		}
	} else if set, err = loadSet(t.set); err != nil {
		return nil, nil, 0, err
	}
	if t.api == "" {
		if optional {
			return set, nil, 0, nil
		}
		return nil, nil, 0, usageErr("--api is required (a name such as JoinGroup, or a key such as 11)")
	}
	api, err := set.LookupAPI(t.api)
	if t.auto() && (err != nil || api.Removed()) {
		// An API removed from the newest release is in an older one.
		if older, a := sets.FindAPI(t.api); older != nil {
			set, api, err = older, a, nil
		}
	}
	if err != nil {
		return nil, nil, 0, err
	}
	dir, err := t.dir()
	if err != nil {
		return nil, nil, 0, err
	}
	valid := dir.Schema(api).ValidVersions
	if !t.version.set {
		return set, api, valid.Hi, nil
	}
	v := t.version.v
	if t.auto() {
		s, err := sets.ForVersion(api.Key, v, dir == codec.Response)
		var verr *sets.VersionError
		switch {
		case err == nil:
			return s, s.APIByKey(api.Key), v, nil
		case t.guess && errors.As(err, &verr) && verr.Newer():
			s, a, err := sets.NewestWith(api.Key)
			return s, a, v, err
		case errors.As(err, &verr) && verr.Newer():
			return nil, nil, 0, fmt.Errorf("%w (--guess reads it with the v%d layout)", err, verr.Hi)
		}
		return nil, nil, 0, err
	}
	if !valid.Contains(v) && !(t.guess && v > valid.Hi) {
		return nil, nil, 0, usageErr("%s has no version %d in set %s (valid: %s)", dir.Schema(api).Name, v, set.Name, valid)
	}
	return set, api, v, nil
}

// versionFlag is --version: a version number from 0 to 32767, or, when
// the flag is left out, the latest version.
type versionFlag struct {
	v   int16
	set bool
}

func (f *versionFlag) String() string {
	if f == nil || !f.set {
		return "latest"
	}
	return strconv.Itoa(int(f.v))
}

func (f *versionFlag) Set(s string) error {
	n, err := strconv.ParseInt(s, 10, 16)
	if err != nil || n < 0 {
		return fmt.Errorf("%q is not a version: give a number from 0 to 32767, or leave --version out for the latest", s)
	}
	f.v, f.set = int16(n), true
	return nil
}

func cmdAPIs(args []string, _ io.Reader, stdout, _ io.Writer) error {
	fs := flag.NewFlagSet("kwire apis", flag.ContinueOnError)
	setName := fs.String("set", sets.Auto, "schema set: auto (the newest release) or one of "+fmt.Sprint(sets.Names()))
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageErr("unexpected argument %q", pos[0])
	}
	set, err := loadSet(*setName)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "# release %s\n", sets.ReleaseOf(set.Name))
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "KEY\tNAME\tREQUEST\tRESPONSE\tFLEXIBLE\tNOTES")
	for _, a := range set.APIs() {
		notes := ""
		if a.Removed() {
			if removed, last, ok := sets.Removal(a.Key); ok {
				notes = "removed in " + removed.Name + " (last in " + last.Name + ")"
			} else {
				notes = "removed"
			}
			fmt.Fprintf(tw, "%d\t%s\t-\t-\t-\t%s\n", a.Key, a.Name, notes)
			continue
		}
		if !a.Request.DeprecatedVersions.None {
			notes += "deprecated " + a.Request.DeprecatedVersions.String() + " "
		}
		if a.Request.LatestVersionUnstable {
			notes += "latest unstable"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\n", a.Key, a.Name, a.Request.ValidVersions, a.Response.ValidVersions, a.Request.FlexibleVersions, notes)
	}
	for _, err := range set.Broken() {
		fmt.Fprintf(tw, "#\tbroken file, left out: %s\n", err)
	}
	return tw.Flush()
}

func cmdEncode(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("kwire encode", flag.ContinueOnError)
	t := target{stderr: stderr}
	t.flags(fs)
	jsonFile := fs.String("json", "", "JSON value to encode: a file, or - for stdin (default: the smallest instance)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageErr("unexpected argument %q", pos[0])
	}
	set, api, version, err := t.resolve(false)
	if err != nil {
		return err
	}
	dir, _ := t.dir()
	f, err := codec.NewFrame(set, api, version, dir)
	if err != nil {
		return err
	}
	if *jsonFile != "" {
		data, err := readInput(*jsonFile, stdin)
		if err != nil {
			return err
		}
		if err := f.SetJSON(data); err != nil {
			return jsonFileError(*jsonFile, err)
		}
	}
	var b []byte
	if t.body {
		b, err = f.EncodeBody()
	} else {
		b, err = f.Encode()
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, hex.EncodeToString(b))
	return nil
}

// jsonFileError is err, an error of reading the JSON in file name, as
// compilers write theirs: "FILE:LINE:COL: path: what".
func jsonFileError(name string, err error) error {
	var je *codec.JSONError
	if !errors.As(err, &je) || je.Line == 0 {
		return err
	}
	if name == "-" {
		name = "<stdin>"
	}
	return fmt.Errorf("%s:%d:%d: %s", name, je.Line, je.Col, je.What())
}

func readInput(name string, stdin io.Reader) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(stdin)
	}
	return os.ReadFile(name)
}

func cmdDecode(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("kwire decode", flag.ContinueOnError)
	t := target{stderr: stderr}
	t.flags(fs)
	format := fs.String("format", "tree", "output: tree or json")
	fs.BoolVar(&t.guess, "guess", false, "read a version newer than every release's with the newest layout, as a guess")
	file := fs.String("file", "", "read raw bytes from this file")
	saslMech := fs.String("sasl-mechanism", "", "read SaslAuthenticate's bytes as this SASL mechanism (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER, GSSAPI); by default recognised from the bytes")
	reveal := fs.Bool("reveal-secrets", false, "show secrets (a SASL password, a bearer token) in the tree instead of masking them")
	var tf topicFormatFlag
	tf.register(fs, "message")
	var limits records.Limits
	fs.IntVar(&limits.MaxDecompressed, "max-decompressed", records.DefaultMaxDecompressed, "decompress at most this many bytes of records in the message, over all its records fields")
	fs.IntVar(&limits.MaxRecords, "max-records", records.DefaultMaxRecords, "decode at most this many records in the message, over all its records fields")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := oneOf("format", *format, "tree", "json"); err != nil {
		return err
	}
	data, err := readBytes(pos, *file, stdin, t.body)
	if err != nil {
		return err
	}
	dir, err := t.dir()
	if err != nil {
		return err
	}
	needAPI := t.body || dir == codec.Response
	// Without --api kwire ranks what the bytes may be (kwire identify),
	// unless they are a request frame that decodes.
	ident := t.api == "" && t.schema == "" && !t.guess
	var cs []identify.Candidate
	var f *codec.Frame
	var fl *tree.Flat // the tree, printed from its spans (tree.Flat.WriteText)
	var derr error
	if ident && needAPI {
		if cs = identified(data, &t); len(cs) == 0 {
			return errors.New("no release kwire knows has such messages: give --api and --version")
		}
	} else {
		set, api, version, err := t.resolve(!needAPI)
		if err != nil {
			return err
		}
		opts := codec.DecodeOptions{Set: set, API: api, Version: version, Dir: dir, BodyOnly: t.body, Guess: t.guess, Limits: limits, SASLMechanism: *saslMech, TopicFormat: tf.f}
		if t.auto() && api == nil {
			opts.Choose = sets.Choice{}
		}
		f, fl, derr = codec.Decode(data, opts)
		if ident && api == nil {
			// The header named the request: unless a response (or a
			// body) reads the bytes whole and better (identify.Instead).
			if c, ok := identify.Instead(data, derr, identify.Options{Max: shown, Keep: t.keep}); ok {
				if derr != nil {
					printLine(stderr, "kwire: not a request: %v", derr)
				} else {
					printLine(stderr, "kwire: read as a request too, less plausibly: %s v%d", f.Dir.Schema(f.API).Name, f.Version)
				}
				cs = c
			}
		}
	}
	if cs != nil {
		f, fl, derr = decodeIdentified(data, cs, codec.DecodeOptions{Limits: limits, SASLMechanism: *saslMech, TopicFormat: tf.f}, stderr)
	}
	var top func(*tree.Node) // what the root's line says besides its node
	if fl != nil && f.API != nil && t.schema == "" {
		top = func(root *tree.Node) {
			root.About = "read with the schemas of " + sets.ReleaseOf(f.Set.Name).String()
			if cs != nil && len(cs[0].Same) > 0 && root.Detail == "" {
				root.Detail = "(" + cs[0].SameText() + ")" // shown in full, before the span
			}
		}
	}
	if adv := f.Advertised(); adv != nil {
		printLine(stderr, "kwire: %s", sets.Describe(sets.MatchAdvertised(adv)))
	}
	if f.Guessed {
		printLine(stderr, "kwire: %s v%d is newer than every release kwire knows: read as a guess with the v%d layout of %s",
			f.Dir.Schema(f.API).Name, f.Version, f.Layout, sets.ReleaseOf(f.Set.Name))
	}
	switch *format {
	case "tree":
		if fl != nil && fl.Len() > 0 {
			if *reveal {
				fl.Reveal(data)
			}
			fl.WriteText(stdout, 0, top)
		}
	case "json":
		if f.API != nil {
			if cs != nil {
				if j, jerr := f.JSON(len(data)); jerr == nil {
					stdout.Write(identifiedJSON(j, cs))
				}
			} else if t.body {
				_, bp, perr := f.Plans()
				if perr == nil {
					printJSON(stdout, bp.AppendJSONSet(nil, f.Body, f.Set, records.NewBudget(limits)))
				}
			} else if j, jerr := f.JSON(len(data)); jerr == nil {
				stdout.Write(append(bytes.TrimSpace(j), '\n'))
			}
		}
	}
	if derr != nil {
		var verr *sets.VersionError
		if errors.As(derr, &verr) && verr.Newer() {
			printLine(stderr, "kwire: %v", verr)
			printLine(stderr, "kwire: --guess reads it with the v%d layout, as a guess", verr.Hi)
			return exitError(1)
		}
		printLine(stderr, "kwire: decode error at %v", derr)
		return exitError(1)
	}
	if fl != nil && fl.Len() > 0 {
		// Every byte was read, but a node may hold an error: a checksum
		// that does not match, a record that does not parse, a limit hit.
		if e, off := fl.FirstError(0); e >= 0 {
			printLine(stderr, "kwire: decode error at %s", wire.NodeError(fl.Node(e, nil), off))
			return exitError(1)
		}
	}
	return nil
}

// readBytes reads the bytes a command works on: from --file, or hex (or
// base64) in the arguments or on stdin; emptyOK lets empty text stand for
// no bytes (an empty body).
func readBytes(pos []string, file string, stdin io.Reader, emptyOK bool) ([]byte, error) {
	switch {
	case file != "" && len(pos) > 0:
		return nil, usageErr("give hex or --file, not both")
	case file != "":
		return os.ReadFile(file)
	}
	var text []byte
	if len(pos) == 0 || (len(pos) == 1 && pos[0] == "-") {
		var err error
		if text, err = io.ReadAll(stdin); err != nil {
			return nil, err
		}
	} else {
		for _, p := range pos {
			text = append(append(text, p...), ' ')
		}
	}
	if emptyOK && len(bytes.TrimSpace(text)) == 0 {
		return []byte{}, nil // an empty body (ApiVersions v0-2 and ListGroups v0-2 requests)
	}
	return hexin.Parse(string(text))
}

// printJSON writes compact JSON indented, a line at the end.
func printJSON(w io.Writer, j []byte) {
	var out bytes.Buffer
	if json.Indent(&out, j, "", "  ") != nil {
		out.Reset()
		out.Write(j)
	}
	out.WriteByte('\n')
	w.Write(out.Bytes())
}

// topicFormatFlag is --topic-format of kwire decode and kwire capture: how
// the keys and values of records are read (codec.ParseTopicFormat).
type topicFormatFlag struct{ f codec.TopicFormat }

func (t *topicFormatFlag) String() string { return t.f.String() }

func (t *topicFormatFlag) Set(s string) (err error) {
	t.f, err = codec.ParseTopicFormat(s)
	return err
}

// register defines the flag on fs; what names the topic: "message", "capture".
func (t *topicFormatFlag) register(fs *flag.FlagSet, what string) {
	fs.Var(t, "topic-format", "read the keys and values of records as those of an internal topic: "+strings.Join(codec.TopicFormatNames(), ", ")+
		" (auto: when the "+what+" names the topic; plain: never)")
}
