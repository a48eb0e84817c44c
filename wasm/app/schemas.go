package app

import (
	"strings"

	"kwire/draftcodec"
	"kwire/internal/unzip"
	"kwire/internal/xfmt"
	"kwire/schemas"
	"kwire/schemas/draft"
	"kwire/schemas/sets"
)

// DroppedSchemas reports whether dropped files are schemas to add as a
// release (a folder, a .zip, Kafka's jars, or .json files), not bytes to
// decode.
func DroppedSchemas(files map[string][]byte, dirs bool) bool {
	if dirs {
		return true
	}
	json, jars := 0, 0
	for p, b := range files {
		switch {
		case isJar(p):
			jars++
		case sets.IsJar(p, b):
			return len(files) == 1
		case strings.HasSuffix(strings.ToLower(p), ".json"):
			json++
		}
	}
	return (json > 0 && json == len(files)) || (jars > 0 && jars == len(files))
}

func isJar(name string) bool { return strings.HasSuffix(strings.ToLower(name), ".jar") }

// AddSchemas makes dropped schema files (a folder of releases, one
// release, a folder of Kafka's message JSON, or a zip of any of these; or
// Kafka's jars, kafka-clients-4.4.0.jar with kafka-metadata's and the
// coordinators' of its version, see sets.AddJars) a release for as long
// as the page is open, and selects it with the API
// shown. It says what it read; a file that did not load is listed with
// the draft reader's diagnostics, at their lines.
func (s *State) AddSchemas(files map[string][]byte) (string, error) {
	// Jars, dropped or in a folder dropped (libs/, a Maven repository's):
	// the rest beside them (poms, checksums) is left.
	jars := map[string][]byte{}
	for p, b := range files {
		if isJar(p) {
			jars[p] = b
		}
	}
	if len(jars) == 0 && len(files) == 1 {
		for p, b := range files {
			if sets.IsJar(p, b) {
				zipped, err := unzip.Read(b, nil, unzip.Default)
				if err != nil {
					return "", xfmt.Errorf("%s: %w", p, err)
				}
				files = map[string][]byte{}
				for _, f := range zipped {
					files[f.Name] = f.Data
				}
			}
		}
	}
	var added []string
	var err error
	if len(jars) > 0 {
		added, err = sets.AddJars(jars)
	} else {
		added, err = sets.AddFiles(files, "dropped")
	}
	if err != nil {
		return "", err
	}
	var report []string
	base, _ := sets.Load(Auto)
	for _, name := range added {
		set, err := sets.Load(name)
		if err != nil {
			return "", err
		}
		kafka := ""
		if r := sets.ReleaseOf(name); r.Version != "" {
			kafka = " (Apache Kafka " + r.Version + ")"
		}
		report = append(report, xfmt.Sprintf("release %s added%s: %d schemas, %d APIs", name, kafka, len(set.Messages()), len(set.APIs())))
		for _, b := range set.Broken() {
			report = append(report, brokenReport(name, b, files, base)...)
		}
	}
	if len(added) > 0 {
		api := "ApiVersions"
		if s.API != nil {
			api = s.API.Name
		}
		if err := s.Select(added[0], api, -1, s.Dir); err != nil {
			if err := s.Select(added[0], "ApiVersions", -1, s.Dir); err != nil {
				return strings.Join(report, "\n"), err
			}
		}
	}
	return strings.Join(report, "\n"), nil
}

// brokenReport lists a file that did not load: the draft reader's
// diagnostics of it when its text is among the files, else the error.
func brokenReport(set string, broken error, files map[string][]byte, base *schemas.Set) []string {
	msg := broken.Error()
	file, _, _ := strings.Cut(msg, ":")
	var src []byte
	for p, b := range files {
		if strings.HasSuffix(p, "/"+file) || p == file {
			src = b
		}
	}
	if src == nil {
		return []string{set + ": " + msg}
	}
	d := draftcodec.Load(src, draft.Options{File: file, Base: base})
	var out []string
	for _, g := range d.Diagnostics {
		out = append(out, set+": "+file+":"+g.String())
	}
	if len(out) == 0 {
		out = append(out, set+": "+msg)
	}
	return out
}
