package sqlfn

import (
	"math"
	"testing"
)

// TestLogSubnormal pins ln and log10 of subnormal inputs, which Go's amd64
// math.Log gets wrong (golang/go#56600); the values are those of a correct
// libm (Java Math.log, CPython math.log).
func TestLogSubnormal(t *testing.T) {
	for _, c := range []struct {
		x, ln, log10 float64
	}{
		{5e-324, -744.4400719213812, -323.3062153431158},
		{1e-310, -713.8013788281542, -310},
	} {
		ln, _ := Ln(c.x)
		l10, _ := Log10(c.x)
		if math.Abs(ln-c.ln) > 1e-12*math.Abs(c.ln) || math.Abs(l10-c.log10) > 1e-12*math.Abs(c.log10) {
			t.Errorf("ln(%g) = %v, log10 = %v; want %v, %v", c.x, ln, l10, c.ln, c.log10)
		}
	}
}
