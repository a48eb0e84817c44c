// Command kwire encodes and decodes Kafka protocol messages on the command
// line, lints draft schemas and serves the kwire site.
//
// The command line: apis, encode, decode, identify, capture, fields, schema,
// site, serve; one file per group of subcommands. upgrade.go: capture
// --against and --advertised (fed by the reader's callback, in order;
// printed after the frames); fields.go: fields --addresses. capture.go: the
// reader hands copies of frames to a worker per processor, which decode and
// render them (with --body, the values alone, written as JSON into a buffer
// sized from the largest JSON-to-frame ratio seen), and a writer prints them
// in order; the copies and the JSON buffers come from free lists of a few
// per worker.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"kwire/internal/textesc"
)

// command is one subcommand.
type command struct {
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) error
}

var commands = map[string]command{}

// exitError carries an exit status without a message of its own.
type exitError int

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// usageError is a command line that asks for nothing kwire can do: a bad
// flag or argument. It exits with status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// usageErr returns a usageError with a formatted message.
func usageErr(format string, a ...any) error {
	return usageError{fmt.Errorf(format, a...)}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	args, srcs, err := takeSchemas(args)
	code := 2
	if err == nil {
		code, err = useSchemas(srcs)
	}
	if err != nil {
		fmt.Fprintln(stderr, "kwire:", err)
		return code
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stdout)
		return 0
	}
	cmd, ok := commands[args[0]]
	if !ok {
		printLine(stderr, "kwire: unknown command %q", args[0])
		fmt.Fprintln(stderr)
		usage(stderr)
		return 2
	}
	err = cmd.run(args[1:], stdin, stdout, stderr)
	var status exitError
	var usage usageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &status):
		return int(status)
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &usage):
		printLine(stderr, "kwire: %v (kwire %s -h lists the flags)", err, args[0])
		return 2
	}
	printLine(stderr, "kwire: %v", err)
	return 1
}

// printLine prints one line: formatted, then escaped by textesc.Escape, so
// that no text read from input (a draft's names, a file name, a quoted
// token) reaches the terminal as control or bidi characters.
func printLine(w io.Writer, format string, a ...any) {
	fmt.Fprintln(w, textesc.Escape(fmt.Sprintf(format, a...)))
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "kwire: a Kafka wire-protocol explorer\n\nUsage: kwire COMMAND [flags]\n\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun kwire COMMAND -h for its flags. Every command takes --schemas SRC: read the\nschema sets from SRC (a folder of sets, one set, or a folder of Kafka's message JSON;\na jar of Kafka, kafka-clients-4.4.0.jar, with kafka-metadata's and the coordinators'\nbeside it; ~/.m2/repository/org/apache/kafka; a folder of jars), repeated or\ncomma-separated for several.")
}

// parseFlags parses flags that may come before or after positional
// arguments, and returns the positional ones.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	out := fs.Output()
	fs.SetOutput(io.Discard) // the error is printed once, by run
	defer fs.SetOutput(out)
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.SetOutput(out)
				fs.Usage()
				return nil, err
			}
			return nil, usageError{err}
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// oneOf checks that a flag value is in a list.
func oneOf(name, v string, allowed ...string) error {
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	return usageErr("--%s must be one of %s, not %q", name, strings.Join(allowed, ", "), v)
}
