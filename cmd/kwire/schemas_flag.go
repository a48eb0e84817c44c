package main

import (
	"errors"
	"strings"

	"kwire/schemas/sets"
)

// takeSchemas removes "--schemas DIR" (or --schemas=DIR, one or two
// dashes) from anywhere in args and returns DIR: every command then reads
// its schema sets from that folder instead of the built-in ones.
func takeSchemas(args []string) (rest []string, dir string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "schemas" {
			rest = append(rest, a)
			continue
		}
		if !hasVal {
			if i+1 >= len(args) {
				return nil, "", errors.New("--schemas needs a folder")
			}
			i++
			val = args[i]
		}
		dir = val
	}
	return rest, dir, nil
}

// useSchemas reads the sets from dir when one was given.
func useSchemas(dir string) error {
	if dir == "" {
		return nil
	}
	return sets.UseDir(dir)
}
