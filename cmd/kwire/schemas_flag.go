package main

import (
	"errors"
	"strings"

	"kwire/internal/unzip"
	"kwire/schemas/sets"
)

// takeSchemas removes every "--schemas SRC" (or --schemas=SRC, one or two
// dashes) from anywhere in args and returns the sources they name, a
// value with commas naming several: every command then reads its schema
// sets from those (folders, jars, a Maven repository's folder; see
// sets.Use) instead of the built-in ones.
func takeSchemas(args []string) (rest []string, srcs []string, err error) {
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
				return nil, nil, errors.New("--schemas needs a folder, a jar or a Maven repository's folder")
			}
			i++
			val = args[i]
		}
		for _, s := range strings.Split(val, ",") {
			if s != "" {
				srcs = append(srcs, s)
			}
		}
	}
	return rest, srcs, nil
}

// useSchemas reads the sets from srcs when there are any. A jar that is
// not a readable zip is bad input (exit 1); the rest, a path that names
// no schemas, is the command line's fault (exit 2).
func useSchemas(srcs []string) (status int, err error) {
	if len(srcs) == 0 {
		return 0, nil
	}
	err = sets.Use(srcs)
	var ze *unzip.Error
	switch {
	case err == nil:
		return 0, nil
	case errors.As(err, &ze):
		return 1, err
	}
	return 2, err
}
