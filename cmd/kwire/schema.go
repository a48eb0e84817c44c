package main

import (
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"kwire/draftcodec"
	"kwire/internal/textesc"
	"kwire/schemas"
	"kwire/schemas/draft"
	"kwire/schemas/sets"
)

func init() {
	commands["schema"] = command{"lint a draft schema, or diff it with the released one (kwire schema -h)", cmdSchema}
}

const schemaUsage = `Usage:
  kwire schema lint FILE [--set trunk]   print what a draft gets wrong, as FILE:LINE:COL: severity: message (suggestion);
                                         exit 1 when there are errors (repairs are warnings)
  kwire schema diff FILE [--set trunk]   the draft side by side with the released schemas of the same names

FILE is a draft: one or more schema objects, with or without the page they were pasted from; - reads stdin.
`

func cmdSchema(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stdout, schemaUsage)
		return nil
	}
	switch args[0] {
	case "lint":
		return schemaLint(args[1:], stdin, stdout, stderr)
	case "diff":
		return schemaDiff(args[1:], stdin, stdout, stderr)
	}
	fmt.Fprint(stderr, schemaUsage)
	return usageErr("unknown schema command %q", args[0])
}

// loadDraft reads the draft named by the one positional argument, with
// the named set as its base.
func loadDraft(name string, args []string, stdin io.Reader) (*draft.Draft, *schemas.Set, error) {
	fs := flag.NewFlagSet("kwire schema "+name, flag.ContinueOnError)
	setName := fs.String("set", sets.Default, "the released schema set the draft goes with: "+fmt.Sprint(sets.Names()))
	pos, err := parseFlags(fs, args)
	if err != nil {
		return nil, nil, err
	}
	if len(pos) != 1 {
		return nil, nil, usageErr("kwire schema %s takes one FILE (or - for stdin)", name)
	}
	base, err := loadSet(*setName)
	if err != nil {
		return nil, nil, err
	}
	src, err := readInput(pos[0], stdin)
	if err != nil {
		return nil, nil, err
	}
	file := pos[0]
	if file == "-" {
		file = "<stdin>"
	}
	return draftcodec.Load(src, draft.Options{File: file, Base: base}), base, nil
}

func schemaLint(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	d, _, err := loadDraft("lint", args, stdin)
	if err != nil {
		return err
	}
	for _, g := range d.Diagnostics {
		printLine(stdout, "%s:%s", d.File, g)
	}
	var names []string
	for _, s := range d.Schemas {
		if s.InSet {
			names = append(names, s.Name)
		}
	}
	printLine(stderr, "%s: %s loaded (%s); %s, %s", d.File, plural(len(names), "schema"), strings.Join(names, ", "),
		plural(d.Warnings(), "warning"), plural(d.Errors(), "error"))
	if d.Errors() > 0 {
		return exitError(1)
	}
	return nil
}

func schemaDiff(args []string, stdin io.Reader, stdout, _ io.Writer) error {
	d, base, err := loadDraft("diff", args, stdin)
	if err != nil {
		return err
	}
	diffs := draftcodec.Compare(d, base)
	if len(diffs) == 0 {
		return fmt.Errorf("no schema of %s has a released counterpart in set %s", d.File, base.Name)
	}
	if n := d.Errors(); n > 0 {
		printLine(stdout, "%s: %s (see kwire schema lint); fields with errors are left out of the draft", d.File, plural(n, "error"))
		fmt.Fprintln(stdout)
	}
	for i, df := range diffs {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		writeDiff(stdout, d, base.Name, df)
	}
	return nil
}

// writeDiff prints one diff: the fields side by side, then the sizes.
func writeDiff(w io.Writer, d *draft.Draft, setName string, df *draftcodec.Diff) {
	s := d.Schema(df.Name)
	printLine(w, "%s: draft v%d (%s:%d) against %s v%d", df.Name, df.DraftVersion, d.File, s.Line, setName, df.ReleasedVersion)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "  \tDRAFT\t%s\tCHANGE\n", strings.ToUpper(setName))
	marks := map[draft.ChangeKind]string{draft.Same: " ", draft.Changed: "~", draft.Versions: "~", draft.Retyped: "!", draft.Added: "+", draft.Removed: "-"}
	for _, r := range df.Rows {
		detail := r.Detail
		if r.Kind == draft.Added || r.Kind == draft.Removed {
			detail = r.Kind.String()
		}
		fmt.Fprintf(tw, "%s \t%s\t%s\t%s\n", marks[r.Kind], textesc.Escape(cell(r.Draft, r.Depth)), textesc.Escape(cell(r.Released, r.Depth)), textesc.Escape(detail))
	}
	tw.Flush()
	fmt.Fprintf(w, "%d added, %d removed, %d retyped, %d with other versions, %d with another default\n",
		df.Count(draft.Added), df.Count(draft.Removed), df.Count(draft.Retyped), df.Count(draft.Versions), df.Count(draft.Changed))
	if df.Err != nil {
		printLine(w, "smallest instances: %v", df.Err)
		return
	}
	what := "frame"
	if df.Draft.Type != "request" && df.Draft.Type != "response" {
		what = "body"
	}
	fmt.Fprintf(w, "smallest %s: draft %d bytes, %s %d bytes (%+d)\n", what, len(df.DraftBytes), setName, len(df.ReleasedBytes), df.SizeDelta())
	fmt.Fprintf(w, "  draft  %s\n  %-6s %s\n", hex.EncodeToString(df.DraftBytes), setName, hex.EncodeToString(df.ReleasedBytes))
}

// cell shows a field in the side-by-side table, indented by depth.
func cell(f *schemas.Field, depth int) string {
	if f == nil {
		return ""
	}
	s := strings.Repeat("  ", depth) + f.Name + " " + f.Type.Name + " " + f.Versions.String()
	if !f.NullableVersions.None {
		s += "?"
	}
	return s
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// loadSchemaFile reads a draft for --schema: its set is the draft's, with
// the base set's headers; the diagnostics are summed up on stderr.
func loadSchemaFile(file, setName string, stderr io.Writer) (*schemas.Set, *draft.Draft, error) {
	base, err := loadSet(setName)
	if err != nil {
		return nil, nil, err
	}
	if file == "-" {
		return nil, nil, usageErr("--schema needs a file (stdin holds the message)")
	}
	src, err := readInput(file, nil)
	if err != nil {
		return nil, nil, err
	}
	d := draftcodec.Load(src, draft.Options{File: file, Base: base})
	if d.Set == nil || len(d.APIs()) == 0 {
		for _, g := range d.Diagnostics {
			if g.Severity == draft.Error && stderr != nil {
				printLine(stderr, "%s:%s", file, g)
			}
		}
		return nil, nil, errors.New(file + ": no request or response loaded from the draft")
	}
	if stderr != nil && len(d.Diagnostics) > 0 {
		printLine(stderr, "kwire: %s: %s, %s (kwire schema lint %s)", file, plural(d.Warnings(), "warning"), plural(d.Errors(), "error"), file)
	}
	return d.Set, d, nil
}
