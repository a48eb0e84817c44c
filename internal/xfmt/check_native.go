//go:build !js

package xfmt

import (
	"fmt"
	"testing"
)

// Under go test, every text xfmt writes is compared with fmt's.
var checking = testing.Testing()

func check(got, format string, a ...any) {
	if checking {
		compare(got, fmt.Sprintf(format, a...), format)
	}
}

func checkErrorf(got, format string, a ...any) {
	if checking {
		compare(got, fmt.Errorf(format, a...).Error(), format)
	}
}

func checkPrint(got string, a ...any) {
	if checking {
		compare(got, fmt.Sprint(a...), "Sprint")
	}
}

func compare(got, want, format string) {
	if got != want {
		panic(fmt.Sprintf("xfmt: %q wrote %q, fmt writes %q", format, got, want))
	}
}
