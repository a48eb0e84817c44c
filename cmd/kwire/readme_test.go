package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestREADME runs the command-line examples of README.md and checks that
// they print what the README shows, so that it stays true. An example is a
// line "$ kwire ..." (or "$ echo '...' | kwire ...", continued with "\")
// in a fenced block, and the lines after it, up to the next example, are
// its output (standard output, then standard error); a line "..." stands
// for any number of lines. An example shown without output must succeed.
// kip-1071.txt is the KIP-1071 draft among the seeds; kafka.pcap is the
// capture of TestCaptureTable.
func TestREADME(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	draft, err := os.ReadFile(seeds + "000_e08e1a12af25dfbb.txt")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "kip-1071.txt"), draft, 0o644); err != nil {
		t.Fatal(err)
	}
	writeSample(t, dir) // kafka.pcap, for the capture examples
	t.Chdir(dir)
	examples := readmeExamples(string(readme))
	if len(examples) < 8 {
		t.Fatalf("found %d examples in README.md", len(examples))
	}
	for _, ex := range examples {
		t.Run(ex.command, func(t *testing.T) {
			stdin, args := ex.parse(t)
			out, errs, code := kwire(t, stdin, args...)
			if len(ex.output) == 0 {
				if code != 0 {
					t.Fatalf("exit %d: %s", code, errs)
				}
				return
			}
			got := strings.Split(strings.TrimRight(out+errs, "\n"), "\n")
			if !matchLines(ex.output, got) {
				t.Errorf("README.md shows:\n%s\nkwire prints (exit %d):\n%s", strings.Join(ex.output, "\n"), code, strings.Join(got, "\n"))
			}
		})
	}
}

type readmeExample struct {
	command string   // as written, continuations joined
	output  []string // the lines shown after it
}

// readmeExamples finds the examples in the fenced blocks of a README.
func readmeExamples(readme string) []readmeExample {
	var out []readmeExample
	var cur *readmeExample
	inBlock, continued := false, false
	for _, line := range strings.Split(readme, "\n") {
		switch {
		case strings.HasPrefix(line, "```"):
			inBlock, cur = !inBlock, nil
		case !inBlock:
		case continued:
			cur.command += " " + strings.TrimSpace(strings.TrimSuffix(line, "\\"))
			continued = strings.HasSuffix(line, "\\")
		case strings.HasPrefix(line, "$ kwire ") || strings.HasPrefix(line, "$ echo "):
			cmd, _, _ := strings.Cut(line[2:], " # ") // a comment after the command
			out = append(out, readmeExample{command: strings.TrimSpace(strings.TrimSuffix(cmd, "\\"))})
			cur = &out[len(out)-1]
			continued = strings.HasSuffix(line, "\\")
		case cur != nil:
			cur.output = append(cur.output, line)
		}
	}
	return out
}

// parse splits the command into kwire's standard input and arguments.
func (ex readmeExample) parse(t *testing.T) (stdin string, args []string) {
	cmd := ex.command
	if rest, ok := strings.CutPrefix(cmd, "echo '"); ok {
		text, pipe, ok := strings.Cut(rest, "' | ")
		if !ok {
			t.Fatalf("cannot read %q", cmd)
		}
		stdin, cmd = text+"\n", pipe
	}
	args = strings.Fields(cmd)
	if args[0] != "kwire" {
		t.Fatalf("not a kwire command: %q", cmd)
	}
	return stdin, args[1:]
}

// matchLines reports whether got has the lines of want, in which "..."
// stands for any number of lines.
func matchLines(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if strings.TrimSpace(want[0]) == "..." {
		for i := 0; i <= len(got); i++ {
			if matchLines(want[1:], got[i:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && strings.TrimRight(got[0], " ") == want[0] && matchLines(want[1:], got[1:])
}
