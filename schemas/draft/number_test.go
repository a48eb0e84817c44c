package draft

import (
	"regexp"
	"testing"
)

// The JSON number matcher agrees with the regexp it replaced.
func TestNumber(t *testing.T) {
	re := regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$`)
	for _, s := range []string{"", "0", "-0", "7", "-7", "10", "007", "+7", "1.", "1.5", ".5", "-", "1e5", "1E+5", "1e-5", "1e", "1e+",
		"0.0e0", "12.34E-56", "1.5.5", "--1", "1x", "x", "TBD", "0x10", "1_000", "١", "1 ", " 1", "-01", "9223372036854775808"} {
		if got, want := number.MatchString(s), re.MatchString(s); got != want {
			t.Errorf("%q: %v, the regexp says %v", s, got, want)
		}
	}
}
