package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strconv"

	"kwire/internal/textesc"
	"kwire/schemas/atlas"
	"kwire/schemas/sets"
)

func init() {
	commands["fields"] = command{"list the fields of a release that carry broker addresses (--addresses)", cmdFields}
}

// fieldJSON is one address field as kwire fields --format json prints it.
type fieldJSON struct {
	APIKey     int16  `json:"api_key"`
	APIName    string `json:"api_name"`
	Direction  string `json:"direction"`
	Path       string `json:"path"`
	Kind       string `json:"kind"`
	Type       string `json:"type"`
	Versions   string `json:"versions"`
	Tag        *int   `json:"tag,omitempty"`
	Common     string `json:"common_struct,omitempty"`
	EntityType string `json:"entity_type,omitempty"`
	About      string `json:"about"`
	Added      string `json:"added"`
	// AddedExact is false when Added is the oldest release kwire knows:
	// the field may be older.
	AddedExact bool `json:"added_exact"`
}

func cmdFields(args []string, _ io.Reader, stdout, _ io.Writer) error {
	fs := flag.NewFlagSet("kwire fields", flag.ContinueOnError)
	addresses := fs.Bool("addresses", false, "the fields that carry a host, a port, a node id, a listener or a rack (the address atlas)")
	set := fs.String("set", sets.Newest(), "the release, one of "+fmt.Sprint(sets.Names()))
	format := fs.String("format", "table", "output: table, or json (an object per line)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := oneOf("format", *format, "table", "json"); err != nil {
		return err
	}
	switch {
	case len(pos) > 0:
		return usageErr("kwire fields takes no arguments")
	case !*addresses:
		return usageErr("give --addresses (the only list kwire fields has)")
	}
	if err := checkSet(*set); err != nil {
		return err
	}
	at, err := atlas.Load()
	if err != nil {
		return err
	}
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	fsOf := at.Fields[*set]
	if *format == "json" {
		for _, f := range fsOf {
			j := fieldJSON{APIKey: f.Key, APIName: f.API, Direction: f.Dir.String(), Path: f.Path, Kind: f.Kind.String(), Type: f.Type,
				Versions: f.Versions.String(), Common: f.Common, EntityType: f.EntityType, About: f.About, Added: f.Added,
				AddedExact: f.Added != at.Releases[0].Name}
			if f.Tag >= 0 {
				tag := f.Tag
				j.Tag = &tag
			}
			b, _ := json.Marshal(j)
			w.Write(append(b, '\n'))
		}
		return nil
	}
	fmt.Fprintf(w, "%-5s %-28s %-8s %-8s %-9s %-5s %-6s %s\n", "KEY", "API", "DIR", "KIND", "VERSIONS", "TAG", "ADDED", "PATH")
	for _, f := range fsOf {
		tag := "-"
		if f.Tag >= 0 {
			tag = strconv.Itoa(f.Tag)
		}
		added := f.Added
		if f.Added == at.Releases[0].Name {
			added = "≤" + added
		}
		path := f.Path
		if f.Common != "" {
			path += " (" + f.Common + ")"
		}
		fmt.Fprintf(w, "%-5d %-28s %-8s %-8s %-9s %-5s %-6s %s\n", f.Key, f.API, f.Dir, f.Kind, f.Versions, tag, added, textesc.Escape(path))
	}
	fmt.Fprintf(w, "%s in %s\n", plural(len(fsOf), "address field"), sets.ReleaseOf(*set))
	return nil
}

// checkSet says whether a release is one kwire knows (--set of kwire
// fields, --against of kwire capture).
func checkSet(name string) error { return checkReleaseFlag("set", name) }
